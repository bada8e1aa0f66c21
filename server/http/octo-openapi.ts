import { SchemaSet } from './openapi.js';
import { octoBookingPaths, octoBookingSchemas } from './octo-openapi-bookings.js';
import {
  OctoAvailability,
  OctoAvailabilityRequest,
  OctoCalendarEntry,
  OctoCalendarRequest,
  OctoCapability,
  OctoError,
  OctoProduct,
  OctoSupplier,
} from '../../shared/schemas/octo.js';
import type { z } from 'zod';

/**
 * `/octo/openapi.json`: the OCTO supplier API as OpenAPI 3.1, apart from `/v1`'s document (its
 * answers and errors are OCTO's, not the envelope). The read operations are described here from
 * the zod schemas that read their requests and shape their answers; the booking operations come
 * from `octo-openapi-bookings.ts`.
 */

type Json = Record<string, unknown>;

export interface OctoDocumentInfo {
  version: string;
  /** Where this server answers (PUBLIC_URL). */
  serverUrl: string;
}

const DESCRIPTION = `The OCTO supplier API of this Outing server, for resellers' systems (OCTO is the open standard for
tours and activities: https://www.octo.travel). The organization is the supplier, its active experiences
with a schedule are the products (one option, \`DEFAULT\`; price categories as units) and their time slots
are the availabilities.

Authenticate with a secret key holding the scope \`octo\`: \`Authorization: Bearer osk_…\`. Send
\`Octo-Capabilities: octo/pricing\` for prices (integer cents of the organization's currency).

A success is \`200\` with the bare object or array. Every refusal is \`400\` with \`{error, errorMessage}\`
and, for an unknown id, the field naming the value sent (\`productId\`, \`optionId\`, \`unitId\`,
\`availabilityId\`, \`uuid\`). Local date-times carry the offset in force then (\`+00:00\`, never \`Z\`);
\`utc…\` fields are UTC in whole seconds with \`Z\`. More in docs/octo-resellers.md.`;

const TAGS = [
  { name: 'Supplier', description: 'The organization as an OCTO supplier, and the capabilities it offers.' },
  { name: 'Products', description: 'The experiences resellers can sell: their option, units and start times.' },
  { name: 'Availability', description: 'Time slots with their places and status, one by one or a day at a time.' },
  { name: 'Bookings', description: 'Holds, confirmations, changes and cancellations of bookings made by resellers.' },
];

const REFUSAL_CODES = '`UNAUTHORIZED` (no valid secret key), `FORBIDDEN` (no `octo` scope), `BAD_REQUEST`';

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function json(schema: Json, description: string): Json {
  return { description, headers: { 'Octo-Capabilities': ref('headers', 'OctoCapabilities') }, content: { 'application/json': { schema } } };
}

interface ReadOperation {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  body?: z.ZodType;
  response: z.ZodType;
  list?: boolean;
  success: string;
  refusals: string;
  parameters?: Json[];
}

function operationOf(schemas: SchemaSet, op: ReadOperation): Json {
  const response = schemas.convert(op.response, 'output');
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    parameters: [...(op.parameters ?? []), ref('parameters', 'OctoCapabilities')],
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemas.convert(op.body, 'input') } } } } : {}),
    responses: {
      200: json(op.list ? { type: 'array', items: response } : response, op.success),
      400: { description: `Refused: ${op.refusals}.`, content: { 'application/json': { schema: ref('schemas', 'OctoError') } } },
      429: ref('responses', 'OctoRateLimited'),
      500: ref('responses', 'OctoInternalError'),
      503: ref('responses', 'OctoServiceUnavailable'),
    },
  };
}

/** A booking schema made elsewhere may carry named schemas in `$defs`: they join the components. */
function hoistDefinitions(schemas: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const copy: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$defs' && value && typeof value === 'object') {
        for (const [name, def] of Object.entries(value)) out[name] = rewrite(def);
      } else copy[key] = key === '$ref' && typeof value === 'string' ? value.replace(/^#\/\$defs\//, '#/components/schemas/') : rewrite(value);
    }
    return copy;
  };
  for (const [name, schema] of Object.entries(schemas)) out[name] = rewrite(schema);
  return out;
}

