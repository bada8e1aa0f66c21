import { z } from 'zod';
import type { OpSpec } from './router.js';
import { ERROR_EXAMPLES, EVENT_EXAMPLES, EXAMPLE_IDS, EXAMPLES, NAMED } from './openapi-catalog.js';
import { STATUS_OF } from './errors.js';
import { ERROR_CODES, EVENT_KINDS, ErrorEnvelope, ID_PREFIXES, Pagination, WebhookEvent, idPattern } from '../../shared/index.js';
import type { IdKind } from '../../shared/index.js';

export interface MountedSpecs {
  /** Path prefix in the document, e.g. `/v1`. */
  prefix: string;
  specs: readonly OpSpec[];
}

export interface DocumentInfo {
  version: string;
  /** Where this server answers (PUBLIC_URL). */
  serverUrl: string;
}

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const SCHEMAS = '#/components/schemas/';

/**
 * zod reads names (`id`) and prose from one registry. This one answers with the catalog's name
 * and description of a schema on top of what the schema itself carries in zod's global registry
 * (`.describe()`, `.meta()` in shared/), so that neither source has to know about the other.
 */
class DocumentRegistry extends z.core.$ZodRegistry<{ id?: string; description?: string }> {
  override get(schema: z.core.$ZodType) {
    const own = super.get(schema);
    const global = z.globalRegistry.get(schema);
    return own || global ? { ...global, ...own } : undefined;
  }
}

const registry = new DocumentRegistry();
for (const { schema, name, description } of NAMED) registry.add(schema, description ? { id: name, description } : { id: name });

function nameOf(schema: z.ZodType | undefined): string | undefined {
  return schema ? registry.get(schema)?.id : undefined;
}

/**
 * `z.int()` states the safe-integer range, and zod spells formats out again as long regular
 * expressions (`date-time`, `email`): in a document that is noise; the format says it.
 */
function tidy({ jsonSchema }: { jsonSchema: Json }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.format === 'date-time' || jsonSchema.format === 'email') delete jsonSchema.pattern;
}

/**
 * `{anyOf: [{type: 'string', format…}, {type: 'null'}]}` → `{type: ['string', 'null'], format…}`:
 * the same set of values, in the form zod itself uses when the inner schema has no annotations,
 * and the one renderers and generators handle best (Scalar's reader wants a `type`).
 */
function collapseNullable(schema: Json): Json {
  const anyOf = schema.anyOf as Json[] | undefined;
  if (!anyOf || anyOf.length !== 2) return schema;
  const nullAt = anyOf.findIndex((s) => s.type === 'null' && Object.keys(s).length === 1);
  const other = anyOf[1 - nullAt];
  if (nullAt < 0 || !other || typeof other.type !== 'string' || other.type === 'object' || other.type === 'array') return schema;
  const { anyOf: _, ...rest } = schema;
  const merged: Json = { ...other, ...rest, type: [other.type, 'null'] };
  if (Array.isArray(other.enum)) merged.enum = [...(other.enum as unknown[]), null];
  return merged;
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' ? value.replace(/^#\/\$defs\//, SCHEMAS) : rewriteRefs(value);
  }
  return collapseNullable(out);
}

/**
 * Turns zod schemas into schemas of the document. OpenAPI 3.1 uses JSON Schema 2020-12, which zod
 * emits natively: the document is made from the very schemas that validate requests. Named
 * schemas come out as `$defs`, which move to `components/schemas`.
 */
export class SchemaSet {
  readonly components: Record<string, Json> = {};
  private readonly sides: Record<string, Io> = {};

  /** `io`: requests are described as they are sent (before transforms), responses as they come. */
  convert(schema: z.ZodType, io: Io): Json {
    const json = z.toJSONSchema(schema, {
      metadata: registry,
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      override: tidy as never,
    }) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    for (const [name, def] of Object.entries(defs)) this.add(name, rewriteRefs(def) as Json, io);
    return rewriteRefs(json) as Json;
  }

  private add(name: string, schema: Json, io: Io): void {
    const known = this.components[name];
    if (known && JSON.stringify(known) !== JSON.stringify(schema)) {
      throw new Error(
        `OpenAPI: ${name} differs as ${this.sides[name]} and as ${io}; name the two shapes apart (e.g. ${name}Input)`,
      );
    }
    this.components[name] = schema;
    this.sides[name] ??= io;
  }
}

