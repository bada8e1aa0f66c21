import { AsyncLocalStorage } from 'node:async_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { APPLIED_VERSIONS, migrationsDir, RECORD_MIGRATION, type Migration } from '../migrations.js';
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
 * How a transaction shares the database with the others (the write lock, see WRITE_LOCK):
 * - `exclusive`: alone, as every SQLite writer is. A read-check-write inside it sees every write
 *   committed before it and none after. The default.
 * - `shared`: beside other shared transactions, never beside an exclusive one. For work that keeps
 *   its own invariants with row locks and conditional writes (a booking: its slot's counter row).
 */
export type LockKind = 'shared' | 'exclusive';

/**
 * One PostgreSQL database, as the store modules use it. A statement runs on the client of the
 * transaction it is called from (found through AsyncLocalStorage, so callers never pass it), or
 * else on a pooled client of its own.
 *
 * Round trips. Inside a transaction statements are not sent one by one: those issued together (in
 * the same turn of the event loop, e.g. under `Promise.all`) travel as one multi-statement string
 * of the simple protocol, their parameters written in as literals, and the transaction's BEGIN, its
 * write lock, SAVEPOINTs and RELEASEs ride along with the next statement. A statement of such a
 * batch that fails fails every statement of the batch (the transaction is aborted anyway).
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
  /**
   * Runs `work` in one transaction (a savepoint when nested); see `transaction` in store/index.ts.
   * `lock` declares how it shares the database (LockKind); a transaction that declares none takes
   * the kind of the one around it, and the outermost the exclusive lock. The lock is taken before
   * the first statement that needs it: a shared transaction that then runs work needing the
   * exclusive lock takes that too.
   *
   * `independent`: work that stands alone even when called inside a transaction (a group commit's
   * job: its outcome is its own, whatever the other jobs do): it runs as a transaction of its own,
   * on a client of its own. A transaction that holds the row locks of several units of work taken
   * one after another (a slot's counter, then another's) could deadlock with another such; one
   * unit per transaction cannot.
   */
  transaction<T>(work: () => Promise<T>, lock?: LockKind, independent?: boolean): Promise<T>;
  /**
   * Runs `work`, whose only write is one statement, under the write lock: as it is inside the
   * caller's transaction (which holds the lock, and the statement is atomic by itself, so no
   * savepoint is needed), or else in a transaction of its own.
   */
  locked<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work`, whose statements need none of the write lock (they take a lock of their own, see
   * `lockKey`): in a transaction that has not taken it yet, they leave it to the statements after them.
   */
  unlocked<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Inside a transaction, an advisory lock on `key` (any text) until the transaction ends, taken with
   * the next statement; outside one, nothing.
   */
  lockKey(key: string): void;
  /**
   * Runs `work` with its writes sent later: inside a transaction, each `run` of `work` answers 1 at
   * once (the one row it is written for), and its statement is kept until the (nested) transaction it was written in has ended well,
   * then travels, in order, with the transaction's next round trip after that (or its COMMIT); if
   * that level fails, it is dropped with it. For writes that nothing later in their own level reads
   * (an event, a queued message); an error of one fails the transaction, not the call.
   */
  later<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `fn` once the outermost transaction around this call has committed (at once outside one). */
  afterCommit(fn: () => void): void;
  /** The pool, for what only it can do (LISTEN, closing). */
  readonly pool: pg.Pool;
}

/** A statement waiting to be sent with the next round trip of its transaction. */
interface Pending {
  text: string;
  params: Params;
  /** The write lock it needs; none for the transaction's own statements and those of `unlocked` work. */
  lock?: LockKind;
  /** Who waits for its rows; none for the transaction's own statements and the writes sent later. */
  waiter?: { rowMode?: 'array'; resolve(result: pg.QueryResult): void; reject(err: unknown): void };
}

/** One outermost transaction: its client, what it has sent and what waits to be. */
interface Tx {
  /** Taken from the pool for the first round trip: a transaction that sends nothing holds none. */
  client: pg.PoolClient | undefined;
  /** The write lock held so far. */
  held: LockKind | undefined;
  /** Something was sent since BEGIN (else COMMIT and ROLLBACK have nothing to end). */
  sent: boolean;
  pending: Pending[];
  /** The round trip under way, if any. */
  inFlight: Promise<void> | undefined;
  scheduled: boolean;
  /** The error of a statement nobody waited for: the transaction fails with it. */
  failure: unknown;
  /** Committed or rolled back: a statement still issued in it (by work that outlived it) is refused. */
  ended: boolean;
  committed: (() => void)[];
}

/**
 * A savepoint, and whether a statement ran at its level since it was taken. A nested transaction
 * that starts while its level's savepoint is clean shares it instead of taking its own (one
 * SAVEPOINT and one RELEASE saved, each a round trip): rolling back to it restores exactly the state
 * the nested one started from.
 */
interface Anchor {
  dirty: boolean;
}

interface Frame {
  tx: Tx;
  parent: Frame | undefined;
  /** The lock kind this level declared, if any. */
  lock: LockKind | undefined;
  /** A nested transaction of this level is running: the next one waits. */
  busy: boolean;
  idle: Promise<void>;
  /** The savepoint this level rolls back to (none for the outermost transaction); see `Anchor`. */
  anchor: Anchor | undefined;
  /** Writes sent later (`later`), kept until this level ends well: then they are its parent's, and at the top the transaction's. */
  deferred: Pending[];
}

/** Ways of running a statement set by `unlocked` and `later`, for the work under them. */
interface Mode {
  unlocked?: boolean;
  later?: boolean;
}

/**
 * Every write transaction holds this advisory lock until it ends, exclusive unless it declared
 * itself shared (LockKind): exclusive ones take turns across every process as SQLite's writers do
 * (BEGIN IMMEDIATE), shared ones run side by side, and never beside an exclusive one.
 */
const WRITE_LOCK = 0x6f7574696e67; // "outing"

/** 64-bit integers (ids, counts, epoch milliseconds) as numbers: every value Outing keeps fits in 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (value: string) => (value === null ? null : Number(value))
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A parameter written into a statement as a literal, as the server would read it as a parameter; undefined when it cannot be. */
function literalOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return value.includes('\0') ? undefined : pg.escapeLiteral(value);
  // Quoted: an untyped literal takes its type from where it stands, as an untyped parameter does.
  if (typeof value === 'number') return Number.isFinite(value) ? `'${String(value)}'` : undefined;
  if (typeof value === 'bigint') return `'${value.toString()}'`;
  if (typeof value === 'boolean') return value ? "'true'" : "'false'";
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'`;
  return undefined;
}

