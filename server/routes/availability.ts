import { ApiRoutes, type RouteContext } from '../http/router.js';
import { notFound } from '../domain/refusal.js';
import { availabilityOf } from '../services/availability.js';
import { AvailabilityCache, cachedAvailability } from '../services/availability-cache.js';
import { Availability, AvailabilityQuery } from '../../shared/index.js';

export function availabilityRoutes(ctx: RouteContext): ApiRoutes {
  const cache = new AvailabilityCache();
  return new ApiRoutes(ctx).op(
    {
      method: 'get',
      path: '/availability',
      summary: 'Time slots of an experience with places left',
      description:
        "Dates are read in the experience's time zone. Default range: today to today + 30 days (or startDate + 30); at most 92 days. " +
        'Slots already started, inside the notice period or past the booking window are left out. `available` is false when ' +
        'fewer than `participants` places remain (FULL) or an imported calendar blocks the slot (BLOCKED).',
      tag: 'Availability',
      auth: 'secret',
      scope: 'experiences:read',
      query: AvailabilityQuery,
      response: Availability,
    },
    ({ caller, query }) => {
      const now = ctx.now();
      const key = [caller.orgId, query.experienceId, query.startDate, query.endDate, query.participants].join('|');
      return cachedAvailability(cache, ctx.store, key, now, () => {
        const org = ctx.store.getOrganization(caller.orgId);
        const exp = ctx.store.getExperience(caller.orgId, query.experienceId);
        if (!org || !exp) throw notFound('Experience');
        return { availability: availabilityOf(ctx.store, exp, org.timezone, query, now), minNoticeMinutes: exp.minNoticeMinutes };
      });
    },
  );
}
