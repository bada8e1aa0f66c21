import { createServer, Socket, type Server } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createStore } from './store/sqlite/store.js';
import { migrate, openDatabase } from './store/sqlite/db.js';
import { connectPostgres } from './store/postgres/db.js';
import { createPostgresStore } from './store/postgres/index.js';
import { asUnavailable, isDatabaseUnavailable } from './store/unavailable.js';
import { Refusal } from './domain/refusal.js';
import { generateApiKey } from './domain/api-keys.js';
import { addOrganization, expectError, runCli, startTestServer, tempDir, type TestServer } from './test-helpers/index.js';
import { createTestDatabase, postgresSkipReason, testDatabaseUrl, type TestDatabase } from './test-helpers/postgres.js';

/** A TCP relay to the test cluster that can be cut and restored, as a database server stops and starts again. */
interface Relay {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function relayTo(databaseUrl: string): Promise<Relay> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const start = async () => {
    server = createServer((client) => {
      const upstream = new Socket();
      sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.connect(Number(target.port || 5432), target.hostname, () => {
        client.pipe(upstream).pipe(client);
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  const stop = async () => {
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closed;
    server = undefined;
  };
  await start();
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  return { url: url.toString(), start, stop, close: stop };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const expectUnavailable = (res: { status: number; headers: Headers; body: unknown }) => {
  expectError(res, 503, 'SERVICE_UNAVAILABLE');
  expect(res.headers.get('retry-after')).toBe('5');
};

async function call(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

describe('which errors mean the database cannot be reached', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('knows the network, PostgreSQL and SQLite codes of an unreachable database', () => {
    for (const err of [
      withCode('ECONNREFUSED'), withCode('ECONNRESET'), withCode('ETIMEDOUT'), withCode('ENOTFOUND'), withCode('EAI_AGAIN'),
      withCode('57P01', 'terminating connection due to administrator command'), withCode('57P03'), withCode('53300', 'too many clients'),
      withCode('08006'), withCode('08001'), withCode('28P01'), withCode('3D000'),
      new Error('Connection terminated unexpectedly'), new Error('timeout exceeded when trying to connect'),
      withCode('SQLITE_BUSY'), withCode('SQLITE_BUSY_SNAPSHOT'), withCode('SQLITE_CANTOPEN'), withCode('SQLITE_IOERR_WRITE'), withCode('SQLITE_FULL'),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
    ]) {
      expect(isDatabaseUnavailable(err), `${(err as { code?: string }).code} ${err.message}`).toBe(true);
      const refusal = asUnavailable(err);
      expect(refusal).toBeInstanceOf(Refusal);
      expect(refusal).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 5 });
    }
  });

  it('leaves every other error as it was', () => {
    for (const err of [
      withCode('23505', 'duplicate key'), withCode('23514'), withCode('22P02'), withCode('40001'), withCode('SQLITE_CONSTRAINT_UNIQUE'),
      withCode('SQLITE_CORRUPT'), withCode('ENOENT'), new TypeError('x is undefined'), new Refusal('NOT_FOUND', 'gone'), 'a string',
      new AggregateError([withCode('ECONNREFUSED'), new Error('other')]),
      // A store this process closed itself is a fault, on both engines.
      new Error('Cannot use a pool after calling end on the pool'), new TypeError('The database connection is not open'),
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
      expect(asUnavailable(err)).toBe(err);
    }
  });
});

describe('SQLite locked by another process past the busy timeout', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After to a change, and serves again once the lock is gone', async () => {
    const dbPath = join(tempDir(), 'outing.db');
    const db = openDatabase(dbPath);
    migrate(db);
    db.pragma('busy_timeout = 50');
    const store = createStore(db);
    cleanups.push(() => store.close());
    const config = loadConfig({ LOG_LEVEL: 'silent' }, { db: dbPath });
    const { app } = createApp({ store, config, logger: createLogger('silent') });
    const org = await addOrganization(store);
    const request = async (method: string, path: string, body?: unknown) => {
      const res = await app.request(path, {
        method,
        headers: { authorization: `Bearer ${org.secretKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
    };
    const walk = { name: 'Harbour walk', description: 'Along the quay', duration: 60, price: 1500, maxParticipants: 10 };

    // Another process (a CLI command, a second server) holds the write lock.
    const other = new Database(dbPath);
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    try {
      expectUnavailable(await request('POST', '/v1/experiences', walk));
      const signIn = await app.request('/dashboard/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'a wrong password' }),
      });
      // A failed sign-in writes its failure, which has to wait for the lock too.
      expectUnavailable({ status: signIn.status, headers: signIn.headers, body: await signIn.json() });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await request('POST', '/v1/experiences', walk)).status).toBe(201);
  });
});

describe.skipIf(!testDatabaseUrl())(`PostgreSQL that cannot be reached${testDatabaseUrl() ? '' : ` (skipped: ${postgresSkipReason()})`}`, () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After on /v1, /public/v1 and sign-in, and 200 again once it is back', async () => {
    const database: TestDatabase = await createTestDatabase({ migrated: true });
    cleanups.push(() => database.drop());
    const relay = await relayTo(database.url);
    cleanups.push(() => relay.close());
    const init = await runCli(['init', '--name', 'Relay Tours', '--email', 'owner@relay.example', '--database-url', relay.url]);
    expect(init.code, init.stderr).toBe(0);
    const { apiKey, publishableKey } = JSON.parse(init.stdout) as { apiKey: string; publishableKey: string };
    const server: TestServer = await startTestServer({ databaseUrl: relay.url });
    cleanups.push(() => server.stop());

    const secret = { authorization: `Bearer ${apiKey}` };
    const publicKey = { 'x-outing-key': publishableKey };
    const signIn = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@relay.example', password: 'not the password at all' }),
    };
    expect((await call(`${server.url}/v1/experiences`, { headers: secret })).status).toBe(200);
    expect((await call(`${server.url}/dashboard/api/session`, signIn)).status).toBe(401);

    // The database server goes away: open connections are cut, new ones refused.
    await relay.stop();
    expectUnavailable(await call(`${server.url}/v1/experiences`, { headers: secret }));
    expectUnavailable(await call(`${server.url}/api/v1/bookings`, { headers: secret }));
    expectUnavailable(
      await call(`${server.url}/v1/experiences`, {
        method: 'POST',
        headers: { ...secret, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Walk', description: 'x', duration: 60, price: 100, maxParticipants: 4 }),
      }),
    );
    expectUnavailable(await call(`${server.url}/public/v1/experiences`, { headers: publicKey }));
    expectUnavailable(await call(`${server.url}/dashboard/api/session`, signIn));
    expect((await call(`${server.url}/healthz`)).status).toBe(503);
    // A fault it is not: nothing logged at error, no stack.
    expect(server.stdout).not.toContain('"level":"error"');

    await relay.start();
    expect((await call(`${server.url}/v1/experiences`, { headers: secret })).status).toBe(200);
    expect((await call(`${server.url}/healthz`)).status).toBe(200);
  });

  it('answers 503 from a pool pointed at a port where no server listens', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as { port: number }).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const url = `postgres://outing:secret@127.0.0.1:${port}/outing`;
    const store = createPostgresStore(connectPostgres(url, { max: 2 }));
    cleanups.push(() => store.close());
    const { app } = createApp({ store, config: loadConfig({ LOG_LEVEL: 'silent' }, { databaseUrl: url }), logger: createLogger('silent') });
    const read = async (path: string, init: RequestInit = {}) => {
      const res = await app.request(path, init);
      return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
    };
    expectUnavailable(await read('/v1/experiences', { headers: { authorization: `Bearer ${generateApiKey('secret')}` } }));
    expectUnavailable(await read('/public/v1/experiences', { headers: { 'x-outing-key': generateApiKey('publishable') } }));
    expectUnavailable(
      await read('/dashboard/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.com', password: 'some password or other' }),
      }),
    );
    expect((await read('/healthz')).status).toBe(503);
  });
});
