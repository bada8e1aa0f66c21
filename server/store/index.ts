import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDatabase, migrate, type Db } from './db.js';
import { createPrivateFile, makePrivateFolder, makePrivateIfPresent } from './private-files.js';
import { TransactionDoomed } from './gate.js';
import { sqliteDriver, type TransactionOptions } from './sqlite/driver.js';
import { slicesOver, type WrittenOnce } from './slices.js';
import type { TransactionKind } from './sql.js';
import { organizationStore } from './organizations.js';
import { apiKeyStore } from './api-keys.js';
import { experienceStore } from './experiences.js';
import { customerStore } from './customers.js';
import { idempotencyStore } from './idempotency.js';
import { calendarFeedStore } from './calendar-feeds.js';
import { settingsStore } from './settings.js';
import { webhookStore } from './webhooks.js';
import { calendarImportStore } from './calendar-imports.js';
import { paymentStore } from './payments.js';
import { manifestStore } from './manifest.js';
import { reportStore } from './reports.js';
import { activityStore } from './activity.js';
import { messageStore } from './messages.js';
import { rateLimitStore } from './rate-limits.js';

export { TransactionDoomed };

/** Every store module over one SQLite connection: synchronous functions named in the domain's words. */
function sqliteParts(db: Db) {
  return {
    organizations: organizationStore(db),
    apiKeys: apiKeyStore(db),
    experiences: experienceStore(db),
    customers: customerStore(db),
    idempotency: idempotencyStore(db),
    calendarFeeds: calendarFeedStore(db),
    settings: settingsStore(db),
    webhooks: webhookStore(db),
    calendarImports: calendarImportStore(db),
    payments: paymentStore(db),
    manifest: manifestStore(db),
    reports: reportStore(db),
    activity: activityStore(db),
    messages: messageStore(db),
    rateLimits: rateLimitStore(db),
  };
}

/** The store's functions, as every engine offers them. */
type SyncParts = ReturnType<typeof sqliteParts>;
export type StoreParts = { [S in keyof SyncParts]: Async<SyncParts[S]> } & WrittenOnce;

/** A function of `T`, answering through a promise (an engine across a network cannot answer at once). */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

export type { TransactionOptions };

/**
 * The store: every SQL statement of Outing, behind functions named in the domain's words. Callers
 * never see SQL or the engine (SQLite here, PostgreSQL in `postgres/`); `transaction` is the one place
 * where atomicity is asked for.
 */
export interface Store extends StoreParts {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Runs `work` as one atomic unit holding the write lock from its first statement, so a
   * read-check-write inside it cannot interleave with another writer. Every store call made while
   * `work` runs (awaited from inside it, however deep) belongs to the transaction; nested calls
   * become savepoints. `work` must only await the store: never the network or a timer.
   *
   * `{ unguarded: true }` on a nested call lets the store skip its savepoint (SQLite does).
   * PostgreSQL runs a nested call that says `unguarded` at all (true or false: a group commit's
   * job) as a transaction of its own (postgres/db.ts, `independent`). If that level, or a level sharing it, then fails, the writes it
   * made cannot be undone alone: the outermost transaction rolls back whole and rejects with
   * `TransactionDoomed` (store/gate.ts), whatever its work returned. For work that can be run
   * again, such as a group commit's jobs.
   */
  transaction<T>(work: () => Promise<T>, options?: TransactionOptions & TransactionKind): Promise<T>;
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

/** The SQLite store: the table modules over the SQLite driver (sqlite/driver.ts). */
export function createStore(db: Db): Store {
  // Temporary files in memory. Inside a savepoint SQLite copies each page it changes to a statement
  // journal, and past 64 KiB that journal is a file in /var/tmp: a group commit's bookings wrote ~70
  // small pwrite()s each into one (docs/PERFORMANCE.md, "The statement journal, shared savepoints,
  // and the floor"). Set here, after the migrations: an index they build sorts on disk as before.
  db.pragma('temp_store = MEMORY');
  const driver = sqliteDriver(db);
  const parts = sqliteParts(db);
  const marker = db
    .prepare('SELECT total_changes(), (SELECT data_version FROM pragma_data_version)')
    .raw(true);
  const ping = db.prepare('SELECT 1');
  const store = {} as Record<string, Record<string, unknown>>;
  for (const [slice, functions] of Object.entries(parts) as [string, Record<string, (...args: unknown[]) => unknown>][]) {
    const wrapped: Record<string, unknown> = {};
    for (const [name, fn] of Object.entries(functions)) wrapped[name] = (...args: unknown[]) => driver.admitted(() => fn(...args));
    store[slice] = wrapped;
  }
  Object.assign(store, slicesOver(driver.sql));
  const methods: Omit<Store, keyof StoreParts> = {
    engine: 'sqlite',
    transaction: driver.transaction,
    later: (work) => work(),
    async ping(): Promise<void> {
      await driver.admitted(() => ping.get());
    },
    async changeMarker(): Promise<string> {
      const [changes, version] = await driver.admitted(() => marker.get() as [number, number]);
      return `${changes}:${version}`;
    },
    /**
     * SQLite's online backup: consistent while the server keeps writing. Meant for a connection
     * of its own (the CLI's): it holds one read transaction from the first page to the last, so
     * the copy is the database as of that moment, and writes by other processes meanwhile (WAL
     * lets them go on) do not restart it from page one after every step, as they otherwise would:
     * https://sqlite.org/c3ref/backup_finish.html#sqlite3backupstep
     */
    async backupTo(file: string, onProgress?: (done: number, total: number) => void): Promise<void> {
      // A copy of everything: private like the database, also when it replaces an older file.
      makePrivateFolder(dirname(file));
      const fresh = createPrivateFile(file);
      if (!fresh) makePrivateIfPresent(file);
      db.exec('BEGIN');
      try {
        db.prepare('SELECT COUNT(*) FROM sqlite_schema').get(); // starts the read transaction
        await db.backup(file, {
          progress: ({ totalPages, remainingPages }) => {
            onProgress?.(totalPages - remainingPages, totalPages);
            return 2000; // pages per step
          },
        });
      } catch (err) {
        if (fresh) rmSync(file, { force: true });
        throw err;
      } finally {
        if (db.inTransaction) db.exec('COMMIT');
      }
    },
    async close(): Promise<void> {
      if (driver.held()) await driver.whenOpen();
      if (db.open) db.close();
    },
  };
  return Object.assign(store, methods) as unknown as Store;
}

export function openStore(path: string): Store {
  const db = openDatabase(path);
  migrate(db);
  return createStore(db);
}
