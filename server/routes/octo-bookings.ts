import type { OctoInput, OctoRoutes } from '../http/octo.js';
import type { RouteContext } from './context.js';
import {
  cancelOctoBooking,
  confirmOctoBooking,
  extendOctoBooking,
  getOctoBooking,
  listOctoBookings,
  reserveOctoBooking,
  updateOctoBooking,
  type OctoCaller,
} from '../services/octo-bookings.js';
import { serializeOctoBooking } from '../serializers/octo-booking.js';
import { OCTO_PRICING } from '../../shared/schemas/octo.js';
import { OctoBookingListQuery, OctoCancelBody, OctoConfirmBody, OctoExtendBody, OctoReserveBody, OctoUpdateBody } from '../../shared/index.js';

/** The key that asks, as the booking services name it. */
const callerOf = (input: OctoInput<unknown, unknown>): OctoCaller => ({
  orgId: input.caller.orgId,
  apiKeyId: input.caller.keyId ?? '',
  actor: input.caller.actor,
});
const priced = (input: OctoInput<unknown, unknown>) => input.capabilities.includes(OCTO_PRICING);

/** The OCTO booking operations (`/octo/bookings…`), added to the `/octo` sub-app by `routes/octo.ts`. */
export function registerOctoBookingRoutes(octo: OctoRoutes, ctx: RouteContext): void {
  octo
    .op({ method: 'post', path: '/bookings', body: OctoReserveBody }, async (input) =>
      serializeOctoBooking(await reserveOctoBooking(ctx.store, callerOf(input), input.body, ctx.now()), priced(input)),
    )
    .op({ method: 'get', path: '/bookings', query: OctoBookingListQuery }, async (input) =>
      (await listOctoBookings(ctx.store, input.caller.orgId, input.query, ctx.now())).map((v) => serializeOctoBooking(v, priced(input))),
    )
    .op({ method: 'get', path: '/bookings/:uuid' }, async (input) =>
      serializeOctoBooking(await getOctoBooking(ctx.store, input.caller.orgId, input.params.uuid ?? '', ctx.now()), priced(input)),
    )
    .op({ method: 'post', path: '/bookings/:uuid/confirm', body: OctoConfirmBody }, async (input) =>
      serializeOctoBooking(await confirmOctoBooking(ctx.store, callerOf(input), input.params.uuid ?? '', input.body, ctx.now()), priced(input)),
    )
    .op({ method: 'post', path: '/bookings/:uuid/extend', body: OctoExtendBody }, async (input) =>
      serializeOctoBooking(await extendOctoBooking(ctx.store, callerOf(input), input.params.uuid ?? '', input.body, ctx.now()), priced(input)),
    )
    .op({ method: 'post', path: '/bookings/:uuid/cancel', body: OctoCancelBody }, async (input) =>
      serializeOctoBooking(await cancelOctoBooking(ctx.store, callerOf(input), input.params.uuid ?? '', input.body, ctx.now()), priced(input)),
    )
    .op({ method: 'patch', path: '/bookings/:uuid', body: OctoUpdateBody }, async (input) =>
      serializeOctoBooking(await updateOctoBooking(ctx.store, callerOf(input), input.params.uuid ?? '', input.body, ctx.now()), priced(input)),
    );
}
