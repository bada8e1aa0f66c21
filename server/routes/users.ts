import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { serializeUser } from '../serializers/user.js';
import { createUser, deleteUser, listUsers, updateUser } from '../services/users.js';
import { Deleted, PageQuery, User, UserCreate, UserPatch, UserWithSetupUrl } from '../../shared/index.js';
import { z } from 'zod';

const UserListQuery = z.strictObject({ ...PageQuery });

/** The people who sign in to the dashboard for the organization, and their roles. */
export function userRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Users';
  const { store, config } = ctx;
  return new ApiRoutes(ctx)
    .op(
      { method: 'get', path: '/users', summary: 'List users', tag, auth: 'secret', scope: 'users:read', query: UserListQuery, response: User, list: true },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const rows = await listUsers(store, caller.orgId);
        return list(rows.slice(page.offset, page.offset + page.limit).map(serializeUser), rows.length, page);
      },
    )
    .op(
      {
        method: 'post',
        path: '/users',
        summary: 'Add a user',
        description:
          'Answers the user with `setupUrl`, the link where they choose a password: it works once, for 72 hours, and is ' +
          'shown only here; with a mail server configured (SMTP_URL) it also goes to the user in a USER_INVITE e-mail. The caller must hold every scope of the role it gives (403 FORBIDDEN naming the scopes it ' +
          'lacks): `staff` takes the five staff scopes, `owner` all of them. An e-mail address names one user on the whole ' +
          'server: a taken one is a 409 CONFLICT, the same answer wherever its user is.',
        tag,
        auth: 'secret',
        scope: 'users:write',
        body: UserCreate,
        response: UserWithSetupUrl,
        status: 201,
        errors: ['CONFLICT'],
      },
      async ({ caller, body }) => {
        const done = await createUser(store, caller.orgId, caller, body, config.publicUrl, ctx.now(), { invite: true });
        return created({ ...serializeUser(done.user), setupUrl: done.setupUrl });
      },
    )
    .op(
      {
        method: 'patch',
        path: '/users/:id',
        summary: 'Rename a user, change their role, disable or enable them',
        description:
          'Disabling ends the user’s sessions at once. A new `role` takes a caller holding every scope of it (403 ' +
          'FORBIDDEN naming the scopes it lacks). The organization’s last active owner cannot be demoted or disabled ' +
          '(409 CONFLICT).',
        tag,
        auth: 'secret',
        scope: 'users:write',
        params: { id: 'user' },
        body: UserPatch,
        response: User,
        errors: ['CONFLICT'],
      },
      async ({ caller, params, body }) => ok(serializeUser(await updateUser(store, caller.orgId, caller, params.id, body, ctx.now()))),
    )
    .op(
      {
        method: 'delete',
        path: '/users/:id',
        summary: 'Remove a user',
        description: 'Their sessions end at once. The organization’s last active owner cannot be removed (409 CONFLICT).',
        tag,
        auth: 'secret',
        scope: 'users:write',
        params: { id: 'user' },
        response: Deleted,
        errors: ['CONFLICT'],
      },
      async ({ caller, params }) => {
        await deleteUser(store, caller.orgId, caller.actor, params.id, ctx.now());
        return ok({ id: params.id, deleted: true });
      },
    );
}
