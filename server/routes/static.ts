import { Hono, type Context } from 'hono';
import { readAsset } from '../assets.js';
import { Refusal } from '../domain/refusal.js';
import type { AppEnv } from '../http/context.js';
import { demoPublishableKey } from '../demo.js';
import { encodeFile, sendStaticFile, type StaticFile } from '../http/static-file.js';
import type { RouteContext } from './context.js';

/**
 * The languages the widget may fetch besides the English it carries, as `/widget/{code}.json`
 * (widget/i18n/load.ts). A code answers once its file is built (dist/widget/{code}.json, from
 * widget/i18n/{code}.json); any other code is a 404.
 */
export const WIDGET_LANGUAGES = ['pt', 'es', 'fr', 'de', 'it', 'nl'];

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

/** The scripts widget.js may load after itself, beside it under `/widget/`. */
const WIDGET_CHUNKS = ['forms.js'];

/** `/widget.js`, its language files, its chunks and the demo site: no key needed. */
export function staticRoutes(ctx: RouteContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Each built file encoded once, when first asked for (a file not built yet is looked for again).
  const built = new Map<string, StaticFile>();
  const builtFile = (path: string): StaticFile | undefined => {
    let file = built.get(path);
    if (!file) {
      const raw = readAsset(path);
      if (raw) built.set(path, (file = encodeFile(raw)));
    }
    return file;
  };
  /** What every page may load from here, whatever its origin: cached five minutes, revalidated by ETag. */
  const sendWidgetFile = (c: Context<AppEnv>, file: StaticFile, type: string): Response => {
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    return sendStaticFile(c, file, type, 'public, max-age=300');
  };

  app.get('/widget.js', (c) => {
    // Browsers must run it as script only because we say it is one, never by sniffing.
    c.header('X-Content-Type-Options', 'nosniff');
    const widget = builtFile('dist/widget/widget.js');
    if (!widget) throw new Refusal('NOT_FOUND', 'widget.js is not built: run npm run build');
    return sendWidgetFile(c, widget, 'text/javascript; charset=utf-8');
  });

  app.get('/widget/:file', (c) => {
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Access-Control-Allow-Origin', '*');
    // The widget's chunks (vite.config.ts), scripts widget.js adds when a step needs them: the
    // confirmation's (widget/confirm/chunk.ts) and forms.js (widget/forms.ts: the booking form, the
    // code box, the gift-voucher mode and the waitlist).
    const file = c.req.param('file');
    if (WIDGET_CHUNKS.includes(file)) {
      const chunk = builtFile(`dist/widget/${file}`);
      if (!chunk) throw new Refusal('NOT_FOUND', `${file} is not built: run npm run build`);
      return sendWidgetFile(c, chunk, 'text/javascript; charset=utf-8');
    }
    const code = /^([a-z]{2})\.json$/.exec(file)?.[1];
    const texts = code && WIDGET_LANGUAGES.includes(code) ? builtFile(`dist/widget/${code}.json`) : undefined;
    if (!texts) throw new Refusal('NOT_FOUND', 'The widget has no texts in this language');
    return sendWidgetFile(c, texts, 'application/json; charset=utf-8');
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
