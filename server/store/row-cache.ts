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
 * - Rows read inside a transaction are answered from the cache, but a row read from the table
 *   inside one is not kept: the transaction may roll back what it saw. Inside a transaction
 *   `data_version` is that of its snapshot, so a copy made before it began is still checked
 *   against every commit of other connections up to it.
 *
 * Rows are frozen: callers share them.
 */
export function rowCache<R extends object>(db: Db) {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const rows = new Map<string, Readonly<R>>();
  let seenVersion: unknown;
  return {
    read(key: string, load: () => R | undefined): Readonly<R> | undefined {
      const version = dataVersion.get();
      if (version !== seenVersion) {
        rows.clear();
        seenVersion = version;
      }
      const kept = rows.get(key);
      if (kept) return kept;
      const row = load();
      if (row === undefined || db.inTransaction) return row;
      if (rows.size >= CACHED_ROWS_LIMIT) rows.clear();
      const frozen = Object.freeze(row);
      rows.set(key, frozen);
      return frozen;
    },
    forget(): void {
      rows.clear();
    },
  };
}
