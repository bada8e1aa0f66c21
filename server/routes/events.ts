import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { list, pageOf } from '../http/reply.js';
import { listEvents } from '../services/event-log.js';
import { serializeEvent } from '../serializers/event.js';
import { EventListQuery, WebhookEvent } from '../../shared/index.js';

/** Catch-up: every event the org has fired, oldest first, as the webhook bodies. */
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
    async ({ caller, query }) => {
      const page = pageOf(query);
      const { rows, total } = await listEvents(store, caller.orgId, { after: query.after, type: query.type }, page);
      return list(rows.map(serializeEvent), total, page);
    },
  );
}
