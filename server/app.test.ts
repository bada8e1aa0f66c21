import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, expectList, tampered, type TestApp } from './test-helpers/index.js';
import { Experience, Organization } from '../shared/index.js';

const walk = { name: 'Harbour walk', description: 'Along the quay', duration: 60, price: 1500, maxParticipants: 10 };

describe('the app', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('answers /healthz with 200 {"status":"ok"} without a key', async () => {
    const res = await t.request('GET', '/healthz', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /healthz with 503 while the database cannot be reached, so a load balancer looks elsewhere', async () => {
    await t.store.close();
    const res = await t.request('GET', '/healthz', { key: null });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', reason: 'The database cannot be reached' });
  });

  describe('404 NOT_FOUND', () => {
    it('answers an unknown path with the JSON envelope', async () => {
      for (const path of ['/nope', '/v1/nope', '/v2/experiences', '/api/v1/unknown', '/v1/organization/extra']) {
        const res = await t.request('GET', path);
        expectError(res, 404, 'NOT_FOUND');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      }
    });

    it('answers a known path with a method it does not take', async () => {
      expectError(await t.request('PUT', '/v1/experiences'), 404, 'NOT_FOUND');
      expectError(await t.request('DELETE', '/v1/organization'), 404, 'NOT_FOUND');
      expectError(await t.request('POST', '/v1/organization', { body: { name: 'x' } }), 404, 'NOT_FOUND');
      expectError(await t.request('POST', '/healthz'), 404, 'NOT_FOUND');
      expectError(await t.request('PATCH', '/v1/experiences', { body: { name: 'x' } }), 404, 'NOT_FOUND');
    });

    it('answers a path id of the wrong shape', async () => {
      for (const id of ['xyz', 'org_abc', 'exp_', 'exp_with-dash', `exp_${'a'.repeat(65)}`, 'exp_%27%20OR%201%3D1']) {
        expectError(await t.request('GET', `/v1/experiences/${id}`), 404, 'NOT_FOUND');
        expectError(await t.request('PATCH', `/v1/experiences/${id}`, { body: { name: 'x' } }), 404, 'NOT_FOUND');
        expectError(await t.request('DELETE', `/v1/experiences/${id}`), 404, 'NOT_FOUND');
      }
    });
  });

  describe('/api/v1', () => {
    it('serves every /v1 route identically', async () => {
      const created = expectData(await t.request('POST', '/api/v1/experiences', { body: walk }), Experience, 201);
      expect(expectData(await t.request('GET', `/v1/experiences/${created.id}`), Experience)).toEqual(created);
      expect(expectData(await t.request('GET', `/api/v1/experiences/${created.id}`), Experience)).toEqual(created);
      expect(expectList(await t.request('GET', '/api/v1/experiences'), Experience).data).toEqual([created]);
      expectData(await t.request('PATCH', `/api/v1/experiences/${created.id}`, { body: { price: 10 } }), Experience);
      expect(expectData(await t.request('GET', '/api/v1/organization'), Organization).id).toBe(t.orgId);
      expectData(await t.request('PATCH', '/api/v1/organization', { body: { phone: '+351 1' } }), Organization);
      expect((await t.request('DELETE', `/api/v1/experiences/${created.id}`)).body).toEqual({
        success: true,
        data: { id: created.id, deleted: true },
      });
    });

    it('applies the same errors', async () => {
      expectError(await t.request('GET', '/api/v1/organization', { key: null }), 401, 'UNAUTHORIZED');
      expectError(await t.request('GET', '/api/v1/experiences/xyz'), 404, 'NOT_FOUND');
      expectError(await t.request('PATCH', '/api/v1/organization', { body: {} }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('X-Request-Id', () => {
    it('echoes an incoming id of the allowed shape', async () => {
      for (const id of ['abc', 'trace.1:2-3_4', 'A'.repeat(128)]) {
        const res = await t.request('GET', '/v1/organization', { headers: { 'x-request-id': id } });
        expect(res.headers.get('x-request-id')).toBe(id);
      }
    });

    it('replaces an incoming id of another shape with a new one', async () => {
      for (const id of ['has space', 'semi;colon', 'A'.repeat(129), 'é', '<script>']) {
        const res = await t.request('GET', '/v1/organization', { headers: { 'x-request-id': id } });
        const got = res.headers.get('x-request-id');
        expect(got).toBeTruthy();
        expect(got).not.toBe(id);
        expect(got).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      }
    });

    it('makes a different id for each request without one', async () => {
      const a = (await t.request('GET', '/healthz')).headers.get('x-request-id');
      const b = (await t.request('GET', '/healthz')).headers.get('x-request-id');
      expect(a).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(a).not.toBe(b);
    });

    it('is on every response: success, 401, 404, 413, docs, openapi', async () => {
      const responses = [
        await t.request('GET', '/healthz'),
        await t.request('GET', '/v1/organization', { key: null }),
        await t.request('GET', '/no/such/route'),
        await t.request('DELETE', '/v1/organization'),
        await t.request('PATCH', '/v1/organization', { body: { name: 'x'.repeat(70_000) } }),
        await t.request('GET', '/docs'),
        await t.request('GET', '/v1/openapi.json'),
      ];
      for (const res of responses) expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    });
  });

  describe('500 INTERNAL_ERROR', () => {
    it('answers a fault with a bare message: no stack, no SQL, but the request id', async () => {
      await t.store.close(); // every statement now throws inside the store
      const res = await t.request('GET', '/v1/experiences', { headers: { 'x-request-id': 'fault-1' } });
      const err = expectError(res, 500, 'INTERNAL_ERROR');
      expect(res.headers.get('x-request-id')).toBe('fault-1');
      expect(res.text).not.toMatch(/database|sqlite|SELECT|at [\w.<>]+ \(|\.ts:\d|\.js:\d|TypeError|Error:/i);
      expect(err.message).toMatch(/X-Request-Id/);
      // The fault is logged, with the request id, for the operator.
      const logged = t.logEntries().find((e) => e.level === 'error');
      expect(logged).toMatchObject({ requestId: 'fault-1' });
      expect(t.logEntries().filter((e) => e.msg === 'request').at(-1)).toMatchObject({ status: 500, requestId: 'fault-1' });
    });
  });

  describe('request log', () => {
    it('writes one JSON line per request with method, path, status, duration and request id', async () => {
      await t.request('GET', '/healthz', { headers: { 'x-request-id': 'log-1' } });
      await t.request('GET', '/v1/organization', { headers: { 'x-request-id': 'log-2' } });
      await t.request('GET', '/v1/nothing-here', { headers: { 'x-request-id': 'log-3' } });
      const lines = t.logEntries().filter((e) => e.msg === 'request');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatchObject({ level: 'info', method: 'GET', path: '/healthz', status: 200, requestId: 'log-1' });
      expect(lines[1]).toMatchObject({ path: '/v1/organization', status: 200, requestId: 'log-2', orgId: t.orgId, keyId: t.apiKeyId });
      expect(lines[2]).toMatchObject({ status: 404, requestId: 'log-3' });
      for (const line of lines) expect(typeof line.durationMs).toBe('number');
      for (const raw of t.logs) expect(() => JSON.parse(raw)).not.toThrow();
    });

    it('writes no request line from LOG_LEVEL=warn up, and still answers with the request id and nosniff', async () => {
      const quiet = await createTestApp({ logLevel: 'warn' });
      try {
        const res = await quiet.request('GET', '/v1/organization', { headers: { 'x-request-id': 'quiet-1' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-request-id')).toBe('quiet-1');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(quiet.logEntries().filter((e) => e.msg === 'request')).toEqual([]);
      } finally {
        await quiet.close();
      }
    });

    it('never logs an API key, a key= value or a feed token', async () => {
      const token = new URL(t.icalFeedUrl).pathname.split('/').at(-1) ?? '';
      expect(token.length).toBeGreaterThan(20);
      await t.request('GET', '/v1/organization');
      await t.request('GET', '/v1/organization', { key: tampered(t.secretKey) });
      await t.request('GET', `/v1/experiences?key=${t.secretKey}`);
      await t.request('GET', `/public/v1/experiences?key=${t.publishableKey}`, { key: null });
      await t.request('GET', `/public/v1/experiences?limit=5&key=${t.publishableKey}&x=1`, { key: null });
      await t.request('GET', '/public/v1/experiences');
      await t.request('GET', `/api/ical/${token}`, { key: null });
      await t.request('GET', `/api/ical/${token}.ics`, { key: null });
      await t.request('GET', `/api/ical/${token}?token=${token}`, { key: null });
      const requests = t.logEntries().filter((e) => e.msg === 'request');
      expect(requests).toHaveLength(9);
      const all = t.logs.join('\n');
      for (const secret of [t.secretKey, t.secretKey.slice(12), t.publishableKey, t.publishableKey.slice(12), token]) {
        expect(all).not.toContain(secret);
      }
      expect(all).not.toMatch(/key=(?!\[redacted\])/);
    });

    it('logs no search term and no e-mail address of a request path', async () => {
      await t.request('GET', '/v1/customers?search=guest@example.com&limit=5');
      await t.request('GET', '/api/v1/customers?search=Ana%20Silva');
      await t.request('GET', '/v1/bookings?q=guest%40example.com');
      await t.request('GET', '/v1/bookings?q=Ana+Silva&limit=5');
      await t.request('GET', '/v1/customers/guest@example.com');
      await t.request('GET', '/v1/bookings?customerEmail=guest%2Bx%40example.com');
      const paths = t.logEntries().filter((e) => e.msg === 'request').map((e) => e.path);
      expect(paths).toEqual([
        '/v1/customers?search=[redacted]&limit=5',
        '/api/v1/customers?search=[redacted]',
        '/v1/bookings?q=[redacted]',
        '/v1/bookings?q=[redacted]&limit=5',
        '/v1/customers/[redacted]',
        '/v1/bookings?customerEmail=[redacted]',
      ]);
      const all = t.logs.join('\n');
      for (const personal of ['guest', 'example.com', 'Ana', 'Silva']) expect(all).not.toContain(personal);
    });
  });
});
