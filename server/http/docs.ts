/**
 * The API reference: `GET /v1/openapi.json` (also under `/api/v1`) and `GET /docs`, the Scalar API
 * reference rendering it; `GET /docs/octo` renders the OCTO supplier API's `/octo/openapi.json` alike
 * (the /v1 document's introduction links to it). Scalar's self-contained browser bundle is served by Outing itself, so
 * the page loads nothing from any other origin: no CDN, no web fonts, no telemetry, no request
 * proxy, no "try it" client (the CSP below would block all of those anyway).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { Hono, type Context } from 'hono';
import { readAsset } from '../assets.js';
import { Refusal } from './errors.js';
import { matchesIfNoneMatch } from './etag.js';
import type { AppEnv } from './context.js';

type Json = Record<string, unknown>;

/** Where the bundle sits in the project; the single executable packs it under the same key. */
export const SCALAR_BUNDLE = 'node_modules/@scalar/api-reference/dist/browser/standalone.js';

/**
 * The page's policy. Scalar renders with Vue and injects its styles at run time as `<style>`
 * elements and `style` attributes, so styles need 'unsafe-inline' (styles cannot run code; scripts
 * stay 'self' only, with no inline script and no eval). `data:` images: Scalar's icons and
 * CSS backgrounds. Everything else is this origin or nothing.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Scalar's options: everything that would reach another origin is off. */
export const SCALAR_CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  documentDownloadType: 'json',
  persistAuth: false,
  hideDarkModeToggle: false,
  defaultOpenFirstTag: true,
  orderSchemaPropertiesBy: 'preserve',
  metaData: { title: 'Outing API reference' },
} as const;

/** Mounts Scalar on the element that carries its configuration; same-origin, so no inline script. */
const REFERENCE_JS = `'use strict';
(function () {
  var mount = document.getElementById('reference');
  var configuration = JSON.parse(mount.getAttribute('data-configuration'));
  window.Scalar.createApiReference(mount, configuration);
})();
`;

