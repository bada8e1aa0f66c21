import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOrganization } from '../test-helpers/index.js';
import { openStore } from './sqlite/store.js';
import { restoreDatabase } from './sqlite/restore.js';
import { holdServerLock, serverLockPath } from './sqlite/server-lock.js';
import { copyIntoPrivateFile, makePrivateFolder, readableByOthers } from './private-files.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

// The usual umask, under which files are created 0644 and folders 0755 unless told otherwise.
let umask: number;
let dir: string;
beforeEach(() => {
  umask = process.umask(0o022);
  dir = mkdtempSync(join(tmpdir(), 'outing-private-'));
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

describe('the files Outing creates are private to its user', () => {
  it('makes a new database 0600, with its -wal and -shm, in folders it creates 0700', async () => {
    const file = join(dir, 'data/nested/outing.db');
    const store = openStore(file);
    const lock = holdServerLock(file, () => {});
    try {
      await addOrganization(store);
      for (const path of [file, `${file}-wal`, `${file}-shm`, serverLockPath(file)]) {
        expect(existsSync(path), path).toBe(true);
        expect(modeOf(path), path).toBe(0o600);
      }
      expect(modeOf(join(dir, 'data'))).toBe(0o700);
      expect(modeOf(join(dir, 'data/nested'))).toBe(0o700);
      // A folder that was there already is left as it was.
      expect(modeOf(dir)).toBe(0o700);
    } finally {
      lock.release();
      await store.close();
    }
    expect(readableByOthers(file)).toBe(false);
  });

  it('leaves an existing database’s mode alone, and says it is readable by others', async () => {
    const file = join(dir, 'outing.db');
    await openStore(file).close();
    chmodSync(file, 0o644);
    await openStore(file).close();
    expect(modeOf(file)).toBe(0o644);
    expect(readableByOthers(file)).toBe(true);
  });

  it('writes a backup 0600 in folders it creates 0700, also over an older readable file', async () => {
    const store = openStore(join(dir, 'outing.db'));
    try {
      await addOrganization(store);
      const fresh = join(dir, 'backups/2026/outing.db');
      await store.backupTo(fresh);
      expect(modeOf(fresh)).toBe(0o600);
      expect(modeOf(join(dir, 'backups'))).toBe(0o700);
      expect(modeOf(join(dir, 'backups/2026'))).toBe(0o700);

      const older = join(dir, 'older.db');
      await store.backupTo(older);
      chmodSync(older, 0o644);
      await store.backupTo(older);
      expect(modeOf(older)).toBe(0o600);
    } finally {
      await store.close();
    }
  });

  it('restores into a new database 0600 in folders it creates 0700, whatever the backup’s mode', async () => {
    const live = openStore(join(dir, 'live.db'));
    const backup = join(dir, 'backup.db');
    try {
      await addOrganization(live);
      await live.backupTo(backup);
    } finally {
      await live.close();
    }
    chmodSync(backup, 0o644);
    const target = join(dir, 'restored/here/outing.db');
    restoreDatabase(backup, target);
    expect(modeOf(target)).toBe(0o600);
    expect(modeOf(join(dir, 'restored'))).toBe(0o700);
    expect(modeOf(join(dir, 'restored/here'))).toBe(0o700);
    const reopened = openStore(target);
    try {
      expect(await reopened.organizations.countOrganizations()).toBe(1);
    } finally {
      await reopened.close();
    }
  });

  it('copies a file into a new one that is 0600 from the start', () => {
    const from = join(dir, 'from.bin');
    writeFileSync(from, Buffer.alloc(3 * 1024 * 1024 + 7, 1), { mode: 0o644 });
    const to = join(dir, 'to.bin');
    copyIntoPrivateFile(from, to);
    expect(modeOf(to)).toBe(0o600);
    expect(statSync(to).size).toBe(3 * 1024 * 1024 + 7);
    expect(() => copyIntoPrivateFile(from, to)).toThrow(/EEXIST/);
    makePrivateFolder(join(dir, 'a/b/c'));
    for (const folder of ['a', 'a/b', 'a/b/c']) expect(modeOf(join(dir, folder))).toBe(0o700);
  });
});