const TAGS: Record<string, string> = {
  Organization: 'Your organization: its name, contact, time zone, currency and whether it takes online payment.',
  Experiences: 'The tours and activities you sell, with their price, capacity and weekly schedule of start times.',
  Availability: 'Time slots generated from the schedules, with the places left in each.',
  Slots: 'Departures (one experience at one start): their own capacity, closing and reopening them, and a note for the team.',
  Bookings: 'Bookings of time slots: create, list, search, change and cancel them.',
  Customers: 'Guests, as the bookings made with one e-mail address; erasure of their personal data.',
  'Gift vouchers': 'Gift vouchers: their codes (in full only here), balances, redemptions by bookings, and the e-mails that carry them.',
  'Promo codes': 'Discount codes a booking may take with `promoCode`: a percentage or an amount off, for some or every experience, within dates and a number of uses.',
  Payments: 'Payments recorded for bookings, by hand or by the online payment provider.',
  Webhooks: 'Signed HTTP deliveries of booking and payment events (Standard Webhooks), their endpoints and their history.',
  Manifest: "A day's time slots with their guests, for the people running the tours; also as a CSV file.",
  Reports: 'Figures over a range of days: bookings and revenue per day, how full the experiences are.',
  Calendars: 'Private iCal feeds of your bookings, and external calendars whose events block time slots.',
  'Public (widget)': 'The key-less-secret API the booking widget uses, with a publishable key: active experiences, availability and guest bookings.',
  'Manage (guests)': 'The guests’ manage page’s API: a booking opened by the token of its e-mail link, cancelled or moved within the organization’s rules.',
  'Waitlist offers (guests)': 'A waitlist guest’s offer, opened by the token of its e-mail link: seen, booked or let go (the manage page asks these when its token is no manage token).',
  'API keys': 'Secret and publishable keys: list, create (never wider than your own) and revoke.',
  Users: 'The people who sign in to the dashboard, and their roles: `owner` holds every scope, `staff` reads experiences, customers and calendars and reads and writes bookings.',
  'Dashboard sessions': 'Signing in to the dashboard with an e-mail and password. The session lives in an HttpOnly, SameSite=Strict cookie; `/v1` accepts it instead of a key when the request also sends the session’s CSRF token as `X-CSRF-Token`.',
};

/** The statuses an operation can answer besides its success; the codes of each come from `STATUS_OF`. */
const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'The request is invalid.' },
  401: { name: 'Unauthorized', description: 'The API key is missing, unknown or revoked.' },
  403: { name: 'Forbidden', description: 'The secret key lacks the scope the operation needs.' },
  404: { name: 'NotFound', description: 'No such route, or no such record in your organization.' },
  409: { name: 'Conflict', description: 'The request conflicts with the current state.' },
  413: { name: 'PayloadTooLarge', description: 'The body is over 64 KiB.' },
  415: { name: 'UnsupportedMediaType', description: 'A non-empty body is not `application/json`.' },
  422: { name: 'IdempotencyKeyReused', description: 'The `Idempotency-Key` was used with another request.' },
  429: { name: 'TooManyRequests', description: 'Rate limited: wait `Retry-After` seconds.' },
  500: { name: 'InternalError', description: 'An error on the server; it never carries internals.' },
  503: { name: 'ServiceUnavailable', description: 'The database cannot be reached for now: try again after `Retry-After` seconds.' },
};
const codesOf = (status: number) => ERROR_CODES.filter((code) => STATUS_OF[code] === status);

