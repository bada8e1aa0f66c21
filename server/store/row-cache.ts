import type { Db } from './db.js';

/** Rows a cache holds at most; past it, it starts again empty. */
const CACHED_ROWS_LIMIT = 1000;

/**
 * Rows that every booking reads and that rarely change (its organization, its experience, the
 * caller's key, a setting), kept by key between statements on one SQLite connection.
 *
 * - The store module that owns the table calls `forget()` before each of its writes to it, so
 *   nothing this connection writes is ever answered from an older copy, committed or not.
 * - A commit by any other connection (the CLI, another process) changes `PRAGMA data_version`,
 *   read before each lookup for a fraction of what the row costs to read: the cache then starts
 *   again empty.
 * - Inside a transaction, a row read from the table is kept unless this connection wrote the table
 *   in that transaction (a `forget()` while one is open): until one ends, such a row may be a
 *   change the transaction rolls back. Until the next lookup outside a transaction (which shows
 *   that the writing one ended), nothing read inside one is kept. Rows of a transaction that wrote
 *   nothing to the table are committed rows: the store holds the write lock, or reads a snapshot
 *   whose `data_version` is checked like any other.
 *
 * Rows are frozen: callers share them.
 */
export function rowCache<R extends object>(db: Db) {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const rows = new Map<string, Readonly<R>>();
  let seenVersion: unknown;
  /** This connection wrote the table inside a transaction that may still be open. */
  let written = false;
  return {
    read(key: string, load: () => R | undefined): Readonly<R> | undefined {
      if (!db.inTransaction) written = false;
      const version = dataVersion.get();
      if (version !== seenVersion) {
        rows.clear();
        seenVersion = version;
      }
      const kept = rows.get(key);
      if (kept) return kept;
      const row = load();
      if (row === undefined || written) return row;
      if (rows.size >= CACHED_ROWS_LIMIT) rows.clear();
      const frozen = Object.freeze(row);
      rows.set(key, frozen);
      return frozen;
    },
    forget(): void {
      rows.clear();
      if (db.inTransaction) written = true;
    },
  };
}
