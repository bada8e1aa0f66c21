import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store, StoreParts } from '../index.js';
import { createPrivateFile, makePrivateFolder, makePrivateIfPresent } from '../private-files.js';
import { slicesOver } from '../slices.js';
import { openDatabase, migrate, readSchema, type Db } from './db.js';
import { sqliteDriver } from './driver.js';

/** The SQLite store: the table modules over the SQLite driver (sqlite/driver.ts). */
export function createStore(db: Db): Store {
  // Temporary files in memory. Inside a savepoint SQLite copies each page it changes to a statement
  // journal, and past 64 KiB that journal is a file in /var/tmp: a group commit's bookings wrote ~70
  // small pwrite()s each into one (docs/PERFORMANCE.md, "The statement journal, shared savepoints,
  // and the floor"). Set here, after the migrations: an index they build sorts on disk as before.
  db.pragma('temp_store = MEMORY');
  const driver = sqliteDriver(db);
  const marker = db
    .prepare('SELECT total_changes(), (SELECT data_version FROM pragma_data_version)')
    .raw(true);
  const ping = db.prepare('SELECT 1');
  const slices = slicesOver(driver.sql);
  const methods: Omit<Store, keyof StoreParts> = {
    engine: 'sqlite',
    // Writers always take turns on SQLite (BEGIN IMMEDIATE): a transaction's kind changes nothing.
    transaction: (work) => driver.transaction(work),
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
        readSchema(db); // starts the read transaction
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
  return { ...slices, ...methods };
}

export function openStore(path: string): Store {
  const db = openDatabase(path);
  migrate(db);
  return createStore(db);
}
