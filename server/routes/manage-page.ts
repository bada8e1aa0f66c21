import { Hono, type Context } from 'hono';
import { readAsset } from '../assets.js';
import type { AppEnv } from '../http/context.js';
import { Refusal } from '../domain/refusal.js';
import { MANAGE_PAGE_CSP, appPageHeaders, encodeFile, sendStaticFile, type StaticFile } from '../http/static-file.js';
import type { RouteContext } from './context.js';

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

/**
 * The guests' manage page at /manage (the link in their e-mails carries the token after `#`, so it
 * never reaches a server log) and its script at /manage/manage.js. Served under the dashboard's
 * CSP, never framed, and with no Referer ever sent from it: the token must not leak. Its API is
 * /public/v1/manage (routes/manage.ts).
 */
export function managePageRoutes(_ctx: RouteContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const page = encodeFile(Buffer.from(PAGE));
  // Read once: the build does not change under a running server (a new build means a restart).
  let bundle: StaticFile | null | undefined;
  const loadBundle = (): StaticFile | null => {
    if (bundle === undefined) {
      const raw = readAsset(MANAGE_BUNDLE);
      bundle = raw ? encodeFile(raw) : null;
    }
    return bundle;
  };

  const showPage = (c: Context<AppEnv>): Response => {
    appPageHeaders(c, MANAGE_PAGE_CSP);
    if (!loadBundle()) throw new Refusal('NOT_FOUND', 'The manage page is not built: run npm run build');
    // no-store: the page holds nothing personal, but nothing about a guest's visit is kept either.
    return sendStaticFile(c, page, 'text/html; charset=utf-8', 'no-store');
  };
  app.get('/manage', showPage);
  app.get('/manage/', showPage);

  app.get('/manage/manage.js', (c) => {
    appPageHeaders(c, MANAGE_PAGE_CSP);
    const file = loadBundle();
    if (!file) throw new Refusal('NOT_FOUND', 'manage.js is not built: run npm run build');
    // Not a hashed name: the browser asks every time, and a matching ETag makes that a 304.
    return sendStaticFile(c, file, 'text/javascript; charset=utf-8', 'no-cache');
  });
  return app;
}
