import { dirname } from 'node:path';
import { connect } from './db.js';
import { createPrivateFile, makePrivateFolder } from '../private-files.js';

/**
 * `<db>.lock`: a small SQLite file that a running server keeps under an exclusive lock, so that
 * `outing restore` can tell whether a server holds the database. The lock is the operating
 * system's (a POSIX record lock, taken through SQLite): it goes away with the process however the
 * process ends, SIGKILL and power loss included, so no stale pid file can block or fool a restore.
 * The file itself may stay on disk; only the lock on it means anything.
 */
export interface ServerLock {
  readonly path: string;
  release(): void;
}

export function serverLockPath(dbPath: string): string {
  return `${dbPath}.lock`;
}

const isBusy = (err: unknown) => (err as { code?: string }).code === 'SQLITE_BUSY' || (err as { code?: string }).code === 'SQLITE_LOCKED';

/**
 * Takes the lock of `dbPath` without waiting: the lock, or `undefined` when another process (or
 * another connection of this one) holds it. Other failures (a read-only folder…) are thrown.
 */
export function tryServerLock(dbPath: string): ServerLock | undefined {
  const path = serverLockPath(dbPath);
  // Taken before the database is opened, so its folder may not exist yet.
  makePrivateFolder(dirname(path));
  createPrivateFile(path);
  const db = connect(path, { timeout: 0 });
  try {
    // In EXCLUSIVE locking mode a connection keeps the lock of its first write until it closes.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = OFF');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since INTEGER NOT NULL)');
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, Date.now());
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    if (isBusy(err)) return undefined;
    throw err;
  }
  return {
    path,
    release: () => {
      if (db.open) db.close();
    },
  };
}

/**
 * The server's side, taken before the database is opened and released after it is closed. A
 * second server on the same file, or a folder where the lock file cannot be written, only loses
 * restore's protection: it is reported through `warn` and the server runs on.
 */
export function holdServerLock(dbPath: string, warn: (message: string, fields: Record<string, unknown>) => void): ServerLock {
  const none: ServerLock = { path: serverLockPath(dbPath), release: () => {} };
  if (dbPath === ':memory:') return none;
  try {
    const lock = tryServerLock(dbPath);
    if (lock) return lock;
    warn('another process holds the database lock: is a second server running on this database?', { lock: none.path });
  } catch (err) {
    warn('cannot take the database lock; outing restore will not see this server', { lock: none.path, error: (err as Error).message });
  }
  return none;
}
