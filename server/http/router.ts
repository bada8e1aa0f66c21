import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { Refusal } from '../domain/refusal.js';
import { authenticatePublishable, authenticateSecret, authenticateSession, authenticateSessionOnApi, requireScope } from './auth.js';
import { readJsonBody } from './body.js';
import { idempotentRequest, parseIdempotencyKey, replyOutcomes } from './idempotency.js';
import { parseWith } from './validate.js';
import { refuseNulInUrl } from './nul.js';
import { rateLimitHeaders, type RateLimiter } from './rate-limit.js';
import type { Reply } from './reply.js';
import type { AppEnv, Caller } from './context.js';
import type { Store } from '../store/index.js';
import type { UnitOfWork } from '../services/unit-of-work.js';
import { BOOKING_REF_RE } from '../domain/ids.js';
import { idPattern, type ErrorCode, type IdKind, type Scope } from '../../shared/index.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';
/**
 * `secret`: `/v1`, a secret key or the dashboard's session cookie with its CSRF token;
 * `publishable`: `/public/v1`; `session`: the dashboard's own routes, the cookie alone;
 * `manage`: a guest's manage link, its token in `X-Manage-Token` (the handler's service checks it);
 * `waitlist`: a guest's waitlist offer link, its token in `X-Waitlist-Token` (likewise checked by the service);
 * `none`: signing in, where there is no caller yet (handlers of these, of `manage` and of `waitlist` must not read `caller`).
 */
export type AuthKind = 'secret' | 'publishable' | 'session' | 'manage' | 'waitlist' | 'none';

/** One operation: the single description from which requests are checked and the OpenAPI document is made. */
export interface OpSpec<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  P extends string = string,
> {
  method: Method;
  /** Hono path relative to the mount, e.g. `/bookings/:id`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthKind;
  scope?: Scope;
  /** Path parameters and the id kind each must look like (a wrong shape is a 404). */
  params?: Record<P, IdKind | 'booking'>;
  query?: Q;
  body?: B;
  /** The `data` of a success, or of each list item when `list` is set. */
  response?: z.ZodType;
  /**
   * A success sent as a file instead of the JSON envelope (the handler answers a `raw` reply): its
   * media type and the name of its example in the OpenAPI catalog. Errors stay JSON envelopes.
   */
  file?: { mediaType: 'text/csv' | 'text/calendar'; example: string };
  list?: boolean;
  status?: 200 | 201 | 202;
  errors?: ErrorCode[];
  /**
   * The handler awaits more than the store (network calls): it never runs inside a transaction,
   * and an Idempotency-Key guards it with an in-flight marker. Without it, a handler awaits the
   * store alone, so the unit of work may run it inside one (an Idempotency-Key's, a group commit's).
   */
  async?: boolean;
  /**
   * Write work that only awaits the store and may share its transaction and fsync with concurrent
   * requests (`batched` work of the unit of work): for hot write routes, whose rate one fsync per
   * request would cap.
   */
  groupCommit?: boolean;
}

export interface Input<Q, B, P extends string = never> {
  query: Q extends z.ZodType ? z.output<Q> : Record<string, never>;
  body: B extends z.ZodType ? z.output<B> : Record<string, never>;
  params: Record<P, string>;
  caller: Caller;
  c: Context<AppEnv>;
}

export interface HttpContext {
  store: Store;
  now: () => number;
  /** Runs each handler once, in the transaction its operation calls for. */
  work: UnitOfWork;
  limiter: RateLimiter;
  /** Requests per minute per secret key on `/v1`; 0 = off. */
  rateLimitPerMinute: number;
}


function checkParams(spec: OpSpec, c: Context): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, kind] of Object.entries(spec.params ?? {})) {
    const value = c.req.param(name) ?? '';
    const shape = kind === 'booking' ? BOOKING_REF_RE : idPattern(kind);
    if (!shape.test(value)) throw new Refusal('NOT_FOUND', 'Resource not found');
    params[name] = value;
  }
  return params;
}

function queryObject(c: Context, auth: AuthKind): Record<string, string> {
  const out: Record<string, string> = {};
  const search = new URL(c.req.url).searchParams;
  for (const key of new Set(search.keys())) {
    if (auth === 'publishable' && key === 'key') continue;
    const values = search.getAll(key);
    if (values.length > 1) {
      throw new Refusal('VALIDATION_ERROR', `Invalid query: ${key} is repeated`, [
        { path: key, message: 'Give this parameter once' },
      ]);
    }
    out[key] = values[0] ?? '';
  }
  return out;
}

