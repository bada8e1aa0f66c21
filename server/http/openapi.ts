import { z } from 'zod';
import type { OpSpec } from './router.js';
import { ERROR_CODES, ErrorEnvelope, Pagination } from '../../shared/index.js';

export interface MountedSpecs {
  /** Path prefix in the document, e.g. `/v1`. */
  prefix: string;
  specs: readonly OpSpec[];
}

type JsonSchema = Record<string, unknown>;

/**
 * OpenAPI 3.1 uses JSON Schema 2020-12 as its schema dialect, which is what zod 4 emits natively:
 * the document is built from the very schemas that validate requests, with no translation layer.
 */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (VALIDATION_ERROR, INVALID_JSON)',
  401: 'Missing or invalid API key (UNAUTHORIZED, INVALID_API_KEY)',
  403: 'The key lacks the scope (FORBIDDEN)',
  404: 'No such route or record in your organization (NOT_FOUND)',
  409: 'Conflict with the current state',
  413: 'Body over 64 KiB (PAYLOAD_TOO_LARGE)',
  415: 'Body not application/json (UNSUPPORTED_MEDIA_TYPE)',
  422: 'Idempotency-Key reused with another request (IDEMPOTENCY_KEY_REUSED)',
  429: 'Rate limited (RATE_LIMITED); see Retry-After',
  500: 'Internal error (INTERNAL_ERROR); never carries internals',
};

function errorStatuses(spec: OpSpec): number[] {
  const statuses = new Set([401, 404, 429, 500]);
  if (spec.scope) statuses.add(403);
  if (spec.query || spec.body || spec.method !== 'get') statuses.add(400);
  if (spec.method !== 'get') (statuses.add(413), statuses.add(415));
  if (spec.method === 'post') (statuses.add(409), statuses.add(422));
  for (const code of spec.errors ?? []) {
    if (code.startsWith('SLOT') || code.startsWith('CAPACITY') || code.startsWith('INVALID_STATUS') || code === 'CONFLICT') {
      statuses.add(409);
    }
  }
  return [...statuses].sort();
}

function parametersOf(spec: OpSpec): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const [name, kind] of Object.entries(spec.params ?? {})) {
    params.push({
      name,
      in: 'path',
      required: true,
      description: kind === 'booking' ? 'Booking id (bk_…) or booking number (BK-…)' : `Id (${kind})`,
      schema: { type: 'string' },
    });
  }
  if (spec.query) {
    const json = schemaOf(spec.query, 'input');
    const props = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(props)) {
      const { description, ...rest } = schema;
      params.push({ name, in: 'query', required: required.has(name), description, schema: rest });
    }
  }
  if (spec.method === 'post') {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Replays the first response for 24 h; 1–255 characters',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  return params;
}

function successSchema(spec: OpSpec): JsonSchema {
  const data = spec.response ? schemaOf(spec.response, 'output') : {};
  if (spec.list) {
    return {
      type: 'object',
      required: ['success', 'data', 'pagination'],
      properties: { success: { const: true }, data: { type: 'array', items: data }, pagination: schemaOf(Pagination, 'output') },
    };
  }
  return { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } };
}

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * `getExperiencesId` for `/v1`; other mounts put their name first (`getPublicExperiences` for
 * `/public/v1`), so that operation ids stay unique across the document as OpenAPI requires.
 */
function operationIdOf(spec: OpSpec, prefix: string): string {
  const path = prefix.replace(/\/v\d+$/, '') + toOpenApiPath(spec.path);
  return `${spec.method}${path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, ch: string) => ch.toUpperCase())}`;
}

function operationOf(spec: OpSpec, prefix: string): JsonSchema {
  const status = String(spec.status ?? 200);
  const responses: Record<string, JsonSchema> = {
    [status]: { description: 'Success', content: { 'application/json': { schema: successSchema(spec) } } },
  };
  for (const code of errorStatuses(spec)) {
    responses[String(code)] = { $ref: `#/components/responses/E${code}` };
  }
  const op: JsonSchema = {
    operationId: operationIdOf(spec, prefix),
    summary: spec.summary,
    tags: [spec.tag],
    security: spec.auth === 'secret' ? [{ secretKey: [] }] : [{ publishableKey: [] }, { publishableKeyQuery: [] }],
    parameters: parametersOf(spec),
    responses,
  };
  const description = [spec.description, spec.scope ? `Scope: \`${spec.scope}\`.` : undefined].filter(Boolean).join('\n\n');
  if (description) op.description = description;
  if (spec.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input') } } };
  }
  return op;
}

export function buildOpenApiDocument(mounts: MountedSpecs[], info: { version: string; serverUrl: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { prefix, specs } of mounts) {
    for (const spec of specs) {
      const path = prefix + toOpenApiPath(spec.path);
      paths[path] ??= {};
      paths[path][spec.method] = operationOf(spec, prefix);
    }
  }
  const errorSchema = schemaOf(ErrorEnvelope, 'output');
  const errorResponses = Object.fromEntries(
    Object.entries(STATUS_TEXT).map(([code, description]) => [
      `E${code}`,
      { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Outing API',
      version: info.version,
      description: [
        'Self-hostable booking for tours and activities. Every `/v1` route is also served under `/api/v1`.',
        'Envelopes: `{"success": true, "data": …}`; lists add `pagination`; errors are',
        '`{"success": false, "error": {"code", "message", "details?"}}` with the codes: ' + ERROR_CODES.join(', ') + '.',
        'Every response carries `X-Request-Id`; `/v1` responses carry the IETF `RateLimit` and `RateLimit-Policy` fields.',
      ].join('\n'),
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'Secret key `osk_…` on /v1' },
        publishableKey: { type: 'apiKey', in: 'header', name: 'X-Outing-Key', description: 'Publishable key `opk_…` on /public/v1' },
        publishableKeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'Publishable key `opk_…` on /public/v1' },
      },
      schemas: { Error: errorSchema },
      responses: errorResponses,
    },
  };
}
