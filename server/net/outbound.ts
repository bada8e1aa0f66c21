import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { blockedAddressReason, isLocalhostName } from './addresses.js';

/**
 * Outbound HTTP for URLs that API callers give us (webhook endpoints, calendar imports), guarded
 * against SSRF twice: the URL is checked when it is saved (`checkOutboundUrl`), and every address a
 * name resolves to is checked again when the connection is made (`outboundFetch`), so a name that
 * later points at 127.0.0.1 (DNS rebinding) is refused too.
 */

export type OutboundErrorCode =
  | 'INVALID_URL'
  | 'REFUSED_ADDRESS'
  | 'DNS_FAILURE'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'TOO_MANY_REDIRECTS'
  | 'CONNECTION_FAILED'
  | 'ABORTED';

/** A failure to reach a URL, with a message fit to show the operator (never a secret, never a stack). */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

const ALLOW_HINT = 'set OUTBOUND_ALLOW_PRIVATE=true to allow it';

/**
 * Parses `url` and refuses what may never be fetched: schemes other than http(s), `localhost`, and
 * (unless `allowPrivate`) literal addresses that are not globally reachable (loopback, private,
 * link-local, CGNAT, documentation, benchmarking… see ./addresses.ts) in every spelling (`2130706433`, `0x7f.1`, `127.1`, `[::ffff:127.0.0.1]`…;
 * the WHATWG URL parser turns them into canonical form first). Names are not resolved here.
 */
export function checkOutboundUrl(url: string, allowPrivate: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundError('INVALID_URL', 'Not a valid absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new OutboundError('INVALID_URL', `Only http and https URLs are allowed, not ${parsed.protocol.replace(/:$/, '')}`);
  }
  if (parsed.hostname === '') throw new OutboundError('INVALID_URL', 'The URL has no host');
  if (allowPrivate) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isLocalhostName(host)) {
    throw new OutboundError('REFUSED_ADDRESS', `${host} is this machine (loopback); ${ALLOW_HINT}`);
  }
  if (isIP(host)) {
    const why = blockedAddressReason(host);
    if (why) throw new OutboundError('REFUSED_ADDRESS', `${host} is ${why}; ${ALLOW_HINT}`);
  }
  return parsed;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Resolves a host name to every address it has (injectable so tests can fake DNS). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, redirects included, must finish within this. */
  timeoutMs: number;
  allowPrivate: boolean;
  /** Largest response body accepted (default 5 MiB); a larger one fails with TOO_LARGE. */
  maxBytes?: number;
  /** `manual` (default) returns a 3xx as it is; `follow-checked` follows it, checking each hop. */
  redirect?: 'manual' | 'follow-checked';
  maxRedirects?: number;
  /** Read the response body (default) or drop it once the status and headers are in. */
  readBody?: boolean;
  signal?: AbortSignal;
  resolver?: Resolver;
}

export interface OutboundResponse {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  redirects: number;
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** How much of a body `readBody: false` still reads, and for how long, before closing. */
const DRAIN_BYTES = 64 * 1024;
const DRAIN_MS = 2_000;

/**
 * A `lookup` for node:net that resolves the name itself and refuses the connection when any
 * address is not public: checking every address, not just the first, stops a name with one public
 * and one private record from being used to reach the private one. Exported so that tests can
 * try every refused range at connect time without connecting anywhere.
 */
export function guardedLookup(allowPrivate: boolean, resolver: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (all) => {
        if (!allowPrivate) {
          for (const a of all) {
            const why = blockedAddressReason(a.address);
            // The address itself is left out: it would tell API callers about the internal network.
            if (why) throw new OutboundError('REFUSED_ADDRESS', `${hostname} resolves to ${why.replace(/ \([^()]* inside IPv6\)$/, '')}; ${ALLOW_HINT}`);
          }
        }
        const usable = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        const first = usable[0];
        if (!first) throw new OutboundError('DNS_FAILURE', `Could not resolve ${hostname}: no address`);
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
    ).catch((err: unknown) => {
      if (err instanceof OutboundError) return callback(err as NodeJS.ErrnoException, '', 0);
      const code = (err as NodeJS.ErrnoException).code ?? 'ERROR';
      callback(new OutboundError('DNS_FAILURE', `Could not resolve ${hostname} (${code})`) as NodeJS.ErrnoException, '', 0);
    });
  };
}

function describeNetworkError(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = err as NodeJS.ErrnoException;
  const text: Record<string, string> = {
    ECONNREFUSED: 'Connection refused',
    ECONNRESET: 'Connection reset by the receiver',
    EPIPE: 'Connection closed by the receiver',
    ETIMEDOUT: 'Connection timed out',
    EHOSTUNREACH: 'Host unreachable',
    ENETUNREACH: 'Network unreachable',
    CERT_HAS_EXPIRED: 'TLS certificate has expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
    ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host name',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  };
  if (e.code && text[e.code]) return new OutboundError('CONNECTION_FAILED', `${text[e.code]} (${e.code})`);
  if (e.message === 'socket hang up') return new OutboundError('CONNECTION_FAILED', 'Connection closed by the receiver before a response');
  return new OutboundError('CONNECTION_FAILED', `Request failed${e.code ? ` (${e.code})` : ''}: ${String(e.message).slice(0, 200)}`);
}

function toHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, v);
      } catch {
        // a header value Headers refuses (bad characters) is dropped rather than failing the request
      }
    }
  }
  return headers;
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

