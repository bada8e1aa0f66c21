import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { serializeExperience } from '../serializers/experience.js';
import { getOrganization } from '../services/organizations.js';
import { createExperience, deleteExperience, getExperience, listExperiences, updateExperience } from '../services/experiences.js';
import { Deleted, Experience, ExperienceCreate, ExperienceListQuery, ExperiencePatch } from '../../shared/index.js';

export function experienceRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Experiences';
  const { store } = ctx;
  const currencyOf = async (orgId: string) => (await getOrganization(store, orgId)).currency;

  return new ApiRoutes(ctx)
    .op(
      { method: 'post', path: '/experiences', summary: 'Create an experience', tag, auth: 'secret', scope: 'experiences:write', body: ExperienceCreate, response: Experience, status: 201 },
      async ({ caller, body }) => created(serializeExperience(await createExperience(store, caller.orgId, body, ctx.now(), caller.actor), await currencyOf(caller.orgId))),
    )
    .op(
      { method: 'get', path: '/experiences', summary: 'List experiences, oldest first', tag, auth: 'secret', scope: 'experiences:read', query: ExperienceListQuery, response: Experience, list: true },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listExperiences(store, caller.orgId, { active: query.active }, page);
        const currency = await currencyOf(caller.orgId);
        return list(rows.map((r) => serializeExperience(r, currency)), total, page);
      },
    )
    .op(
      { method: 'get', path: '/experiences/:id', summary: 'Get an experience', tag, auth: 'secret', scope: 'experiences:read', params: { id: 'experience' }, response: Experience },
      async ({ caller, params }) => ok(serializeExperience(await getExperience(store, caller.orgId, params.id), await currencyOf(caller.orgId))),
    )
    .op(
      {
        method: 'patch',
        path: '/experiences/:id',
        summary: 'Update an experience',
        description: 'Never cancels or reprices existing bookings: each keeps its own start, end, unit price and currency.',
        tag,
        auth: 'secret',
        scope: 'experiences:write',
        params: { id: 'experience' },
        body: ExperiencePatch,
        response: Experience,
      },
      async ({ caller, params, body }) =>
        ok(serializeExperience(await updateExperience(store, caller.orgId, params.id, body, ctx.now(), caller.actor), await currencyOf(caller.orgId))),
    )
    .op(
      {
        method: 'delete',
        path: '/experiences/:id',
        summary: 'Delete an experience without bookings',
        description: 'An experience with any booking answers 409 CONFLICT: deactivate it instead.',
        tag,
        auth: 'secret',
        scope: 'experiences:write',
        params: { id: 'experience' },
        response: Deleted,
        errors: ['CONFLICT'],
      },
      async ({ caller, params }) => {
        await deleteExperience(store, caller.orgId, params.id, ctx.now(), caller.actor);
        return ok({ id: params.id, deleted: true });
      },
    );
}
