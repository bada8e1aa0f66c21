/**
 * The requests of the route fuzz, shared by its two tests: the fuzz of one engine (fuzz.test.ts) and
 * the comparison of both engines (fuzz-engines.test.ts). Operations are read from the served OpenAPI
 * document; records are made through the API; requests are drawn from a seeded random source, so
 * the same seed over records made the same way gives the same requests.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES, ErrorEnvelope } from '../shared/index.js';
import { runCli } from '../server/test-helpers/index.js';
import { CONTROL_CHARACTERS, InputMaker, serialize, type Ids, type Schema } from './fuzz-inputs.js';
import { call, listAll, type Random } from './support.js';

export interface Operation {
  method: string;
  path: string;
  auth: 'secret' | 'publishable' | 'none';
  pathParams: { name: string; kind: string }[];
  query: { name: string; schema: Schema }[];
  body: Schema | undefined;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  label: string;
}

/** The keys a fuzz run sends: the organization's own, another organization's and a revoked one. */
export interface FuzzKeys {
  secretKey: string;
  publishableKey: string;
  otherOrgKey: string;
  revokedKey: string;
}

/** A port on 127.0.0.1 that nothing listens on: fuzzed webhook and calendar URLs point there. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** URLs a fuzzed field may name: none reaches past this machine, most are no fetchable URL at all. */
export function safeUrlsOn(port: number): string[] {
  return [
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
}

/** The server's environment for a fuzz run: no rate limits, fast webhook retries, a trusted proxy. */
export const FUZZ_SERVER_ENV = {
  RATE_LIMIT_PER_MINUTE: '0',
  PUBLIC_BOOKINGS_PER_MINUTE: '0',
  PUBLIC_REQUESTS_PER_MINUTE: '0',
  OUTBOUND_ALLOW_PRIVATE: 'true',
  // X-Forwarded-For is parsed, and fuzzed, only when a proxy is trusted.
  TRUST_PROXY: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1',
  WEBHOOK_TIMEOUT_MS: '1000',
  LOG_LEVEL: 'warn',
};

/** Another organization's secret key, and a revoked key of the first one, made with the CLI over the server's database. */
export async function otherKeys(url: string, secretKey: string, dbArgs: string[]): Promise<Pick<FuzzKeys, 'otherOrgKey' | 'revokedKey'>> {
  const other = await runCli(['init', '--name', 'Other Org', '--email', 'other@fuzz.example', ...dbArgs]);
  const otherOrgKey = (JSON.parse(other.stdout) as { apiKey: string }).apiKey;
  const orgId = ((await call(url, 'GET', '/v1/organization', { key: secretKey })).body as { data: { id: string } }).data.id;
  const made = await runCli(['keys', 'create', '--org', orgId, '--name', 'to revoke', ...dbArgs]);
  const revoked = JSON.parse(made.stdout) as { id: string; key: string };
  await runCli(['keys', 'revoke', revoked.id, ...dbArgs]);
  return { otherOrgKey, revokedKey: revoked.key };
}

/** Records of every kind, so that path ids can name real ones; throws when one cannot be made. Answers the booking's id. */
export async function makeRecords(url: string, secretKey: string, safeUrls: readonly string[]): Promise<string> {
  const made = async (path: string, body: unknown) => {
    const res = await call(url, 'POST', path, { key: secretKey, body });
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${res.text}`);
    return res.body.data as { id: string };
  };
  const exp = await made('/v1/experiences', {
    name: 'Fuzz tour',
    description: 'Stands still while being poked',
    duration: 90,
    price: 4000,
    maxParticipants: 50,
    schedule: { timezone: 'UTC', weekly: { mon: ['10:00'], tue: ['10:00'], wed: ['10:00'], thu: ['10:00'], fri: ['10:00'], sat: ['10:00'], sun: ['10:00'] } },
  });
  await made('/v1/webhook-endpoints', { url: safeUrls[0] });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const availability = await call(url, 'GET', `/v1/availability?experienceId=${exp.id}&startDate=${tomorrow}`, { key: secretKey });
  const booking = await made('/v1/bookings', {
    experienceId: exp.id,
    startTime: availability.body.data.slots[0].startTime,
    participants: 2,
    customerName: 'Fuzz Guest',
    customerEmail: 'fuzz@example.com',
  });
  await made(`/v1/bookings/${booking.id}/payments`, { amount: '10.00', status: 'SUCCEEDED' });
  await made('/v1/calendar-feeds', { name: 'Fuzz feed' });
  await made('/v1/calendar-imports', { name: 'Fuzz import', url: safeUrls[1] });
  return booking.id;
}

/** The ids of every record, by kind, in a stable order (so two servers with the same records list them alike). */
export async function idsOf(url: string, secretKey: string, records: { bookingId: string; icalFeedUrl: string }): Promise<Ids> {
  const byKind = new Map<string, string[]>();
  const add = (kind: string, values: string[]) => byKind.set(kind, [...(byKind.get(kind) ?? []), ...values]);
  const listIds = async (path: string) => (await listAll(url, path, secretKey)).map((r: { id: string }) => r.id);
  add('experience', await listIds('/v1/experiences'));
  const bookings = await listAll(url, '/v1/bookings', secretKey);
  add('booking', bookings.flatMap((b: { id: string; bookingNumber: string }) => [b.id, b.bookingNumber]));
  add('customer', await listIds('/v1/customers'));
  const endpoints = await listIds('/v1/webhook-endpoints');
  add('webhookEndpoint', endpoints);
  for (const id of endpoints) add('delivery', await listIds(`/v1/webhook-endpoints/${id}/deliveries`));
  add('calendarFeed', await listIds('/v1/calendar-feeds'));
  add('calendarImport', await listIds('/v1/calendar-imports'));
  add('event', await listIds('/v1/events'));
  add('payment', await listIds(`/v1/bookings/${records.bookingId}/payments`));
  add('token', [records.icalFeedUrl.split('/').pop() ?? '']);
  return { byKind, all: [...byKind.values()].flat() };
}

export function operationsOf(doc: any): Operation[] {
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

/** The key-less routes at the root, which the OpenAPI document does not list. */
export const ROOT_ROUTES: Operation[] = [
  '/healthz', '/widget.js', '/demo', '/demo/index.html', '/docs', '/v1/openapi.json', '/api/ical/{token}', '/api/ical/{token}.ics',
  '/payments/stripe/webhook', '/nowhere', '/v1', '/public/v1',
].map((path) => ({
  method: path.includes('stripe') ? 'POST' : 'GET',
  path,
  auth: 'none',
  pathParams: path.includes('{token}') ? [{ name: 'token', kind: 'token' }] : [],
  query: [],
  body: undefined,
}));

function authHeaders(random: Random, op: Operation, keys: FuzzKeys): Record<string, string> {
  const { secretKey, publishableKey, revokedKey, otherOrgKey } = keys;
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

/** One fuzzed request: a route, then its method, path ids, query, body and headers, each sometimes broken. */
export function makeRequest(random: Random, ops: readonly Operation[], inputs: InputMaker, keys: FuzzKeys, index: number): FuzzRequest {
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
  if (random.chance(0.08)) query.append(random.pick(['unknown', 'limit', 'offset', 'key', 'expand', 'a\u0000b']), String(inputs.oddValue()));
  const qs = query.toString();
  if (qs) path += `?${qs}`;

  const headers: Record<string, string> = authHeaders(random, op, keys);
  let body: string | Buffer | undefined;
  const wantsBody = op.body !== undefined || (op.method !== 'GET' && random.chance(0.3)) || random.chance(0.05);
  if (wantsBody && method !== 'GET' && method !== 'HEAD') {
    const roll = random.next();
    if (roll < 0.6) {
      const valid = op.body ? inputs.value(op.body) : {};
      body = serialize(random.chance(0.45) ? inputs.mutate(valid) : valid);
      headers['content-type'] = random.chance(0.9) ? 'application/json' : random.pick(['application/json; charset=utf-8', 'Application/JSON']);
    } else if (roll < 0.7) {
      body = random.pick(['not json', '{', '[1,2', '"text"', '123', 'null', '{"a":1}{"b":2}', '{"__proto__":{"admin":true}}', '\ufeff{}', '{"a":"\u0000"}', '"\\u0000"']);
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
  // fetch refuses non-ASCII and control characters in header values; those cases are left to the body and path.
  for (const [name, value] of Object.entries(headers)) if (/[^\x20-\x7e]/.test(value)) delete headers[name];
  const size = body === undefined ? 0 : typeof body === 'string' ? body.length : body.byteLength;
  return { method, path, headers, body, label: `#${index} ${method} ${printable(path).slice(0, 160)} (${size} B body)` };
}

type Place = (string | number)[];

/** The places of the strings in a JSON value (object keys and array indexes), at most `depth` deep. */
function stringPlaces(value: unknown, at: Place = [], depth = 3): Place[] {
  if (typeof value === 'string') return [at];
  if (depth === 0 || value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([key, child]) => stringPlaces(child, [...at, key], depth - 1));
}

function withStringAt(value: unknown, place: Place, make: (old: string) => string): unknown {
  const [head, ...rest] = place;
  if (head === undefined) return typeof value === 'string' ? make(value) : value;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? withStringAt(v, rest, make) : v));
  const object = value as Record<string, unknown>;
  return { ...object, [head]: withStringAt(object[head], rest, make) };
}

