import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { Hono, type Context } from 'hono';
import { readAsset } from '../assets.js';
import { Refusal } from '../domain/refusal.js';
import type { AppEnv } from '../http/context.js';
import { demoPublishableKey } from '../demo.js';
import { matchesIfNoneMatch } from '../http/etag.js';
import type { RouteContext } from './context.js';

interface Encoded {
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

function encode(raw: Buffer): Encoded {
  return {
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    br: brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
  };
}

const DEMO_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

/** The strict policy that host pages may use (README, "Embed the widget"); the demo pages are served under it. */
export function strictCsp(apiOrigin: string): string {
  return `default-src 'self'; script-src 'self' ${apiOrigin}; connect-src ${apiOrigin}; style-src 'self'`;
}

/**
 * The demo's own policy: the host-page policy, and no framing. The demo books for real, so a page
 * elsewhere must not frame it and trick a visitor into clicking "Book" (clickjacking).
 */
export function demoCsp(apiOrigin: string): string {
  return `${strictCsp(apiOrigin)}; frame-ancestors 'none'`;
}

/** `/widget.js` and the demo site: no key needed. */
export function staticRoutes(ctx: RouteContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let widget: Encoded | undefined;

  app.get('/widget.js', (c) => {
    // Browsers must run it as script only because we say it is one, never by sniffing.
    c.header('X-Content-Type-Options', 'nosniff');
    widget ??= (() => {
      const raw = readAsset('dist/widget/widget.js');
      return raw ? encode(raw) : undefined;
    })();
    if (!widget) throw new Refusal('NOT_FOUND', 'widget.js is not built: run npm run build');
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=300');
    c.header('ETag', widget.etag);
    c.header('Vary', 'Accept-Encoding');
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (matchesIfNoneMatch(c.req.header('if-none-match'), widget.etag)) {
      return c.body(null, 304);
    }
    const accepts = c.req.header('accept-encoding') ?? '';
    if (/\bbr\b/.test(accepts)) {
      c.header('Content-Encoding', 'br');
      return c.body(new Uint8Array(widget.br));
    }
    if (/\bgzip\b/.test(accepts)) {
      c.header('Content-Encoding', 'gzip');
      return c.body(new Uint8Array(widget.gzip));
    }
    return c.body(new Uint8Array(widget.raw));
  });

  const demoFile = (name: string) => {
    const ext = /\.[a-z0-9]+$/i.exec(name)?.[0]?.toLowerCase() ?? '';
    const type = DEMO_TYPES[ext];
    if (!type || !/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) return undefined;
    const bytes = readAsset(`demo/${name}`);
    return bytes ? { bytes, type, ext } : undefined;
  };

  const serveDemo = async (c: Context<AppEnv>, name: string): Promise<Response> => {
    c.header('X-Content-Type-Options', 'nosniff');
    const file = demoFile(name);
    if (!file) throw new Refusal('NOT_FOUND', 'No such demo file');
    const publicUrl = ctx.config.publicUrl;
    const origin = new URL(publicUrl).origin;
    c.header('Content-Type', file.type);
    c.header('Cache-Control', 'no-cache');
    if (file.ext !== '.html') return c.body(new Uint8Array(file.bytes));
    c.header('Content-Security-Policy', demoCsp(origin));
    const key = await demoPublishableKey(ctx.store) ?? '';
    const html = file.bytes
      .toString('utf8')
      .replaceAll('%OUTING_PUBLISHABLE_KEY%', key)
      .replaceAll('%OUTING_API%', origin);
    return c.body(html);
  };

  app.get('/demo', async (c) => await serveDemo(c, 'index.html'));
  app.get('/demo/', async (c) => await serveDemo(c, 'index.html'));
  app.get('/demo/:file', async (c) => await serveDemo(c, c.req.param('file')));
  return app;
}
