import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAssetReader } from '../assets.js';
import { createTestApp, expectError, repoRoot, type TestApp } from '../test-helpers/index.js';

// The widget bundle is a build output; a stand-in keeps this test independent of `npm run build`.
const WIDGET = Buffer.from('/* widget */ window.Outing = {};\n'.repeat(50));
const FORMS = Buffer.from('(function(){/* booking form, code box, gift voucher, waitlist, confirmation */})();\n'.repeat(20));
/** Stand-ins for the six language files, each with its own submit label. */
const BOOK: Record<string, string> = { pt: 'Reservar', es: 'Reservar', fr: 'Réserver', de: 'Buchen', it: 'Prenota', nl: 'Boeken' };
const TEXTS = Object.fromEntries(Object.entries(BOOK).map(([code, book]) => [code, Buffer.from(JSON.stringify({ book, code, tickets: 'Tickets'.repeat(40) }))]));
useAssetReader((path) => {
  if (path === join('dist', 'widget', 'widget.js')) return WIDGET;
  const code = Object.keys(TEXTS).find((c) => path === join('dist', 'widget', `${c}.json`));
  if (code) return TEXTS[code];
  if (path === join('dist', 'widget', 'forms.js')) return FORMS;
  try {
    return readFileSync(join(repoRoot, path));
  } catch {
    return undefined;
  }
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/widget.js', () => {
  it('is never sniffed into another type, in every encoding and on a 304', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await t.request('GET', '/widget.js', { key: null, headers: { 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const first = await t.request('GET', '/widget.js', { key: null });
    const again = await t.request('GET', '/widget.js', { key: null, headers: { 'if-none-match': first.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('/widget/confirmation.js', () => {
  it('is no file of its own any more: the confirmation’s part is in forms.js', async () => {
    expectError(await t.request('GET', '/widget/confirmation.js', { key: null }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/widget/chunk.js', { key: null }), 404, 'NOT_FOUND');
  });
});

describe('/widget/forms.js', () => {
  it('serves the chunk of the booking form, code box, gift voucher, waitlist and confirmation as a script to any origin, compressed, with an ETag', async () => {
    const res = await t.app.request('/widget/forms.js', { headers: { 'accept-encoding': 'gzip', origin: 'https://tours.example.com' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer()))).toEqual(FORMS);
    const again = await t.request('GET', '/widget/forms.js', { key: null, headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  it('serves no other script names: the four parts are not files of their own', async () => {
    for (const file of ['booking-form.js', 'codes.js', 'gift-voucher.js', 'waitlist.js']) {
      const res = await t.app.request(`/widget/${file}`);
      expect(res.status).toBe(404);
    }
  });
});

describe('/widget/{code}.json', () => {
  it.each(Object.keys(BOOK))('serves %s’s texts to any origin, cached five minutes, with an ETag, compressed as widget.js is', async (lang) => {
    const decoders: [string, (b: Buffer) => Buffer][] = [['br', brotliDecompressSync], ['gzip', gunzipSync], ['identity', (b) => b]];
    for (const [encoding, decode] of decoders) {
      // The bytes as sent, before any decoding.
      const res = await t.app.request(`/widget/${lang}.json`, { headers: { 'accept-encoding': encoding, origin: 'https://tours.example.com' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-encoding')).toBe(encoding === 'identity' ? null : encoding);
      expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(decode(Buffer.from(await res.arrayBuffer()))).toEqual(TEXTS[lang]);
    }
    const first = await t.request('GET', `/widget/${lang}.json`, { key: null });
    const again = await t.request('GET', `/widget/${lang}.json`, { key: null, headers: { 'if-none-match': first.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each(['en', 'ja', 'xx', 'PT', 'FR', 'de-AT', 'pt-PT', '..%2Fwidget', 'widget'])('answers 404 for %s (a code without texts, or none at all)', async (code) => {
    const res = await t.request('GET', `/widget/${code}.json`, { key: null });
    expectError(res, 404, 'NOT_FOUND');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('/demo', () => {
  it.each(['/demo', '/demo/', '/demo/index.html', '/demo/csp.html'])('%s may not be framed and is not sniffed', async (path) => {
    const res = await t.request('GET', path, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const origin = new URL(t.config.publicUrl).origin;
    expect(res.headers.get('content-security-policy')).toBe(
      `default-src 'self'; script-src 'self' ${origin}; connect-src ${origin}; style-src 'self'; frame-ancestors 'none'`,
    );
  });

  it.each([
    ['/demo/demo.css', 'text/css; charset=utf-8'],
    ['/demo/demo.js', 'text/javascript; charset=utf-8'],
    ['/demo/favicon.svg', 'image/svg+xml'],
  ])('%s is not sniffed either', async (path, type) => {
    const res = await t.request('GET', path, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers a missing file with a 404 that is not sniffed', async () => {
    const res = await t.request('GET', '/demo/nothing.html', { key: null });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
