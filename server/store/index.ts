import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDatabase, migrate, type Db } from './db.js';
import { createPrivateFile, makePrivateFolder, makePrivateIfPresent } from './private-files.js';
import { asUnavailable } from './unavailable.js';
import { Gate, TransactionDoomed } from './gate.js';
import { organizationStore } from './organizations.js';
import { apiKeyStore } from './api-keys.js';
import { experienceStore } from './experiences.js';
import { bookingStore } from './bookings.js';
import { customerStore } from './customers.js';
import { eventStore } from './events.js';
import { idempotencyStore } from './idempotency.js';
import { calendarFeedStore } from './calendar-feeds.js';
import { settingsStore } from './settings.js';
import { webhookStore } from './webhooks.js';
import { calendarImportStore } from './calendar-imports.js';
import { paymentStore } from './payments.js';
import { manifestStore } from './manifest.js';
import { reportStore } from './reports.js';
import { activityStore } from './activity.js';
import { userStore } from './users.js';
import { messageStore } from './messages.js';
import { rateLimitStore } from './rate-limits.js';

export { TransactionDoomed };

/** Every store module over one SQLite connection: synchronous functions named in the domain's words. */
function sqliteParts(db: Db) {
  return {
    organizations: organizationStore(db),
    apiKeys: apiKeyStore(db),
    experiences: experienceStore(db),
    bookings: bookingStore(db),
    customers: customerStore(db),
    events: eventStore(db),
    idempotency: idempotencyStore(db),
    calendarFeeds: calendarFeedStore(db),
    settings: settingsStore(db),
    webhooks: webhookStore(db),
    calendarImports: calendarImportStore(db),
    payments: paymentStore(db),
    manifest: manifestStore(db),
    reports: reportStore(db),
    activity: activityStore(db),
    users: userStore(db),
    messages: messageStore(db),
    rateLimits: rateLimitStore(db),
  };
}

/** The store's functions, as every engine offers them. */
type SyncParts = ReturnType<typeof sqliteParts>;
export type StoreParts = { [S in keyof SyncParts]: Async<SyncParts[S]> };

/** A function of `T`, answering through a promise (an engine across a network cannot answer at once). */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

export interface TransactionOptions {
  /** A nested transaction that may take no savepoint; see `Store.transaction`. */
  unguarded?: boolean;
}

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
   * `{ unguarded: true }` on a nested call lets the store skip its savepoint (SQLite does;
   * PostgreSQL takes one anyway). If that level, or a level sharing it, then fails, the writes it
   * made cannot be undone alone: the outermost transaction rolls back whole and rejects with
   * `TransactionDoomed` (store/gate.ts), whatever its work returned. For work that can be run
   * again, such as a group commit's jobs.
   */
  transaction<T>(work: () => Promise<T>, options?: TransactionOptions): Promise<T>;
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

/**
 * The SQLite store. better-sqlite3 answers synchronously over one connection, so a transaction that
 * awaits lets other requests' promises run in between; on the same connection their statements would
 * join the open transaction. `Gate` keeps them out: while a transaction is open, a call from outside
 * it (told apart by AsyncLocalStorage) waits until it ends, and transactions take turns.
 */
export function createStore(db: Db): Store {
  // Temporary files in memory. Inside a savepoint SQLite copies each page it changes to a statement
  // journal, and past 64 KiB that journal is a file in /var/tmp: a group commit's bookings wrote ~70
  // small pwrite()s each into one (docs/PERFORMANCE.md, "The statement journal, shared savepoints,
  // and the floor"). Set here, after the migrations: an index they build sorts on disk as before.
  db.pragma('temp_store = MEMORY');
  const parts = sqliteParts(db);
  // Savepoints stay clean through reads: only a change of rows makes them dirty.
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  const gate = new Gate(() => totalChanges.get() as number);
  /** A level without a savepoint failed: the open transaction must not commit. */
  let doomed = false;
  const marker = db
    .prepare('SELECT total_changes(), (SELECT data_version FROM pragma_data_version)')
    .raw(true);
  const ping = db.prepare('SELECT 1');
  const tx = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT nested'),
    release: db.prepare('RELEASE nested'),
    rollbackTo: db.prepare('ROLLBACK TO nested'),
  };
  const store = {} as Record<string, Record<string, unknown>>;
  for (const [slice, functions] of Object.entries(parts) as [string, Record<string, (...args: unknown[]) => unknown>][]) {
    const wrapped: Record<string, unknown> = {};
    for (const [name, fn] of Object.entries(functions)) {
      // A file that cannot be used now (locked past the busy timeout, a disk error) becomes the
      // SERVICE_UNAVAILABLE refusal (store/unavailable.ts); any other error stays as it was.
      const call = (args: unknown[]) => {
        try {
          return fn(...args);
        } catch (err) {
          throw asUnavailable(err);
        }
      };
      wrapped[name] = (...args: unknown[]): Promise<unknown> => {
        if (gate.admits()) {
          try {
            return Promise.resolve(call(args));
          } catch (err) {
            return Promise.reject(err);
          }
        }
        return gate.whenOpen().then(() => call(args));
      };
    }
    store[slice] = wrapped;
  }
  /** One transaction (or a savepoint in one): see `Store.transaction`. */
  async function transactionOf<T>(work: () => Promise<T>, options: TransactionOptions): Promise<T> {
    if (gate.heldHere()) {
      const unguarded = options.unguarded === true;
      return await gate.nest(async (shared) => {
        if (shared || unguarded) {
          try {
            return await work();
          } catch (err) {
            if (shared && !shared.unguarded) {
              // The most recent savepoint is the clean one this level shares: back to it, clean again.
              tx.rollbackTo.run();
              gate.markClean(shared);
            } else {
              // No savepoint behind this level: its writes cannot be undone alone.
              doomed = true;
            }
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
      }, unguarded);
    }
    return await gate.hold(async () => {
      tx.begin.run();
      doomed = false;
      try {
        const result = await work();
        if (doomed) throw new TransactionDoomed();
        tx.commit.run();
        return result;
      } catch (err) {
        if (db.inTransaction) tx.rollback.run();
        throw err;
      }
    });
  }
  const methods: Omit<Store, keyof StoreParts> = {
    engine: 'sqlite',
    async transaction<T>(work: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      try {
        return await transactionOf(work, options);
      } catch (err) {
        throw asUnavailable(err);
      }
    },
    async ping(): Promise<void> {
      if (!gate.admits()) await gate.whenOpen();
      ping.get();
    },
    async changeMarker(): Promise<string> {
      if (!gate.admits()) await gate.whenOpen();
      const [changes, version] = marker.get() as [number, number];
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
      if (gate.held()) await gate.whenOpen();
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
