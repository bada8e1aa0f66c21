import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { Refusal } from '../domain/refusal.js';
import { OctoRefusal, requestedCapabilities } from '../domain/octo.js';
import { authenticateSecret, requireScope } from './auth.js';
import { ClientAbortedRequest, logClientAbort, readJsonBody } from './body.js';
import { STATUS_OF } from './errors.js';
import { rateLimitHeaders } from './rate-limit.js';
import { redactTarget, type Logger } from '../logger.js';
import type { AppEnv, Caller } from './context.js';
import type { HttpContext } from './router.js';
import type { OctoCapabilityId } from '../../shared/schemas/octo.js';

/**
 * The OCTO supplier API's HTTP side. OCTO is a standard of its own, so nothing of `/v1`'s envelope
 * applies: a success is `200` with the bare object or array, and every refusal is
 * `{error, errorMessage}` (plus the field naming an unknown id) with `400`, except a database that
 * cannot be reached (`503` with `Retry-After`, as everywhere), a rate limit (`429`) and our own
 * faults (`500`). Only a secret key authenticates: the dashboard's cookie is not looked at.
 */

export type OctoMethod = 'get' | 'post' | 'patch';

export interface OctoOpSpec<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined> {
  method: OctoMethod;
  /** Hono path relative to `/octo`, e.g. `/products/:id`. */
  path: string;
  /** Query parameters; a query that does not parse is a `BAD_REQUEST`. */
  query?: Q;
  /** The JSON body; unknown fields are dropped by the schema, a body that does not parse is a `BAD_REQUEST`. */
  body?: B;
  /** The handler awaits more than the store (the network): never run inside a transaction. */
  async?: boolean;
}

export interface OctoInput<Q, B> {
  query: Q extends z.ZodType ? z.output<Q> : Record<string, never>;
  body: B extends z.ZodType ? z.output<B> : Record<string, never>;
  /** The path's parameters as sent (OCTO ids are any string: an unknown one is the handler's refusal). */
  params: Record<string, string>;
  caller: Caller;
  /** The capabilities the request turned on with `Octo-Capabilities` (already echoed in the answer). */
  capabilities: readonly OctoCapabilityId[];
  c: Context<AppEnv>;
}

export interface OctoHttpContext extends HttpContext {
  logger: Logger;
}

/** The OCTO error body of a refusal. */
export function octoErrorBody(code: string, message: string, field?: string, value?: string): Record<string, string> {
  const body: Record<string, string> = { error: code, errorMessage: message };
  if (field !== undefined) body[field] = value ?? '';
  return body;
}

/** How `/v1`'s refusals, which the shared machinery throws (auth, the body reader, the store), read in OCTO. */
function fromRefusal(refusal: Refusal): { status: ContentfulStatusCode; code: string } {
  const status = STATUS_OF[refusal.code];
  if (status === 503) return { status, code: 'SERVICE_UNAVAILABLE' };
  if (status === 429) return { status, code: 'TOO_MANY_REQUESTS' };
  if (status === 500) return { status, code: 'INTERNAL_SERVER_ERROR' };
  if (status === 401) return { status: 400, code: 'UNAUTHORIZED' };
  if (status === 403) return { status: 400, code: 'FORBIDDEN' };
  // Not enough places, a slot gone, a move not allowed: the request was understood but cannot be done.
  if (status === 409) return { status: 400, code: 'UNPROCESSABLE_ENTITY' };
  return { status: 400, code: 'BAD_REQUEST' };
}