/**
 * Requests that are right but for one control character: for each operation, a few of its path
 * ids, query parameters and body strings (nested ones too) get a NUL, and then another control
 * character, one at a time, with the operation's own key. Random requests seldom hold a NUL in an
 * otherwise valid request, which is where an engine that cannot store it would fail.
 */
export function controlCharacterRequests(random: Random, ops: readonly Operation[], inputs: InputMaker, keys: FuzzKeys): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  for (const op of ops) {
    const ids = Object.fromEntries(op.pathParams.map((p) => [p.name, inputs.id(p.kind)]));
    const query = Object.fromEntries(op.query.map((q) => [q.name, inputs.value(q.schema, q.name)]).filter(([, v]) => typeof v === 'string'));
    const body = op.body && op.method !== 'GET' ? inputs.value(op.body) : undefined;
    const headers: Record<string, string> =
      op.auth === 'secret' ? { authorization: `Bearer ${keys.secretKey}` } : op.auth === 'publishable' ? { 'x-outing-key': keys.publishableKey } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const request = (where: string, over: { ids?: Record<string, string>; query?: Record<string, unknown>; body?: unknown }): FuzzRequest => {
      let path = op.path;
      for (const [name, id] of Object.entries(over.ids ?? ids)) path = path.replace(`{${name}}`, encodeURIComponent(id));
      const qs = new URLSearchParams(over.query as Record<string, string> | undefined ?? (query as Record<string, string>)).toString();
      if (qs) path += `?${qs}`;
      const text = over.body !== undefined ? serialize(over.body) : body !== undefined ? serialize(body) : undefined;
      return { method: op.method, path, headers, body: text, label: `control ${op.method} ${op.path} ${printable(where)}` };
    };
    const places = [
      ...Object.keys(ids).map((name) => ({ where: `path ${name}`, with: (ch: string) => ({ ids: { ...ids, [name]: inputs.withControl(ids[name] ?? '', ch) } }) })),
      ...Object.keys(query).map((name) => ({ where: `query ${name}`, with: (ch: string) => ({ query: { ...query, [name]: inputs.withControl(String(query[name]), ch) } }) })),
      ...stringPlaces(body).map((place) => ({ where: `body ${place.join('.')}`, with: (ch: string) => ({ body: withStringAt(body, place, (old) => inputs.withControl(old, ch)) }) })),
    ];
    for (let n = 0; n < 4 && places.length > 0; n++) {
      const place = places.splice(random.int(0, places.length - 1), 1)[0]!;
      for (const ch of ['\u0000', random.pick(CONTROL_CHARACTERS.slice(1))]) requests.push(request(`${place.where} ${printable(ch)}`, place.with(ch)));
    }
  }
  return requests;
}

