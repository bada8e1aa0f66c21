import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { addOrganization } from '../test-helpers/index.js';
import { type Store } from './index.js';
import { openStore } from './sqlite/store.js';
import { restoreDatabase, RestoreError } from './sqlite/restore.js';
import { holdServerLock, serverLockPath, tryServerLock } from './sqlite/server-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outing-restore-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A database with one organization per name given, closed again. */
async function databaseWith(file: string, names: string[]): Promise<void> {
  const store = openStore(file);
  for (const name of names) await addOrganization(store, { name });
  await store.close();
}

function organizationNames(file: string): string[] {
  const db = new Database(file, { fileMustExist: true });
  try {
    return (db.prepare('SELECT name FROM organizations ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
}

async function backupOf(names: string[]): Promise<string> {
  const live = join(dir, `live-${names.join('-')}.db`);
  await databaseWith(live, names);
  const store: Store = openStore(live);
  const file = join(dir, `backup-${names.join('-')}.db`);
  await store.backupTo(file);
  await store.close();
  return file;
}

function expectRefusal(run: () => unknown, message: RegExp): void {
  expect(run).toThrow(RestoreError);
  expect(run).toThrow(message);
}

describe('restoreDatabase', () => {
  it('replaces the database with the backup and reports its size', async () => {
    const backup = await backupOf(['Backup Tours']);
    const db = join(dir, 'outing.db');
    await databaseWith(db, ['Current Tours', 'Other Tours']);
    const { bytes } = restoreDatabase(backup, db);
    expect(bytes).toBeGreaterThan(0);
    expect(organizationNames(db)).toEqual(['Backup Tours']);
  });

  it('leaves the database writable when the backup file is read-only', async () => {
    const backup = await backupOf(['Backup Tours']);
    chmodSync(backup, 0o444);
    const db = join(dir, 'outing.db');
    await databaseWith(db, ['Current Tours']);
    chmodSync(db, 0o640);
    restoreDatabase(backup, db);
    expect(statSync(db).mode & 0o777).toBe(0o640);
    await databaseWith(db, ['Added After Restore']);
    expect(organizationNames(db)).toEqual(['Added After Restore', 'Backup Tours']);
  });

  it('restores into a folder that has no database yet', async () => {
    const backup = await backupOf(['Backup Tours']);
    const db = join(dir, 'new/place/outing.db');
    restoreDatabase(backup, db);
    expect(organizationNames(db)).toEqual(['Backup Tours']);
  });

  it('discards the old database’s -wal and -shm instead of replaying them into the restored one', async () => {
    const backup = await backupOf(['Backup Tours']);
    // A database whose last writes sit in its -wal, as a killed server leaves it: copy the files
    // while a connection holds them open.
    const source = join(dir, 'crashed-source.db');
    const store = openStore(source);
    await addOrganization(store, { name: 'Crashed Tours' });
    const db = join(dir, 'outing.db');
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(source + suffix)) copyFileSync(source + suffix, db + suffix);
    await store.close();
    expect(existsSync(`${db}-wal`)).toBe(true);

    restoreDatabase(backup, db);
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(existsSync(`${db}-shm`)).toBe(false);
    const check = new Database(db);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    expect(organizationNames(db)).toEqual(['Backup Tours']);
  });

  it('refuses while a server holds the database, and goes ahead once it is gone', async () => {
    const backup = await backupOf(['Backup Tours']);
    const db = join(dir, 'outing.db');
    await databaseWith(db, ['Current Tours']);
    const lock = holdServerLock(db, () => {
      throw new Error('the lock should be free');
    });
    expectRefusal(() => restoreDatabase(backup, db), /running Outing server holds .*outing\.db: stop it/);
    expect(organizationNames(db)).toEqual(['Current Tours']);
    lock.release();
    restoreDatabase(backup, db);
    expect(organizationNames(db)).toEqual(['Backup Tours']);
  });

  it('refuses a file that is not a SQLite database, and leaves the database alone', async () => {
    const db = join(dir, 'outing.db');
    await databaseWith(db, ['Current Tours']);
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'not a database '.repeat(100));
    expectRefusal(() => restoreDatabase(notes, db), /is not a SQLite database/);
    expectRefusal(() => restoreDatabase(join(dir, 'missing.db'), db), /No backup at/);
    expect(organizationNames(db)).toEqual(['Current Tours']);
  });

  it('refuses a SQLite database that Outing did not make', () => {
    const other = join(dir, 'other.db');
    const foreign = new Database(other);
    foreign.exec('CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (1)');
    foreign.close();
    expectRefusal(() => restoreDatabase(other, join(dir, 'outing.db')), /not an Outing database \(it has no schema_migrations table\)/);
    expect(existsSync(join(dir, 'outing.db'))).toBe(false);
  });

  it('refuses a backup made by a newer Outing', async () => {
    const backup = await backupOf(['Future Tours']);
    const db = new Database(backup);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_future.sql', 0)").run();
    db.close();
    expectRefusal(() => restoreDatabase(backup, join(dir, 'outing.db')), /made by a newer Outing \(schema version 999/);
  });

  it('refuses a damaged backup', async () => {
    const backup = await backupOf(['Damaged Tours']);
    const bytes = readFileSync(backup);
    // Scribble over every page after the first: the header still reads as SQLite.
    for (let i = 4096; i < bytes.length; i += 97) bytes[i] = (bytes[i] ?? 0) ^ 0x5a;
    writeFileSync(backup, bytes);
    expectRefusal(() => restoreDatabase(backup, join(dir, 'outing.db')), /damaged|not a readable SQLite database|cannot be opened/);
    expect(existsSync(join(dir, 'outing.db'))).toBe(false);
    expect(existsSync(join(dir, 'outing.db.restoring'))).toBe(false);
  });

  it('refuses a live database with its -wal beside it rather than lose what the -wal holds', async () => {
    const live = join(dir, 'live.db');
    const store = openStore(live);
    await addOrganization(store, { name: 'Live Tours' });
    try {
      expectRefusal(() => restoreDatabase(live, join(dir, 'outing.db')), /is a live database, not a backup/);
    } finally {
      await store.close();
    }
  });
});

describe('the server lock', () => {
  it('is held by one holder at a time and free again once released', () => {
    const db = join(dir, 'outing.db');
    const first = tryServerLock(db);
    expect(first?.path).toBe(serverLockPath(db));
    expect(tryServerLock(db)).toBeUndefined();
    first?.release();
    const again = tryServerLock(db);
    expect(again).toBeDefined();
    again?.release();
  });

  it('is taken before the database exists, its folder included', () => {
    const warnings: string[] = [];
    const lock = holdServerLock(join(dir, 'not/yet/outing.db'), (msg) => warnings.push(msg));
    expect(warnings).toEqual([]);
    expect(tryServerLock(join(dir, 'not/yet/outing.db'))).toBeUndefined();
    lock.release();
  });

  it('lets a second server run (with a warning) when the lock is taken', () => {
    const db = join(dir, 'outing.db');
    const warnings: string[] = [];
    const first = holdServerLock(db, (msg) => warnings.push(msg));
    const second = holdServerLock(db, (msg) => warnings.push(msg));
    expect(warnings).toEqual([expect.stringMatching(/another process holds the database lock/)]);
    second.release();
    expect(tryServerLock(db)).toBeUndefined();
    first.release();
  });
});
