import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type AppDeps } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { type Store } from '../store/index.js';
import { openStore } from '../store/sqlite/store.js';
import { openPostgresStore } from '../store/postgres/index.js';
import { leaseMigratedDatabase } from './postgres.js';
import { createOrganization, type NewOrganization } from '../services/organizations.js';
import { createApiKey } from '../services/api-keys.js';
import type { ApiKeyType, Scope } from '../../shared/index.js';

/** A clock the test moves by hand: pass `clock.now` as `now`. */
export interface ManualClock {
  now: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 0, 5, 12, 0, 0)): ManualClock {
  let current = start;
  return {
    now: () => current,
    set: (ms) => void (current = ms),
    advance: (ms) => void (current += ms),
  };
}

/** An organization with its first keys, as `outing init` makes it. */
export interface TestOrganization {
  orgId: string;
  apiKeyId: string;
  secretKey: string;
  publishableKey: string;
  icalFeedUrl: string;
}

/** Creates an organization (and its default secret key, publishable key and feed) in `store`. */
export async function addOrganization(
  store: Store,
  input: Partial<NewOrganization> = {},
  options: { publicUrl?: string; now?: number } = {},
): Promise<TestOrganization> {
  const created = await createOrganization(
    store,
    { name: 'Test Tours', email: 'owner@test-tours.example', timezone: 'Europe/Lisbon', currency: 'EUR', ...input },
    options.publicUrl ?? 'http://localhost:3000',
    options.now ?? Date.now(),
  );
  return {
    orgId: created.organization.id,
    apiKeyId: created.apiKeyId,
    secretKey: created.apiKey,
    publishableKey: created.publishableKey,
    icalFeedUrl: created.icalFeedUrl,
  };
}

export interface TestRequestOptions {
  /**
   * The API key. Default: the test org's secret key, or its publishable key on `/public/…` paths.
   * Sent as `Authorization: Bearer …`, or as `X-Outing-Key` on `/public/…` paths. `null` sends none.
   */
  key?: string | null;
  /** A value is sent as JSON with `Content-Type: application/json`; a string is sent as is, with no content type. */
  body?: unknown;
  /** Extra headers; they win over the ones above (e.g. a `content-type` of your own). */
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined when the body is not JSON): assert it with the shared schemas. */
  body: any;
  text: string;
}

export interface TestAppOptions {
  /** Environment for `loadConfig` (not `process.env`): e.g. `{ RATE_LIMIT_PER_MINUTE: '3' }`. */
  env?: Record<string, string>;
  /** The app's clock (rate limits, lastUsedAt, timestamps). Default `Date.now`. */
  now?: () => number;
  /** The test organization's fields (default: "Test Tours", Europe/Lisbon, EUR). */
  org?: Partial<NewOrganization>;
  /** `LOG_LEVEL` of the captured logger (default `info`, so request lines land in `logs`). */
  logLevel?: Config['logLevel'];
  /** More dependencies for `createApp`, for parts that take their own (merged over the defaults). */
  deps?: Partial<AppDeps>;
}

export interface TestApp extends TestOrganization {
  app: ReturnType<typeof createApp>['app'];
  store: Store;
  config: Config;
  /** The temp folder holding the database (removed by `close`). */
  dir: string;
  dbPath: string;
  /** JSON log lines the app wrote, raw. */
  logs: string[];
  /** `logs` parsed. */
  logEntries(): Record<string, unknown>[];
  request(method: string, path: string, options?: TestRequestOptions): Promise<TestResponse>;
  /** Another organization in the same database. */
  addOrganization(input?: Partial<NewOrganization>): Promise<TestOrganization>;
  /** A new key of the test org (secret with all scopes unless told). */
  createKey(options?: { scopes?: Scope[]; type?: ApiKeyType; orgId?: string; name?: string }): Promise<{ id: string; key: string }>;
  /** Serves the app on 127.0.0.1 on a free port; `close()` stops it too. */
  listen(): Promise<{ url: string; server: Server; close(): Promise<void> }>;
  close(): Promise<void>;
}

/** The engine route and service tests run on: SQLite, or PostgreSQL in the `server-postgres` project. */
export function testEngine(): 'sqlite' | 'postgres' {
  return process.env.OUTING_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

/** A fresh store of the engine under test: a SQLite file in `dir`, or a new database on the test cluster. */
async function freshStore(dbPath: string): Promise<{ store: Store; databaseUrl?: string; drop(): Promise<void> }> {
  if (testEngine() === 'sqlite') return { store: openStore(dbPath), drop: async () => {} };
  const database = await leaseMigratedDatabase();
  const store = await openPostgresStore(database.url, { poolSize: 4 });
  return { store, databaseUrl: database.url, drop: () => database.drop() };
}

/**
 * The whole app over a real database (a SQLite file in a fresh temp folder, or a fresh PostgreSQL
 * database when the engine under test is PostgreSQL), with one organization and its keys.
 * Call `close()` in `afterEach`/`afterAll`.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'outing-test-'));
  const dbPath = join(dir, 'outing.db');
  const fresh = await freshStore(dbPath);
  const config = loadConfig(
    { LOG_LEVEL: options.logLevel ?? 'info', ...options.env },
    fresh.databaseUrl === undefined ? { db: dbPath } : { databaseUrl: fresh.databaseUrl },
  );
  const now = options.now ?? Date.now;
  const store = fresh.store;
  const logs: string[] = [];
  const logger: Logger = createLogger(config.logLevel, (line) => void logs.push(line.trimEnd()));
  // Guest e-mails queue for sending, as in a process with a mail server: tests bring their own to the job.
  const { app } = createApp({ store, config, logger, now, guestMail: true, ...options.deps });
  const org = await addOrganization(store, options.org, { publicUrl: config.publicUrl, now: now() });
  const servers: Server[] = [];

  async function request(method: string, path: string, opts: TestRequestOptions = {}): Promise<TestResponse> {
    const isPublic = path.startsWith('/public/');
    const key = opts.key === undefined ? (isPublic ? org.publishableKey : org.secretKey) : opts.key;
    const headers: Record<string, string> = {};
    if (key !== null) {
      if (isPublic) headers['x-outing-key'] = key;
      else headers.authorization = `Bearer ${key}`;
    }
    let body: string | undefined;
    if (typeof opts.body === 'string') body = opts.body;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value;
    const res = await app.request(path, { method: method.toUpperCase(), headers, body });
    const text = await res.text();
    let parsed: unknown;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  return {
    ...org,
    app,
    store,
    config,
    dir,
    dbPath,
    logs,
    logEntries: () => logs.map((l) => JSON.parse(l) as Record<string, unknown>),
    request,
    addOrganization: async (input) => await addOrganization(store, input, { publicUrl: config.publicUrl, now: now() }),
    createKey: async (o = {}) =>
      await createApiKey(
        store,
        { orgId: o.orgId ?? org.orgId, name: o.name ?? 'Test key', type: o.type ?? 'secret', scopes: o.scopes },
        now(),
      ),
    async listen() {
      const server = createAdaptorServer({ fetch: app.fetch }) as Server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      const { port } = server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}`, server, close: () => closeServer(server) };
    },
    async close() {
      await Promise.all(servers.map(closeServer));
      await store.close();
      await fresh.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