function parseBody(spec: OpSpec, raw: unknown): unknown {
  if (spec.body) return parseWith(spec.body, raw, 'body');
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Object.keys(raw).length > 0)) {
    throw new Refusal('VALIDATION_ERROR', 'This request takes no body', [{ path: '', message: 'Send no body' }]);
  }
  return {};
}

export class ApiRoutes {
  readonly app = new Hono<AppEnv>();
  readonly specs: OpSpec[] = [];

  constructor(private readonly ctx: HttpContext) {}

  /** Middleware for every operation of this group (CORS, per-IP limits); call it before `op`. */
  use(...handlers: MiddlewareHandler<AppEnv>[]): this {
    this.app.use('*', ...handlers);
    return this;
  }

  op<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, P extends string = never>(
    spec: OpSpec<Q, B, P>,
    handler: (input: Input<Q, B, P>) => Reply | Promise<Reply>,
  ): this {
    this.specs.push(spec as OpSpec);
    this.app.on(spec.method.toUpperCase(), spec.path, async (c) => {
      const found = await this.authenticate(spec, c);
      if (spec.scope && found) requireScope(found, spec.scope);
      const caller = found as Caller;
      // A NUL in the path or the query is a 400 naming the parameter, before the shapes' 404.
      refuseNulInUrl(c.req.url, () => c.req.param() as Record<string, string>);
      const params = checkParams(spec as OpSpec, c);
      const query = spec.query ? parseWith(spec.query, queryObject(c, spec.auth), 'query') : {};
      const rawBody = spec.method === 'get' ? undefined : await readJsonBody(c);
      const body = parseBody(spec as OpSpec, rawBody);
      const input = { query, body, params, caller, c } as Input<Q, B, P>;
      const key = spec.method === 'post' && found ? parseIdempotencyKey(c.req.header('idempotency-key')) : undefined;
      // The unit of work decides the transaction from what the operation declares, and runs the handler once.
      const idempotent = key === undefined
        ? undefined
        : { request: idempotentRequest(caller.orgId, key, 'POST', c.req.path, rawBody), outcomes: replyOutcomes };
      const done = await this.ctx.work.run({ async: spec.async, batched: spec.groupCommit, idempotent }, async () => await handler(input));
      if (done.replayed) c.header('Idempotent-Replayed', 'true');
      const reply = done.result;
      if (reply.raw !== undefined) {
        return c.body(reply.raw.body, reply.status, { ...reply.raw.headers, 'Content-Type': reply.raw.contentType });
      }
      if (reply.json !== undefined) {
        return c.body(reply.json, reply.status, { 'Content-Type': 'application/json' });
      }
      return c.json(reply.body as object, reply.status);
    });
    return this;
  }

  private async authenticate(spec: OpSpec, c: Context<AppEnv>): Promise<Caller | undefined> {
    const now = this.ctx.now();
    const ip = c.get('clientIp');
    if (spec.auth === 'none' || spec.auth === 'manage' || spec.auth === 'waitlist') return undefined;
    if (spec.auth === 'session') {
      const found = await authenticateSession(c, this.ctx.store, now);
      const caller = { ...found, actor: { ...found.actor, ip } };
      c.set('caller', caller);
      return caller;
    }
    if (spec.auth === 'publishable') {
      const found = await authenticatePublishable(c, this.ctx.store, now);
      const caller = { ...found, actor: { ...found.actor, ip } };
      c.set('caller', caller);
      return caller;
    }
    const found = await authenticateSessionOnApi(c, this.ctx.store, now) ?? await authenticateSecret(c, this.ctx.store, now);
    const caller = { ...found, actor: { ...found.actor, ip } };
    c.set('caller', caller);
    if (this.ctx.rateLimitPerMinute > 0) {
      // Per key, or per user for the dashboard's cookie (ids of both kinds never collide).
      const decision = await this.ctx.limiter.hit(caller.keyId ?? caller.userId ?? caller.orgId, this.ctx.rateLimitPerMinute);
      const headers = rateLimitHeaders(decision);
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      if (!decision.allowed) {
        throw new Refusal('RATE_LIMITED', `Rate limit of ${decision.limit} requests per minute exceeded`, undefined, decision.resetSeconds);
      }
    }
    return caller;
  }
}
