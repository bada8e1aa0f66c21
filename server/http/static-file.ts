// Files Outing serves from its own build (the dashboard, the manage page): encoded once, sent with
// an ETag, compressed as the client accepts, and under the strict headers of an app page.
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import { matchesIfNoneMatch } from './etag.js';

/**
 * Everything an app page of Outing (the dashboard, the manage page) may load: its own scripts,
 * styles and API, nothing inline and nothing from elsewhere; never framed.
 */
export const APP_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The manage page's policy: the app page's, with `https:` images besides, for the organization's
 * logo (an address the operator gives; the browser fetches it, never the server).
 */
export const MANAGE_PAGE_CSP = APP_PAGE_CSP.replace("img-src 'self' data:", "img-src 'self' data: https:");

export interface StaticFile {
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

/** A file's bytes with both compressions made once (files are read once per process). */
export function encodeFile(raw: Buffer): StaticFile {
  return {
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    br: brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
  };
}

/** The headers of every response of an app page: its CSP, no framing, no referrer, no sniffing. */
export function appPageHeaders(c: Context<AppEnv>, csp: string = APP_PAGE_CSP): void {
  c.header('Content-Security-Policy', csp);
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
}

/** Sends a file: 304 on a matching If-None-Match, else brotli, gzip or raw as the client accepts. */
export function sendStaticFile(c: Context<AppEnv>, file: StaticFile, type: string, cacheControl: string): Response {
  c.header('Content-Type', type);
  c.header('Cache-Control', cacheControl);
  c.header('ETag', file.etag);
  c.header('Vary', 'Accept-Encoding');
  if (matchesIfNoneMatch(c.req.header('if-none-match'), file.etag)) return c.body(null, 304);
  const accepts = c.req.header('accept-encoding') ?? '';
  if (/\bbr\b/.test(accepts)) {
    c.header('Content-Encoding', 'br');
    return c.body(new Uint8Array(file.br));
  }
  if (/\bgzip\b/.test(accepts)) {
    c.header('Content-Encoding', 'gzip');
    return c.body(new Uint8Array(file.gzip));
  }
  return c.body(new Uint8Array(file.raw));
}