function errorStatuses(spec: OpSpec): number[] {
  const statuses = new Set([401, 404, 429, 500, 503]);
  if (spec.scope) statuses.add(403);
  if (spec.query || spec.body || spec.method !== 'get') statuses.add(400);
  if (spec.method !== 'get') (statuses.add(413), statuses.add(415));
  if (spec.method === 'post') (statuses.add(409), statuses.add(422));
  for (const code of spec.errors ?? []) statuses.add(STATUS_OF[code]);
  return [...statuses].sort((a, b) => a - b);
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'Identifies the request in the server’s logs; a valid `X-Request-Id` sent with the request is echoed.',
    required: true,
    schema: { type: 'string' },
    example: 'req_01JXR8W5Q6N3ZK2M7VY4HT9CBD',
  },
  RateLimit: {
    description: 'IETF RateLimit field on `/v1` when a per-key limit is set: requests `r` left and seconds `t` until the window resets.',
    schema: { type: 'string' },
    example: '"default";r=117;t=42',
  },
  'RateLimit-Policy': {
    description: 'IETF RateLimit-Policy field on `/v1` when a per-key limit is set: `q` requests per `w` seconds.',
    schema: { type: 'string' },
    example: '"default";q=120;w=60',
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 }, example: 42 },
  'Content-Disposition': {
    description: 'Names the file a download is saved as.',
    schema: { type: 'string' },
    example: 'attachment; filename="manifest-2026-06-13.csv"',
  },
  'Idempotent-Replayed': {
    description: 'Present, `true`, when this is the stored response of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
};
const headerName = (name: string) => name.replace(/-/g, '');

function headersFor(names: string[]): Json {
  return Object.fromEntries(names.map((n) => [n, ref('headers', headerName(n))]));
}

function pathParameter(name: string, kind: IdKind | 'booking'): Json {
  if (kind === 'booking') {
    return {
      name,
      in: 'path',
      required: true,
      description: name === 'bookingNumber' ? 'Booking number (`BK-…`)' : 'Booking id (`bk_…`) or booking number (`BK-…`)',
      // The router reads either shape, in any letter case.
      schema: { type: 'string', pattern: '^([bB][kK]_[A-Za-z0-9]{1,64}|[bB][kK]-[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{8})$' },
      example: 'BK-7K3M9Q2D',
    };
  }
  return {
    name,
    in: 'path',
    required: true,
    description: `${kind[0]?.toUpperCase()}${kind.slice(1).replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)} id (\`${ID_PREFIXES[kind]}_…\`)`,
    schema: { type: 'string', pattern: idPattern(kind).source },
    example: EXAMPLE_IDS[kind],
  };
}

/**
 * Query parameters are strings on the wire and zod coerces them (`limit=20` → 20): each parameter
 * is described by the value it becomes (its output schema: integer, boolean…), and is required when
 * its input may not be absent.
 */
function queryParameters(schemas: SchemaSet, query: z.ZodType): Json[] {
  const output = schemas.convert(query, 'output');
  const input = schemas.convert(query, 'input');
  const required = new Set((input.required ?? []) as string[]);
  return Object.entries((output.properties ?? {}) as Record<string, Json>).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

function parametersOf(schemas: SchemaSet, spec: OpSpec): Json[] {
  const params = Object.entries(spec.params ?? {}).map(([name, kind]) => pathParameter(name, kind as IdKind | 'booking'));
  if (spec.query) params.push(...queryParameters(schemas, spec.query));
  if (spec.method === 'post') params.push(ref('parameters', 'IdempotencyKey'));
  return params;
}

function exampleOf(schema: z.ZodType | undefined, spec: OpSpec): unknown {
  const name = nameOf(schema);
  if (name === 'Deleted') {
    const kind = Object.values(spec.params ?? {})[0] as IdKind | undefined;
    return { id: kind && kind !== ('booking' as string) ? EXAMPLE_IDS[kind] : EXAMPLE_IDS.experience, deleted: true };
  }
  return name ? EXAMPLES[name] : undefined;
}

/** A file download: the document shows the text itself, not an envelope. */
function fileResponse(spec: OpSpec & { file: NonNullable<OpSpec['file']> }, prefix: string): Json {
  const headers = ['X-Request-Id', ...(prefix === '/v1' ? ['RateLimit', 'RateLimit-Policy'] : []), 'Content-Disposition'];
  const media = { schema: { type: 'string' }, example: EXAMPLES[spec.file.example] };
  return { description: `A ${spec.file.mediaType} file`, headers: headersFor(headers), content: { [spec.file.mediaType]: media } };
}

function successResponse(schemas: SchemaSet, spec: OpSpec, prefix: string): Json {
  if (spec.file) return fileResponse({ ...spec, file: spec.file }, prefix);
  const data = spec.response ? schemas.convert(spec.response, 'output') : {};
  const example = exampleOf(spec.response, spec);
  const schema = spec.list
    ? {
        type: 'object',
        required: ['success', 'data', 'pagination'],
        properties: { success: { const: true }, data: { type: 'array', items: data }, pagination: schemas.convert(Pagination, 'output') },
      }
    : { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } };
  const media: Json = { schema };
  if (example !== undefined) {
    media.example = spec.list
      ? { success: true, data: [example], pagination: EXAMPLES.Pagination }
      : { success: true, data: example };
  }
  const headers = ['X-Request-Id'];
  if (prefix === '/v1') headers.push('RateLimit', 'RateLimit-Policy');
  if (spec.method === 'post') headers.push('Idempotent-Replayed');
  const name = nameOf(spec.response);
  const what = name ? `${spec.list ? 'A page of ' : ''}${name}` : 'Success';
  const description = spec.status === 201 ? `Created: ${what}` : spec.status === 202 ? `Accepted: ${what}` : what;
  return { description, headers: headersFor(headers), content: { 'application/json': media } };
}

