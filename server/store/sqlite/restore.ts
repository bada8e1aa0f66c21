import { chmodSync, closeSync, existsSync, fsyncSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { connect } from './db.js';
import { readMigrations } from '../migrations.js';
import { tryServerLock } from './server-lock.js';
import { copyIntoPrivateFile, makePrivateFolder } from '../private-files.js';

/** A restore that cannot go ahead; the message tells the operator why, in one line. */
export class RestoreError extends Error {}

const SQLITE_HEADER = 'SQLite format 3\0';
/** The files SQLite keeps beside a database; a stale one would be replayed into the restored file. */
const SIDECARS = ['-wal', '-shm', '-journal'];

/** `path` with `..` and symbolic links resolved, also when it (or what its link points at) does not exist yet. */
function canonicalPath(path: string, hops = 0): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    // missing, or a link to something missing
  }
  try {
    if (hops < 40 && lstatSync(abs).isSymbolicLink()) return canonicalPath(resolve(dirname(abs), readlinkSync(abs)), hops + 1);
  } catch {
    // not there at all
  }
  try {
    return join(realpathSync(dirname(abs)), basename(abs));
  } catch {
    return abs;
  }
}

function sameInode(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/**
 * Whether `path` names the database at `dbPath`, or one of the files SQLite keeps beside it, under
 * any other name: through `..`, a symbolic link (even one to a file not there yet), or a hard link
 * (the same device and inode). Comparing the spelled paths alone misses all three, and writing a
 * backup "to" the live database would roll it back to itself mid-write.
 */
export function isDatabaseFile(path: string, dbPath: string): boolean {
  const target = canonicalPath(path);
  return ['', ...SIDECARS].some((suffix) => {
    const file = `${dbPath}${suffix}`;
    return target === canonicalPath(file) || sameInode(path, file);
  });
}

function readHeader(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    return buf.subarray(0, n).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks the copy that is about to replace the database: intact, made by Outing (it has
 * `schema_migrations`, starting at version 1), and not by a newer Outing than this one. Then
 * leaves it self-contained (rollback journal, no -wal beside it); the server turns WAL on again.
 */
function checkCopy(file: string, source: string): void {
  let db;
  try {
    db = connect(file, { fileMustExist: true, timeout: 0 });
  } catch (err) {
    throw new RestoreError(`${source} cannot be opened as a SQLite database: ${(err as Error).message}`);
  }
  try {
    let check: string;
    try {
      check = String(db.pragma('quick_check', { simple: true }));
    } catch (err) {
      throw new RestoreError(`${source} is not a readable SQLite database: ${(err as Error).message}`);
    }
    if (check !== 'ok') throw new RestoreError(`${source} is damaged (SQLite quick_check: ${check.split('\n')[0]})`);
    const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!table) throw new RestoreError(`${source} is not an Outing database (it has no schema_migrations table)`);
    const versions = (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map(
      (r) => r.version,
    );
    if (versions[0] !== 1) throw new RestoreError(`${source} is not an Outing database (its schema_migrations lacks version 1)`);
    const newest = versions[versions.length - 1] ?? 1;
    const known = Math.max(...readMigrations().map((m) => m.version));
    if (newest > known) {
      throw new RestoreError(`${source} was made by a newer Outing (schema version ${newest}; this one knows up to ${known}): upgrade first`);
    }
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/**
 * Replaces the database at `dbPath` with the backup `source`, refusing while a server holds it.
 * The backup is copied beside the database, checked there, and renamed over it in one step, so
 * the database is at every moment either the old one or the whole new one; stale -wal/-shm/-journal
 * files of the old database are removed first, since SQLite would replay them into the new one.
 */
export function restoreDatabase(source: string, dbPath: string): { bytes: number } {
  const from = resolve(source);
  const to = resolve(dbPath);
  if (isDatabaseFile(from, to)) throw new RestoreError('The backup file is the database itself (or one of its -wal, -shm, -journal files)');
  let size: number;
  try {
    const stat = statSync(from);
    if (!stat.isFile()) throw new RestoreError(`${from} is not a file`);
    size = stat.size;
  } catch (err) {
    if (err instanceof RestoreError) throw err;
    throw new RestoreError(`No backup at ${from}`);
  }
  if (size < 512 || readHeader(from) !== SQLITE_HEADER) throw new RestoreError(`${from} is not a SQLite database`);
  if (existsSync(`${from}-wal`) && statSync(`${from}-wal`).size > 0) {
    throw new RestoreError(`${from}-wal exists: ${from} is a live database, not a backup (make one with outing backup)`);
  }

  makePrivateFolder(dirname(to));
  const lock = tryServerLock(to);
  if (!lock) throw new RestoreError(`A running Outing server holds ${to}: stop it, then restore`);
  const staging = `${to}.restoring`;
  const clearStaging = () => {
    for (const suffix of ['', ...SIDECARS]) rmSync(`${staging}${suffix}`, { force: true });
  };
  try {
    clearStaging();
    // Private to this user (0600) from its first byte, whatever the backup's mode or the umask; a
    // database that was there keeps its own mode (the operator's choice), never the backup's.
    const mode = existsSync(to) ? statSync(to).mode & 0o777 : undefined;
    copyIntoPrivateFile(from, staging);
    if (mode !== undefined) chmodSync(staging, mode | 0o600);
    checkCopy(staging, from);
    fsyncPath(staging);
    for (const suffix of SIDECARS) rmSync(`${to}${suffix}`, { force: true });
    renameSync(staging, to);
    fsyncPath(dirname(to));
    return { bytes: statSync(to).size };
  } finally {
    clearStaging();
    lock.release();
  }
}
