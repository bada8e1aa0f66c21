import { openDatabase, migrate, type Db } from './db.js';
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

/**
 * The store: every SQL statement of Outing, behind functions named in the domain's words.
 * Callers never see SQL or SQLite; `transaction` is the one place where atomicity is asked for,
 * so another engine can sit behind the same functions.
 */
export function createStore(db: Db) {
  const changeMarker = db
    .prepare('SELECT total_changes(), (SELECT data_version FROM pragma_data_version)')
    .raw(true);
  // Prepared once: better-sqlite3's db.transaction() wraps each call anew, and a booking runs two
  // nested transactions (its group commit's savepoint and its own), which showed in its profile.
  const tx = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT nested'),
    release: db.prepare('RELEASE nested'),
    rollbackTo: db.prepare('ROLLBACK TO nested'),
  };
  return {
    ...organizationStore(db),
    ...apiKeyStore(db),
    ...experienceStore(db),
    ...bookingStore(db),
    ...customerStore(db),
    ...eventStore(db),
    ...idempotencyStore(db),
    ...calendarFeedStore(db),
    ...settingsStore(db),
    ...webhookStore(db),
    ...calendarImportStore(db),
    ...paymentStore(db),
    ...manifestStore(db),
    ...reportStore(db),
    ...activityStore(db),
    ...userStore(db),
    ...messageStore(db),
    /**
     * Runs `work` as one atomic unit that holds the write lock from its first statement
     * (BEGIN IMMEDIATE), so a read-check-write inside it cannot interleave with another writer.
     * Nested calls become savepoints of the outer transaction.
     */
    transaction<T>(work: () => T): T {
      if (db.inTransaction) {
        tx.savepoint.run();
        try {
          const result = work();
          tx.release.run();
          return result;
        } catch (err) {
          tx.rollbackTo.run();
          tx.release.run();
          throw err;
        }
      }
      tx.begin.run();
      try {
        const result = work();
        tx.commit.run();
        return result;
      } catch (err) {
        if (db.inTransaction) tx.rollback.run();
        throw err;
      }
    },
    /**
     * A marker that changes whenever the database may have changed: rows written by this process
     * (total_changes) or committed by another connection (data_version). Caches compare it.
     */
    changeMarker(): string {
      const [changes, version] = changeMarker.get() as [number, number];
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
      db.exec('BEGIN');
      try {
        db.prepare('SELECT COUNT(*) FROM sqlite_schema').get(); // starts the read transaction
        await db.backup(file, {
          progress: ({ totalPages, remainingPages }) => {
            onProgress?.(totalPages - remainingPages, totalPages);
            return 2000; // pages per step
          },
        });
      } finally {
        if (db.inTransaction) db.exec('COMMIT');
      }
    },
    close(): void {
      if (db.open) db.close();
    },
  };
}
export type Store = ReturnType<typeof createStore>;

export function openStore(path: string): Store {
  const db = openDatabase(path);
  migrate(db);
  return createStore(db);
}
