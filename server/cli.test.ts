import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import {
  runCli, startTestServer, tempDir, expectError, expectList, expectData, fileDatabases, openStoreOn, testEngine,
  type CliResult, type ProcessDatabase, type TestServer,
} from './test-helpers/index.js';
import { Experience, Organization } from '../shared/index.js';

const KEY = (prefix: 'osk' | 'opk') => new RegExp(`^${prefix}_[0-9A-Za-z]{49}$`);

/** The one JSON object a creating command prints on stdout (and nothing else there). */
function printed(result: CliResult): Record<string, unknown> {
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines).toHaveLength(2); // one line and the final newline
  expect(lines[1]).toBe('');
  const value: unknown = JSON.parse(lines[0] ?? '');
  expect(value).toBeTypeOf('object');
  expect(Array.isArray(value)).toBe(false);
  return value as Record<string, unknown>;
}

/** A failure: exit 1, nothing on stdout, one line on stderr. */
function failed(result: CliResult, message?: RegExp): string {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  if (message) expect(result.stderr).toMatch(message);
  return result.stderr;
}

/**
 * The commands run on the engine under test (OUTING_TEST_ENGINE): each test takes databases of
 * its own, a SQLite file or a PostgreSQL database, given back once the file is done (the servers
 * of its tests are stopped by then).
 */
const database = fileDatabases();

/** Where a command's data is: its flag, its environment variable, and the file or URL itself. */
type Where = Pick<ProcessDatabase, 'args' | 'env' | 'path' | 'url'>;

/** The store over the same database, to look at what a command wrote. */
const openDatabase = openStoreOn;

/** Backups are SQLite's own (`outing backup` on a URL names pg_dump instead): those cases skip on PostgreSQL. */
const onPostgres = testEngine() !== 'sqlite';

async function init(db: Pick<ProcessDatabase, 'args'>, extra: string[] = [], env?: Record<string, string>) {
  return printed(await runCli(['init', '--name', 'Lisbon Walks', '--email', 'hello@lisbonwalks.example', ...db.args, ...extra], { env }));
}

const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
async function getJson(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
}