/** `/v1` → `bookings`; other mounts put their name first (`publicBookings`): ids stay unique. */
function operationIdOf(spec: OpSpec, prefix: string): string {
  const path = prefix.replace(/\/v\d+$/, '') + toOpenApiPath(spec.path);
  return `${spec.method}${path.replace(/[{}]/g, '').replace(/[/.-](\w)/g, (_, ch: string) => ch.toUpperCase())}`;
}

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const SECURITY: Record<OpSpec['auth'], Json[]> = {
  secret: [{ secretKey: [] }, { sessionCookie: [], csrfToken: [] }],
  publishable: [{ publishableKey: [] }, { publishableKeyQuery: [] }],
  session: [{ sessionCookie: [] }],
  manage: [{ manageToken: [] }],
  waitlist: [{ waitlistToken: [] }],
  none: [{}],
};

function authNote(spec: OpSpec): string {
  if (spec.auth === 'publishable') return 'Authenticate with a publishable key (`opk_…`) in `X-Outing-Key` or the `key` query parameter.';
  if (spec.auth === 'session') return 'Needs the dashboard’s session cookie.';
  if (spec.auth === 'manage') return 'Authenticate with the manage token of the guest’s e-mail link in `X-Manage-Token`; an unknown token is 404.';
  if (spec.auth === 'waitlist') return 'Authenticate with the token of the guest’s waitlist offer e-mail in `X-Waitlist-Token`; a missing or unknown token is 404.';
  if (spec.auth === 'none') return 'Needs no authentication.';
  return spec.scope ? `Needs a secret key with the scope \`${spec.scope}\`.` : 'Needs a secret key.';
}

function operationOf(schemas: SchemaSet, spec: OpSpec, prefix: string): Json {
  const responses: Record<string, Json> = { [String(spec.status ?? 200)]: successResponse(schemas, spec, prefix) };
  for (const status of errorStatuses(spec)) responses[String(status)] = ref('responses', ERROR_RESPONSES[status]!.name);
  const op: Json = {
    operationId: operationIdOf(spec, prefix),
    summary: spec.summary,
    description: [spec.description, authNote(spec)].filter(Boolean).join('\n\n'),
    tags: [spec.tag],
    security: SECURITY[spec.auth],
    parameters: parametersOf(schemas, spec),
  };
  if (spec.body) {
    const example = exampleOf(spec.body, spec);
    op.requestBody = {
      // An empty body reads as `{}`: a body is optional exactly when `{}` is a valid one.
      required: !spec.body.safeParse({}).success,
      content: {
        'application/json': { schema: schemas.convert(spec.body, 'input'), ...(example !== undefined ? { example } : {}) },
      },
    };
  }
  op.responses = responses;
  return op;
}

function errorResponses(): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description }]) => [
      name,
      {
        description,
        headers: headersFor(
          status === '429' ? ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'] : status === '503' ? ['X-Request-Id', 'Retry-After'] : ['X-Request-Id'],
        ),
        content: {
          'application/json': {
            schema: { $ref: `${SCHEMAS}Error` },
            examples: Object.fromEntries(codesOf(Number(status)).map((code) => [code, ref('examples', code)])),
          },
        },
      },
    ]),
  );
}

function errorExamples(): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(ERROR_EXAMPLES).map(([code, error]) => [
      code,
      { summary: code, value: { success: false, error: { code, ...error } } },
    ]),
  );
}

