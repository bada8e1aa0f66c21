// Fetching an external calendar: through the SSRF guard (each redirect hop checked, at most 3),
// 15 s for the whole exchange, 5 MB at most, and conditional (ETag / Last-Modified) so an
// unchanged calendar costs a 304.
import { gunzipSync, inflateSync } from 'node:zlib';
import { OutboundError, outboundFetch } from '../net/outbound.js';
import { fetchableCalendarUrl } from './url.js';

export const FETCH_TIMEOUT_MS = 15_000;
export const MAX_CALENDAR_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 3;

export class CalendarFetchError extends Error {}

export interface FetchedResponse {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
}

/** How a calendar is fetched; the server uses `outboundFetch`, and only that. */
export type CalendarFetcher = (url: string, headers: Record<string, string>, signal?: AbortSignal) => Promise<FetchedResponse>;

export function guardedCalendarFetcher(allowPrivate: boolean, timeoutMs = FETCH_TIMEOUT_MS): CalendarFetcher {
  return (url, headers, signal) =>
    outboundFetch(url, {
      method: 'GET',
      headers,
      timeoutMs,
      allowPrivate,
      maxBytes: MAX_CALENDAR_BYTES,
      redirect: 'follow-checked',
      maxRedirects: MAX_REDIRECTS,
      signal,
    });
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type FetchedCalendar = { changed: false } | ({ changed: true; text: string } & Validators);

function describe(err: unknown): string {
  if (err instanceof OutboundError) {
    switch (err.code) {
      case 'TIMEOUT':
        return `The calendar did not arrive in time (${err.message})`;
      case 'TOO_LARGE':
        return `The calendar is larger than ${MAX_CALENDAR_BYTES / 1024 / 1024} MB`;
      case 'TOO_MANY_REDIRECTS':
        return `The calendar URL redirects more than ${MAX_REDIRECTS} times`;
      default:
        // TLS failures carry OpenSSL's multi-line detail: keep the code, drop the rest.
        if (/EPROTO|SSL routines/.test(err.message)) return 'The secure (TLS) connection failed: is the server really https? (EPROTO)';
        return err.message.split('\n')[0]!.trim().slice(0, 300);
    }
  }
  return 'The calendar could not be fetched';
}

function decode(res: FetchedResponse): string {
  let body = res.body;
  const encoding = (res.headers.get('content-encoding') ?? '').trim().toLowerCase();
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') body = gunzipSync(body, { maxOutputLength: MAX_CALENDAR_BYTES });
    else if (encoding === 'deflate') body = inflateSync(body, { maxOutputLength: MAX_CALENDAR_BYTES });
  } catch (err) {
    throw new CalendarFetchError(
      err instanceof RangeError ? `The calendar is larger than ${MAX_CALENDAR_BYTES / 1024 / 1024} MB` : 'The calendar could not be decompressed',
    );
  }
  const charset = /charset="?([\w.:-]+)"?/i.exec(res.headers.get('content-type') ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}

/**
 * Fetches a calendar, conditionally when `previous` validators are given (a 304 answers
 * `{changed: false}`). Fails with CalendarFetchError, whose message is fit for `lastError`.
 */
export async function fetchCalendar(
  url: string,
  previous: Validators | null,
  fetcher: CalendarFetcher,
  signal?: AbortSignal,
): Promise<FetchedCalendar> {
  const headers: Record<string, string> = {
    accept: 'text/calendar, text/plain;q=0.8, */*;q=0.5',
    'accept-encoding': 'gzip, identity',
    'user-agent': 'Outing-Calendar-Sync/1',
  };
  if (previous?.etag) headers['if-none-match'] = previous.etag;
  if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
  let res: FetchedResponse;
  try {
    res = await fetcher(fetchableCalendarUrl(url), headers, signal);
  } catch (err) {
    throw new CalendarFetchError(describe(err));
  }
  if (res.status === 304 && previous) return { changed: false };
  if (res.status < 200 || res.status > 299) {
    const text = res.statusText ? ` ${res.statusText.slice(0, 60)}` : '';
    throw new CalendarFetchError(`The calendar server answered HTTP ${res.status}${text}`);
  }
  return {
    changed: true,
    text: decode(res),
    etag: res.headers.get('etag'),
    lastModified: res.headers.get('last-modified'),
  };
}
