import { Hono, type Context } from 'hono';
import { readAsset } from '../assets.js';
import { Refusal } from '../domain/refusal.js';
import type { AppEnv } from '../http/context.js';
import { APP_PAGE_CSP, appPageHeaders, encodeFile, sendStaticFile, type StaticFile } from '../http/static-file.js';
import type { RouteContext } from './context.js';

/** The dashboard's Content-Security-Policy: the one of every app page of Outing. */
export const DASHBOARD_CSP = APP_PAGE_CSP;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Vite's hashed names: a name changes with its content, so a year of caching is safe. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.[a-z0-9]+$/;

/**
 * The operator dashboard, built by `npm run build:dashboard` into dist/dashboard/: its files under
 * /dashboard/assets/, and its page at /dashboard and every other GET path under it, so that a deep
 * link or a reload opens the right screen. /dashboard/api/* is the session API's (dashboard-session.ts).
 */
export function dashboardAppRoutes(_ctx: RouteContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Read once: the build does not change under a running server (a new build means a restart).
  const files = new Map<string, StaticFile | null>();
  const load = (path: string): StaticFile | undefined => {
    if (!files.has(path)) {
      const raw = readAsset(path);
      files.set(path, raw ? encodeFile(raw) : null);
    }
    return files.get(path) ?? undefined;
  };

  app.get('/dashboard/assets/:name', (c) => {
    appPageHeaders(c);
    const name = c.req.param('name');
    const type = TYPES[/\.[a-z0-9]+$/.exec(name)?.[0] ?? ''];
    const file = type && ASSET_NAME.test(name) ? load(`dist/dashboard/assets/${name}`) : undefined;
    // A missing file is a 404, never the page: a script tag must not receive HTML.
    if (!file || !type) throw new Refusal('NOT_FOUND', 'No such dashboard file');
    return sendStaticFile(c, file, type, 'public, max-age=31536000, immutable');
  });

  const page = (c: Context<AppEnv>): Response => {
    const path = new URL(c.req.url).pathname;
    // Unknown session-API paths stay JSON 404s, as every API path of Outing does.
    if (path === '/dashboard/api' || path.startsWith('/dashboard/api/')) {
      throw new Refusal('NOT_FOUND', `No route ${c.req.method} ${path}`);
    }
    appPageHeaders(c);
    if (path.startsWith('/dashboard/assets/')) throw new Refusal('NOT_FOUND', 'No such dashboard file');
    const index = load('dist/dashboard/index.html');
    if (!index) throw new Refusal('NOT_FOUND', 'The dashboard is not built: run npm run build');
    // no-cache: always asks, so a new build's asset names are picked up at once.
    return sendStaticFile(c, index, 'text/html; charset=utf-8', 'no-cache');
  };
  app.get('/dashboard', page);
  app.get('/dashboard/*', page);
  return app;
}
