import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { ok } from '../http/reply.js';
import { serializeSlot } from '../serializers/slot.js';
import { getSlot, updateSlot } from '../services/slots.js';
import { Slot, SlotPatch } from '../../shared/index.js';

/** Departures: one experience at one start, with its own capacity, closed flag and note. */
export function slotRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Slots';
  const { store } = ctx;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'get',
        path: '/slots/:id',
        summary: 'Get a departure (time slot)',
        description:
          'Any start of the experience\'s schedule, past or future, or any start holding a booking; otherwise 404. ' +
          '`capacity` is `capacityOverride` when set, else the experience\'s maxParticipants.',
        tag,
        auth: 'secret',
        scope: 'experiences:read',
        params: { id: 'timeSlot' },
        response: Slot,
      },
      async ({ caller, params }) => ok(serializeSlot(await getSlot(store, caller.orgId, params.id))),
    )
    .op(
      {
        method: 'patch',
        path: '/slots/:id',
        summary: 'Change a departure: its capacity, closed, or note',
        description:
          'Settings are kept per experience and start, whatever later happens to the schedule or the experience\'s capacity. ' +
          'A closed departure keeps its bookings (they can be cancelled or made smaller) but takes no new places: a booking, a move ' +
          'or more places there is refused with 409 SLOT_UNAVAILABLE, and availability lists it with `unavailableReason: "CLOSED"`. ' +
          '`capacity: null` goes back to the experience\'s maxParticipants. A capacity below the places booked is refused with ' +
          '409 CAPACITY_BELOW_BOOKED and nothing is changed.',
        tag,
        auth: 'secret',
        scope: 'experiences:write',
        params: { id: 'timeSlot' },
        body: SlotPatch,
        response: Slot,
        errors: ['CAPACITY_BELOW_BOOKED'],
      },
      async ({ caller, params, body }) => ok(serializeSlot(await updateSlot(store, caller.orgId, params.id, body, ctx.now(), caller.actor))),
    );
}
