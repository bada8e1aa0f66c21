import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-helpers/index.js';
import { ERROR_CODES } from '../../shared/index.js';

/** Routes that are not part of the API reference (SPEC §2: key-less pages, aliases, feeds, callbacks). */
const NOT_IN_REFERENCE = [
  /^\/healthz$/,
  /^\/docs$/,
  /^\/widget\.js$/,
  /^\/demo(\/|$|\.)/,
  /^\/api\/ical\//,
  /^\/payments\//,
  /^\/api\/v1\//,
  /^\/v1\/openapi\.json$/,
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
    t = createTestApp();
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
    const schema = post.requestBody.content['application/json'].schema;
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

describe('/docs', () => {
  let t: TestApp;
  beforeAll(() => {
    t = createTestApp();
  });
  afterAll(() => t.close());

  it('is an HTML page that needs nothing from another host', async () => {
    const res = await t.request('GET', '/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!doctype html>/i);
    // No asset from elsewhere: no absolute or protocol-relative src/href, no CSS import or url() from a host.
    expect(res.text).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(res.text).not.toMatch(/@import|url\(\s*["']?(?:https?:)?\/\//i);
    expect(res.text).not.toMatch(/<script[^>]+src=/i);
  });

  it('shows every documented operation', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json', { key: null })).body as Doc;
    const html = (await t.request('GET', '/docs', { key: null })).text;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const op of Object.values(ops)) expect(html).toContain(`id="${op.operationId}"`);
      expect(html).toContain(path.replace(/&/g, '&amp;'));
    }
  });
});
