import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { ok } from '../http/reply.js';
import { serializeOrganization } from '../serializers/organization.js';
import { getOrganization, updateOrganization } from '../services/organizations.js';
import { Organization, OrganizationPatch } from '../../shared/index.js';

export function organizationRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Organization';
  return new ApiRoutes(ctx)
    .op(
      { method: 'get', path: '/organization', summary: 'Get your organization', tag, auth: 'secret', scope: 'organization:read', response: Organization },
      async ({ caller }) => ok(serializeOrganization(await getOrganization(ctx.store, caller.orgId))),
    )
    .op(
      {
        method: 'patch',
        path: '/organization',
        summary: 'Update your organization',
        description: 'The currency can change only while the organization has no bookings (else 409 CONFLICT).',
        tag,
        auth: 'secret',
        scope: 'organization:write',
        body: OrganizationPatch,
        response: Organization,
        errors: ['CONFLICT'],
      },
      async ({ caller, body }) => ok(serializeOrganization(await updateOrganization(ctx.store, caller.orgId, body, ctx.now(), caller.actor))),
    );
}
