import type { Db } from './db.js';
import type { Params } from '../sql.js';

/** Rows the cache holds at most; past it, it starts again empty. */
const CACHED_ROWS_LIMIT = 1000;

/** The tables a statement writes: every INSERT INTO / UPDATE / DELETE FROM in it (CTEs included). */
const WRITTEN = /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)/gi;
/** The tables a read names. */
const READ = /\b(?:FROM|JOIN)\s+(\w+)/gi;

const tablesOf = (text: string, pattern: RegExp): string[] => [...text.matchAll(pattern)].map((m) => m[1]!.toLowerCase());

/**
 * The SQLite driver's memory of the rows `Sql.getCached` reads (the caller's key, the booking's
 * organization and experience): measured at 15–20% of the instructions of a booking. Measured, not
 * assumed safe, so the rules are the driver's, never a table module's:
 *
 * - any statement of this connection that writes a table a cached read names empties the cache
 *   (the driver sees every statement: no module has to remember to);
 * - a commit by another connection (the CLI, another process) changes `PRAGMA data_version`, read
 *   before each lookup for a fraction of what the row costs: the cache then starts again empty;
 * - inside a transaction that wrote such a table, nothing read is kept (it may be rolled back);
 *   until the next lookup outside a transaction shows that it ended.
 *
 * Rows are frozen: callers share them.
 */
export class RowCache {
  private readonly rows = new Map<string, Readonly<object>>();
  private readonly dataVersion;
  /** The tables each cached read names, and every table some cached read names. */
  private readonly readTables = new Map<string, string[]>();
  private readonly watched = new Set<string>();
  /** The tables each statement writes (none for most). */
  private readonly writtenTables = new Map<string, string[]>();
  /** Tables this connection wrote inside the transaction that may still be open. */
  private readonly writtenInTransaction = new Set<string>();
  private seenVersion: unknown;

  constructor(private readonly db: Db) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  read<R>(text: string, params: Params, load: () => R | undefined): Readonly<R> | undefined {
    if (!this.db.inTransaction) this.writtenInTransaction.clear();
    const version = this.dataVersion.get();
    if (version !== this.seenVersion) {
      this.rows.clear();
      this.seenVersion = version;
    }
    const key = `${text}\u0000${params.map(keyOf).join('\u0001')}`;
    const kept = this.rows.get(key);
    if (kept) return kept as Readonly<R>;
    let tables = this.readTables.get(text);
    if (!tables) {
      tables = tablesOf(text, READ);
      this.readTables.set(text, tables);
      for (const table of tables) this.watched.add(table);
    }
    const row = load();
    if (row === undefined || tables.some((table) => this.writtenInTransaction.has(table))) return row;
    if (this.rows.size >= CACHED_ROWS_LIMIT) this.rows.clear();
    const frozen = Object.freeze(row as object) as Readonly<R>;
    this.rows.set(key, frozen);
    return frozen;
  }

  /** Before a statement runs: a write to a table a cached read names empties the cache. */
  noteStatement(text: string): void {
    let tables = this.writtenTables.get(text);
    if (!tables) {
      tables = tablesOf(text, WRITTEN);
      this.writtenTables.set(text, tables);
    }
    if (tables.length === 0) return;
    if (this.db.inTransaction) for (const table of tables) this.writtenInTransaction.add(table);
    if (tables.some((table) => this.watched.has(table))) this.rows.clear();
  }
}

function keyOf(value: unknown): string {
  if (Buffer.isBuffer(value)) return `b${value.toString('base64')}`;
  if (value === null || value === undefined) return 'n';
  return `${typeof value === 'number' ? 'd' : 's'}${String(value)}`;
}
