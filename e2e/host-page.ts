/**
 * A host page on another origin than Outing, as on a real customer's site: a tiny static server
 * that answers every path with the HTML it was given.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { freePort } from './outing-server.js';

export interface HostSite {
  origin: string;
  /** Serves `html` at `path` from now on. */
  page(path: string, html: string): string;
  stop(): Promise<void>;
}

export async function startHostSite(): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // The browser asks for a favicon; a 404 would show up as a console error.
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const html = pages.get(path);
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html ?? 'Not found');
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    page(path, html) {
      pages.set(path, html);
      return origin + path;
    },
    stop: () => new Promise((done) => server.close(() => done())),
  };
}

/** A plain page embedding the widget, the way README.md shows it. */
export function embedPage(outingOrigin: string, attributes: Record<string, string>, lang = 'en'): string {
  const data = Object.entries(attributes)
    .map(([name, value]) => ` data-${name}="${value}"`)
    .join('');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host page</title></head>
<body><main><h1>Book with us</h1><div data-outing${data}></div></main>
<script src="${outingOrigin}/widget.js" async></script></body></html>`;
}