/** Standard Webhooks: https://www.standardwebhooks.com/ */
const WEBHOOK_PARAMETERS: Record<string, Json> = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (`evt_…`): the same on every attempt, so receivers can drop duplicates.',
    schema: { type: 'string' },
    example: EXAMPLE_IDS.event,
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse deliveries too far from your clock (e.g. 5 minutes) to stop replays.',
    schema: { type: 'integer' },
    example: 1780308942,
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated signatures `v1,<base64>`: HMAC-SHA256, keyed with the base64 part of the endpoint’s `whsec_…` secret, of `{webhook-id}.{webhook-timestamp}.{raw body}`.',
    schema: { type: 'string' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
};

const EVENT_SUMMARIES: Record<(typeof EVENT_KINDS)[number], string> = {
  BOOKING_CREATED: 'A booking was made (through the API or the widget)',
  BOOKING_UPDATED: 'A booking changed; `data.changes` holds each changed field’s old and new value',
  BOOKING_CANCELED: 'A booking was cancelled (the event spells CANCELED; the booking status, CANCELLED)',
  PAYMENT_SUCCEEDED: 'A payment succeeded; `data.payment` holds it',
  PAYMENT_FAILED: 'A payment failed or an online payment hold lapsed; `data.payment` holds it',
  PAYMENT_REFUNDED: 'A refund succeeded (at once when made by hand, when Stripe reports it for a STRIPE refund); `data.refund` holds it',
};

function webhooksOf(schemas: SchemaSet): Json {
  const event = schemas.convert(WebhookEvent, 'output');
  return Object.fromEntries(
    EVENT_KINDS.map((kind) => [
      kind,
      {
        post: {
          operationId: `webhook${kind.toLowerCase().replace(/(^|_)(\w)/g, (_, __, ch: string) => ch.toUpperCase())}`,
          summary: EVENT_SUMMARIES[kind],
          description:
            'Outing POSTs this to each enabled endpoint subscribed to the event. Verify the signature over the raw body before parsing it. Failed deliveries are retried with backoff; see `/v1/webhook-endpoints/{id}/deliveries`.',
          tags: ['Webhooks'],
          security: [],
          parameters: Object.keys(WEBHOOK_PARAMETERS).map((name) => ref('parameters', name)),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { allOf: [event, { type: 'object', properties: { event: { const: kind } } }] },
                example: EVENT_EXAMPLES[kind],
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx status acknowledges the delivery.' },
            '410': { description: 'Gone: Outing disables the endpoint and stops delivering to it.' },
          },
        },
      },
    ]),
  );
}

const DESCRIPTION = `Booking for tours and activities, served by your own Outing server. More in the project's docs/ folder.

## Authentication
- \`/v1\`: a **secret key** (\`osk_…\`) as \`Authorization: Bearer osk_…\`. Keys may be limited to scopes; each operation names the scope it needs.
- \`/public/v1\`: a **publishable key** (\`opk_…\`) in \`X-Outing-Key\` or the \`key\` query parameter; it can only read active experiences and availability and make guest bookings.

Every \`/v1\` path is also served under \`/api/v1\`.

Resellers' systems book through the OCTO supplier API at \`/octo\` instead (a secret key with the scope \`octo\`): its own reference is [/docs/octo](/docs/octo), its document \`/octo/openapi.json\`.

## Envelopes
Successes are \`{"success": true, "data": …}\`; lists add \`pagination\` (\`limit\` 1–100, default 20; \`offset\`).
Errors are \`{"success": false, "error": {"code", "message", "details?"}}\`: the \`code\` (see \`ErrorCode\`) is stable, the message is for people.

## Text
No string may hold the NUL character (U+0000): one in a body field or key, a query parameter or a path id is refused with 400 \`VALIDATION_ERROR\`, its \`details\` naming the field (a path id, too, which is otherwise a 404 when malformed). Other control characters are kept as sent. Names (a guest's, an experience's, a price category's, the organization's, a user's) also refuse the bidirectional controls U+202A–U+202E and U+2066–U+2069.

## Idempotency
Send an \`Idempotency-Key\` (1–255 characters) with a POST to make a retry safe: for 24 hours the same key with the same request replays the first response (with \`Idempotent-Replayed: true\`); with another request it is refused (422).

## Rate limits
\`/v1\` answers carry the IETF \`RateLimit\` and \`RateLimit-Policy\` fields when a per-key limit is configured; a 429 carries \`Retry-After\`.
While the database cannot be reached, every operation answers 503 \`SERVICE_UNAVAILABLE\` with \`Retry-After\`: retry then.
Every response carries \`X-Request-Id\`.

## Webhooks
Events are delivered as signed POSTs following Standard Webhooks; see the webhooks of this document for each event's body and headers.`;