export function buildOctoOpenApiDocument(info: OctoDocumentInfo): Json {
  const schemas = new SchemaSet();
  const read: Record<string, Record<string, ReadOperation>> = {
    '/supplier': {
      get: {
        operationId: 'octoGetSupplier', tag: 'Supplier', summary: 'Get the supplier',
        description: 'The organization: its id, name, this API\'s endpoint and its contact e-mail and telephone.',
        response: OctoSupplier, success: 'The supplier.', refusals: REFUSAL_CODES,
      },
    },
    '/capabilities': {
      get: {
        operationId: 'octoListCapabilities', tag: 'Supplier', summary: 'List the capabilities',
        description: 'The capabilities a request may turn on with `Octo-Capabilities`: `octo/pricing` alone.',
        response: OctoCapability, list: true, success: 'The capabilities.', refusals: REFUSAL_CODES,
      },
    },
    '/products': {
      get: {
        operationId: 'octoListProducts', tag: 'Products', summary: 'List the products',
        description: 'The organization\'s active experiences with a schedule, oldest first.',
        response: OctoProduct, list: true, success: 'The products.', refusals: REFUSAL_CODES,
      },
    },
    '/products/{id}': {
      get: {
        operationId: 'octoGetProduct', tag: 'Products', summary: 'Get a product',
        description: 'One product; an id of no active experience with a schedule is `INVALID_PRODUCT_ID`.',
        parameters: [{ name: 'id', in: 'path', required: true, description: 'The product id (an experience id).', schema: { type: 'string' } }],
        response: OctoProduct, success: 'The product.', refusals: `${REFUSAL_CODES}, \`INVALID_PRODUCT_ID\``,
      },
    },
    '/availability/calendar': {
      post: {
        operationId: 'octoAvailabilityCalendar', tag: 'Availability', summary: 'Availability by day',
        description:
          'One entry per local date from `localDateStart` to `localDateEnd` (at most 366 days): the figures of the day\'s slot with ' +
          'the most places among those not CLOSED; `CLOSED` with no vacancies when there is none.',
        body: OctoCalendarRequest, response: OctoCalendarEntry, list: true, success: 'One entry per local date.',
        refusals: `${REFUSAL_CODES} (a range missing, in the wrong order or over 366 days; a currency not the organization's), \`INVALID_PRODUCT_ID\`, \`INVALID_OPTION_ID\`, \`INVALID_UNIT_ID\``,
      },
    },
    '/availability': {
      post: {
        operationId: 'octoAvailability', tag: 'Availability', summary: 'Availability by slot',
        description:
          'The slots selected by exactly one of `localDate`, `localDateStart` with `localDateEnd` (at most 366 days) or ' +
          '`availabilityIds` (1 to 100; unknown ones are left out), by start. Slots that have started or lie past the booking ' +
          'window are left out; SOLD_OUT and CLOSED ones are shown. With `units`, `available` also says whether they fit.',
        body: OctoAvailabilityRequest, response: OctoAvailability, list: true, success: 'The slots, by start.',
        refusals: `${REFUSAL_CODES} (no selector or more than one, a range in the wrong order or over 366 days; a currency not the organization's), \`INVALID_PRODUCT_ID\`, \`INVALID_OPTION_ID\`, \`INVALID_UNIT_ID\``,
      },
    },
  };
  const paths: Record<string, unknown> = {};
  for (const [path, methods] of Object.entries(read)) {
    paths[path] = Object.fromEntries(Object.entries(methods).map(([method, op]) => [method, operationOf(schemas, op)]));
  }
  for (const [path, methods] of Object.entries(octoBookingPaths)) paths[path] = { ...(paths[path] as Json | undefined), ...methods };
  schemas.convert(OctoError, 'output');

  const plainError = (description: string) => ({ description, content: { 'application/json': { schema: ref('schemas', 'OctoError') } } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Outing OCTO supplier API',
      version: info.version,
      description: DESCRIPTION,
      contact: { name: 'The operator of this Outing server', url: `${info.serverUrl}/docs` },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `${info.serverUrl}/octo`, description: 'This Outing server' }],
    security: [{ secretKey: [] }],
    tags: TAGS,
    paths,
    components: {
      schemas: { ...schemas.components, ...hoistDefinitions(octoBookingSchemas) },
      parameters: {
        OctoCapabilities: {
          name: 'Octo-Capabilities',
          in: 'header',
          required: false,
          description: 'Comma-separated capability ids to apply (unknown ones are ignored): `octo/pricing` adds prices.',
          schema: { type: 'string' },
          example: 'octo/pricing',
        },
      },
      headers: {
        OctoCapabilities: { description: 'The capabilities applied to this answer (empty when none).', schema: { type: 'string' } },
      },
      responses: {
        OctoRateLimited: plainError('Too many requests for this key: wait `Retry-After` seconds.'),
        OctoInternalError: plainError('An error on the server (`INTERNAL_SERVER_ERROR`); it never carries internals.'),
        OctoServiceUnavailable: plainError('The database cannot be reached for now (`SERVICE_UNAVAILABLE`): try again after `Retry-After` seconds.'),
      },
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'A secret key `osk_…` with the scope `octo` (or every scope)' },
      },
    },
  };
}
