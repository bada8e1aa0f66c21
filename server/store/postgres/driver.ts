import { postgresDialect } from '../dialect.js';
import type { Params, Sql } from '../sql.js';
import { numbered as numberedPlaceholders, type PgDb } from './db.js';

/**
 * The PostgreSQL driver: the port over a pool (postgres/db.ts). A statement's `?` placeholders are
 * numbered `$1`, `$2`… once per distinct text.
 */
export function postgresSql(db: PgDb): Sql {
  const numberedTexts = new Map<string, string>();
  const numbered = (text: string): string => {
    let out = numberedTexts.get(text);
    if (out === undefined) {
      out = numberedPlaceholders(text);
      numberedTexts.set(text, out);
    }
    return out;
  };
  return {
    dialect: postgresDialect,
    all: <R>(text: string, params: Params = []) => db.all<R>(numbered(text), params),
    get: <R>(text: string, params: Params = []) => db.get<R>(numbered(text), params),
    // Other processes write at any moment, and no cheap marker sees their commits: always asked.
    getCached: <R>(text: string, params: Params = []) => db.get<R>(numbered(text), params),
    values: <R extends unknown[]>(text: string, params: Params = []) => db.values<R>(numbered(text), params),
    run: (text: string, params: Params = []) => db.run(numbered(text), params),
    transaction: (work) => db.transaction(work),
    afterCommit: (fn) => db.afterCommit(fn),
  };
}