/** `text` with its `$n` placeholders replaced by `params` as literals; undefined when one cannot be written so. */
function inlined(text: string, params: Params): string | undefined {
  if (params.length === 0) return text;
  const literals = params.map(literalOf);
  if (literals.some((l) => l === undefined)) return undefined;
  // Placeholders only: the store's statements hold no `$` in string literals or identifiers.
  return text.replace(/\$(\d+)/g, (_, n: string) => literals[Number(n) - 1]!);
}

/** A row of an array-mode result as the object pg would have made (a later column of the same name wins). */
function objectRows(result: pg.QueryResult): pg.QueryResult {
  const names = result.fields.map((f) => f.name);
  const rows = (result.rows as unknown[][]).map((r) => {
    const row: Record<string, unknown> = {};
    names.forEach((name, i) => (row[name] = r[i]));
    return row;
  });
  return { ...result, rows };
}

const isAbortedTransaction = (err: unknown) => (err as { code?: string } | undefined)?.code === '25P02';

export function connectPostgres(url: string, options: { max?: number } = {}): PgDb {
  // Waiting for a pooled client is also waiting for the write lock (a transaction holds its client
  // meanwhile), so under a burst a request may wait its turn for a while: 30 s, as long as a whole
  // request may take, before it fails. A database that cannot be reached fails within that too, and
  // /healthz does not wait that long (it races a shorter timer).
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types, connectionTimeoutMillis: 30_000 });
  // An idle client that loses its connection (a restarted server) must not crash the process.
  pool.on('error', () => {});
  const context = new AsyncLocalStorage<Frame>();
  const modes = new AsyncLocalStorage<Mode>();

  /** Sends what waits, as one round trip; a new one follows if more came meanwhile. */
  function schedule(tx: Tx): void {
    if (tx.scheduled) return;
    tx.scheduled = true;
    // After the promise callbacks of this turn have run, so that statements issued together go together.
    setImmediate(() => {
      tx.scheduled = false;
      if (!tx.inFlight) tx.inFlight = send(tx);
    });
  }

  async function send(tx: Tx): Promise<void> {
    const batch = tx.pending.splice(0);
    if (batch.length > 0) {
      tx.sent = true;
      await sendBatch(tx, batch);
    }
    tx.inFlight = undefined;
    // What was issued meanwhile goes once the callbacks of this answer have issued theirs too.
    if (tx.pending.some((p) => p.waiter)) schedule(tx);
  }

  async function sendBatch(tx: Tx, batch: Pending[]): Promise<void> {
    const settle = (p: Pending, result: pg.QueryResult | undefined, err: unknown) => {
      if (!p.waiter) return;
      if (err !== undefined) p.waiter.reject(err);
      else p.waiter.resolve(p.waiter.rowMode === 'array' ? result! : objectRows(result!));
    };
    const fail = (err: unknown) => {
      // A statement after one that failed reports the first failure, not "transaction is aborted".
      const reported = isAbortedTransaction(err) && tx.failure !== undefined ? tx.failure : err;
      if (tx.failure === undefined) tx.failure = reported;
      for (const p of batch) settle(p, undefined, asUnavailable(reported));
    };
    const texts = batch.map((p) => inlined(p.text, p.params));
    if (batch.length === 1 || texts.some((t) => t === undefined)) {
      // One at a time, each with its own parameters.
      for (const p of batch) {
        try {
          const result = await (await clientOf(tx)).query({ text: p.text, values: p.params as unknown[], rowMode: 'array' });
          settle(p, result, undefined);
        } catch (err) {
          fail(err);
          return;
        }
      }
      return;
    }
    try {
      const answer = (await (await clientOf(tx)).query({ text: texts.join(';\n'), rowMode: 'array' })) as pg.QueryResult | pg.QueryResult[];
      const results = Array.isArray(answer) ? answer : [answer];
      batch.forEach((p, i) => settle(p, results[i], undefined));
    } catch (err) {
      fail(err);
    }
  }

  /** A statement of `frame`, with the write lock it needs. */
  function statementOf(frame: Frame, text: string, params: Params, waiter?: Pending['waiter']): Pending {
    return { text, params, waiter, lock: modes.getStore()?.unlocked ? undefined : kindOf(frame) };
  }

  /** Queues a statement for the transaction's next round trip, after the write lock it needs; sent soon when someone waits for it. */
  function enqueue(tx: Tx, p: Pending): void {
    if (tx.ended) {
      p.waiter?.reject(new Error('A statement was issued in a transaction that has already ended'));
      return;
    }
    if (p.lock && tx.held !== p.lock && tx.held !== 'exclusive') {
      tx.pending.push({ text: `SELECT ${p.lock === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(${WRITE_LOCK})`, params: [] });
      tx.held = p.lock;
    }
    tx.pending.push(p);
    if (p.waiter) schedule(tx);
  }

  /** Writes of a level that ended well: its parent's now, or at the top the transaction's next round trip's. */
  function handUp(frame: Frame, writes: Pending[]): void {
    if (frame.parent) frame.deferred.push(...writes);
    else for (const p of writes) enqueue(frame.tx, p);
  }

  /** The lock kind a statement of `frame` needs: the nearest declared, else exclusive. */
  function kindOf(frame: Frame): LockKind {
    for (let f: Frame | undefined = frame; f; f = f.parent) if (f.lock) return f.lock;
    return 'exclusive';
  }

  /** Sends everything queued, and waits for it. */
  async function drain(tx: Tx): Promise<void> {
    while (tx.inFlight || tx.pending.length > 0) {
      if (!tx.inFlight) tx.inFlight = send(tx);
      await tx.inFlight;
    }
  }

  /** Runs a transaction statement of its own (COMMIT, ROLLBACK TO…) after everything queued, as part of the same round trip. */
  function control(tx: Tx, text: string): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      tx.pending.push({ text, params: [], waiter: { resolve, reject } });
      schedule(tx);
    });
  }

  async function clientOf(tx: Tx): Promise<pg.PoolClient> {
    tx.client ??= await pool.connect();
    return tx.client;
  }

  async function outermost<T>(work: () => Promise<T>, lock: LockKind | undefined): Promise<T> {
    const tx: Tx = { client: undefined, held: undefined, sent: false, pending: [], inFlight: undefined, scheduled: false, failure: undefined, ended: false, committed: [] };
    const frame: Frame = { tx, parent: undefined, lock, busy: false, idle: Promise.resolve(), anchor: undefined, deferred: [] };
    let broken = false;
    // BEGIN goes with the first statement: a transaction that runs none costs no round trip.
    tx.pending.push({ text: 'BEGIN', params: [] });
    try {
      const result = await modes.run({}, () => context.run(frame, work));
      if (tx.failure !== undefined) throw tx.failure;
      if (tx.sent || tx.pending.length > 1) await control(tx, 'COMMIT');
      tx.ended = true;
      // Outside every transaction: work they start (a job woken up) must not join one, not even the
      // one around this transaction when it runs inside another (`independent`).
      context.exit(() => modes.exit(() => {
        for (const fn of tx.committed) fn();
      }));
      return result;
    } catch (err) {
      try {
        for (const p of tx.pending.splice(0)) p.waiter?.reject(err);
        if (tx.inFlight) await tx.inFlight.catch(() => {});
        if (tx.sent && tx.client) await tx.client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw tx.failure !== undefined && isAbortedTransaction(err) ? tx.failure : err;
    } finally {
      tx.ended = true;
      tx.client?.release(broken);
    }
  }

  async function nested<T>(frame: Frame, work: () => Promise<T>, lock: LockKind | undefined): Promise<T> {
    while (frame.busy) await frame.idle;
    frame.busy = true;
    let done!: () => void;
    frame.idle = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tx = frame.tx;
    const shared = frame.anchor !== undefined && !frame.anchor.dirty ? frame.anchor : undefined;
    const inner: Frame = { tx, parent: frame, lock, busy: false, idle: Promise.resolve(), anchor: shared ?? { dirty: false }, deferred: [] };
    try {
      // Sent with the next statement, as is the RELEASE.
      if (!shared) tx.pending.push({ text: 'SAVEPOINT nested', params: [] });
      try {
        // Writes sent later stay so inside (an event's own transaction, under `later`); the rest is the level's own.
        const result = await modes.run({ later: modes.getStore()?.later }, () => context.run(inner, work));
        if (tx.failure !== undefined) throw tx.failure;
        if (!shared) tx.pending.push({ text: 'RELEASE SAVEPOINT nested', params: [] });
        handUp(frame, inner.deferred);
        return result;
      } catch (err) {
        // The most recent savepoint named so is this level's own, or the clean one it shares.
        await drain(tx).catch(() => {});
        tx.failure = undefined;
        const client = await clientOf(tx);
        await client.query('ROLLBACK TO SAVEPOINT nested');
        if (shared) shared.dirty = false;
        else await client.query('RELEASE SAVEPOINT nested');
        throw err;
      }
    } finally {
      frame.busy = false;
      done();
    }
  }

  /** A statement's result; a server that cannot be reached becomes the SERVICE_UNAVAILABLE refusal (store/unavailable.ts). */
  async function query(sql: string, params: Params, rowMode?: 'array'): Promise<pg.QueryResult> {
    const frame = context.getStore();
    if (!frame) {
      try {
        return await (rowMode ? pool.query({ text: sql, values: params as unknown[], rowMode }) : pool.query(sql, params as unknown[]));
      } catch (err) {
        throw asUnavailable(err);
      }
    }
    if (frame.anchor) frame.anchor.dirty = true;
    return await new Promise<pg.QueryResult>((resolve, reject) => enqueue(frame.tx, statementOf(frame, sql, params, { rowMode, resolve, reject })));
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
      const frame = context.getStore();
      if (frame && modes.getStore()?.later) {
        if (frame.anchor) frame.anchor.dirty = true;
        if (frame.parent) frame.deferred.push(statementOf(frame, sql, params));
        else enqueue(frame.tx, statementOf(frame, sql, params));
        // As if it changed the one row it is written for (an insert that queues a message then
        // wakes the worker after the commit).
        return 1;
      }
      return (await query(sql, params)).rowCount ?? 0;
    },
    async transaction<T>(work: () => Promise<T>, lock?: LockKind, independent = false): Promise<T> {
      const frame = context.getStore();
      try {
        return frame && !independent ? await nested(frame, work, lock) : await outermost(work, lock);
      } catch (err) {
        throw asUnavailable(err);
      }
    },
    async locked<T>(work: () => Promise<T>): Promise<T> {
      try {
        return context.getStore() ? await work() : await outermost(work, undefined);
      } catch (err) {
        throw asUnavailable(err);
      }
    },
    unlocked: (work) => modes.run({ ...modes.getStore(), unlocked: true }, work),
    later: (work) => modes.run({ ...modes.getStore(), later: true }, work),
    lockKey(key: string): void {
      const frame = context.getStore();
      if (!frame) return;
      frame.tx.pending.push({ text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', params: [key] });
    },
    afterCommit(fn: () => void): void {
      const frame = context.getStore();
      if (frame) frame.tx.committed.push(fn);
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
      const applied = new Set((await client.query<{ version: number }>(APPLIED_VERSIONS)).rows.map((r) => r.version));
      for (const m of migrations) {
        if (applied.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query(numbered(RECORD_MIGRATION), [m.version, m.name, Date.now()]);
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
