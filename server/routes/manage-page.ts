import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { Hono, type Context } from 'hono';
import { readAsset } from '../assets.js';
import type { AppEnv } from '../http/context.js';
import { errorBody } from '../http/errors.js';
import { matchesIfNoneMatch } from '../http/etag.js';
import type { RouteContext } from './context.js';
import { DASHBOARD_CSP } from './dashboard-app.js';

/** Where `npm run build:manage` leaves the page's script (vite.config.ts, mode `manage`). */
export const MANAGE_BUNDLE = 'dist/manage/manage.js';

/**
 * The page itself: a heading for the moment before the script runs, the main landmark the script
 * renders into, and nothing inline (the CSP allows no inline script or style). An empty icon spares
 * the browser asking for /favicon.ico, which Outing does not have. The script says
 * the booking's language once it knows it; until then the page is English.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>Your booking</title>
<link rel="icon" href="data:,">
<script src="/manage/manage.js" defer></script>
</head>
<body>
<main id="manage">
<noscript><p>This page needs JavaScript to show your booking.</p></noscript>
</main>
</body>
</html>
`;

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
 * The guests' manage page at /manage (the link in their e-mails carries the token after `#`, so it
 * never reaches a server log) and its script at /manage/manage.js. Served under the dashboard's
 * CSP, never framed, and with no Referer ever sent from it: the token must not leak. Its API is
 * /public/v1/manage (routes/manage.ts).
 */
export function managePageRoutes(_ctx: RouteContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const page = encode(Buffer.from(PAGE));
  // Read once: the build does not change under a running server (a new build means a restart).
  let bundle: File | null | undefined;
  const loadBundle = (): File | null => {
    if (bundle === undefined) {
      const raw = readAsset(MANAGE_BUNDLE);
      bundle = raw ? encode(raw) : null;
    }
    return bundle;
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

  const showPage = (c: Context<AppEnv>): Response => {
    secure(c);
    if (!loadBundle()) return c.json(errorBody('NOT_FOUND', 'The manage page is not built: run npm run build'), 404);
    // no-store: the page holds nothing personal, but nothing about a guest's visit is kept either.
    return send(c, page, 'text/html; charset=utf-8', 'no-store');
  };
  app.get('/manage', showPage);
  app.get('/manage/', showPage);

  app.get('/manage/manage.js', (c) => {
    secure(c);
    const file = loadBundle();
    if (!file) return c.json(errorBody('NOT_FOUND', 'manage.js is not built: run npm run build'), 404);
    // Not a hashed name: the browser asks every time, and a matching ETag makes that a 304.
    return send(c, file, 'text/javascript; charset=utf-8', 'no-cache');
  });
  return app;
}
