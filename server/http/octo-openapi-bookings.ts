import { z } from 'zod';
import { OctoBooking, OctoCancelBody, OctoConfirmBody, OctoExtendBody, OctoReserveBody, OctoUpdateBody } from '../../shared/index.js';

/**
 * The booking operations' part of the OCTO OpenAPI document (`/octo/openapi.json`, built by
 * `http/octo-openapi.ts`): their paths (relative to `/octo`) and the components they name. The
 * schemas are made from the very zod schemas that read the requests and shape the answers.
 */

type Json = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (requests as sent, answers as they come). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  delete json.$schema;
  return json;
}

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const octoBookingSchemas: Record<string, unknown> = {
  OctoBooking: { ...jsonSchema(OctoBooking, 'output'), description: 'A booking as OCTO shows it; `pricing` fields only with the `octo/pricing` capability.' },
  OctoBookingReservation: { ...jsonSchema(OctoReserveBody, 'input'), description: 'A hold of places on one availability.' },
  OctoBookingConfirmation: { ...jsonSchema(OctoConfirmBody, 'input'), description: 'Confirms a hold; `contact` is required.' },
  OctoBookingExtension: { ...jsonSchema(OctoExtendBody, 'input'), description: 'Moves the end of a hold later.' },
  OctoBookingUpdate: { ...jsonSchema(OctoUpdateBody, 'input'), description: 'Changes a hold or a confirmed booking before its cancellation cutoff.' },
  OctoBookingCancellation: { ...jsonSchema(OctoCancelBody, 'input'), description: 'Cancels a hold or a confirmed booking before its cancellation cutoff; `force` is accepted and ignored.' },
};

const TAGS = ['Bookings'];
const UUID_PARAMETER = {
  name: 'uuid',
  in: 'path',
  required: true,
  description: 'The booking’s uuid, as given when it was reserved (or made then); any other text is `INVALID_BOOKING_UUID`.',
  schema: { type: 'string' },
};
const CAPABILITIES_PARAMETER = {
  name: 'Octo-Capabilities',
  in: 'header',
  required: false,
  description: 'Comma-separated capabilities; `octo/pricing` adds prices in cents of the organization’s currency.',
  schema: { type: 'string' },
};
const refused = (codes: string) => ({
  description: `Refused (every OCTO error is a 400): ${codes}.`,
  content: { 'application/json': { schema: schemaRef('OctoError') } },
});
const booking = (description: string) => ({ description, content: { 'application/json': { schema: schemaRef('OctoBooking') } } });
const body = (name: string, required = true) => ({ required, content: { 'application/json': { schema: schemaRef(name) } } });
const AUTH_ERRORS = '`UNAUTHORIZED`, `FORBIDDEN`, `BAD_REQUEST`';