function exchange(
  hop: Hop,
  options: OutboundRequest,
  signal: AbortSignal,
): Promise<{ res: IncomingMessage; body: Buffer }> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const readBody = options.readBody ?? true;
  const send = hop.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const requestOptions: RequestOptions = {
    method: hop.method,
    headers: hop.headers,
    // A fresh connection per request: the guarded lookup runs for every connection made.
    agent: false,
    lookup: guardedLookup(options.allowPrivate, options.resolver ?? systemResolver),
    signal,
  };
  return new Promise((resolve, reject) => {
    const req = send(hop.url, requestOptions, (res) => {
      const declared = Number(res.headers['content-length']);
      if (readBody && Number.isFinite(declared) && declared > maxBytes) {
        reject(new OutboundError('TOO_LARGE', `Response is larger than ${maxBytes} bytes`));
        res.destroy();
        return;
      }
      if (!readBody) {
        // Only the status matters. The body is drained politely (so the receiver can finish
        // writing it), but only a little and briefly, so no receiver can keep a socket busy.
        resolve({ res, body: Buffer.alloc(0) });
        let drained = 0;
        const cut = setTimeout(() => res.destroy(), DRAIN_MS);
        cut.unref();
        res.on('data', (chunk: Buffer) => {
          drained += chunk.length;
          if (drained > DRAIN_BYTES) res.destroy();
        });
        res.on('close', () => clearTimeout(cut));
        res.on('error', () => {});
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          // Reject first: destroying the response emits its own errors synchronously.
          reject(new OutboundError('TOO_LARGE', `Response is larger than ${maxBytes} bytes`));
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
      res.on('error', (err) => reject(signal.aborted ? signal.reason : describeNetworkError(err)));
      res.on('aborted', () => reject(signal.aborted ? signal.reason : new OutboundError('CONNECTION_FAILED', 'Response cut short by the receiver')));
    });
    req.on('error', (err) => reject(signal.aborted ? signal.reason : describeNetworkError(err)));
    if (hop.body !== undefined) req.end(hop.body);
    else req.end();
  });
}

/**
 * One HTTP exchange with a URL from outside: refuses non-public addresses when the URL is parsed
 * and again at connect time, enforces a total deadline and a body cap, and follows redirects only
 * when asked (each hop re-checked, at most `maxRedirects`, 3 by default). Fails with an
 * `OutboundError` whose message can be shown to the operator.
 */
export async function outboundFetch(url: string, options: OutboundRequest): Promise<OutboundResponse> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new OutboundError('TIMEOUT', `No response within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  const onOuterAbort = () => deadline.abort(new OutboundError('ABORTED', 'Request cancelled'));
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const maxRedirects = options.maxRedirects ?? 3;
    let hop: Hop = {
      url: checkOutboundUrl(url, options.allowPrivate),
      method: (options.method ?? 'GET').toUpperCase(),
      headers: { ...options.headers },
      body: options.body,
    };
    for (let redirects = 0; ; redirects++) {
      if (deadline.signal.aborted) throw deadline.signal.reason;
      const { res, body } = await exchange(hop, options, deadline.signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (options.redirect !== 'follow-checked' || !REDIRECTS.has(status) || !location) {
        return { status, statusText: res.statusMessage ?? '', headers: toHeaders(res), body, url: hop.url.href, redirects };
      }
      if (redirects >= maxRedirects) {
        throw new OutboundError('TOO_MANY_REDIRECTS', `More than ${maxRedirects} redirects`);
      }
      let next: URL;
      try {
        next = new URL(location, hop.url);
      } catch {
        throw new OutboundError('INVALID_URL', 'Redirected to an invalid URL');
      }
      const target = checkOutboundUrl(next.href, options.allowPrivate);
      const headers = { ...hop.headers };
      if (target.origin !== hop.url.origin) {
        // Credentials meant for one origin never travel to another.
        for (const name of Object.keys(headers)) {
          if (/^(authorization|cookie|proxy-authorization)$/i.test(name)) delete headers[name];
        }
      }
      const keepsMethod = status === 307 || status === 308;
      const method = keepsMethod ? hop.method : hop.method === 'HEAD' ? 'HEAD' : 'GET';
      if (!keepsMethod) {
        for (const name of Object.keys(headers)) if (/^content-(type|length)$/i.test(name)) delete headers[name];
      }
      hop = { url: target, method, headers, body: keepsMethod ? hop.body : undefined };
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}
