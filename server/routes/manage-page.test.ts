import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAssetReader } from '../assets.js';
import { createTestApp, type TestApp, type TestResponse } from '../test-helpers/index.js';
import { DASHBOARD_CSP } from './dashboard-app.js';

// The built page script is a build output; a stand-in keeps this test independent of `npm run build`.
const SCRIPT = Buffer.from('console.log("manage");\n'.repeat(40));
let built = true;
useAssetReader((path) => (built && path === join('dist', 'manage', 'manage.js') ? SCRIPT : undefined));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const expectStrictHeaders = (res: TestResponse) => {
  // The dashboard's policy, with https images besides for the organization's logo.
  expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP.replace("img-src 'self' data:", "img-src 'self' data: https:"));
  expect(res.headers.get('content-security-policy')).toContain("img-src 'self' data: https:;");
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
};

describe('/manage', () => {
  it.each(['/manage', '/manage/'])('%s answers a small page that loads the script, with nothing inline', async (path) => {
    const res = await t.request('GET', path, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectStrictHeaders(res);
    expect(res.text).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(res.text).toContain('<title>Your booking</title>');
    expect(res.text).toContain('<main id="manage">');
    expect(res.text).toContain('<script src="/manage/manage.js" defer></script>');
    // Nothing the CSP would refuse: no inline script, no style element or attribute.
    expect(res.text.match(/<script\b[^>]*>/g)).toEqual(['<script src="/manage/manage.js" defer>']);
    expect(res.text).not.toMatch(/<style|style=/);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.request('HEAD', '/manage', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectStrictHeaders(res);
    expect(res.text).toBe('');
    const script = await t.request('HEAD', '/manage/manage.js', { key: null });
    expect(script.status).toBe(200);
    expect(script.text).toBe('');
  });

  it('serves the script compressed, revalidated by ETag', async () => {
    const res = await t.request('GET', '/manage/manage.js', { key: null, headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expectStrictHeaders(res);
    const again = await t.request('GET', '/manage/manage.js', { key: null, headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const br = await t.request('GET', '/manage/manage.js', { key: null, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const plain = await t.request('GET', '/manage/manage.js', { key: null });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.text).toBe(SCRIPT.toString());
  });

  it('compresses the page too and answers 304 for its ETag', async () => {
    const res = await fetchRaw('/manage', { 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch undoes the compression it was sent with.
    expect(await res.text()).toContain('<main id="manage">');
    const again = await t.request('GET', '/manage', { key: null, headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('needs no key and ignores one', async () => {
    const res = await t.request('GET', '/manage', { key: 'opk_nonsense' });
    expect(res.status).toBe(200);
  });

  it('is a JSON 404 for other paths under /manage, never the page', async () => {
    const res = await t.request('GET', '/manage/other.js', { key: null });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('says so when the page is not built', async () => {
    built = false;
    const unbuilt = await createTestApp();
    try {
      for (const path of ['/manage', '/manage/manage.js']) {
        const res = await unbuilt.request('GET', path, { key: null });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
        expect(res.body.error.message).toContain('npm run build');
      }
    } finally {
      built = true;
      await unbuilt.close();
    }
  });
});

/** The page over a real socket: the helper reads bodies as text, which a compressed one is not. */
async function fetchRaw(path: string, headers: Record<string, string>): Promise<Response> {
  const server = await t.listen();
  try {
    const res = await fetch(server.url + path, { headers });
    await res.clone().arrayBuffer();
    return res;
  } finally {
    await server.close();
  }
}
