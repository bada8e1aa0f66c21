/**
 * A bounded, seeded fuzz of every route that /v1/openapi.json lists (and the key-less routes at the
 * root), over real HTTP against the real server: valid-ish and broken bodies, queries, path ids,
 * methods, content types, keys and headers, huge and deep bodies. Whatever comes in, the answer is
 * never a 5xx, every error is the contract's envelope, and no answer leaks a stack trace or SQL.
 * `RELIABILITY_SEED=n` replays a run; `FUZZ_REQUESTS=n` makes it longer.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ErrorEnvelope } from '../shared/index.js';
import { processDatabase, runCli, startTestServer, testEngine, type ProcessDatabase, type TestServer } from '../server/test-helpers/index.js';
import { InputMaker, serialize, type Ids, type Schema } from './fuzz-inputs.js';
import { call, listAll, SEED, seededRandom, type Random } from './support.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1500);
const CONCURRENCY = 4;
/** A time bound as well as a count, so a slow machine still ends in a few minutes. */
const TIME_LIMIT_MS = 150_000;

interface Operation {
  method: string;
  path: string;
  auth: 'secret' | 'publishable' | 'none';
  pathParams: { name: string; kind: string }[];
  query: { name: string; schema: Schema }[];
  body: Schema | undefined;
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  label: string;
}

