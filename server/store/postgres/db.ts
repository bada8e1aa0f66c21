import { AsyncLocalStorage } from 'node:async_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { migrationsDir, type Migration } from '../migrations.js';
import type { Anchor } from '../sqlite/gate.js';
import { asUnavailable } from '../unavailable.js';

/**
 * SQLite's column lists, for PostgreSQL: their camelCase aliases quoted, since PostgreSQL folds an
 * unquoted name to lower case (`AS orgId` would come back as `orgid`).
 */
export function quoteAliases(columns: string): string {
  return columns.replace(/ AS (\w+)/g, ' AS "$1"');
}

/**
 * A statement written once for both engines, with SQLite's `?` placeholders, numbered for
 * PostgreSQL (`$1`, `$2`… in order). Only for statements with no `?` inside a string literal.
 */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** A statement's parameters: `$1`, `$2`… in order. */
export type Params = readonly unknown[];

/**
 * One PostgreSQL database, as the store modules use it. A statement runs on the client of the
 * transaction it is called from (found through AsyncLocalStorage, so callers never pass it), or
 * else on a pooled client of its own.
 */
export interface PgDb {
  /** The rows of a statement. */
  all<R>(sql: string, params?: Params): Promise<R[]>;
  /** The first row of a statement, if any. */
  get<R>(sql: string, params?: Params): Promise<R | undefined>;
  /** The rows of a statement as arrays of values, in the order of its columns. */
  values<R extends unknown[]>(sql: string, params?: Params): Promise<R[]>;
  /** Runs a statement; answers how many rows it changed. */
  run(sql: string, params?: Params): Promise<number>;
  /** Runs `work` in one transaction (a savepoint when nested); see `transaction` in store/index.ts. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work`, whose only write is one statement, under the write lock: as it is inside the
   * caller's transaction (which holds the lock, and the statement is atomic by itself, so no
   * savepoint is needed), or else in a transaction of its own.
   */
  locked<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `fn` once the outermost transaction around this call has committed (at once outside one). */
  afterCommit(fn: () => void): void;
  /** The pool, for what only it can do (LISTEN, closing). */
  readonly pool: pg.Pool;
}

interface Frame {
  client: pg.PoolClient;
  /** A nested transaction of this level is running: the next one waits. */
  busy: boolean;
  idle: Promise<void>;
  committed: (() => void)[];
  /** The savepoint this level rolls back to (none for the outermost transaction); see `Anchor`. */
  anchor: Anchor | undefined;
}

/**
 * Every write transaction holds this advisory lock until it ends, so writes take turns across
 * every process as they do in SQLite (BEGIN IMMEDIATE): a read-check-write (capacity, a booking
 * number, an event's place in the sequence) sees every write committed before it and none after.
 */
const WRITE_LOCK = 0x6f7574696e67; // "outing"

