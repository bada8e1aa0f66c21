import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { AnswerCache, cachedAvailability } from '../http/answer-cache.js';
import { availabilityFor } from '../services/availability.js';
import { Availability, OperatorAvailabilityQuery } from '../../shared/index.js';

export function availabilityRoutes(ctx: RouteContext): ApiRoutes {
  const cache = new AnswerCache();
  return new ApiRoutes(ctx).op(
    {
      method: 'get',
      path: '/availability',
      summary: 'Time slots of an experience with places left',
      description:
        "Dates are read in the experience's time zone. Default range: today to today + 30 days (or startDate + 30); at most 92 days. " +
        'Slots already started, inside the notice period or past the booking window are left out. `available` is false when ' +
        'the operator closed the slot (CLOSED, PATCH /v1/slots/{id}), an imported calendar blocks it (BLOCKED) or fewer than ' +
        '`participants` places remain (FULL), said in that order. `capacity` is the slot\'s own capacity when one is set, else the experience\'s maxParticipants. ' +
        '`ignoreNotice=true` (not on /public/v1) also lists the slots inside the notice period and those under way, until they end.',
      tag: 'Availability',
      auth: 'secret',
      scope: 'experiences:read',
      query: OperatorAvailabilityQuery,
      response: Availability,
    },
    async ({ caller, query }) => {
      const now = ctx.now();
      const key = [caller.orgId, query.experienceId, query.startDate, query.endDate, query.participants, query.ignoreNotice === true].join('|');
      return await cachedAvailability(cache, ctx.store, key, now, async () => await availabilityFor(ctx.store, caller.orgId, query, now));
    },
  );
}
