import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-helpers/index.js';
import { DOCS_CSP } from '../http/docs.js';

type Doc = {
  openapi: string;
  info: { title: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
};

describe('OCTO: the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://tours.outing.test' } });
    const res = await t.request('GET', '/octo/openapi.json', { key: null });
    expect(res.status).toBe(200);
    doc = res.body as Doc;
  });
  afterAll(() => t.close());

  it('is served without a key, apart from /v1’s, with the /octo server and an ETag', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBe('Outing OCTO supplier API');
    expect(doc.servers).toEqual([{ url: 'https://tours.outing.test/octo', description: expect.any(String) }]);
    const v1 = (await t.request('GET', '/v1/openapi.json', { key: null })).body as Doc;
    expect(Object.keys(v1.paths).some((p) => p.startsWith('/octo'))).toBe(false);
    const res = await t.request('GET', '/octo/openapi.json', { key: null });
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await t.request('GET', '/octo/openapi.json', { key: null, headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('has its reference page, /docs/octo, linked from /v1’s introduction', async () => {
    const res = await t.request('GET', '/docs/octo', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    const attribute = /data-configuration="([^"]*)"/.exec(res.text)?.[1] ?? '';
    const configuration = JSON.parse(attribute.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&')) as Record<string, unknown>;
    expect(configuration).toMatchObject({ url: '/octo/openapi.json', telemetry: false, hideClientButton: true });
    const v1 = (await t.request('GET', '/v1/openapi.json', { key: null })).body as { info: { description: string } };
    expect(v1.info.description).toContain('[/docs/octo](/docs/octo)');
  });

  it('documents every /octo route registered on the app, with the OCTO error as every refusal', () => {
    const routes = t.app.routes
      .filter((r) => r.path.startsWith('/octo/') && !['ALL', 'OPTIONS', 'HEAD'].includes(r.method) && r.path !== '/octo/openapi.json')
      .map((r) => `${r.method.toLowerCase()} ${r.path.slice('/octo'.length).replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect(routes).toEqual(expect.arrayContaining(['get /supplier', 'get /capabilities', 'get /products', 'get /products/{id}', 'post /availability', 'post /availability/calendar']));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect([...new Set(routes)].filter((r) => !documented.includes(r))).toEqual([]);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.responses, `${method} ${path}`).toHaveProperty('400');
        expect(JSON.stringify(op.responses['400']), `${method} ${path}`).toContain('#/components/schemas/OctoError');
      }
    }
    expect(doc.components.schemas).toHaveProperty('OctoError');
  });
});