/** Text for a failure message, its control characters written out (a NUL would cut a terminal line). */
export const printable = (text: string): string =>
  text.replace(/[\u0000-\u001f\u007f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
}

export async function send(baseUrl: string, req: FuzzRequest): Promise<Answer> {
  const res = await fetch(baseUrl + req.path, {
    method: req.method,
    headers: req.headers,
    body: typeof req.body === 'string' || req.body === undefined ? req.body : new Uint8Array(req.body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** Whether a request carries a NUL where the API reads: a path or query of the URL, or a string or key of its JSON body. */
export function carriesNul(req: FuzzRequest): boolean {
  if (req.path.includes('%00')) {
    try {
      if (decodeURIComponent(req.path.replace(/%(?![0-9a-f]{2})/gi, '%25')).includes('\u0000')) return true;
    } catch {
      // not a decodable path: the server answers it as such
    }
  }
  return typeof req.body === 'string' && req.body.includes('\\u0000') && bodyHoldsNul(req.body);
}

function bodyHoldsNul(text: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)).includes('\\u0000');
  } catch {
    return false;
  }
}

/**
 * What every answer must be, whatever was asked: below 500, with `X-Request-Id`, no stack trace or
 * SQL, an error in the contract's envelope; and a request carrying a NUL to the API never succeeds.
 */
export function problemsOf(req: FuzzRequest, res: Answer): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`${req.label}: ${res.status} ${res.text.slice(0, 200)}`);
  if (!res.headers.get('x-request-id')) problems.push(`${req.label}: no X-Request-Id`);
  if (/\n\s+at .+\(.+:\d+:\d+\)|SQLITE_|sqlite_|SqliteError|invalid byte sequence|violates .*constraint/.test(res.text)) {
    problems.push(`${req.label}: leaks internals: ${res.text.slice(0, 200)}`);
  }
  // OPTIONS is a CORS preflight, answered before any route reads the request.
  const api = /^\/(api\/)?v1\/|^\/public\/v1\/|^\/dashboard\/api\//.test(req.path) && !req.path.startsWith('/v1/openapi.json');
  if (api && req.method.toUpperCase() !== 'OPTIONS' && res.status < 400 && carriesNul(req)) problems.push(`${req.label}: ${res.status} to a request carrying a NUL`);
  // fetch sends head/get/post… upper-cased; a HEAD answer has no body to check.
  if (res.status >= 400 && req.method.toUpperCase() !== 'HEAD') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.text);
    } catch {
      parsed = undefined;
    }
    const envelope = ErrorEnvelope.safeParse(parsed);
    if (!envelope.success || !(ERROR_CODES as readonly string[]).includes(envelope.data.error.code)) {
      problems.push(`${req.label}: ${res.status} outside the error envelope: ${res.text.slice(0, 200)}`);
    }
  }
  return problems;
}
