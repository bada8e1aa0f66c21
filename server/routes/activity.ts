import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { list, pageOf } from '../http/reply.js';
import { listActivity } from '../services/activity.js';
import { serializeActivity } from '../serializers/activity.js';
import { Activity, ActivityListQuery } from '../../shared/index.js';

/** The activity log: who changed what, newest first. */
export function activityRoutes(ctx: RouteContext): ApiRoutes {
  return new ApiRoutes(ctx).op(
    {
      method: 'get',
      path: '/activity',
      summary: 'List changes to your organization, newest first',
      description:
        'One entry per change, written in the same transaction as the change, from every door: the API by key or ' +
        'dashboard session, the public API (actor `guest`), the command line (`cli`), payments and lapsed holds ' +
        '(`system`). `actorId` and `targetId` filter. Entries are kept 365 days.',
      tag: 'Activity',
      auth: 'secret',
      scope: 'organization:read',
      query: ActivityListQuery,
      response: Activity,
      list: true,
    },
    async ({ caller, query }) => {
      const page = pageOf(query);
      const { rows, total } = await listActivity(ctx.store, caller.orgId, { actorId: query.actorId, targetId: query.targetId }, page);
      return list(rows.map(serializeActivity), total, page);
    },
  );
}