/** A port on 127.0.0.1 that nothing listens on: fuzzed webhook and calendar URLs point there. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []) as { name: string; in: string; description?: string; schema: Schema }[];
      const security = Object.keys(op.security?.[0] ?? {});
      ops.push({
        method: method.toUpperCase(),
        path,
        auth: security.includes('secretKey') ? 'secret' : security.some((s) => s.startsWith('publishable')) ? 'publishable' : 'none',
        pathParams: params
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, kind: /\((\w+)\)/.exec(p.description ?? '')?.[1] ?? p.name.replace(/Id$/, '') })),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        body: op.requestBody?.content?.['application/json']?.schema as Schema | undefined,
      });
    }
  }
  return ops;
}

describe(`a seeded fuzz of every route on ${testEngine()} (seed ${SEED}, ${REQUESTS} requests)`, () => {
  let db: ProcessDatabase;
  let server: TestServer;
  let secretKey: string;
  let publishableKey: string;
  let otherOrgKey: string;
  let revokedKey: string;
  let doc: any;
  let ids: Ids;
  let safeUrls: string[];

  beforeAll(async () => {
    db = await processDatabase();
    server = await startTestServer({
      ...db.server,
      demo: true,
      startTimeoutMs: 90_000,
      env: {
        RATE_LIMIT_PER_MINUTE: '0',
        PUBLIC_BOOKINGS_PER_MINUTE: '0',
        PUBLIC_REQUESTS_PER_MINUTE: '0',
        OUTBOUND_ALLOW_PRIVATE: 'true',
        // X-Forwarded-For is parsed, and fuzzed, only when a proxy is trusted.
        TRUST_PROXY: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1,1',
        WEBHOOK_TIMEOUT_MS: '1000',
        LOG_LEVEL: 'warn',
      },
    });
    if (!server.demo) throw new Error('serve --demo printed no keys');
    ({ secretKey, publishableKey } = server.demo);
    const port = await closedPort();
    safeUrls = [
      `http://127.0.0.1:${port}/hooks`,
      `http://localhost:${port}/cal.ics`,
      `http://[::1]:${port}/x`,
      `webcal://127.0.0.1:${port}/feed.ics`,
      `http://2130706433:${port}/numeric`,
      'ftp://127.0.0.1/file',
      'javascript:alert(1)',
      'not a url',
      'http://',
      '',
    ];

    // Other keys: another organization's, and a revoked one (the CLI shares the database with the server).
    const other = await runCli(['init', '--name', 'Other Org', '--email', 'other@fuzz.example', ...db.args]);
    otherOrgKey = (JSON.parse(other.stdout) as { apiKey: string }).apiKey;
    const orgId = ((await call(server.url, 'GET', '/v1/organization', { key: secretKey })).body as { data: { id: string } }).data.id;
    const made = await runCli(['keys', 'create', '--org', orgId, '--name', 'to revoke', ...db.args]);
    const revoked = JSON.parse(made.stdout) as { id: string; key: string };
    await runCli(['keys', 'revoke', revoked.id, ...db.args]);
    revokedKey = revoked.key;

    // Records of every kind, so that path ids can name real ones.
    const exp = await call(server.url, 'POST', '/v1/experiences', {
      key: secretKey,
      body: {
        name: 'Fuzz tour',
        description: 'Stands still while being poked',
        duration: 90,
        price: 4000,
        maxParticipants: 50,
        schedule: { timezone: 'UTC', weekly: { mon: ['10:00'], tue: ['10:00'], wed: ['10:00'], thu: ['10:00'], fri: ['10:00'], sat: ['10:00'], sun: ['10:00'] } },
      },
    });
    expect(exp.status, exp.text).toBe(201);
    const endpoint = await call(server.url, 'POST', '/v1/webhook-endpoints', { key: secretKey, body: { url: safeUrls[0] } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const availability = await call(server.url, 'GET', `/v1/availability?experienceId=${exp.body.data.id}&startDate=${tomorrow}`, { key: secretKey });
    const booking = await call(server.url, 'POST', '/v1/bookings', {
      key: secretKey,
      body: {
        experienceId: exp.body.data.id,
        startTime: availability.body.data.slots[0].startTime,
        participants: 2,
        customerName: 'Fuzz Guest',
        customerEmail: 'fuzz@example.com',
      },
    });
    expect(booking.status, booking.text).toBe(201);
    await call(server.url, 'POST', `/v1/bookings/${booking.body.data.id}/payments`, { key: secretKey, body: { amount: '10.00', status: 'SUCCEEDED' } });
    await call(server.url, 'POST', '/v1/calendar-feeds', { key: secretKey, body: { name: 'Fuzz feed' } });
    await call(server.url, 'POST', '/v1/calendar-imports', { key: secretKey, body: { name: 'Fuzz import', url: safeUrls[1] } });

    const byKind = new Map<string, string[]>();
    const add = (kind: string, values: string[]) => byKind.set(kind, [...(byKind.get(kind) ?? []), ...values]);
    const listIds = async (path: string) => (await listAll(server.url, path, secretKey)).map((r: { id: string }) => r.id);
    add('experience', await listIds('/v1/experiences'));
    const bookings = await listAll(server.url, '/v1/bookings', secretKey);
    add('booking', bookings.flatMap((b: { id: string; bookingNumber: string }) => [b.id, b.bookingNumber]));
    add('customer', await listIds('/v1/customers'));
    const endpoints = await listIds('/v1/webhook-endpoints');
    add('webhookEndpoint', endpoints);
    for (const id of endpoints) add('delivery', await listIds(`/v1/webhook-endpoints/${id}/deliveries`));
    add('calendarFeed', await listIds('/v1/calendar-feeds'));
    add('calendarImport', await listIds('/v1/calendar-imports'));
    add('event', await listIds('/v1/events'));
    add('payment', await listIds(`/v1/bookings/${booking.body.data.id}/payments`));
    add('token', [server.demo.icalFeedUrl.split('/').pop() ?? '']);
    ids = { byKind, all: [...byKind.values()].flat() };
    doc = (await call(server.url, 'GET', '/v1/openapi.json')).body;
  }, 180_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.drop();
  });

  function authHeaders(random: Random, op: Operation): Record<string, string> {
    const roll = random.next();
    if (op.auth === 'publishable') {
      if (roll < 0.7) return { 'x-outing-key': publishableKey };
      if (roll < 0.8) return {};
      return random.pick<Record<string, string>>([
        { 'x-outing-key': secretKey },
        { 'x-outing-key': 'opk_short' },
        { authorization: `Bearer ${secretKey}` },
        { 'x-outing-key': '' },
      ]);
    }
    if (roll < 0.72) return { authorization: `Bearer ${secretKey}` };
    if (roll < 0.77) return {};
    return random.pick([
      { authorization: `Bearer ${publishableKey}` },
      { authorization: `Bearer ${revokedKey}` },
      { authorization: `Bearer ${otherOrgKey}` },
      { authorization: `Bearer ${secretKey.slice(0, -1)}x` },
      { authorization: 'Bearer ' },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { authorization: `bearer ${secretKey}` },
      { authorization: 'Bearer osk_' + 'A'.repeat(2000) },
    ]);
  }

  function makeRequest(random: Random, ops: Operation[], inputs: InputMaker, index: number): FuzzRequest {
    const op = random.pick(ops);
    let method = random.chance(0.85) ? op.method : random.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']);
    let path = op.path;
    for (const param of op.pathParams) path = path.replace(`{${param.name}}`, encodeURIComponent(inputs.id(param.kind)).replace(/%25/g, '%'));
    if (path.startsWith('/v1/') && random.chance(0.1)) path = `/api${path}`;
    if (random.chance(0.04)) path = random.pick([`${path}/`, `${path}/extra`, path.replace('/v1/', '/v1//'), `${path}%ZZ`, `${path}/${'p'.repeat(9000)}`, path.toUpperCase()]);

    const query = new URLSearchParams();
    for (const q of op.query) {
      if (!random.chance(0.5)) continue;
      const value = random.chance(0.8) ? inputs.value(q.schema, q.name) : inputs.oddValue();
      query.append(q.name, typeof value === 'string' ? value : JSON.stringify(value) ?? '');
      if (random.chance(0.05)) query.append(q.name, 'again');
    }
    if (random.chance(0.08)) query.append(random.pick(['unknown', 'limit', 'offset', 'key', 'expand']), String(inputs.oddValue()));
    const qs = query.toString();
    if (qs) path += `?${qs}`;

    const headers: Record<string, string> = authHeaders(random, op);
    let body: string | Buffer | undefined;
    const wantsBody = op.body !== undefined || (op.method !== 'GET' && random.chance(0.3)) || random.chance(0.05);
    if (wantsBody && method !== 'GET' && method !== 'HEAD') {
      const roll = random.next();
      if (roll < 0.6) {
        const valid = op.body ? inputs.value(op.body) : {};
        body = serialize(random.chance(0.45) ? inputs.mutate(valid) : valid);
        headers['content-type'] = random.chance(0.9) ? 'application/json' : random.pick(['application/json; charset=utf-8', 'Application/JSON']);
      } else if (roll < 0.7) {
        body = random.pick(['not json', '{', '[1,2', '"text"', '123', 'null', '{"a":1}{"b":2}', '{"__proto__":{"admin":true}}', '\ufeff{}']);
        headers['content-type'] = 'application/json';
      } else if (roll < 0.78) {
        // Over the 64 KiB limit, sometimes far over.
        body = JSON.stringify({ name: 'z'.repeat(random.pick([66_000, 300_000, 2_000_000])) });
        headers['content-type'] = 'application/json';
      } else if (roll < 0.88) {
        body = JSON.stringify(op.body ? inputs.value(op.body) : { a: 1 });
        const type = random.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonp', '']);
        if (type) headers['content-type'] = type;
      } else if (roll < 0.94) {
        body = '';
        headers['content-type'] = random.pick(['application/json', 'text/plain']);
      } else {
        body = Buffer.from([0xff, 0xfe, 0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d, 0x00]);
        headers['content-type'] = 'application/json';
      }
    }
    if (method === 'POST' && random.chance(0.25)) headers['idempotency-key'] = random.pick([`fuzz-${index}`, 'fixed-key', '', 'k'.repeat(300)]);
    if (random.chance(0.1)) headers['x-request-id'] = random.pick(['ok-id.1', 'bad id with spaces', 'x'.repeat(300), '∆']);
    if (random.chance(0.05)) headers['x-forwarded-for'] = random.pick(['1.2.3.4', 'garbage, , ::1', '999.999.1.1']);
    if (random.chance(0.03)) method = method.toLowerCase();
    // fetch refuses non-ASCII header values; those cases are left to the body and path.
    for (const [name, value] of Object.entries(headers)) if (/[^\x20-\x7e]/.test(value)) delete headers[name];
    const size = body === undefined ? 0 : typeof body === 'string' ? body.length : body.byteLength;
    return { method, path, headers, body, label: `#${index} ${method} ${path.slice(0, 160)} (${size} B body)` };
  }

  /** Inputs at the edges of the calendar and of integers, sent every run whatever the seed. */
  function edgeCases(): FuzzRequest[] {
    const exp = ids.byKind.get('experience')?.[0] ?? 'exp_x';
    const json = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' };
    const cases: [string, string, unknown?][] = [
      ['GET', '/v1/bookings?startDate=9999-12-31&endDate=9999-12-31'],
      ['GET', '/v1/bookings?endDate=9999-12-31'],
      ['GET', '/v1/bookings?startDate=0001-01-01'],
      ['GET', '/v1/bookings?startDate=9999-12-31T23:59:59Z&endDate=9999-12-31T23:59:59%2B14:00'],
      ['GET', '/v1/bookings?limit=100&offset=9007199254740993'],
      ['GET', `/v1/availability?experienceId=${exp}&startDate=9999-12-01&endDate=9999-12-31`],
      ['GET', `/v1/availability?experienceId=${exp}&startDate=1970-01-01&endDate=1970-01-31`],
      ['GET', `/v1/availability?experienceId=${exp}&participants=99999999999999999999`],
      ['GET', '/v1/customers?search=%25%5F%5C'],
      ['POST', '/v1/bookings', { experienceId: exp, startTime: '9999-12-31T23:59:59Z', participants: 1, customerName: 'E', customerEmail: 'e@example.com' }],
      ['POST', '/v1/bookings', { experienceId: exp, startTime: '+275760-09-13T00:00:00.000Z', participants: 1, customerName: 'E', customerEmail: 'e@example.com' }],
      ['PATCH', `/v1/experiences/${exp}`, { schedule: { weekly: { mon: ['23:59'] }, timezone: 'Pacific/Kiritimati', startDate: '9999-12-30', endDate: '9999-12-31' } }],
    ];
    return cases.map(([method, path, body], i) => ({
      method,
      path,
      headers: json,
      body: body === undefined ? undefined : JSON.stringify(body),
      label: `edge ${i} ${method} ${path}`,
    }));
  }

  it('answers every request below 500, with the error envelope on every error', async () => {
    const random = seededRandom(SEED);
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(20);
    const inputs = new InputMaker(random, doc.components?.schemas ?? {}, safeUrls, ids);
    const rootRoutes: Operation[] = ['/healthz', '/widget.js', '/demo', '/demo/index.html', '/docs', '/v1/openapi.json', '/api/ical/{token}', '/api/ical/{token}.ics', '/payments/stripe/webhook', '/nowhere', '/v1', '/public/v1'].map(
      (path) => ({ method: path.includes('stripe') ? 'POST' : 'GET', path, auth: 'none', pathParams: path.includes('{token}') ? [{ name: 'token', kind: 'token' }] : [], query: [], body: undefined }),
    );
    const all = [...ops, ...rootRoutes];
    const requests = [...edgeCases(), ...Array.from({ length: REQUESTS }, (_, i) => makeRequest(random, all, inputs, i))];

    const problems: string[] = [];
    const statuses = new Map<number, number>();
    const deadline = Date.now() + TIME_LIMIT_MS;
    let next = 0;
    let sent = 0;
    const worker = async () => {
      while (next < requests.length && Date.now() < deadline) {
        const req = requests[next++]!;
        let res: Response;
        try {
          res = await fetch(server.url + req.path, {
            method: req.method,
            headers: req.headers,
            body: typeof req.body === 'string' || req.body === undefined ? req.body : new Uint8Array(req.body),
            signal: AbortSignal.timeout(30_000),
          });
        } catch (err) {
          problems.push(`${req.label}: no answer (${(err as Error).message})`);
          continue;
        }
        sent++;
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) problems.push(`${req.label}: ${res.status} ${text.slice(0, 200)}`);
        if (!res.headers.get('x-request-id')) problems.push(`${req.label}: no X-Request-Id`);
        if (/\n\s+at .+\(.+:\d+:\d+\)|SQLITE_|sqlite_|SqliteError/.test(text)) problems.push(`${req.label}: leaks internals: ${text.slice(0, 200)}`);
        if (process.env.FUZZ_LOG) appendFileSync(process.env.FUZZ_LOG, `${res.status} ${req.label}\n`);
        // fetch sends head/get/post… upper-cased; a HEAD answer has no body to check.
        if (res.status >= 400 && req.method.toUpperCase() !== 'HEAD') {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const envelope = ErrorEnvelope.safeParse(parsed);
          if (!envelope.success || !(ERROR_CODES as readonly string[]).includes(envelope.data.error.code)) {
            problems.push(`${req.label}: ${res.status} outside the error envelope: ${text.slice(0, 200)}`);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    // Still standing, and nothing went wrong unseen in the background.
    const health = await call(server.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
    const errorLines = server.stdout.split('\n').filter((l) => l.includes('"level":"error"'));
    console.info(
      `fuzz (seed ${SEED}): ${sent} requests over ${all.length} routes; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
    expect(problems.slice(0, 25)).toEqual([]);
    expect(errorLines.slice(0, 5)).toEqual([]);
    expect(sent).toBeGreaterThan(Math.min(REQUESTS, 300));
  }, 400_000);
});
