/**
 * The dashboard's only way to Outing. Same origin, the session cookie sent by the browser, and on
 * `/v1` the session's CSRF token as `X-CSRF-Token` (the cookie alone is refused there). Every answer
 * is parsed with the contract's own zod schemas, so a server speaking another version fails here,
 * loudly, instead of somewhere in a screen.
 */
import type { z } from 'zod';
import { ErrorEnvelope, type ErrorDetail } from '../shared/schemas/error.js';
import { PasswordSetup, Session, SessionCreate, SignedOut } from '../shared/schemas/session.js';
import { Manifest } from '../shared/schemas/manifest.js';
import { Experience } from '../shared/schemas/experience.js';
import { Booking } from '../shared/schemas/booking.js';
import { Pagination } from '../shared/schemas/common.js';

/** Why a call failed: the contract's error code, `NETWORK` when no answer came, `BAD_RESPONSE` for one we cannot read. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Why a promo code or a gift voucher was refused (`details.reason`). */
    readonly reason?: string,
  ) {
    super(message);
  }
}

export interface CsvFile {
  blob: Blob;
  filename: string;
}

/** A query string's values; empty ones are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

export interface ListPage<T> {
  data: T[];
  pagination: Pagination;
}

/**
 * The plain calls every screen's actions are written with: each answer checked against the
 * contract's schema, each failure an ApiError carrying the envelope's code and `details`.
 */
export interface Http {
  get<S extends z.ZodType>(schema: S, path: string, query?: Query): Promise<z.infer<S>>;
  /** A list route: one page of `item`s and the pagination beside it. */
  list<S extends z.ZodType>(item: S, path: string, query?: Query): Promise<ListPage<z.infer<S>>>;
  send<S extends z.ZodType>(schema: S, method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<z.infer<S>>;
  /** A file route (CSV): the body as a Blob with the name the server gave it. */
  download(path: string, query?: Query, fallbackName?: string): Promise<CsvFile>;
}

/** `?a=1&b=x` from a Query, or '' when nothing is left. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const q = params.toString();
  return q ? `?${q}` : '';
}

export interface DashboardApi {
  /** For every screen past Today: the same calls, any route. */
  http: Http;
  getSession(): Promise<Session>;
  signIn(body: SessionCreate): Promise<Session>;
  setUpPassword(body: PasswordSetup): Promise<Session>;
  signOut(): Promise<void>;
  /** Without a date: today in the organization's zone, which the answer names. */
  getManifest(date?: string): Promise<Manifest>;
  listExperiences(): Promise<Experience[]>;
  setCheckedIn(bookingId: string, checkedIn: boolean): Promise<Booking>;
  downloadManifestCsv(date: string): Promise<CsvFile>;
}


const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** `Content-Disposition: attachment; filename="manifest-2026-12-01.csv"` → the name, if a safe one. */
export function filenameOf(disposition: string | null): string | undefined {
  const name = disposition && /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  return name && /^[\w.-]+$/.test(name) ? name : undefined;
}

/**
 * `csrfToken` is read at each call: it changes with every sign-in, and the model hands it over
 * when a session begins or ends.
 */
export function createApi(csrfToken: () => string | undefined, fetchImpl: typeof fetch = (...a) => fetch(...a)): DashboardApi {
  async function send(path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    const token = csrfToken();
    if (path.startsWith('/v1/') && token) headers.set('X-CSRF-Token', token);
    try {
      return await fetchImpl(path, { ...init, headers, credentials: 'same-origin' });
    } catch (e) {
      throw new ApiError(0, 'NETWORK', e instanceof Error ? e.message : String(e));
    }
  }

  /** The error envelope of a failed answer, as an ApiError. */
  async function failure(res: Response): Promise<ApiError> {
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      // A proxy's HTML page, a body cut off: below.
    }
    const parsed = ErrorEnvelope.safeParse(body);
    if (parsed.success) {
      const { code, message, details } = parsed.data.error;
      // Listed fields, or a refused code's reason (PROMO_CODE_INVALID, VOUCHER_INVALID); PRICE_CHANGED's total is not read.
      return Array.isArray(details)
        ? new ApiError(res.status, code, message, details)
        : new ApiError(res.status, code, message, undefined, details && 'reason' in details ? details.reason : undefined);
    }
    // A code this version does not know is still the server's word.
    if (isRecord(body) && isRecord(body['error']) && typeof body['error']['code'] === 'string') {
      return new ApiError(res.status, body['error']['code'], String(body['error']['message'] ?? ''));
    }
    return new ApiError(res.status, 'BAD_RESPONSE', `Unexpected answer (${res.status})`);
  }

  /** The success envelope's body, or the failure as an ApiError. */
  async function envelope(path: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await send(path, init);
    if (!res.ok) throw await failure(res);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new ApiError(res.status, 'BAD_RESPONSE', `Unexpected answer (${res.status})`);
    }
    if (!isRecord(body) || body['success'] !== true) throw unknownShape(res.status);
    return { status: res.status, body };
  }

  const unknownShape = (status: number) => new ApiError(status, 'BAD_RESPONSE', 'The server answered in a shape this dashboard does not know');

  async function call<S extends z.ZodType>(schema: S, path: string, init: RequestInit = {}): Promise<z.infer<S>> {
    const { status, body } = await envelope(path, init);
    const data = schema.safeParse(body['data']);
    if (!data.success) throw unknownShape(status);
    return data.data;
  }

  const json = (method: string, body: unknown): RequestInit => ({
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  const http: Http = {
    get: (schema, path, query) => call(schema, path + queryString(query)),
    async list(item, path, query) {
      const { status, body } = await envelope(path + queryString(query), {});
      const data = item.array().safeParse(body['data']);
      const pagination = Pagination.safeParse(body['pagination']);
      if (!data.success || !pagination.success) throw unknownShape(status);
      return { data: data.data, pagination: pagination.data };
    },
    send: (schema, method, path, body) => call(schema, path, body === undefined ? { method } : json(method, body)),
    async download(path, query, fallbackName = 'download.csv') {
      const res = await send(path + queryString(query), {});
      if (!res.ok) throw await failure(res);
      return { blob: await res.blob(), filename: filenameOf(res.headers.get('content-disposition')) ?? fallbackName };
    },
  };

  return {
    http,
    getSession: () => call(Session, '/dashboard/api/session'),
    signIn: (body) => call(Session, '/dashboard/api/session', json('POST', body)),
    setUpPassword: (body) => call(Session, '/dashboard/api/setup', json('POST', body)),
    signOut: async () => {
      await call(SignedOut, '/dashboard/api/session', { method: 'DELETE' });
    },
    getManifest: (date) => call(Manifest, `/v1/manifest${date ? `?date=${encodeURIComponent(date)}` : ''}`),
    // The manifest names experiences but not their zones; one page of 100 covers any real catalogue.
    listExperiences: () =>
      call(Experience.array(), '/v1/experiences?limit=100'),
    setCheckedIn: (id, checkedIn) => call(Booking, `/v1/bookings/${encodeURIComponent(id)}`, json('PATCH', { checkedIn })),
    downloadManifestCsv: (date) => http.download('/v1/manifest.csv', { date }, `manifest-${date}.csv`),
  };
}
