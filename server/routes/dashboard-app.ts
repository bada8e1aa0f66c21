import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { Hono, type Context } from 'hono';
import { readAsset } from '../assets.js';
import { errorBody } from '../http/errors.js';
import type { AppEnv } from '../http/context.js';
import { matchesIfNoneMatch } from '../http/etag.js';
import type { RouteContext } from './context.js';

/**
 * Everything the dashboard's pages may load: its own scripts, styles and API, nothing inline and
 * nothing from elsewhere; never framed (it acts with the operator's session).
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Vite's hashed names: a name changes with its content, so a year of caching is safe. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.[a-z0-9]+$/;

interface File {
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

function encode(raw: Buffer): File {
  return {
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    br: brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
  };
}

/**
 * The operator dashboard, built by `npm run build:dashboard` into dist/dashboard/: its files under
 * /dashboard/assets/, and its page at /dashboard and every other GET path under it, so that a deep
 * link or a reload opens the right screen. /dashboard/api/* is the session API's (dashboard-session.ts).
 */
export function dashboardAppRoutes(_ctx: RouteContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Read once: the build does not change under a running server (a new build means a restart).
  const files = new Map<string, File | null>();
  const load = (path: string): File | undefined => {
    if (!files.has(path)) {
      const raw = readAsset(path);
      files.set(path, raw ? encode(raw) : null);
    }
    return files.get(path) ?? undefined;
  };

  const secure = (c: Context<AppEnv>) => {
    c.header('Content-Security-Policy', DASHBOARD_CSP);
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Content-Type-Options', 'nosniff');
  };

  const send = (c: Context<AppEnv>, file: File, type: string, cacheControl: string): Response => {
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
  };

  app.get('/dashboard/assets/:name', (c) => {
    secure(c);
    const name = c.req.param('name');
    const type = TYPES[/\.[a-z0-9]+$/.exec(name)?.[0] ?? ''];
    const file = type && ASSET_NAME.test(name) ? load(`dist/dashboard/assets/${name}`) : undefined;
    // A missing file is a 404, never the page: a script tag must not receive HTML.
    if (!file || !type) return c.json(errorBody('NOT_FOUND', 'No such dashboard file'), 404);
    return send(c, file, type, 'public, max-age=31536000, immutable');
  });

  const page = (c: Context<AppEnv>): Response => {
    const path = new URL(c.req.url).pathname;
    // Unknown session-API paths stay JSON 404s, as every API path of Outing does.
    if (path === '/dashboard/api' || path.startsWith('/dashboard/api/')) {
      return c.json(errorBody('NOT_FOUND', `No route ${c.req.method} ${path}`), 404);
    }
    secure(c);
    if (path.startsWith('/dashboard/assets/')) return c.json(errorBody('NOT_FOUND', 'No such dashboard file'), 404);
    const index = load('dist/dashboard/index.html');
    if (!index) return c.json(errorBody('NOT_FOUND', 'The dashboard is not built: run npm run build'), 404);
    // no-cache: always asks, so a new build's asset names are picked up at once.
    return send(c, index, 'text/html; charset=utf-8', 'no-cache');
  };
  app.get('/dashboard', page);
  app.get('/dashboard/*', page);
  return app;
}
