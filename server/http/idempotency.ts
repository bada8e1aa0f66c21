import { Refusal } from '../domain/refusal.js';
import { STATUS_OF, errorBody } from './errors.js';
import type { Reply } from './reply.js';
import type { IdempotentRequest, Outcomes } from '../services/unit-of-work.js';

/** Stable JSON: object keys sorted, so that `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header.length < 1 || header.length > 255) {
    throw new Refusal('VALIDATION_ERROR', 'Idempotency-Key must be 1–255 characters', [
      { path: 'Idempotency-Key', message: 'Must be 1–255 characters' },
    ]);
  }
  return header;
}

/**
 * An Idempotency-Key request (README: Use the API): its organization's key, and the request as sent
 * (method, path with `/api/v1` read as `/v1`, canonical body), so that the same key with another
 * request is refused.
 */
export function idempotentRequest(orgId: string, key: string, method: string, path: string, body: unknown): IdempotentRequest {
  return { orgId, key, fingerprint: `${method} ${path.replace(/^\/api\/v1\//, '/v1/')} ${canonicalJson(body)}` };
}

/** Results that are not kept, so that the client can fix the request and send it again. */
const NOT_STORED = new Set([400, 401, 403, 415, 429]);
export const storable = (status: number) => !NOT_STORED.has(status) && status < 500;

/** A refusal of the request itself, not of a rate or time limit: worth replaying. */
const replayable = (err: unknown): err is Refusal =>
  err instanceof Refusal && storable(STATUS_OF[err.code]) && err.retryAfterSeconds === undefined;

/**
 * How replies are kept under an Idempotency-Key for the unit of work: a success or a business
 * refusal (404, 409…) with its status and the exact JSON sent, replayed as those same bytes;
 * errors of the request's form, of authentication, of limits and of the server are not kept.
 */
export const replyOutcomes: Outcomes<Reply> = {
  fromError: (err) => (replayable(err) ? { status: STATUS_OF[err.code], body: errorBody(err.code, err.message, err.details) } : undefined),
  keep(reply) {
    if (!storable(reply.status)) return undefined;
    // Serialized once: the text kept is the text sent.
    const json = reply.json ?? JSON.stringify(reply.body);
    return { kept: { status: reply.status, body: json }, result: { ...reply, json } };
  },
  replay: (kept) => ({ status: kept.status as Reply['status'], body: JSON.parse(kept.body), json: kept.body }),
};
