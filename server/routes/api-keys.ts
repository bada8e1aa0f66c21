import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import { serializeApiKey } from '../serializers/api-key.js';
import { issueApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.js';
import { ApiKey, ApiKeyCreate, ApiKeyRevoked, ApiKeyWithSecret, PageQuery } from '../../shared/index.js';
import { z } from 'zod';

const ApiKeyListQuery = z.strictObject({ ...PageQuery });

/** Keys over HTTP: what `outing keys` does, for owners in the dashboard and for keys that hold `keys:*`. */
export function apiKeyRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'API keys';
  const { store } = ctx;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'get',
        path: '/api-keys',
        summary: 'List API keys',
        description:
          'Secret and publishable keys, revoked ones included. A secret key shows only its first characters (`key` is null); ' +
          'a publishable key, public by design, shows its whole value as `key` (null for one made before version 1.2, whose value was never kept).',
        tag,
        auth: 'secret',
        scope: 'keys:read',
        query: ApiKeyListQuery,
        response: ApiKey,
        list: true,
      },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const rows = await listApiKeys(store, caller.orgId);
        return list(rows.slice(page.offset, page.offset + page.limit).map(serializeApiKey), rows.length, page);
      },
    )
    .op(
      {
        method: 'post',
        path: '/api-keys',
        summary: 'Create an API key',
        description:
          'A secret key is in this answer only: Outing keeps its SHA-256. A publishable key is listed in full later too. Without `scopes` a secret key gets the caller’s own ' +
          'scopes; scopes the caller lacks are refused (403 FORBIDDEN). Publishable keys take no scopes.',
        tag,
        auth: 'secret',
        scope: 'keys:write',
        body: ApiKeyCreate,
        response: ApiKeyWithSecret,
        status: 201,
      },
      async ({ caller, body }) => {
        const made = await issueApiKey(store, caller, { name: body.name.trim(), type: body.type, scopes: body.scopes }, ctx.now());
        return created({ ...serializeApiKey(made.row), key: made.key });
      },
    )
    .op(
      {
        method: 'delete',
        path: '/api-keys/:id',
        summary: 'Revoke an API key',
        description: 'Requests with the key are refused from now on, this one’s key included.',
        tag,
        auth: 'secret',
        scope: 'keys:write',
        params: { id: 'apiKey' },
        response: ApiKeyRevoked,
      },
      async ({ caller, params }) => {
        const row = await revokeApiKey(store, caller.orgId, caller.actor, params.id, ctx.now());
        return ok({ id: row.id, revokedAt: serializeApiKey(row).revokedAt });
      },
    );
}
