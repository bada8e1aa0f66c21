import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The files and folders Outing creates hold password hashes, webhook secrets and guests' data: they
 * are private to the user Outing runs as (files 0600, folders 0700), whatever the umask. The modes
 * are set explicitly, since a umask only ever takes bits away from the mode a file is created with.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_FOLDER = 0o700;

/** `mkdir -p` whose every folder it creates is 0700; folders that already exist are left as they are. */
export function makePrivateFolder(path: string): void {
  const target = resolve(path);
  const first = mkdirSync(target, { recursive: true, mode: PRIVATE_FOLDER });
  if (first === undefined) return;
  const top = resolve(first);
  for (let folder = target; ; folder = dirname(folder)) {
    chmodSync(folder, PRIVATE_FOLDER);
    if (folder === top || dirname(folder) === folder) break;
  }
}

/** Creates `path` empty and 0600 when it does not exist; answers whether it did. */
export function createPrivateFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fchmodSync(fd, PRIVATE_FILE);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Sets `path` to 0600 when it exists (a file SQLite made beside a database: its -wal, -shm, -journal). */
export function makePrivateIfPresent(path: string): void {
  try {
    chmodSync(path, PRIVATE_FILE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Copies `from` into the new file `to`, which is 0600 from its first byte (copyFile would give it `from`'s mode first). */
export function copyIntoPrivateFile(from: string, to: string): void {
  const input = openSync(from, 'r');
  try {
    const output = openSync(to, 'wx', PRIVATE_FILE);
    try {
      fchmodSync(output, PRIVATE_FILE);
      const chunk = Buffer.allocUnsafe(1 << 20);
      for (let at = 0; ; ) {
        const read = readSync(input, chunk, 0, chunk.length, at);
        if (read === 0) break;
        for (let written = 0; written < read; ) written += writeSync(output, chunk, written, read - written);
        at += read;
      }
    } finally {
      closeSync(output);
    }
  } finally {
    closeSync(input);
  }
}

/** Whether other users of the machine may read `path` (a database made before Outing kept its files private). */
export function readableByOthers(path: string): boolean {
  try {
    return (statSync(path).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}