/** Waits until `check` holds (no fixed sleeps: the machine may be loaded). */
async function waitUntil(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

describe.concurrent('outing init', () => {
  it('prints exactly one JSON object with the organization’s id, keys and feed URL', async () => {
    const db = await database();
    const result = await runCli(['init', '--name', 'Lisbon Walks', '--email', 'hello@lisbonwalks.example', '--timezone', 'Europe/Lisbon', '--currency', 'eur', ...db.args]);
    const out = printed(result);
    expect(Object.keys(out).sort()).toEqual(['apiKey', 'apiKeyId', 'icalFeedUrl', 'organizationId', 'ownerSetupUrl', 'publishableKey']);
    expect(out.organizationId).toMatch(/^org_[A-Za-z0-9]+$/);
    expect(out.apiKeyId).toMatch(/^key_[A-Za-z0-9]+$/);
    expect(out.apiKey).toMatch(KEY('osk'));
    expect(out.publishableKey).toMatch(KEY('opk'));
    expect(out.icalFeedUrl).toMatch(/^http:\/\/localhost:3000\/api\/ical\/[A-Za-z0-9_-]{43}$/);
    expect(result.stderr.length).toBeGreaterThan(0); // the human message goes to stderr
    expect(result.stderr).not.toContain(String(out.apiKey));
    const store = await openDatabase(db);
    try {
      const org = await store.organizations.getOrganization(String(out.organizationId));
      expect(org).toMatchObject({ name: 'Lisbon Walks', email: 'hello@lisbonwalks.example', timezone: 'Europe/Lisbon', currency: 'EUR' });
    } finally {
      await store.close();
    }
  });

  it('defaults to UTC and USD, and builds the feed URL on PUBLIC_URL', async () => {
    const db = await database();
    const out = await init(db, [], { PUBLIC_URL: 'https://book.example.com/' });
    expect(out.icalFeedUrl).toMatch(/^https:\/\/book\.example\.com\/api\/ical\/[A-Za-z0-9_-]+$/);
    const store = await openDatabase(db);
    try {
      expect(await store.organizations.getOrganization(String(out.organizationId))).toMatchObject({ timezone: 'UTC', currency: 'USD' });
    } finally {
      await store.close();
    }
  });

  const bad: [string, string[], RegExp][] = [
    ['a bad --email', ['--name', 'A', '--email', 'not-an-email'], /email/],
    ['a bad --timezone', ['--name', 'A', '--email', 'a@b.co', '--timezone', 'Mars/Base'], /timezone/],
    ['JPY as --currency', ['--name', 'A', '--email', 'a@b.co', '--currency', 'JPY'], /currency/],
    ['an unknown --currency', ['--name', 'A', '--email', 'a@b.co', '--currency', 'ABC'], /currency/],
    ['a missing --name', ['--email', 'a@b.co'], /--name/],
    ['an empty --name', ['--name', ' ', '--email', 'a@b.co'], /--name/],
    ['a missing --email', ['--name', 'A'], /--email/],
    ['an unknown flag', ['--name', 'A', '--email', 'a@b.co', '--colour', 'red'], /colour/],
    ['a stray argument', ['--name', 'A', '--email', 'a@b.co', 'extra'], /extra/],
  ];
  for (const [what, args, message] of bad) {
    it(`fails with one line on stderr for ${what}`, async () => {
      const db = await database();
      failed(await runCli(['init', ...args, ...db.args]), message);
      // A SQLite file may not even have been made; a PostgreSQL database is there already.
      if (db.path === undefined || existsSync(db.path)) {
        const store = await openDatabase(db);
        try {
          expect(await store.organizations.countOrganizations()).toBe(0);
        } finally {
          await store.close();
        }
      }
    });
  }

  it('uses the database the environment names (DATABASE_PATH, DATABASE_URL), and the flag wins over it', async () => {
    // On SQLite, files in folders not made yet: the command makes the folder of the file it uses, and no other.
    const dir = tempDir();
    const file = (name: string): Where => {
      const path = join(dir, name, 'o.db');
      return { args: ['--db', path], env: { DATABASE_PATH: path }, path };
    };
    const [fromEnv, fromFlag, unused] = onPostgres ? await Promise.all([database(), database(), database()]) : [file('env'), file('flag'), file('unused')];
    const a = printed(await runCli(['init', '--name', 'A', '--email', 'a@b.co'], { env: fromEnv.env }));
    const b = await init(fromFlag, [], unused.env);
    const contents = async (db: Where) => {
      const store = await openDatabase(db);
      try {
        const found = await Promise.all([a, b].map((o) => store.organizations.getOrganization(String(o.organizationId))));
        return { count: await store.organizations.countOrganizations(), names: found.map((o) => o?.name ?? null) };
      } finally {
        await store.close();
      }
    };
    expect(await contents(fromEnv)).toEqual({ count: 1, names: ['A', null] });
    expect(await contents(fromFlag)).toEqual({ count: 1, names: [null, 'Lisbon Walks'] });
    if (unused.path !== undefined) expect(existsSync(dirname(unused.path))).toBe(false);
    else expect((await contents(unused)).count).toBe(0);
  });

  it('fails with one line for an invalid configuration variable', async () => {
    failed(await runCli(['init', '--name', 'A', '--email', 'a@b.co', ...(await database()).args], { env: { PUBLIC_URL: 'not a url' } }), /PUBLIC_URL/);
  });
});

describe.concurrent('outing keys', () => {
  it('creates a secret key with every scope by default', async () => {
    const db = await database();
    const org = await init(db);
    const out = printed(await runCli(['keys', 'create', '--org', String(org.organizationId), '--name', 'Zapier', ...db.args]));
    expect(Object.keys(out).sort()).toEqual(['id', 'key', 'name', 'scopes', 'type']);
    expect(out).toMatchObject({ name: 'Zapier', type: 'secret', scopes: ['*'] });
    expect(out.id).toMatch(/^key_/);
    expect(out.key).toMatch(KEY('osk'));
  });

  it('creates a key with the scopes given', async () => {
    const db = await database();
    const org = await init(db);
    const out = printed(await runCli(['keys', 'create', '--org', String(org.organizationId), '--name', 'Reader', '--scopes', 'experiences:read,bookings:read', ...db.args]));
    expect(out).toMatchObject({ type: 'secret', scopes: ['experiences:read', 'bookings:read'] });
  });

  it('creates a publishable key', async () => {
    const db = await database();
    const org = await init(db);
    const out = printed(await runCli(['keys', 'create', '--org', String(org.organizationId), '--name', 'Website', '--publishable', ...db.args]));
    expect(out).toMatchObject({ name: 'Website', type: 'publishable' });
    expect(out.key).toMatch(KEY('opk'));
  });

  it('refuses an unknown scope, an unknown organization and a missing name', async () => {
    const db = await database();
    const org = String((await init(db)).organizationId);
    const failures: [string[], RegExp | undefined][] = [
      [['keys', 'create', '--org', org, '--name', 'X', '--scopes', 'experiences:read,everything'], /everything/],
      [['keys', 'create', '--org', org, '--name', 'X', '--scopes', ','], /scope/],
      [['keys', 'create', '--org', org, '--name', 'X', '--publishable', '--scopes', 'experiences:read'], /scopes/],
      [['keys', 'create', '--org', 'org_doesnotexist', '--name', 'X'], /org_doesnotexist/],
      [['keys', 'create', '--org', 'nonsense', '--name', 'X'], /nonsense/],
      [['keys', 'create', '--org', org], /--name/],
      [['keys', 'list', '--org', 'org_doesnotexist'], /org_doesnotexist/],
      [['keys', 'revoke', 'key_doesnotexist'], /key_doesnotexist/],
      [['keys', 'revoke'], /KEY_ID/],
      [['keys', 'rotate'], /rotate/],
    ];
    const results = await Promise.all(failures.map(([args]) => runCli([...args, ...db.args])));
    results.forEach((result, i) => failed(result, failures[i]?.[1]));
    const list = printed(await runCli(['keys', 'list', '--org', org, ...db.args]));
    expect((list.data as unknown[]).length).toBe(2); // nothing was created by the failures
  });

  it('lists secret and publishable keys: publishable ones in full (outing init’s included), never a secret one', async () => {
    const db = await database();
    const org = await init(db);
    const orgId = String(org.organizationId);
    const extra = printed(await runCli(['keys', 'create', '--org', orgId, '--name', 'Reader', '--scopes', 'experiences:read', ...db.args]));
    const result = await runCli(['keys', 'list', '--org', orgId, ...db.args]);
    const out = printed(result);
    expect(Object.keys(out)).toEqual(['data']);
    const data = out.data as Record<string, unknown>[];
    expect(data).toHaveLength(3);
    for (const key of data) {
      expect(Object.keys(key).sort()).toEqual(['createdAt', 'id', 'key', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes', 'type']);
      expect(key.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(key.lastUsedAt).toBeNull();
      expect(key.revokedAt).toBeNull();
      expect(String(key.prefix).length).toBeLessThan(20);
    }
    expect(data.map((k) => k.type).sort()).toEqual(['publishable', 'secret', 'secret']);
    expect(data.find((k) => k.id === extra.id)).toMatchObject({ name: 'Reader', scopes: ['experiences:read'] });
    expect(data.find((k) => k.id === org.apiKeyId)).toMatchObject({ type: 'secret', scopes: ['*'] });
    // The key outing init printed for web pages is listed whole, so a fresh install's snippet can use it.
    expect(data.find((k) => k.type === 'publishable')).toMatchObject({ key: org.publishableKey });
    for (const secret of data.filter((k) => k.type === 'secret')) expect(secret.key).toBeNull();
    for (const full of [org.apiKey, extra.key]) {
      expect(result.stdout).not.toContain(String(full));
      expect(result.stdout).not.toContain(String(full).slice(12));
      expect(result.stderr).not.toContain(String(full));
    }
    expect(String(data.find((k) => k.id === extra.id)?.prefix)).toBe(String(extra.key).slice(0, String(data[0]?.prefix).length));
  });

  it('revokes a key: {id, revokedAt}, shown in the list', async () => {
    const db = await database();
    const org = await init(db);
    const out = printed(await runCli(['keys', 'revoke', String(org.apiKeyId), ...db.args]));
    expect(Object.keys(out).sort()).toEqual(['id', 'revokedAt']);
    expect(out.id).toBe(org.apiKeyId);
    expect(out.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const list = printed(await runCli(['keys', 'list', '--org', String(org.organizationId), ...db.args]));
    expect((list.data as Record<string, unknown>[]).find((k) => k.id === org.apiKeyId)?.revokedAt).toBe(out.revokedAt);
    // Revoking again keeps the first time.
    expect(printed(await runCli(['keys', 'revoke', String(org.apiKeyId), ...db.args])).revokedAt).toBe(out.revokedAt);
  });
});

describe.concurrent('outing orgs, and commands without --org', () => {
  it('takes the only organization when --org is left out, and says which', async () => {
    const db = await database();
    const org = await init(db);
    const keys = await runCli(['keys', 'list', ...db.args]);
    expect((printed(keys).data as unknown[]).length).toBe(2);
    expect(keys.stderr).toBe(`Organization ${org.organizationId} (Lisbon Walks), the only one in this database.\n`);
    const created = printed(await runCli(['keys', 'create', '--name', 'Zapier', ...db.args]));
    expect(created).toMatchObject({ name: 'Zapier', type: 'secret' });
    const user = printed(await runCli(['users', 'create', '--email', 'guide@lisbonwalks.example', '--name', 'Guide', ...db.args]));
    const users = printed(await runCli(['users', 'list', ...db.args]));
    expect((users.data as { id: string }[]).map((u) => u.id)).toContain(user.id);
    expect((printed(await runCli(['keys', 'list', '--org', String(org.organizationId), ...db.args])).data as unknown[]).length).toBe(3);
  });

  it('lists the organizations, and names the command when --org is needed or wrong', async () => {
    const db = await database();
    const first = await init(db);
    const second = printed(await runCli(['init', '--name', 'Porto Boats', '--email', 'hello@portoboats.example', ...db.args]));
    const orgs = printed(await runCli(['orgs', 'list', ...db.args]));
    expect((orgs.data as { id: string; name: string }[]).map((o) => [o.id, o.name])).toEqual([
      [first.organizationId, 'Lisbon Walks'],
      [second.organizationId, 'Porto Boats'],
    ]);
    expect(Organization.array().parse(orgs.data)).toHaveLength(2);
    for (const args of [['keys', 'list'], ['keys', 'create', '--name', 'X'], ['users', 'list'], ['users', 'create', '--email', 'a@b.example', '--name', 'A']]) {
      failed(await runCli([...args, ...db.args]), /--org is required: this database holds several organizations; outing orgs list shows the ids \(outing init printed yours as organizationId\)/);
    }
    failed(await runCli(['keys', 'list', '--org', 'org_nope', ...db.args]), /No organization org_nope: outing orgs list shows the ids/);
    failed(await runCli(['orgs', 'show', ...db.args]), /Unknown orgs command show; use orgs list/);
  });

  it('says to run outing init on a database without an organization', async () => {
    const db = await database();
    expect((await runCli(['migrate', ...db.args])).code).toBe(0);
    failed(await runCli(['keys', 'list', ...db.args]), /no organization yet: create one with outing init/);
    expect(printed(await runCli(['orgs', 'list', ...db.args]))).toEqual({ data: [] });
  });

  it('prints what a command group offers when its command is missing, not "Unknown … command"', async () => {
    for (const [args, usage] of [
      [['keys'], /^Usage: outing keys create [^]*outing keys list [^]*outing keys revoke /],
      [['keys', '--org', 'org_x'], /^Usage: outing keys create /],
      [['users'], /^Usage: outing users create [^]*outing users list [^]*outing users reset /],
      [['orgs'], /^Usage: outing orgs list/],
    ] as [string[], RegExp][]) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(usage);
      expect(result.stderr).not.toMatch(/Unknown|outing:/);
    }
  });
});

describe.concurrent('outing (other)', () => {
  it('fails on an unknown command', async () => {
    failed(await runCli(['frobnicate']), /frobnicate/);
  });

  it('prints the usage and fails without a command', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Usage: outing/);
  });

  it('prints the usage for --help and succeeds', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/keys create/);
  });

  it.skipIf(onPostgres)('backs up the database into a valid SQLite file: {file, bytes}', async () => {
    const dir = tempDir();
    const db = join(dir, 'o.db');
    const org = await init({ args: ['--db', db] });
    const file = join(dir, 'backups', 'copy.db');
    const out = printed(await runCli(['backup', file, '--db', db]));
    expect(out).toEqual({ file, bytes: readFileSync(file).length });
    expect(out.bytes).toBeGreaterThan(0);
    const copy = new Database(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT id FROM organizations').all()).toEqual([{ id: org.organizationId }]);
    } finally {
      copy.close();
    }
  });

  it.skipIf(onPostgres)('refuses to back up a missing database or onto itself', async () => {
    const dir = tempDir();
    failed(await runCli(['backup', join(dir, 'copy.db'), '--db', join(dir, 'none.db')]));
    expect(existsSync(join(dir, 'none.db'))).toBe(false);
    const db = join(dir, 'o.db');
    await init({ args: ['--db', db] });
    failed(await runCli(['backup', db, '--db', db]));
    failed(await runCli(['backup', '--db', db]), /FILE/);
    failed(await runCli(['backup', join(dir, 'a.db'), join(dir, 'b.db'), '--db', db]), /b\.db/);
  });
});