export const octoBookingPaths: Record<string, Record<string, unknown>> = {
  '/bookings': {
    post: {
      operationId: 'octoReserveBooking',
      tags: TAGS,
      summary: 'Reserve (hold) places',
      description:
        'Holds places on an availability as a PENDING Outing booking, shown `ON_HOLD` until `utcExpiresAt` (`expirationMinutes`, default 30). ' +
        'The places count at once, against `/v1` and widget bookings alike. A `uuid` used before answers that booking again for the same body ' +
        'and `UNPROCESSABLE_ENTITY` for another. One unit item per person.',
      parameters: [CAPABILITIES_PARAMETER],
      requestBody: body('OctoBookingReservation'),
      responses: {
        200: booking('The booking, ON_HOLD.'),
        400: refused(`${AUTH_ERRORS}, \`INVALID_PRODUCT_ID\`, \`INVALID_OPTION_ID\`, \`INVALID_AVAILABILITY_ID\`, \`INVALID_UNIT_ID\`, \`UNPROCESSABLE_ENTITY\` (no unit items, too many, closed or sold out, too few vacancies)`),
      },
    },
    get: {
      operationId: 'octoListBookings',
      tags: TAGS,
      summary: 'List bookings',
      description:
        'The organization’s OCTO bookings (made with any key) matching every filter given, by slot start. At least one of `resellerReference`, ' +
        '`supplierReference`, `localDate` or `localDateStart` with `localDateEnd` is needed.',
      parameters: [
        ...['resellerReference', 'supplierReference', 'localDate', 'localDateStart', 'localDateEnd', 'productId', 'optionId'].map((name) => ({
          name,
          in: 'query',
          required: false,
          description: name.startsWith('localDate') ? `The slot’s local date (YYYY-MM-DD), ${name === 'localDate' ? 'one day' : 'an end of a range of days'}.` : `Only bookings with this ${name}.`,
          schema: { type: 'string' },
        })),
        CAPABILITIES_PARAMETER,
      ],
      responses: {
        200: { description: 'The bookings, by slot start.', content: { 'application/json': { schema: { type: 'array', items: schemaRef('OctoBooking') } } } },
        400: refused(`${AUTH_ERRORS} (no filter, or half a range)`),
      },
    },
  },
  '/bookings/{uuid}': {
    get: {
      operationId: 'octoGetBooking',
      tags: TAGS,
      summary: 'Get a booking',
      description: 'One booking by its uuid, as it is now: a hold past its end shows `EXPIRED`.',
      parameters: [UUID_PARAMETER, CAPABILITIES_PARAMETER],
      responses: { 200: booking('The booking.'), 400: refused(`${AUTH_ERRORS}, \`INVALID_BOOKING_UUID\``) },
    },
    patch: {
      operationId: 'octoUpdateBooking',
      tags: TAGS,
      summary: 'Change a booking',
      description:
        'Changes a hold, or a confirmed booking before its cancellation cutoff: `availabilityId` moves it (another `productId` needs ' +
        '`availabilityId` and `unitItems`), `unitItems` is the new list (an item named by its uuid is kept), `contact` is replaced, ' +
        '`expirationMinutes` extends a hold. Added places are checked as on a reservation; a refusal changes nothing.',
      parameters: [UUID_PARAMETER, CAPABILITIES_PARAMETER],
      requestBody: body('OctoBookingUpdate'),
      responses: {
        200: booking('The booking as changed.'),
        400: refused(`${AUTH_ERRORS}, \`INVALID_BOOKING_UUID\`, \`INVALID_PRODUCT_ID\`, \`INVALID_OPTION_ID\`, \`INVALID_AVAILABILITY_ID\`, \`INVALID_UNIT_ID\`, \`UNPROCESSABLE_ENTITY\``),
      },
    },
  },
  '/bookings/{uuid}/confirm': {
    post: {
      operationId: 'octoConfirmBooking',
      tags: TAGS,
      summary: 'Confirm a hold',
      description:
        'Confirms a hold (a confirmed booking is answered unchanged). `unitItems` replaces the items as a change does; `emailReceipt: true` ' +
        'lets Outing e-mail the guest at `contact.emailAddress` from then on. A lapsed hold is `INVALID_BOOKING_UUID`, a cancelled one `UNPROCESSABLE_ENTITY`.',
      parameters: [UUID_PARAMETER, CAPABILITIES_PARAMETER],
      requestBody: body('OctoBookingConfirmation'),
      responses: { 200: booking('The booking, CONFIRMED.'), 400: refused(`${AUTH_ERRORS}, \`INVALID_BOOKING_UUID\`, \`INVALID_UNIT_ID\`, \`UNPROCESSABLE_ENTITY\``) },
    },
  },
  '/bookings/{uuid}/extend': {
    post: {
      operationId: 'octoExtendBooking',
      tags: TAGS,
      summary: 'Extend a hold',
      description: 'Moves the end of a hold to `expirationMinutes` (default 30) from now, never earlier than it was. Only a booking ON_HOLD.',
      parameters: [UUID_PARAMETER, CAPABILITIES_PARAMETER],
      requestBody: body('OctoBookingExtension', false),
      responses: { 200: booking('The booking, ON_HOLD.'), 400: refused(`${AUTH_ERRORS}, \`INVALID_BOOKING_UUID\`, \`UNPROCESSABLE_ENTITY\``) },
    },
  },
  '/bookings/{uuid}/cancel': {
    post: {
      operationId: 'octoCancelBooking',
      tags: TAGS,
      summary: 'Cancel a booking',
      description: 'Cancels a hold, or a confirmed booking before its cancellation cutoff, freeing its places; a cancelled booking is answered unchanged.',
      parameters: [UUID_PARAMETER, CAPABILITIES_PARAMETER],
      requestBody: body('OctoBookingCancellation', false),
      responses: { 200: booking('The booking, CANCELLED.'), 400: refused(`${AUTH_ERRORS}, \`INVALID_BOOKING_UUID\`, \`UNPROCESSABLE_ENTITY\``) },
    },
  },
};