/** 64-bit integers (ids, counts, epoch milliseconds) as numbers: every value Outing keeps fits in 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (value: string) => (value === null ? null : Number(value))
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function connectPostgres(url: string, options: { max?: number } = {}): PgDb {
  // Waiting for a pooled client is also waiting for the write lock (a transaction holds its client
  // meanwhile), so under a burst a request may wait its turn for a while: 30 s, as long as a whole
  // request may take, before it fails. A database that cannot be reached fails within that too, and
  // /healthz does not wait that long (it races a shorter timer).
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types, connectionTimeoutMillis: 30_000 });
  // An idle client that loses its connection (a restarted server) must not crash the process.
  pool.on('error', () => {});
  const context = new AsyncLocalStorage<Frame>();

  async function outermost<T>(work: () => Promise<T>): Promise<T> {
    const client = await pool.connect();
    const frame: Frame = { client, busy: false, idle: Promise.resolve(), committed: [], anchor: undefined };
    let broken = false;
    try {
      // One round trip: the simple protocol takes both statements (no parameters) at once.
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK})`);
      const result = await context.run(frame, work);
      await client.query('COMMIT');
      for (const fn of frame.committed) fn();
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async function nested<T>(frame: Frame, work: () => Promise<T>): Promise<T> {
    while (frame.busy) await frame.idle;
    frame.busy = true;
    let done!: () => void;
    frame.idle = new Promise<void>((resolve) => {
      done = resolve;
    });
    const shared = frame.anchor !== undefined && !frame.anchor.dirty ? frame.anchor : undefined;
    const inner: Frame = { client: frame.client, busy: false, idle: Promise.resolve(), committed: frame.committed, anchor: shared ?? { dirty: false } };
    try {
      if (!shared) await frame.client.query('SAVEPOINT nested');
      try {
        const result = await context.run(inner, work);
        if (!shared) await frame.client.query('RELEASE SAVEPOINT nested');
        return result;
      } catch (err) {
        // The most recent savepoint named so is this level's own, or the clean one it shares.
        await frame.client.query('ROLLBACK TO SAVEPOINT nested');
        if (shared) shared.dirty = false;
        else await frame.client.query('RELEASE SAVEPOINT nested');
        throw err;
      }
    } finally {
      frame.busy = false;
      done();
    }
  }

  /** The client to run a statement on, marking the savepoint of the caller's level as no longer clean. */
  function statementRunner(): pg.Pool | pg.PoolClient {
    const frame = context.getStore();
    if (!frame) return pool;
    if (frame.anchor) frame.anchor.dirty = true;
    return frame.client;
  }

  /** A statement's result; a server that cannot be reached becomes the SERVICE_UNAVAILABLE refusal (store/unavailable.ts). */
  async function query(sql: string, params: Params, rowMode?: 'array'): Promise<pg.QueryResult> {
    try {
      const runner = statementRunner();
      return await (rowMode ? runner.query({ text: sql, values: params as unknown[], rowMode }) : runner.query(sql, params as unknown[]));
    } catch (err) {
      throw asUnavailable(err);
    }
  }

  return {
    pool,
    async all<R>(sql: string, params: Params = []) {
      return (await query(sql, params)).rows as R[];
    },
    async get<R>(sql: string, params: Params = []) {
      return (await query(sql, params)).rows[0] as R | undefined;
    },
    async values<R extends unknown[]>(sql: string, params: Params = []) {
      return (await query(sql, params, 'array')).rows as R[];
    },
    async run(sql: string, params: Params = []) {
      return (await query(sql, params)).rowCount ?? 0;
    },
    async transaction<T>(work: () => Promise<T>): Promise<T> {
      const frame = context.getStore();
      try {
        return frame ? await nested(frame, work) : await outermost(work);
      } catch (err) {
        throw asUnavailable(err);
      }
    },
    async locked<T>(work: () => Promise<T>): Promise<T> {
      try {
        return context.getStore() ? await work() : await outermost(work);
      } catch (err) {
        throw asUnavailable(err);
      }
    },
    afterCommit(fn: () => void): void {
      const frame = context.getStore();
      if (frame) frame.committed.push(fn);
      else fn();
    },
  };
}

/** The PostgreSQL forms of the migrations, numbered and named as SQLite's (a test holds them equal). */
export function readPostgresMigrations(dir = join(migrationsDir(), 'postgres')): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .map((f) => ({ version: Number(f.split('_')[0]), name: f, sql: readFileSync(join(dir, f), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

/** A lock of its own for migrations, so that several processes starting at once apply each change once. */
const MIGRATION_LOCK = 0x6f7574696e68;

/** Applies, in order and each in its own transaction, the migrations not yet recorded; answers their versions. */
export async function migratePostgres(db: PgDb, migrations: Migration[] = readPostgresMigrations()): Promise<number[]> {
  const client = await db.pool.connect();
  const done: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const m of migrations) {
        if (applied.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
        done.push(m.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return done;
}
