import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test-helpers/index.js';
import { ERROR_CODES, EVENT_KINDS, ScheduleInput } from '../../shared/index.js';
import { buildOpenApiDocument } from './openapi.js';
import { DOCS_CSP } from './docs.js';

/** Routes that are not part of the API reference: key-less pages and assets, aliases, feeds, callbacks. */
const NOT_IN_REFERENCE = [
  /^\/healthz$/,
  /^\/docs(\/|$)/,
  /^\/widget\.js$/,
  // widget.js's language files (widget/i18n/load.ts), static like it.
  /^\/widget\//,
  /^\/demo(\/|$|\.)/,
  // The dashboard's pages and files; its API under /dashboard/api is documented.
  /^\/dashboard(\/(?!api\/)|$)/,
  // The guests' manage page and its script; its API under /public/v1/manage is documented.
  /^\/manage(\/|$)/,
  /^\/api\/ical\//,
  /^\/payments\//,
  /^\/api\/v1\//,
  /^\/v1\/openapi\.json$/,
  // The OCTO supplier API has a document of its own, /octo/openapi.json (routes/octo-openapi.test.ts).
  /^\/octo(\/|$)/,
];

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; security?: unknown[] }>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.request('GET', '/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    doc = res.body as Doc;
  });
  afterAll(() => t.close());

  it('is served without a key as OpenAPI 3.1, also under /api/v1', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    const alias = await t.request('GET', '/api/v1/openapi.json', { key: null });
    expect(alias.body).toEqual(doc);
  });

  it('documents every API route registered on the app', () => {
    const routes = t.app.routes
      .filter((r) => !['ALL', 'OPTIONS', 'HEAD'].includes(r.method))
      .filter((r) => !NOT_IN_REFERENCE.some((re) => re.test(r.path)))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThanOrEqual(7); // the foundation's own routes at least
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(expect.arrayContaining([...new Set(routes)].sort()));
    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
  });

  it('documents only routes that exist', () => {
    const registered = new Set(t.app.routes.map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`));
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) expect(registered.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
    }
  });

  it('lists /v1 paths only, not the /api/v1 aliases', () => {
    for (const path of Object.keys(doc.paths)) expect(path.startsWith('/api/')).toBe(false);
    expect(doc.paths['/v1/experiences/{id}']).toBeDefined();
    expect(doc.paths['/v1/organization']).toBeDefined();
  });

  it('gives each operation a unique operationId, responses and security', () => {
    const ids = new Set<string>();
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(Object.keys(op.responses).some((s) => s.startsWith('2'))).toBe(true);
        expect(op.security?.length).toBeGreaterThan(0);
      }
    }
  });

  it('describes request bodies with the same constraints that validate them', () => {
    const post = doc.paths['/v1/experiences']?.post as unknown as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: unknown } } } };
    };
    const { $ref } = post.requestBody.content['application/json'].schema as unknown as { $ref: string };
    expect($ref).toBe('#/components/schemas/ExperienceCreate');
    const schema = doc.components.schemas.ExperienceCreate as { properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: unknown };
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'description', 'duration', 'price', 'maxParticipants']));
    expect(schema.properties.duration).toMatchObject({ minimum: 1, maximum: 1440 });
    expect(schema.additionalProperties).toBe(false);
  });

  it('names every error code of the contract', () => {
    const text = JSON.stringify(doc);
    for (const code of ERROR_CODES) expect(text).toContain(code);
    expect(doc.components.schemas.Error).toBeDefined();
  });
});

type Operation = {
  operationId: string;
  parameters?: ({ $ref: string } | { name: string; in: string; required?: boolean; schema: Record<string, unknown> })[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown>; example?: unknown }> };
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: { properties: { data: Record<string, unknown> } }; example?: unknown }> }>;
};

describe('OpenAPI document, for client generators', () => {
  let t: TestApp;
  let doc: Doc & {
    info: Record<string, unknown>;
    tags: { name: string; description?: string }[];
    servers: { url: string }[];
    webhooks: Record<string, { post: Operation }>;
    components: Record<string, Record<string, Record<string, unknown>>>;
  };
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.request('GET', '/v1/openapi.json', { key: null })).body as typeof doc;
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op: op as unknown as Operation })),
    );
  /** A file download (GET /v1/manifest.csv) answers text, not an envelope: the JSON checks skip it. */
  const isFile = (op: Operation) => {
    const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))![1];
    return success.content !== undefined && !('application/json' in success.content);
  };
  const param = (path: string, method: string, name: string) =>
    (doc.paths[path]?.[method] as unknown as Operation).parameters?.find((p) => 'name' in p && p.name === name) as
      | { required?: boolean; schema: Record<string, unknown> }
      | undefined;

  it('names the resources under components/schemas and refers to them', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      'Booking', 'Experience', 'Organization', 'Customer', 'Availability', 'TimeSlotAvailability', 'Payment',
      'WebhookEndpoint', 'Delivery', 'WebhookEvent', 'CalendarFeed', 'CalendarImport', 'PublicBooking',
      'PublicExperience', 'Error', 'Pagination', 'BookingCreate', 'ExperienceCreate', 'BookingPatch',
    ]) {
      expect(names).toContain(name);
    }
    for (const { path, method, op } of operations()) {
      if (isFile(op)) continue;
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))![1];
      const data = success.content!['application/json']!.schema.properties.data;
      const named = (data.items as { $ref?: string } | undefined)?.$ref ?? data.$ref;
      expect(named, `${method} ${path} data`).toMatch(/^#\/components\/schemas\/\w+$/);
      const body = op.requestBody?.content['application/json']?.schema;
      if (body) expect(body.$ref, `${method} ${path} body`).toMatch(/^#\/components\/schemas\/\w+$/);
    }
  });

  it('types numeric and boolean query parameters as what the server reads them as', () => {
    expect(param('/v1/bookings', 'get', 'limit')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(param('/v1/bookings', 'get', 'offset')?.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(param('/v1/availability', 'get', 'participants')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 10_000, default: 1 });
    expect(param('/v1/experiences', 'get', 'active')?.schema).toMatchObject({ type: 'boolean' });
    expect(param('/v1/availability', 'get', 'experienceId')?.required).toBe(true);
    expect(param('/v1/bookings', 'get', 'limit')?.required).toBe(false);
  });

  it('documents response headers, the Idempotency-Key header and the security schemes', () => {
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const resolved = response.$ref ? doc.components.responses![response.$ref.split('/').pop()!]! : response;
        const headers = Object.keys((resolved as { headers?: object }).headers ?? {});
        expect(headers, `${method} ${path} ${status}`).toContain('X-Request-Id');
        if (status === '429') expect(headers).toContain('Retry-After');
        if (status.startsWith('2') && path.startsWith('/v1/')) expect(headers).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
        if (status.startsWith('2') && method === 'post') expect(headers).toContain('Idempotent-Replayed');
      }
      const refs = (op.parameters ?? []).filter((p) => '$ref' in p).map((p) => (p as { $ref: string }).$ref);
      expect(refs.includes('#/components/parameters/IdempotencyKey'), `${method} ${path}`).toBe(method === 'post');
    }
    expect(doc.components.securitySchemes).toMatchObject({
      secretKey: { type: 'http', scheme: 'bearer' },
      publishableKey: { type: 'apiKey', in: 'header', name: 'X-Outing-Key' },
      publishableKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
    });
  });

  it('describes each webhook event with its payload and the Standard Webhooks headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_KINDS].sort());
    for (const [kind, { post }] of Object.entries(doc.webhooks)) {
      const names = (post.parameters ?? []).map((p) => ('$ref' in p ? doc.components.parameters![p.$ref.split('/').pop()!]!.name : p.name));
      expect(names).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const media = post.requestBody!.content['application/json']!;
      expect(JSON.stringify(media.schema)).toContain('#/components/schemas/WebhookEvent');
      expect(media.example).toMatchObject({ event: kind });
    }
  });

  it('gives instants, dates and e-mail addresses their formats', () => {
    const formats = new Map<string, Set<unknown>>();
    const visit = (node: unknown, key = ''): void => {
      if (Array.isArray(node)) return node.forEach((n) => visit(n, key));
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (key && (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string')) || schema.anyOf)) {
        const found = formats.get(key) ?? new Set();
        found.add(schema.format ?? (schema.anyOf as { format?: string }[] | undefined)?.find((s) => s.format)?.format);
        formats.set(key, found);
      }
      for (const [name, value] of Object.entries(schema)) {
        if (name === 'properties') for (const [prop, s] of Object.entries(value as object)) visit(s, prop);
        else if (name !== 'example' && name !== 'examples') visit(value, name === 'items' ? key : '');
      }
    };
    visit(doc.components.schemas);
    for (const key of ['createdAt', 'updatedAt', 'startTime', 'endTime', 'cancelledAt', 'holdExpiresAt', 'timestamp', 'lastSyncedAt', 'deliveredAt', 'nextAttemptAt', 'firstBookingAt']) {
      expect([...(formats.get(key) ?? [])], key).toEqual(['date-time']);
    }
    for (const key of ['date']) expect([...(formats.get(key) ?? [])], key).toEqual(['date']);
    for (const key of ['email', 'guestEmail', 'customerEmail']) expect([...(formats.get(key) ?? [])], key).toEqual(['email']);
  });

  it('marks a request body required only when an empty one would be refused', () => {
    const body = (path: string, method: string) => (doc.paths[path]?.[method] as unknown as Operation).requestBody;
    expect(body('/v1/bookings/{id}/cancel', 'patch')?.required).toBe(false);
    expect(body('/v1/bookings/{id}', 'patch')?.required).toBe(true);
    expect(body('/v1/bookings', 'post')?.required).toBe(true);
  });

  it('has a license, a description, tags with descriptions and a server', () => {
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(String(doc.info.description)).toContain('## Authentication');
    const used = new Set(operations().flatMap(({ op }) => (op as unknown as { tags: string[] }).tags));
    expect(doc.tags.map((tag) => tag.name)).toEqual(expect.arrayContaining([...used]));
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    expect(doc.servers[0]?.url).toBe(t.config.publicUrl);
  });

  it('shows an example of every request body and every success response', () => {
    for (const { path, method, op } of operations()) {
      const body = op.requestBody?.content['application/json'];
      if (body) expect(body.example, `${method} ${path} body`).toBeDefined();
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))![1];
      if (isFile(op)) expect(Object.values(success.content!)[0]!.example, `${method} ${path}`).toEqual(expect.any(String));
      else expect(success.content!['application/json']!.example, `${method} ${path}`).toMatchObject({ success: true });
    }
  });

  it('documents a CSV download as text with its file name header, and its errors as JSON envelopes', () => {
    const op = doc.paths['/v1/manifest.csv']!.get as unknown as Operation;
    expect(op.operationId).toBe('getManifestCsv');
    const success = op.responses['200']!;
    expect(Object.keys(success.content!)).toEqual(['text/csv']);
    expect(success.content!['text/csv']!.schema).toEqual({ type: 'string' });
    expect(success.content!['text/csv']!.example).toMatch(/^start,experience,bookingNumber,.*\r\n/);
    expect(success.headers).toHaveProperty('Content-Disposition');
    expect(op.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
  });
});

describe('buildOpenApiDocument', () => {
  it('refuses one name for two shapes (a schema whose input and output differ, used both ways)', () => {
    const spec = { method: 'post', path: '/x', summary: 'x', tag: 'Experiences', auth: 'secret', body: ScheduleInput, response: ScheduleInput } as const;
    expect(() => buildOpenApiDocument([{ prefix: '/v1', specs: [spec] }], { version: '0', serverUrl: 'https://x.test' })).toThrow(
      /ScheduleInput differs as (input and as output|output and as input)/,
    );
  });
});

describe('/docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const scriptSources = (html: string) => [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];

  it('is an HTML page that needs nothing from another host and runs no inline script', async () => {
    const res = await t.request('GET', '/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!doctype html>/i);
    // No asset from elsewhere: no absolute or protocol-relative src/href, no CSS import or url() from a host.
    expect(res.text).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(res.text).not.toMatch(/@import|url\(\s*["']?(?:https?:)?\/\//i);
    const scripts = scriptSources(res.text);
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/docs\/[a-z]+\.js\?v=[\w-]+"/);
      expect(body).toBe('');
    }
    expect(res.text).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it('is served under a strict policy: same-origin scripts, no framing, no referrer', async () => {
    const res = await t.request('GET', '/docs', { key: null });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(DOCS_CSP);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:|\*/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('points Scalar at the served document with everything remote turned off', async () => {
    const html = (await t.request('GET', '/docs', { key: null })).text;
    const attribute = /data-configuration="([^"]*)"/.exec(html)?.[1] ?? '';
    const configuration = JSON.parse(attribute.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&')) as Record<string, unknown>;
    expect(configuration).toMatchObject({
      url: '/v1/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      hideTestRequestButton: true,
      agent: { disabled: true },
    });
    expect(configuration).not.toHaveProperty('proxyUrl');
    const script = await t.request('GET', '/docs/reference.js', { key: null });
    expect(script.status).toBe(200);
    expect(script.text).toContain('createApiReference');
  });

  it('serves Scalar’s bundle from the installed package: cacheable by its hash, revalidated by ETag, compressed', async () => {
    const html = (await t.request('GET', '/docs', { key: null })).text;
    const src = /src="(\/docs\/scalar\.js\?v=[\w-]+)"/.exec(html)?.[1] ?? '';
    const res = await t.request('GET', src, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.text).toContain('createApiReference');
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.request('GET', src, { key: null, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const unversioned = await t.request('GET', '/docs/scalar.js', { key: null, headers: { 'accept-encoding': 'identity' } });
    expect(unversioned.headers.get('cache-control')).toBe('no-cache');
    await vi.waitFor(
      async () => {
        const gz = await t.app.request(src, { headers: { 'accept-encoding': 'gzip' } });
        expect(gz.headers.get('content-encoding')).toBe('gzip');
        expect(Number((await gz.arrayBuffer()).byteLength)).toBeLessThan(res.text.length / 2);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('answers the document with an ETag, so a reload can be a 304', async () => {
    const res = await t.request('GET', '/v1/openapi.json', { key: null });
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await t.request('GET', '/v1/openapi.json', { key: null, headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});
