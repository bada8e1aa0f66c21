import type { WrittenOnce } from './slices.js';
import type { TransactionKind } from './sql.js';

/** The store's functions, as every engine offers them: one slice per resource. */
export type StoreParts = WrittenOnce;

/** A function of `T`, answering through a promise (an engine across a network cannot answer at once). */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/**
 * The store: every SQL statement of Outing, behind functions named in the domain's words. Callers
 * never see SQL or the engine (SQLite here, PostgreSQL in `postgres/`); `transaction` is the one place
 * where atomicity is asked for.
 */
export interface Store extends StoreParts {
  // Built by sqlite/store.ts (createStore, openStore) or postgres/index.ts (createPostgresStore);
  // store/open.ts picks the engine from the configuration.
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Runs `work` as one atomic unit holding the write lock from its first statement, so a
   * read-check-write inside it cannot interleave with another writer. Every store call made while
   * `work` runs (awaited from inside it, however deep) belongs to the transaction; nested calls
   * become savepoints (or share the level above's while it is clean), so a nested call that throws
   * leaves no trace. `work` must only await the store: never the network or a timer.
   */
  transaction<T>(work: () => Promise<T>, options?: TransactionKind): Promise<T>;
  /**
   * Runs `work`, whose writes nobody reads the answer of (an event, a queued message, an activity
   * entry) and nothing after them in the same transaction level reads, inside the caller's
   * transaction: on PostgreSQL they are kept until that level has ended well and then travel with
   * the transaction's next round trip (usually its COMMIT) instead of one round trip each, and one
   * that fails fails the transaction. The locks they take (an event's position) are so held the
   * shortest. SQLite runs them at once.
   */
  later<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A marker that changes whenever the database may have changed; caches compare it. An engine
   * shared by several processes without a cheap marker answers a new value every time (no reuse).
   */
  changeMarker(): Promise<string>;
  /** Resolves once the database answers a trivial query; rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** A consistent copy of the whole database into `file` while writes go on (SQLite only). */
  backupTo(file: string, onProgress?: (done: number, total: number) => void): Promise<void>;
  close(): Promise<void>;
}

