import { Refusal } from '../domain/refusal.js';
import { STATUS_OF, errorBody } from './errors.js';
import type { Reply } from './reply.js';
import type { Store } from '../store/index.js';
import { IN_FLIGHT_STATUS, type IdempotencyClaim } from '../store/idempotency.js';
import { IDEMPOTENCY_TTL_MS } from '../domain/retention.js';

export { IDEMPOTENCY_TTL_MS };

/**
 * How long a claimed key stays in flight without its reply: longer than any asynchronous work
 * takes (their network calls time out within seconds), so only a request whose process died
 * leaves a marker this old; the key is then free again.
 */
export const IN_FLIGHT_LEASE_MS = 2 * 60 * 1000;

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

/** Results that are not stored, so that the client can fix the request and send it again. */
const NOT_STORED = new Set([400, 401, 403, 415, 429]);
export const storable = (status: number) => !NOT_STORED.has(status) && status < 500;

export interface IdempotentRequest {
  orgId: string;
  key: string;
  fingerprint: string;
}

/**
 * Idempotency-Key (README: Use the API): a request is run once; the same key with the same request replays the
 * stored reply for 24 h; another request under the key is refused. Synchronous work runs in the same
 * transaction as the reply's record, so a crash can never leave a booking without its record.
 */
export class Idempotency {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /**
   * The reply saved under the key, to replay; undefined when there is none (or it expired, or its
   * request died in flight). Refuses a different request under the key, and the same request
   * while it is still in flight, in this process or another.
   */
  private async stored(req: IdempotentRequest): Promise<Reply | undefined> {
    const row = await this.store.idempotency.getIdempotentResponse(req.orgId, req.key);
    const now = this.now();
    if (!row || row.createdAt < now - IDEMPOTENCY_TTL_MS) return undefined;
    if (row.fingerprint !== req.fingerprint) {
      throw new Refusal('IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request; use a new key for a new request',
      );
    }
    if (row.responseStatus === IN_FLIGHT_STATUS) {
      if (row.createdAt < now - IN_FLIGHT_LEASE_MS) return undefined;
      throw new Refusal('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed');
    }
    return { status: row.responseStatus as Reply['status'], body: JSON.parse(row.responseBody), json: row.responseBody };
  }

  /** Keeps a storable reply under the key; returns it with its body serialized, sent as saved. */
  private async save(req: IdempotentRequest, reply: Reply): Promise<Reply> {
    if (!storable(reply.status)) return reply;
    const json = reply.json ?? JSON.stringify(reply.body);
    await this.store.idempotency.saveIdempotentResponse({
      ...req,
      responseStatus: reply.status,
      responseBody: json,
      createdAt: this.now(),
    });
    return { ...reply, json };
  }

  /**
   * Runs `work`, which only awaits the store, once for this key, in one transaction with the check
   * and the saved reply; returns its reply and whether it was replayed.
   */
  async runInTransaction(req: IdempotentRequest, work: () => Promise<Reply>): Promise<{ reply: Reply; replayed: boolean }> {
    return await this.store.transaction(async () => {
      const previous = await this.stored(req);
      if (previous) return { reply: previous, replayed: true };
      const reply = await replyOf(async () => await this.store.transaction(work));
      return { reply: await this.save(req, reply), replayed: false };
    });
  }

  /**
   * Runs asynchronous `work` once for this key; a concurrent duplicate gets `409
   * IDEMPOTENCY_KEY_IN_USE`. The key is claimed in the store before the work starts (an in-flight
   * marker, see store/idempotency.ts), so this holds across processes sharing a database; the
   * reply replaces the marker, and a reply that is not kept removes it.
   */
  async runAsync(req: IdempotentRequest, work: () => Promise<Reply>): Promise<{ reply: Reply; replayed: boolean }> {
    const previous = await this.stored(req);
    if (previous) return { reply: previous, replayed: true };
    const claimedAt = this.now();
    const claim: IdempotencyClaim = { orgId: req.orgId, key: req.key, fingerprint: req.fingerprint, claimedAt };
    const cutoffs = { markerBefore: claimedAt - IN_FLIGHT_LEASE_MS, replyBefore: claimedAt - IDEMPOTENCY_TTL_MS };
    if (!(await this.store.idempotency.claimIdempotencyKey(claim, cutoffs))) {
      // Another request claimed it, or saved its reply, since the read above.
      const raced = await this.stored(req);
      if (raced) return { reply: raced, replayed: true };
      throw new Refusal('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed');
    }
    let reply: Reply;
    try {
      reply = await replyOf(work);
    } catch (err) {
      await this.store.idempotency.releaseIdempotencyKey(claim);
      throw err;
    }
    if (storable(reply.status)) return { reply: await this.save(req, reply), replayed: false };
    await this.store.idempotency.releaseIdempotencyKey(claim);
    return { reply, replayed: false };
  }
}

function errorReply(err: Refusal): Reply {
  return { status: STATUS_OF[err.code], body: errorBody(err.code, err.message, err.details) };
}

/** A refusal of the request itself, not of a rate or time limit: worth replaying. */
const replayable = (err: unknown): err is Refusal =>
  err instanceof Refusal && storable(STATUS_OF[err.code]) && err.retryAfterSeconds === undefined;

/** A business refusal (404, 409…) is a result worth replaying; anything else propagates. */
async function replyOf(work: () => Promise<Reply>): Promise<Reply> {
  try {
    return await work();
  } catch (err) {
    if (replayable(err)) return errorReply(err);
    throw err;
  }
}