export function buildOpenApiDocument(mounts: MountedSpecs[], info: DocumentInfo): Json {
  const schemas = new SchemaSet();
  const paths: Record<string, Record<string, Json>> = {};
  const tags = new Set<string>();
  for (const { prefix, specs } of mounts) {
    for (const spec of specs) {
      const path = prefix + toOpenApiPath(spec.path);
      paths[path] ??= {};
      paths[path][spec.method] = operationOf(schemas, spec, prefix);
      tags.add(spec.tag);
    }
  }
  const webhooks = webhooksOf(schemas);
  tags.add('Webhooks');
  schemas.convert(ErrorEnvelope, 'output');

  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Outing API',
      version: info.version,
      description: DESCRIPTION,
      contact: { name: 'The operator of this Outing server', url: `${info.serverUrl}/docs` },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: info.serverUrl, description: 'This Outing server' }],
    tags: [...tags].map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    webhooks,
    components: {
      schemas: schemas.components,
      responses: errorResponses(),
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes a retry safe: for 24 hours the same key and request replay the first response.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
          example: 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        },
        ...WEBHOOK_PARAMETERS,
      },
      headers: Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [headerName(name), header])),
      examples: errorExamples(),
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'Secret key `osk_…`, for `/v1`' },
        publishableKey: { type: 'apiKey', in: 'header', name: 'X-Outing-Key', description: 'Publishable key `opk_…`, for `/public/v1`' },
        publishableKeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'Publishable key `opk_…`, for `/public/v1`' },
        manageToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Manage-Token',
          description: 'The token after `#` in a guest’s manage link (`{PUBLIC_URL}/manage#<token>`), for `/public/v1/manage`',
        },
        waitlistToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Waitlist-Token',
          description: 'The token after `#` in the link of a waitlist offer e-mail (`{PUBLIC_URL}/manage#<token>`), for `/public/v1/waitlist/offer`',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'outing_session',
          description: 'The dashboard’s session, set by `POST /dashboard/api/session`; on `/v1` only together with `csrfToken`',
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description: 'The `csrfToken` of the session, sent with every `/v1` request made with the session cookie',
        },
      },
    },
  };
  typeNullableRefs(doc, schemas.components);
  return pruneUnused(doc);
}

/**
 * A nullable named schema, `{anyOf: [{$ref}, {type: 'null'}]}`, also states the types it allows
 * (`type: ['object', 'null']`): the same values, and readers that want a `type` (Scalar's) get one.
 */
function typeNullableRefs(node: unknown, components: Record<string, Json>): void {
  if (Array.isArray(node)) return node.forEach((n) => typeNullableRefs(n, components));
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const anyOf = schema.anyOf as Json[] | undefined;
  if (anyOf?.length === 2 && schema.type === undefined) {
    const target = anyOf.find((s) => typeof s.$ref === 'string');
    const type = target && components[String(target.$ref).slice(SCHEMAS.length)]?.type;
    if (typeof type === 'string' && anyOf.some((s) => s.type === 'null')) schema.type = [type, 'null'];
  }
  for (const value of Object.values(schema)) typeNullableRefs(value, components);
}

/**
 * Drops the components nothing refers to (a status no operation answers, an example of it…): the
 * shared tables describe the whole contract, a server's routes may use only part of it.
 */
function pruneUnused(doc: Json): Json {
  const components = doc.components as Record<string, Record<string, unknown>>;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !used.has(value)) {
        used.add(value);
        const [, , kind, name] = value.split('/');
        if (kind && name) visit(components[kind]?.[name]);
      } else visit(value);
    }
  };
  visit({ paths: doc.paths, webhooks: doc.webhooks });
  for (const [kind, entries] of Object.entries(components)) {
    if (kind === 'securitySchemes') continue;
    for (const name of Object.keys(entries)) if (!used.has(`#/components/${kind}/${name}`)) delete entries[name];
  }
  return doc;
}
