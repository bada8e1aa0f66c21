import type { Db } from '../db.js';
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
  /** The statements read through the cache, and the tables they name. */
  private readonly cachedTexts = new Set<string>();
  private readonly watched = new Set<string>();
  /** Per statement text: whether it writes a watched table (the set only grows, so a `true` stays true). */
  private readonly writesWatched = new Map<string, boolean>();
  private seenVersion: unknown;
  /** This connection wrote a watched table inside a transaction that may still be open. */
  private written = false;

  constructor(private readonly db: Db) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  read<R>(text: string, params: Params, load: () => R | undefined): Readonly<R> | undefined {
    if (!this.db.inTransaction) this.written = false;
    const version = this.dataVersion.get();
    if (version !== this.seenVersion) {
      this.rows.clear();
      this.seenVersion = version;
    }
    const key = `${text}\u0000${params.map(keyOf).join('\u0001')}`;
    const kept = this.rows.get(key);
    if (kept) return kept as Readonly<R>;
    if (!this.cachedTexts.has(text)) {
      // A new cached read: its tables are watched from now on, so every statement is checked again.
      this.cachedTexts.add(text);
      for (const table of tablesOf(text, READ)) this.watched.add(table);
      this.writesWatched.clear();
    }
    const row = load();
    if (row === undefined || this.written) return row;
    if (this.rows.size >= CACHED_ROWS_LIMIT) this.rows.clear();
    const frozen = Object.freeze(row as object) as Readonly<R>;
    this.rows.set(key, frozen);
    return frozen;
  }

  /** Before a statement runs: it empties the cache if it writes a watched table. */
  noteStatement(text: string): void {
    let writes = this.writesWatched.get(text);
    if (writes === undefined) {
      writes = tablesOf(text, WRITTEN).some((table) => this.watched.has(table));
      this.writesWatched.set(text, writes);
    }
    if (!writes) return;
    this.rows.clear();
    if (this.db.inTransaction) this.written = true;
  }
}

function keyOf(value: unknown): string {
  if (Buffer.isBuffer(value)) return `b${value.toString('base64')}`;
  if (value === null || value === undefined) return 'n';
  return `${typeof value === 'number' ? 'd' : 's'}${String(value)}`;
}