interface Served {
  raw: Buffer;
  hash: string;
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * The bundle is 3.5 MB: compressed once in the background (brotli at its best level takes seconds
 * on zlib's thread pool); until then it goes out as it is, or gzip once that is ready.
 */
function prepare(raw: Buffer, compress: boolean): Served {
  const served: Served = { raw, hash: createHash('sha256').update(raw).digest('base64url').slice(0, 16) };
  if (compress) {
    gzip(raw, { level: 9 }, (err, out) => void (err || (served.gzip = out)));
    const params = { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length };
    brotliCompress(raw, { params }, (err, out) => void (err || (served.br = out)));
  }
  return served;
}

function readScalarBundle(): Buffer | undefined {
  const packed = readAsset(SCALAR_BUNDLE);
  if (packed) return packed;
  try {
    // Installed as a dependency, the package may sit in a node_modules folder above this one.
    return readFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'));
  } catch {
    return undefined;
  }
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** `/docs/octo`: the same reference over the OCTO supplier API's own document. */
export const OCTO_SCALAR_CONFIGURATION = {
  ...SCALAR_CONFIGURATION,
  url: '/octo/openapi.json',
  metaData: { title: 'Outing OCTO supplier API reference' },
} as const;

function page(scalar: Served, reference: Served, title: string, options: { configuration: object; document: string }): string {
  const configuration = escapeAttribute(JSON.stringify(options.configuration));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeAttribute(title)}</title>
<script src="/docs/scalar.js?v=${scalar.hash}" defer></script>
<script src="/docs/reference.js?v=${reference.hash}" defer></script>
</head>
<body>
<div id="reference" data-configuration="${configuration}"></div>
<noscript><p>This reference needs JavaScript. The OpenAPI document it shows is <a href="${options.document}">${options.document}</a>.</p></noscript>
</body>
</html>
`;
}

/** Headers every answer of the reference carries: the browser must not guess types or leak the URL. */
function baseHeaders(c: Context): void {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
}

function serveScript(c: Context, served: Served): Response {
  baseHeaders(c);
  c.header('Content-Type', 'text/javascript; charset=utf-8');
  c.header('Vary', 'Accept-Encoding');
  c.header('Cross-Origin-Resource-Policy', 'same-origin');
  // The page names the script with its content hash: that URL can be cached for good; any other
  // (an old page, a hand-typed URL) revalidates.
  const versioned = c.req.query('v') === served.hash;
  c.header('Cache-Control', versioned ? 'public, max-age=31536000, immutable' : 'no-cache');
  const accepts = c.req.header('accept-encoding') ?? '';
  const [coding, body] =
    served.br && /\bbr\b/.test(accepts)
      ? ['br', served.br]
      : served.gzip && /\bgzip\b/.test(accepts)
        ? ['gzip', served.gzip]
        : [undefined, served.raw];
  // One tag per content coding (they are different bytes); all name the same content.
  const etag = `"${served.hash}${coding ? `-${coding}` : ''}"`;
  c.header('ETag', etag);
  const tags = [`"${served.hash}"`, `"${served.hash}-gzip"`, `"${served.hash}-br"`];
  if (tags.some((tag) => matchesIfNoneMatch(c.req.header('if-none-match'), tag))) return c.body(null, 304);
  if (coding) c.header('Content-Encoding', coding);
  return c.body(new Uint8Array(body));
}

/**
 * Serves an OpenAPI document, built on first use: public, revalidated with its ETag. `/octo`
 * serves its own with it (`routes/octo.ts`).
 */
export function openApiDocumentHandler(build: () => Json): (c: Context) => Response {
  let json: Served | undefined;
  return (c) => {
    json ??= prepare(Buffer.from(JSON.stringify(build())), false);
    baseHeaders(c);
    c.header('Content-Type', 'application/json');
    c.header('Cache-Control', 'no-cache');
    c.header('ETag', `"${json.hash}"`);
    if (matchesIfNoneMatch(c.req.header('if-none-match'), `"${json.hash}"`)) return c.body(null, 304);
    return c.body(new Uint8Array(json.raw));
  };
}

export function referenceRoutes(openApiDocument: () => Json): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const serveDocument = openApiDocumentHandler(openApiDocument);
  app.get('/v1/openapi.json', serveDocument);
  app.get('/api/v1/openapi.json', serveDocument);

  let scalar: Served | undefined;
  let scalarMissing = false;
  const scalarBundle = () => {
    if (!scalar && !scalarMissing) {
      const raw = readScalarBundle();
      if (raw) scalar = prepare(raw, true);
      else scalarMissing = true;
    }
    return scalar;
  };
  const reference = prepare(Buffer.from(REFERENCE_JS), false);

  const servePage = (c: Context, title: string, options: { configuration: object; document: string }) => {
    const bundle = scalarBundle();
    baseHeaders(c);
    if (!bundle) throw new Refusal('NOT_FOUND', `The API reference is not installed (@scalar/api-reference); the document is at ${options.document}`);
    c.header('Content-Security-Policy', DOCS_CSP);
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-cache');
    return c.html(page(bundle, reference, title, options));
  };
  app.get('/docs', (c) => {
    const info = openApiDocument().info as { title?: string } | undefined;
    return servePage(c, `${info?.title ?? 'API'} reference`, { configuration: SCALAR_CONFIGURATION, document: '/v1/openapi.json' });
  });
  app.get('/docs/octo', (c) =>
    servePage(c, OCTO_SCALAR_CONFIGURATION.metaData.title, { configuration: OCTO_SCALAR_CONFIGURATION, document: '/octo/openapi.json' }),
  );
  app.get('/docs/scalar.js', (c) => {
    const bundle = scalarBundle();
    if (!bundle) throw new Refusal('NOT_FOUND', 'The API reference is not installed');
    return serveScript(c, bundle);
  });
  app.get('/docs/reference.js', (c) => serveScript(c, reference));
  return app;
}