/** Any error thrown while answering an OCTO request, as the OCTO answer for it. */
export function renderOctoError(c: Context<AppEnv>, err: unknown, logger: Logger): Response {
  if (err instanceof OctoRefusal) return c.json(octoErrorBody(err.code, err.message, err.field, err.value), 400);
  if (err instanceof ClientAbortedRequest) {
    logClientAbort(logger, err, { requestId: c.get('requestId'), method: c.req.method, path: redactTarget(new URL(c.req.url).pathname) });
  }
  if (err instanceof Refusal) {
    const { status, code } = fromRefusal(err);
    if (err.retryAfterSeconds !== undefined) c.header('Retry-After', String(err.retryAfterSeconds));
    return c.json(octoErrorBody(code, err.message), status);
  }
  logger.error('unhandled error', {
    requestId: c.get('requestId'),
    error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return c.json(
    octoErrorBody('INTERNAL_SERVER_ERROR', 'Something went wrong on our side; quote the X-Request-Id if you contact support'),
    500,
  );
}

function parseOcto<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const what = issue?.code === 'invalid_type' && issue.input === undefined ? 'Required' : (issue?.message ?? 'Not valid');
  throw new OctoRefusal('BAD_REQUEST', `Invalid ${where}: ${path ? `${path}: ` : ''}${what}`);
}

function queryObject(c: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(c.req.url).searchParams) {
    if (key in out) throw new OctoRefusal('BAD_REQUEST', `Invalid query: ${key} is repeated`);
    out[key] = value;
  }
  return out;
}

/**
 * The `/octo` sub-app: every operation authenticates a secret key with the `octo` scope first,
 * then reads its query and body, runs in the unit of work and answers the bare OCTO object.
 * Other modules add their operations with `op` (see `routes/octo.ts`).
 */
export class OctoRoutes {
  readonly app = new Hono<AppEnv>();
  /** The methods of each path an operation was added on, for the answer to another method there. */
  private readonly methods = new Map<string, string[]>();

  constructor(private readonly ctx: OctoHttpContext) {}

  op<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
    spec: OctoOpSpec<Q, B>,
    handler: (input: OctoInput<Q, B>) => unknown,
  ): this {
    this.methods.set(spec.path, [...(this.methods.get(spec.path) ?? []), spec.method.toUpperCase()]);
    this.app.on(spec.method.toUpperCase(), spec.path, async (c) => {
      const capabilities = requestedCapabilities(c.req.header('octo-capabilities'));
      c.header('Octo-Capabilities', capabilities.join(', '));
      try {
        const caller = await this.authenticate(c);
        // A bodiless GET may still say Content-Type: application/json; a GET's body is never read.
        const rawBody = spec.method === 'get' ? undefined : await readJsonBody(c);
        const query = spec.query ? parseOcto(spec.query, queryObject(c), 'query') : {};
        const body = spec.body ? parseOcto(spec.body, rawBody, 'body') : {};
        const input = { query, body, params: c.req.param() as Record<string, string>, caller, capabilities, c } as OctoInput<Q, B>;
        const done = await this.ctx.work.run({ async: spec.async }, async () => await handler(input));
        return c.json(done.result as object, 200);
      } catch (err) {
        return renderOctoError(c, err, this.ctx.logger);
      }
    });
    return this;
  }

  /** Paths under `/octo` that name no operation: an OCTO-shaped 404 rather than `/v1`'s envelope. */
  closeUnknownPaths(): this {
    // A known path never answers 404: another method there is a BAD_REQUEST naming the right ones,
    // after the key and its scope, as every operation checks them first.
    for (const [path, methods] of this.methods) {
      this.app.all(path, async (c) => {
        try {
          await this.authenticate(c);
          throw new OctoRefusal('BAD_REQUEST', `${c.req.method} is not supported on ${new URL(c.req.url).pathname}; use ${methods.join(' or ')}`);
        } catch (err) {
          return renderOctoError(c, err, this.ctx.logger);
        }
      });
    }
    this.app.all('*', (c) =>
      c.json(octoErrorBody('NOT_FOUND', `No route ${c.req.method} ${new URL(c.req.url).pathname}`), 404),
    );
    return this;
  }

  private async authenticate(c: Context<AppEnv>): Promise<Caller> {
    const found = await authenticateSecret(c, this.ctx.store, this.ctx.now());
    const caller = { ...found, actor: { ...found.actor, ip: c.get('clientIp') } };
    c.set('caller', caller);
    requireScope(caller, 'octo');
    if (this.ctx.rateLimitPerMinute > 0 && caller.keyId) {
      const decision = await this.ctx.limiter.hit(caller.keyId, this.ctx.rateLimitPerMinute);
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) c.header(name, value);
      if (!decision.allowed) {
        throw new Refusal('RATE_LIMITED', `Rate limit of ${decision.limit} requests per minute exceeded`, undefined, decision.resetSeconds);
      }
    }
    return caller;
  }
}
