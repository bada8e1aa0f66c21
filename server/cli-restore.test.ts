import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Organization } from '../shared/index.js';
import { expectData, runCli, startTestServer, tempDir, type TestServer } from './test-helpers/index.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
});

async function serve(dbPath: string): Promise<TestServer> {
  const server = await startTestServer({ dbPath });
  servers.push(server);
  return server;
}

function expectOneLineError(result: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^outing: .+\n$/);
  expect(result.stderr).toMatch(message);
}

async function organizationName(server: TestServer, key: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/organization`, { headers: { authorization: `Bearer ${key}` } });
  return expectData({ status: res.status, body: await res.json() }, Organization).name;
}

describe('outing restore', () => {
  it('refuses while a server runs on the database, then restores once it is gone (even killed)', async () => {
    const dir = tempDir();
    const db = join(dir, 'outing.db');
    const init = await runCli(['init', '--name', 'Before Backup', '--email', 'owner@before.example', '--db', db]);
    expect(init.code, init.stderr).toBe(0);
    const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };

    let server = await serve(db);
    const backupFile = join(dir, 'backups/outing-1.db');
    const backup = await runCli(['backup', backupFile, '--db', db]);
    expect(backup.code, backup.stderr).toBe(0);
    const renamed = await fetch(`${server.url}/v1/organization`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After Backup' }),
    });
    expect(renamed.status).toBe(200);

    const refused = await runCli(['restore', backupFile, '--db', db]);
    expectOneLineError(refused, /A running Outing server holds .*outing\.db: stop it, then restore/);
    expect(await organizationName(server, apiKey)).toBe('After Backup');

    // SIGKILL leaves no chance to clean up: the lock must still be gone with the process.
    await server.stop('SIGKILL');
    const restored = await runCli(['restore', backupFile, '--db', db]);
    expect(restored.code, restored.stderr).toBe(0);
    const printed = JSON.parse(restored.stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual(['restored', 'db', 'bytes']);
    expect(printed).toMatchObject({ restored: backupFile, db });
    expect(printed.bytes).toBeGreaterThan(0);

    server = await serve(db);
    expect(await organizationName(server, apiKey)).toBe('Before Backup');
  });

  it('takes DATABASE_PATH like every other command, with --db winning', async () => {
    const dir = tempDir();
    const db = join(dir, 'outing.db');
    expect((await runCli(['init', '--name', 'Env Tours', '--email', 'owner@env.example', '--db', db])).code).toBe(0);
    const backupFile = join(dir, 'backup.db');
    expect((await runCli(['backup', backupFile], { env: { DATABASE_PATH: db } })).code).toBe(0);
    const restored = await runCli(['restore', backupFile], { env: { DATABASE_PATH: join(dir, 'from-env.db') } });
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ db: join(dir, 'from-env.db') });
  });

  it('explains what is wrong in one line: no file, not a backup, extra arguments', async () => {
    const dir = tempDir();
    expectOneLineError(await runCli(['restore', '--db', join(dir, 'outing.db')]), /restore needs a FILE/);
    expectOneLineError(await runCli(['restore', join(dir, 'nope.db'), '--db', join(dir, 'outing.db')]), /No backup at .*nope\.db/);
    expectOneLineError(await runCli(['restore', 'a.db', 'b.db']), /Unexpected argument: b\.db/);
    expectOneLineError(await runCli(['restore', join(dir, 'x.db'), '--db', join(dir, 'x.db')]), /The backup file is the database itself/);
  });
});

describe('the files the commands create', () => {
  it('are private to the user (0600 files, 0700 folders) under the usual umask of 022', async () => {
    const umask = process.umask(0o022);
    try {
      const dir = tempDir();
      const db = join(dir, 'data/outing.db');
      const init = await runCli(['init', '--name', 'Private Tours', '--email', 'owner@private.example', '--db', db]);
      expect(init.code, init.stderr).toBe(0);
      const server = await serve(db);
      const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };
      expect(await organizationName(server, apiKey)).toBe('Private Tours');
      const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
      // While the server runs: the database, its write-ahead log and index, and the server's lock.
      for (const file of [db, `${db}-wal`, `${db}-shm`, `${db}.lock`]) expect(`${file} ${mode(file)}`).toBe(`${file} 600`);
      const backup = join(dir, 'backups/nightly/outing.db');
      expect((await runCli(['backup', backup, '--db', db])).code).toBe(0);
      await server.stop();
      const restored = join(dir, 'elsewhere/outing.db');
      expect((await runCli(['restore', backup, '--db', restored])).code).toBe(0);
      for (const file of [backup, restored]) expect(`${file} ${mode(file)}`).toBe(`${file} 600`);
      for (const folder of ['data', 'backups', 'backups/nightly', 'elsewhere']) {
        expect(`${folder} ${mode(join(dir, folder))}`).toBe(`${folder} 700`);
      }
      // The server said nothing about the files being readable by others: they are not.
      expect(server.stdout).not.toContain('other users of this machine');
    } finally {
      process.umask(umask);
    }
  });

  it('a database others can read is named at start', async () => {
    const dir = tempDir();
    const db = join(dir, 'outing.db');
    expect((await runCli(['init', '--name', 'Open Tours', '--email', 'owner@open.example', '--db', db])).code).toBe(0);
    chmodSync(db, 0o644);
    const server = await serve(db);
    await server.stop();
    expect(server.stdout).toMatch(/"level":"warn","msg":"other users of this machine can read the database: chmod 600/);
  });
});
