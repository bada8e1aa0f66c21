import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAssetReader } from '../assets.js';
import { createTestApp, type TestApp, type TestResponse } from '../test-helpers/index.js';
import { DASHBOARD_CSP } from './dashboard-app.js';

// The built dashboard is a build output; stand-ins keep this test independent of `npm run build`.
const INDEX = Buffer.from('<!doctype html><script type="module" src="/dashboard/assets/index-AbCd1234.js"></script>');
const SCRIPT = Buffer.from('console.log("dashboard");\n'.repeat(40));
useAssetReader((path) => {
  if (path === join('dist', 'dashboard', 'index.html')) return INDEX;
  if (path === join('dist', 'dashboard', 'assets', 'index-AbCd1234.js')) return SCRIPT;
  return undefined;
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const expectStrictHeaders = (res: TestResponse) => {
  expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
};

describe('/dashboard', () => {
  it.each(['/dashboard', '/dashboard/', '/dashboard/sign-in', '/dashboard/setup', '/dashboard/bookings/bk_1', '/dashboard/unknown/deep'])(
    '%s answers the app, so deep links and reloads work',
    async (path) => {
      const res = await t.request('GET', path, { key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expectStrictHeaders(res);
      expect(res.text).toBe(INDEX.toString());
    },
  );

  it('serves hashed assets for a year, compressed, with a 304 for a known ETag', async () => {
    const res = await t.request('GET', '/dashboard/assets/index-AbCd1234.js', { key: null, headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expectStrictHeaders(res);
    const again = await t.request('GET', '/dashboard/assets/index-AbCd1234.js', { key: null, headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it.each(['/dashboard/assets/missing.js', '/dashboard/assets/index-AbCd1234.exe', '/dashboard/assets/..%2Findex.html', '/dashboard/assets/deep/x.js'])(
    '%s is a 404, never the page',
    async (path) => {
      const res = await t.request('GET', path, { key: null });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
    },
  );

  it('leaves /dashboard/api/* to the session API: an unknown path there is a JSON 404', async () => {
    const res = await t.request('GET', '/dashboard/api/nothing-here', { key: null });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const session = await t.request('GET', '/dashboard/api/session', { key: null });
    expect(session.status).toBe(401);
  });
});
