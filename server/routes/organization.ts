import { ApiRoutes, type RouteContext } from '../http/router.js';
import { ok } from '../http/reply.js';
import { notFound } from '../domain/refusal.js';
import { serializeOrganization } from '../serialize.js';
import { updateOrganization } from '../services/organizations.js';
import { Organization, OrganizationPatch } from '../../shared/index.js';

export function organizationRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Organization';
  return new ApiRoutes(ctx)
    .op(
      { method: 'get', path: '/organization', summary: 'Get your organization', tag, auth: 'secret', scope: 'organization:read', response: Organization },
      ({ caller }) => {
        const org = ctx.store.getOrganization(caller.orgId);
        if (!org) throw notFound('Organization');
        return ok(serializeOrganization(org));
      },
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
      ({ caller, body }) => ok(serializeOrganization(updateOrganization(ctx.store, caller.orgId, body, ctx.now()))),
    );
}
