import { ApiRoutes, type RouteContext } from '../http/router.js';
import { list, pageOf } from '../http/reply.js';
import { invalid } from '../domain/refusal.js';
import { EventListQuery, WebhookEvent } from '../../shared/index.js';

/** Catch-up (SPEC §8): every event the org has fired, oldest first, as the webhook bodies. */
export function eventRoutes(ctx: RouteContext): ApiRoutes {
  const { store } = ctx;
  return new ApiRoutes(ctx).op(
    {
      method: 'get',
      path: '/events',
      summary: 'List events, oldest first',
      description:
        'The bodies that webhooks deliver, in the order they were recorded. Pass `after` (the last event id you have) to ' +
        'read only later ones: an integrator that missed deliveries reads them back here. An `after` that is not an event ' +
        'of yours (or has passed EVENT_RETENTION_DAYS) answers 400 on `after`.',
      tag: 'Webhooks',
      auth: 'secret',
      scope: 'webhooks:read',
      query: EventListQuery,
      response: WebhookEvent,
      list: true,
    },
    ({ caller, query }) => {
      let afterSeq: number | undefined;
      if (query.after !== undefined) {
        afterSeq = store.eventPosition(caller.orgId, query.after);
        if (afterSeq === undefined) throw invalid('after', `No event ${query.after} in this organization`);
      }
      const page = pageOf(query);
      const { rows, total } = store.listEvents(caller.orgId, { afterSeq, type: query.type }, page);
      return list(rows.map((r) => JSON.parse(r.payload) as WebhookEvent), total, page);
    },
  );
}
