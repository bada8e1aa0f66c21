import type { Dialect } from './dialect.js';

/**
 * The port every table module is written over: four verbs and the engine's dialect. One driver per
 * engine implements it (`sqlite/driver.ts`, `postgres/driver.ts`); a table module never knows which
 * one it runs on.
 *
 * Statements are written once, for both engines:
 * - parameters are `?`, in order (the PostgreSQL driver numbers them `$1`, `$2`…); never a `?` inside
 *   a string literal;
 * - a camelCase column alias is quoted (`org_id AS "orgId"`): PostgreSQL folds unquoted names to lower case;
 * - integers are numbers on both engines (64-bit columns included: every value Outing keeps fits in
 *   2^53), bytes are Buffers, and a flag is 0 or 1 (never a boolean parameter);
 * - what really differs between the engines (case-insensitive matching, a planner hint, JSON) is
 *   asked of `dialect`, so each difference is written in one place.
 */
export interface Sql {
  readonly dialect: Dialect;
  /** The rows of a statement, as objects keyed by column alias. */
  all<R>(sql: string, params?: Params): Promise<R[]>;
  /** The first row of a statement, if any. */
  get<R>(sql: string, params?: Params): Promise<R | undefined>;
  /**
   * `get` for a row that nearly every request reads and that rarely changes (the caller's API key,
   * the booking's organization and experience). An engine may answer it from memory: the SQLite
   * driver keeps the rows until a statement of its own writes a table such a read names, or another
   * connection commits (see `RowCache` in sqlite/row-cache.ts); the PostgreSQL driver always asks
   * the database, whose other processes may write at any moment. Callers must not change the row.
   */
  getCached<R>(sql: string, params?: Params): Promise<Readonly<R> | undefined>;
  /** The rows of a statement as arrays of values, in the order of its columns (cheaper for long lists). */
  values<R extends unknown[]>(sql: string, params?: Params): Promise<R[]>;
  /** Runs a statement that answers no rows; answers how many rows it changed. */
  run(sql: string, params?: Params): Promise<number>;
  /**
   * Runs `work` as one atomic unit: every statement awaited from inside it, however deep, belongs
   * to it; a nested call is a savepoint. `work` awaits only the store (never the network or a timer).
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `fn` once the outermost transaction around this call has committed (at once outside one). */
  afterCommit(fn: () => void): void;
}

/** A statement's parameters, one per `?` in order. */
export type Params = readonly unknown[];

export interface Page {
  limit: number;
  offset: number;
}

export interface PageResult<T> {
  rows: T[];
  total: number;
}

/**
 * Transactions and the write lock. What a transaction asks of the other writers is decided by the
 * use case that opens it (`Store.transaction(work, { lock })`), never guessed by the store:
 * - `exclusive` (the default): it runs alone among writers, so a read-check-write inside it sees
 *   every write committed before it and none after, as every SQLite writer does (BEGIN IMMEDIATE).
 * - `shared`: it may run beside other shared transactions, never beside an exclusive one. Only for
 *   work that keeps its invariants itself, with row locks and conditional writes (a booking takes
 *   its places with one conditional upsert of its slot's counter row, so only bookings of one slot
 *   take turns). A nested transaction that declares nothing takes the kind of the one around it.
 * On SQLite writers always take turns, and `lock` changes nothing. On PostgreSQL it is an advisory
 * lock taken exclusive or shared before the transaction's first statement that needs it (see
 * postgres/db.ts). Events (events.ts) keep their cursor order under both kinds: each event is
 * written under a short lock of its own, held until its transaction commits.
 */
export interface TransactionKind {
  lock?: 'shared' | 'exclusive';
  /**
   * A transaction of its own even when called inside another: a group commit's job. SQLite nests it
   * as a savepoint (writers take turns anyway, and the batch shares one fsync); PostgreSQL commits
   * it on its own, since several bookings' slot-row locks held by one batch could wait in a circle
   * with another batch's.
   */
  alone?: boolean;
}
