import { describe, expect, it } from 'vitest';
import { runCli, startTestServer, expectData, expectError, fileDatabases, openStoreOn, type CliResult, type ProcessDatabase } from './test-helpers/index.js';
import { Session, User } from '../shared/index.js';

/** The one JSON object a command prints on stdout, and nothing else there. */
function printed(result: CliResult): Record<string, unknown> {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.endsWith('\n')).toBe(true);
  expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

function failed(result: CliResult, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

const SETUP_URL = /^https:\/\/book\.example\.com\/dashboard\/setup#[A-Za-z0-9_-]{43}$/;
const env = { PUBLIC_URL: 'https://book.example.com' };

/**
 * Each test's database, of the engine under test (a SQLite file, or a PostgreSQL database in the
 * OUTING_TEST_ENGINE=postgres run), given back once the file is done.
 */
const database = fileDatabases();

const openDatabase = openStoreOn;

async function init(db: ProcessDatabase) {
  return printed(await runCli(['init', '--name', 'Lisbon Walks', '--email', 'Hello@LisbonWalks.example', ...db.args], { env }));
}

async function activityOf(db: ProcessDatabase, orgId: string) {
  const store = await openDatabase(db);
  try {
    return (await store.activity.listActivity(orgId, {}, { limit: 100, offset: 0 })).rows;
  } finally {
    await store.close();
  }
}

describe.concurrent('outing users', { timeout: 120_000 }, () => {
  it('init creates an owner named after the organization, with a setup link', async () => {
    const db = await database();
    const out = await init(db);
    expect(out.ownerSetupUrl).toMatch(SETUP_URL);
    const list = printed(await runCli(['users', 'list', '--org', String(out.organizationId), ...db.args]));
    const users = (list.data as unknown[]).map((u) => User.parse(u));
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: 'Hello@LisbonWalks.example', name: 'Lisbon Walks', role: 'owner', lastSignInAt: null, disabledAt: null });
    // The e-mail is taken on the whole server now, in any case.
    failed(await runCli(['init', '--name', 'Copy', '--email', 'hello@lisbonwalks.EXAMPLE', ...db.args]), /already in use/);
  });

  it('create, list and reset print one JSON object each, and are logged as the command line', async () => {
    const db = await database();
    const org = String((await init(db)).organizationId);
    const made = printed(await runCli(['users', 'create', '--org', org, '--email', 'guide@lisbonwalks.example', '--name', 'Gil', ...db.args], { env }));
    expect(Object.keys(made).sort()).toEqual(['email', 'id', 'name', 'role', 'setupUrl']);
    expect(made).toMatchObject({ email: 'guide@lisbonwalks.example', name: 'Gil', role: 'staff' });
    expect(made.setupUrl).toMatch(SETUP_URL);
    const owner = printed(await runCli(['users', 'create', '--org', org, '--email', 'co@lisbonwalks.example', '--name', 'Co', '--role', 'owner', ...db.args], { env }));
    expect(owner.role).toBe('owner');

    const list = printed(await runCli(['users', 'list', '--org', org, ...db.args]));
    expect(Object.keys(list)).toEqual(['data']);
    expect((list.data as { email: string }[]).map((u) => u.email)).toEqual(['Hello@LisbonWalks.example', 'guide@lisbonwalks.example', 'co@lisbonwalks.example']);

    const reset = printed(await runCli(['users', 'reset', '--email', 'GUIDE@lisbonwalks.example', ...db.args], { env }));
    expect(Object.keys(reset).sort()).toEqual(['id', 'setupUrl']);
    expect(reset.id).toBe(made.id);
    expect(reset.setupUrl).toMatch(SETUP_URL);
    expect(reset.setupUrl).not.toBe(made.setupUrl);

    const entries = await activityOf(db, org);
    expect(entries.filter((e) => e.action === 'user.create').map((e) => e.targetId)).toEqual(expect.arrayContaining([made.id, owner.id]));
    expect(entries.find((e) => e.action === 'user.reset')).toMatchObject({ targetId: made.id, actorType: 'cli' });
    expect(entries.every((e) => e.actorType === 'cli')).toBe(true);
  });

  it('keys create and revoke are logged as the command line', async () => {
    const db = await database();
    const org = String((await init(db)).organizationId);
    const key = printed(await runCli(['keys', 'create', '--org', org, '--name', 'Ops', '--scopes', 'users:read,keys:read', ...db.args]));
    expect(key.scopes).toEqual(['users:read', 'keys:read']);
    printed(await runCli(['keys', 'revoke', String(key.id), ...db.args]));
    const entries = await activityOf(db, org);
    expect(entries.find((e) => e.action === 'api_key.create')).toMatchObject({ targetId: key.id, actorType: 'cli' });
    expect(entries.find((e) => e.action === 'api_key.revoke')).toMatchObject({ targetId: key.id, actorType: 'cli' });
  });

  it('refuses bad input with one line and exit 1', async () => {
    const db = await database();
    const org = String((await init(db)).organizationId);
    failed(await runCli(['users', 'create', '--org', org, '--email', 'nope', '--name', 'X', ...db.args]), /--email/);
    failed(await runCli(['users', 'create', '--org', org, '--email', 'a@b.example', '--name', 'X', '--role', 'admin', ...db.args]), /--role/);
    failed(await runCli(['users', 'create', '--org', org, '--email', 'a@b.example', ...db.args]), /--name is required/);
    failed(await runCli(['users', 'create', '--org', 'org_nope', '--email', 'a@b.example', '--name', 'X', ...db.args]), /No organization/);
    failed(await runCli(['users', 'create', '--org', org, '--email', 'HELLO@lisbonwalks.example', '--name', 'X', ...db.args]), /already in use/);
    failed(await runCli(['users', 'reset', '--email', 'nobody@example.com', ...db.args]), /No user/);
    failed(await runCli(['users', 'list', '--org', 'org_nope', ...db.args]), /No organization/);
    failed(await runCli(['users', 'rename', ...db.args]), /Unknown users command/);
  });

  it('prints usage on --help', async () => {
    for (const [args, usage] of [
      [['users', '--help'], /^Usage: outing users create [^]*outing users list [^]*outing users reset /],
      [['users', 'create', '--help'], /^Usage: outing users create \[--org ORG_ID\] --email EMAIL --name NAME \[--role owner\|staff\]/],
      [['users', 'list', '-h'], /^Usage: outing users list \[--org ORG_ID\]/],
      [['users', 'reset', '--help'], /^Usage: outing users reset --email EMAIL/],
    ] as [string[], RegExp][]) {
      const result = await runCli(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(usage);
    }
    expect((await runCli(['--help'])).stderr).toMatch(/users create \[--org ORG_ID\]/);
  });

  it('a reset ends the user’s sessions at once, on a running server', async () => {
    const db = await database();
    const server = await startTestServer({ demo: true, ...db.server });
    try {
      const email = /Owner e-mail:\s+(\S+)/.exec(server.stderr)?.[1] ?? '';
      const password = /Owner password:\s+(\S+)/.exec(server.stderr)?.[1] ?? '';
      expect(server.stderr).toContain(`Dashboard:        ${server.publicUrl}/dashboard`);
      expect(password.length).toBeGreaterThanOrEqual(16);
      const res = await fetch(`${server.url}/dashboard/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      const session = expectData({ status: res.status, body: await res.json() }, Session);
      expect(session.user.role).toBe('owner');
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const headers = { cookie, 'x-csrf-token': session.csrfToken };
      expect((await fetch(`${server.url}/v1/users`, { headers })).status).toBe(200);

      const reset = printed(await runCli(['users', 'reset', '--email', email, ...db.args]));
      expect(reset.id).toBe(session.user.id);
      const after = await fetch(`${server.url}/v1/users`, { headers });
      expectError({ status: after.status, body: await after.json() }, 401, 'UNAUTHORIZED');
      // The generated password is not in the server's log lines on stdout.
      expect(server.stdout).not.toContain(password);
    } finally {
      await server.stop();
    }
  });
});
