import type Database from 'better-sqlite3';
import type { Db } from './db.js';
import { sqliteDialect } from '../dialect.js';
import { Gate } from './gate.js';
import type { Params, Sql } from '../sql.js';
import { asUnavailable } from '../unavailable.js';
import { RowCache } from './row-cache.js';

/** The SQLite engine as the store uses it: the port over one connection, and its transactions. */
export interface SqliteDriver {
  readonly sql: Sql;
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `fn` (synchronous work on the connection) once no transaction outside this call holds it. */
  admitted<T>(fn: () => T): Promise<T>;
  /** Transactions are open or waiting: closing waits for them. */
  held(): boolean;
  whenOpen(): Promise<void>;
}

/**
 * The SQLite driver. better-sqlite3 answers synchronously over one connection, so a transaction that
 * awaits lets other requests' promises run in between; on the same connection their statements would
 * join the open transaction. `Gate` keeps them out: while a transaction is open, a statement from
 * outside it (told apart by AsyncLocalStorage) waits until it ends, and transactions take turns.
 * Each distinct statement text is prepared once per connection.
 */
export function sqliteDriver(db: Db): SqliteDriver {
  const statements = new Map<string, Database.Statement>();
  const rawStatements = new Map<string, Database.Statement>();
  const prepared = (text: string): Database.Statement => {
    let stmt = statements.get(text);
    if (!stmt) {
      stmt = db.prepare(text);
      statements.set(text, stmt);
    }
    return stmt;
  };
  const preparedRaw = (text: string): Database.Statement => {
    let stmt = rawStatements.get(text);
    if (!stmt) {
      stmt = db.prepare(text).raw(true);
      rawStatements.set(text, stmt);
    }
    return stmt;
  };
  const cache = new RowCache(db);
  /** A statement about to run (every write passes here, so the cache sees each one). */
  const statement = (text: string): Database.Statement => {
    cache.noteStatement(text);
    return prepared(text);
  };
  // Savepoints stay clean through reads: only a change of rows makes them dirty.
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  const gate = new Gate(() => totalChanges.get() as number);
  /** Work to run once the open transaction commits. */
  let committed: (() => void)[] = [];
  const tx = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT nested'),
    release: db.prepare('RELEASE nested'),
    rollbackTo: db.prepare('ROLLBACK TO nested'),
  };

  /**
   * `fn` on the connection, now if this call may use it, else once the open transaction ends. A file
   * that cannot be used now (locked past the busy timeout, a disk error) becomes the
   * SERVICE_UNAVAILABLE refusal (store/unavailable.ts); any other error stays as it was.
   */
  function admitted<T>(fn: () => T): Promise<T> {
    const call = (): T => {
      try {
        return fn();
      } catch (err) {
        throw asUnavailable(err);
      }
    };
    if (gate.admits()) {
      try {
        return Promise.resolve(call());
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return gate.whenOpen().then(call);
  }

  async function transactionOf<T>(work: () => Promise<T>): Promise<T> {
    if (gate.heldHere()) {
      return await gate.nest(async (shared) => {
        if (shared) {
          try {
            return await work();
          } catch (err) {
            // The most recent savepoint is the clean one this level shares: back to it, clean again.
            tx.rollbackTo.run();
            gate.markClean(shared);
            throw err;
          }
        }
        tx.savepoint.run();
        try {
          const result = await work();
          tx.release.run();
          return result;
        } catch (err) {
          tx.rollbackTo.run();
          tx.release.run();
          throw err;
        }
      });
    }
    return await gate.hold(async () => {
      tx.begin.run();
      committed = [];
      try {
        const result = await work();
        tx.commit.run();
        const after = committed;
        committed = [];
        for (const fn of after) fn();
        return result;
      } catch (err) {
        committed = [];
        if (db.inTransaction) tx.rollback.run();
        throw err;
      }
    });
  }

  async function transaction<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await transactionOf(work);
    } catch (err) {
      throw asUnavailable(err);
    }
  }

  const sql: Sql = {
    dialect: sqliteDialect,
    all: <R>(text: string, params: Params = []) => admitted(() => statement(text).all(...params) as R[]),
    get: <R>(text: string, params: Params = []) => admitted(() => statement(text).get(...params) as R | undefined),
    getCached: <R>(text: string, params: Params = []) =>
      admitted(() => cache.read(text, params, () => prepared(text).get(...params) as R | undefined)),
    values: <R extends unknown[]>(text: string, params: Params = []) =>
      admitted(() => (cache.noteStatement(text), preparedRaw(text).all(...params) as R[])),
    run: (text: string, params: Params = []) => admitted(() => statement(text).run(...params).changes),
    transaction: (work) => transaction(work),
    afterCommit(fn: () => void): void {
      if (gate.heldHere()) committed.push(fn);
      else fn();
    },
  };
  return {
    sql,
    transaction,
    admitted,
    held: () => gate.held(),
    whenOpen: () => gate.whenOpen(),
  };
}
