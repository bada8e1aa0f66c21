/**
 * The widget's only way to Outing: the public API under /public/v1. Responses are checked by hand
 * (the envelope, and an object where one is due) because zod would not fit the size budget; the
 * shared schemas give the types.
 */
import type {
  Availability,
  ErrorDetails,
  PublicBookingStatus,
  PublicExperience,
} from '../shared/index.js';

/** Why a call failed: `NETWORK` when no answer came back, else the contract's error code. */
export class ApiError extends Error {
  // Declared, and set in one go below: fields the compiler writes out would cost widget.js bytes.
  declare readonly status: number;
  declare readonly code: string;
  /** The fields at fault (a list), or PRICE_CHANGED's `{total}`. */
  declare readonly details: ErrorDetails;
  constructor(status: number, code: string, message: string, details: ErrorDetails = []) {
    super(message);
    Object.assign(this, { status, code, details });
  }
}

export interface AvailabilityRange {
  experienceId: string;
  /** Omitted: today in the experience's zone, which the answer then names. */
  startDate?: string;
  endDate: string;
  participants: number;
}

export interface OutingApi {
  listExperiences(): Promise<PublicExperience[]>;
  getExperience(id: string): Promise<PublicExperience>;
  getAvailability(range: AvailabilityRange): Promise<Availability>;
  /** Where a booking stands, by its number: for the guest back from paying (docs/payments.md). */
  getBooking(bookingNumber: string): Promise<PublicBookingStatus>;
  /**
   * A POST of JSON under /public/v1/ with the key and `headers`: a booking (`bookings`, with its
   * Idempotency-Key), the quote the code box asks for (widget/codes/chunk.ts), or a gift voucher's
   * purchase (widget/gift/chunk.ts).
   */
  post<T>(path: string, body: unknown, headers?: Record<string, string>): Promise<T>;
}

/** What widget.js lends its chunks (widget/gift/chunk.ts) beside `post`: any call under /public/v1/, and the key. */
export interface ChunkApi {
  /** `path` under /public/v1/, a check of the answer's `data`, fetch's init; throws ApiError. */
  call<T>(path: string, check: (data: unknown) => boolean, init?: RequestInit): Promise<T>;
  /** The publishable key the calls carry (`data-key`). */
  key: string;
}

export interface ApiOptions {
  /** Origin (optionally with a path) of the Outing server. */
  base: string;
  /** Publishable key, `opk_…`. */
  key: string;
  /** Aborts every call in flight, on unmount. */
  signal?: AbortSignal;
}

type Check = (data: unknown) => boolean;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
// An object where one is due; slots too, which the calendar iterates. Field by field would not
// fit the size budget, and only a server speaking another version of the contract could differ.
const isList: Check = (v) => Array.isArray(v) && v.every(isRecord);
const isAvailability: Check = (v) => isRecord(v) && Array.isArray(v['slots']);

export function createApi({ base, key, signal }: ApiOptions): OutingApi & ChunkApi {
  const root = `${base.replace(/\/+$/, '')}/public/v1/`;

  async function call<T>(path: string, check: Check, init: RequestInit = {}): Promise<T> {
    let res: Response | undefined;
    let body: unknown;
    try {
      // No cookies: the widget is a guest and the public API needs none (e2e/embed.e2e.test.ts
      // checks that none is sent).
      res = await fetch(root + path, { ...init, credentials: 'omit', signal });
      body = await res.json();
    } catch (e) {
      // No answer at all; or a proxy's HTML error page, a body cut off: an unexpected answer, below.
      if (!res) throw new ApiError(0, 'NETWORK', String(e));
    }
    if (isRecord(body)) {
      if (body['success'] === true && check(body['data'])) return body['data'] as T;
      const error = body['error'];
      if (isRecord(error) && typeof error['code'] === 'string') {
        throw new ApiError(res.status, error['code'], String(error['message']), isRecord(error['details']) ? (error['details'] as ErrorDetails) : []);
      }
    }
    // The status says what came instead; the code is what the widget acts on.
    throw new ApiError(res.status, 'BAD_RESPONSE', String(res.status));
  }

  // GETs carry the key in the query and no custom header, so they stay CORS "simple requests"
  // with no preflight: e2e/embed.e2e.test.ts allows two JSON calls before the first times show.
  const query = (params: object = {}): string => {
    const q = new URLSearchParams({ key });
    for (const [name, value] of Object.entries(params)) if (value !== undefined) q.set(name, String(value));
    return q.toString();
  };

  const post = <T>(path: string, body: unknown, headers?: Record<string, string>): Promise<T> =>
    call<T>(path, isRecord, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Outing-Key': key, ...headers },
      body: JSON.stringify(body),
      // The full page address, not just its origin: Stripe sends the guest back to the page
      // the booking came from (its Referer), so it must be the booking page, not the site root.
      referrerPolicy: 'no-referrer-when-downgrade',
    });

  return {
    listExperiences: () => call('experiences?' + query({ limit: 100 }), isList),
    getExperience: (id) => call(`experiences/${encodeURIComponent(id)}?` + query(), isRecord),
    getAvailability: (range) => call('availability?' + query(range), isAvailability),
    getBooking: (n) => call(`bookings/${encodeURIComponent(n)}?` + query(), isRecord),
    post,
    call,
    key,
  };
}

/** A random Idempotency-Key. getRandomValues works on plain-http pages too, unlike randomUUID. */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
