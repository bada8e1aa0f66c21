import { join } from 'node:path';
import { openDatabase, migrate, type Db } from '../store/sqlite/db.js';
import { type Store } from '../store/index.js';
import { createStore } from '../store/sqlite/store.js';
import { connectPostgres, type PgDb } from '../store/postgres/db.js';
import { tempDir } from './cli.js';
import { leaseMigratedDatabase } from './postgres.js';

/**
 * The same schema on both engines at once, for a test that drives one driver's internals beside the
 * other's (server/store/transactions.test.ts): `sqlite` is the whole SQLite store over a temp file
 * (and `sqliteDb` its connection); `pgDb` a fresh, migrated database of the test cluster. Skip such
 * tests with `it.skipIf(!testDatabaseUrl())`. Everything else runs once per engine (OUTING_TEST_ENGINE).
 */
export interface BothEngines {
  sqlite: Store;
  sqliteDb: Db;
  pgDb: PgDb;
  /** A row of a table the module under test does not own, written with plain SQL on both engines. */
  plant(table: string, row: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/** The constraint a refused write broke, as each engine names it. */
export const REFUSALS = {
  unique: { sqlite: /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/, pg: '23505' },
  foreignKey: { sqlite: /^SQLITE_CONSTRAINT_FOREIGNKEY$/, pg: '23503' },
  check: { sqlite: /^SQLITE_CONSTRAINT_CHECK$/, pg: '23514' },
};

export async function bothEngines(): Promise<BothEngines> {
  const sqliteDb = openDatabase(join(tempDir(), 'twin.db'));
  migrate(sqliteDb);
  const sqlite = createStore(sqliteDb);
  const database = await leaseMigratedDatabase();
  const pgDb = connectPostgres(database.url, { max: 4 });
  return {
    sqlite,
    sqliteDb,
    pgDb,
    async plant(table, row) {
      const columns = Object.keys(row).join(', ');
      const values = Object.values(row);
      sqliteDb.prepare(`INSERT INTO ${table} (${columns}) VALUES (${values.map(() => '?').join(', ')})`).run(...values);
      await pgDb.run(`INSERT INTO ${table} (${columns}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
    },
    async close() {
      await sqlite.close();
      await pgDb.pool.end();
      await database.drop();
    },
  };
}
