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