describe('outing serve', () => {
  describe('with the demo', () => {
    let server: TestServer;
    let db: ProcessDatabase;
    beforeAll(async () => {
      db = await database();
      server = await startTestServer({ demo: true, ...db.server });
    });
    afterAll(async () => {
      await server.stop();
    });

    it('prints the demo keys and URLs once, and the keys work', async () => {
      expect(server.demo).toBeDefined();
      const demo = server.demo!;
      expect(demo.secretKey).toMatch(KEY('osk'));
      expect(demo.publishableKey).toMatch(KEY('opk'));
      expect(demo.icalFeedUrl.startsWith(`${server.publicUrl}/api/ical/`)).toBe(true);
      expect(server.stderr).toContain(`${server.publicUrl}/docs`);
      expect(server.stderr).toContain(`${server.publicUrl}/demo`);
      const list = expectList(await getJson(`${server.url}/v1/experiences`, auth(demo.secretKey)), Experience);
      expect(list.data).toHaveLength(3);
      for (const exp of list.data) {
        expect(exp.active).toBe(true);
        expect(Object.values(exp.schedule?.weekly ?? {}).flat().length).toBeGreaterThan(0);
      }
      const org = expectData(await getJson(`${server.url}/v1/organization`, auth(demo.secretKey)), Organization);
      expect(org.name.length).toBeGreaterThan(0);
    });

    it('answers /healthz with 200 {"status":"ok"}', async () => {
      const res = await getJson(`${server.url}/healthz`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    });

    it('refuses a key revoked with the CLI at once, while serving', async () => {
      const org = expectData(await getJson(`${server.url}/v1/organization`, auth(server.demo!.secretKey)), Organization);
      const created = printed(await runCli(['keys', 'create', '--org', org.id, '--name', 'Temp', ...db.args]));
      const key = String(created.key);
      expect((await getJson(`${server.url}/v1/organization`, auth(key))).status).toBe(200);
      printed(await runCli(['keys', 'revoke', String(created.id), ...db.args]));
      expectError(await getJson(`${server.url}/v1/organization`, auth(key)), 401, 'INVALID_API_KEY');
      // lastUsedAt was recorded by the server.
      const list = printed(await runCli(['keys', 'list', '--org', org.id, ...db.args]));
      expect((list.data as Record<string, unknown>[]).find((k) => k.id === created.id)?.lastUsedAt).toMatch(/Z$/);
    });

    it.skipIf(onPostgres)('backs up while serving and writing', async () => {
      const key = server.demo!.secretKey;
      const writes = Array.from({ length: 20 }, (_, i) =>
        fetch(`${server.url}/v1/experiences`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Backup ${i}`, description: '', duration: 30, price: 0, maxParticipants: 2 }),
        }),
      );
      const file = join(tempDir(), 'live.db');
      const [result] = await Promise.all([runCli(['backup', file, ...db.args]), ...writes]);
      const out = printed(result);
      expect(out.file).toBe(file);
      const copy = new Database(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const n = (copy.prepare('SELECT count(*) AS n FROM experiences').get() as { n: number }).n;
        expect(n).toBeGreaterThanOrEqual(3);
        expect(n).toBeLessThanOrEqual(23);
      } finally {
        copy.close();
      }
    });

    it('writes JSON request lines on stdout without keys', async () => {
      const quiet = await startTestServer({ env: { LOG_LEVEL: 'info' }, ...db.server });
      try {
        const key = server.demo!.secretKey;
        await fetch(`${quiet.url}/v1/organization`, auth(key));
        await fetch(`${quiet.url}/public/v1/experiences?key=${server.demo!.publishableKey}`);
        const token = server.demo!.icalFeedUrl.split('/').at(-1) ?? '';
        await fetch(`${quiet.url}/api/ical/${token}`);
        await waitUntil(() => quiet.stdout.split('\n').filter((l) => l.includes('"msg":"request"')).length >= 3);
        expect(quiet.stdout.split('\n').filter((l) => l.includes('"msg":"request"'))).toHaveLength(3);
        const lines = quiet.stdout.trim().split('\n');
        for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
        for (const secret of [key, server.demo!.publishableKey, token]) expect(quiet.stdout).not.toContain(secret);
        expect(quiet.stderr).not.toContain('Secret key'); // the demo is seeded once
      } finally {
        expect((await quiet.stop()).code).toBe(0);
      }
    });
  });

  it('listens on PORT, and --port wins over it', async () => {
    const port = await freePort();
    const db = await database();
    const fromEnv = await startTestServer({ port: null, env: { PORT: String(port) }, ...db.server });
    try {
      expect(new URL(fromEnv.url).port).toBe(String(port));
      expect(fromEnv.publicUrl).toBe(`http://localhost:${port}`);
      expect((await getJson(`${fromEnv.url}/healthz`)).status).toBe(200);
    } finally {
      await fromEnv.stop();
    }
    const fromFlag = await startTestServer({ port: 0, env: { PORT: String(port) }, ...db.server });
    try {
      expect(new URL(fromFlag.url).port).not.toBe(String(port));
    } finally {
      await fromFlag.stop();
    }
  });

});

describe.concurrent('outing serve (each test its own server)', () => {
  it('keeps the demo’s banner on screen (requests logged only at LOG_LEVEL=debug), and prints the dashboard at every start', async () => {
    const [db, other] = await Promise.all([database(), database()]);
    const demo = await startTestServer({ demo: true, env: { LOG_LEVEL: 'info' }, ...db.server });
    try {
      for (const path of ['/healthz', '/v1/experiences', '/demo']) await fetch(`${demo.url}${path}`, auth(demo.demo!.secretKey));
      expect(demo.stderr).toContain(`Dashboard:        ${demo.publicUrl}/dashboard`);
      expect(demo.stderr).toMatch(/Owner password:\s+\S+/);
      expect(demo.stderr).toContain('Requests are not logged in the demo, so that this stays readable: LOG_LEVEL=debug shows them.');
    } finally {
      expect((await demo.stop()).code).toBe(0);
    }
    expect(demo.stdout).toContain('"msg":"listening"');
    expect(demo.stdout).not.toContain('"msg":"request"');

    // The second start of the demo: no keys any more, but still the dashboard's address.
    const again = await startTestServer({ demo: true, env: { LOG_LEVEL: 'debug' }, ...db.server });
    try {
      await fetch(`${again.url}/healthz`);
      await waitUntil(() => again.stdout.includes('"msg":"request"'));
      expect(again.stdout).toMatch(/"level":"debug","msg":"request"/);
      expect(again.stderr).toContain(`Dashboard:        ${again.publicUrl}/dashboard   (a forgotten password: outing users reset --email EMAIL)`);
    } finally {
      await again.stop();
    }

    const plain = await startTestServer({ env: { LOG_LEVEL: 'info' }, ...other.server });
    try {
      await fetch(`${plain.url}/healthz`);
      await waitUntil(() => plain.stdout.includes('"level":"info","msg":"request"'));
      expect(plain.stderr).toContain(`Dashboard:        ${plain.publicUrl}/dashboard`);
      expect(plain.stderr).not.toContain('Requests are not logged');
    } finally {
      await plain.stop();
    }
  });

  it('stops on SIGINT with exit code 0', async () => {
    const server = await startTestServer((await database()).server);
    expect((await getJson(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(server.stderr).toMatch(/SIGINT received/);
  });

  it('serves the database the environment names (DATABASE_PATH, DATABASE_URL) when no flag does, and the flag wins over it', async () => {
    const [db, other] = await Promise.all([database(), database()]);
    const org = await init(db);
    const fromEnv = await startTestServer({ dbPath: null, env: db.env });
    try {
      expectData(await getJson(`${fromEnv.url}/v1/organization`, auth(String(org.apiKey))), Organization);
    } finally {
      await fromEnv.stop();
    }
    const fromFlag = await startTestServer({ ...other.server, env: db.env });
    try {
      expectError(await getJson(`${fromFlag.url}/v1/organization`, auth(String(org.apiKey))), 401, 'INVALID_API_KEY');
    } finally {
      await fromFlag.stop();
    }
  });

  it('fails with one line on an unknown flag', async () => {
    failed(await runCli(['serve', '--port', '0', '--bogus', ...(await database()).args]), /bogus/);
  });

  it('fails with one line when the port is taken', async () => {
    const [db, other] = await Promise.all([database(), database()]);
    const server = await startTestServer(db.server);
    try {
      const port = new URL(server.url).port;
      failed(await runCli(['serve', '--port', port, '--host', '127.0.0.1', ...other.args]), /in use/);
    } finally {
      await server.stop();
    }
  });

  it('seeds the demo only on an empty database: once, and never over an existing organization', async () => {
    const [db, other] = await Promise.all([database(), database()]);
    const first = await startTestServer({ demo: true, ...db.server });
    expect(first.demo).toBeDefined();
    expect((await first.stop()).code).toBe(0);
    const again = await startTestServer({ demo: true, ...db.server });
    try {
      expect(again.demo).toBeUndefined();
      expect(again.stderr).not.toMatch(/osk_|opk_/);
      // The first run's keys still work.
      expect((await getJson(`${again.url}/v1/experiences`, auth(first.demo!.secretKey))).status).toBe(200);
    } finally {
      await again.stop();
    }
    await init(other);
    const existing = await startTestServer({ demo: true, ...other.server });
    try {
      expect(existing.demo).toBeUndefined();
      expect(existing.stderr).not.toMatch(/osk_|opk_/);
    } finally {
      await existing.stop();
    }
  });

  it('stops on SIGTERM, finishing the request in flight and refusing new connections, then exits 0', async () => {
    const db = await database();
    const server = await startTestServer({ demo: true, ...db.server });
    const key = server.demo!.secretKey;
    const body = JSON.stringify({ name: 'In flight', description: '', duration: 60, price: 0, maxParticipants: 2 });
    const url = new URL(server.url);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/v1/experiences',
        // 100-continue proves the server has taken the request before the signal is sent.
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
      });
      req.on('continue', () => {
        req.write(body.slice(0, 10));
        server.child.kill('SIGTERM');
        void (async () => {
          await waitUntil(() => server.stderr.includes('SIGTERM received'));
          const refused = await fetch(`${server.url}/healthz`).then(() => false, () => true);
          req.end(body.slice(10));
          if (!refused) reject(new Error('A new connection was accepted after SIGTERM'));
        })().catch(reject);
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
    });
    const res = await response;
    expect(res.status).toBe(201);
    expectData({ status: res.status, body: JSON.parse(res.body) }, Experience, 201);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // The request's work was committed before the database closed.
    const store = await openDatabase(db);
    try {
      const orgId = await store.settings.getSetting('demo.organizationId') ?? '';
      expect((await store.experiences.listAllExperiences(orgId)).map((e) => e.name)).toContain('In flight');
    } finally {
      await store.close();
    }
  });
});
