import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { created, list, ok, pageOf } from '../http/reply.js';
import {
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listDeliveries,
  listWebhookEndpoints,
  retryDelivery,
  rotateEndpointSecret,
  updateEndpoint,
} from '../services/webhook-endpoints.js';
import { serializeDelivery } from '../serializers/delivery.js';
import { serializeWebhookEndpoint as serializeEndpoint } from '../serializers/webhook-endpoint.js';
import {
  Deleted,
  Delivery,
  DeliveryListQuery,
  PageQuery,
  RotatedSecret,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from '../../shared/index.js';
import { z } from 'zod';

const EndpointListQuery = z.strictObject({ ...PageQuery });

const URL_RULES =
  'The URL must be http or https and, unless the server runs with OUTBOUND_ALLOW_PRIVATE=true, may not be `localhost` or a ' +
  'loopback, private, link-local, CGNAT or unspecified address (400 on `url`); names are resolved and checked again at ' +
  'each delivery.';

/** Webhook endpoints, their delivery log and manual retries (docs/webhooks.md). */
export function webhookRoutes(ctx: RouteContext): ApiRoutes {
  const policy = { allowPrivate: ctx.config.outboundAllowPrivate };
  const tag = 'Webhooks';
  const { store } = ctx;
  const read = { tag, auth: 'secret', scope: 'webhooks:read' } as const;
  const write = { tag, auth: 'secret', scope: 'webhooks:write' } as const;
  const endpointParam = { id: 'webhookEndpoint' } as const;

  return new ApiRoutes(ctx)
    .op(
      {
        ...write,
        method: 'post',
        path: '/webhook-endpoints',
        summary: 'Register a webhook endpoint',
        description: `\`events\` defaults to all five kinds. The \`secret\` (whsec_…) is shown only in this response. ${URL_RULES}`,
        body: WebhookEndpointCreate,
        response: WebhookEndpointWithSecret,
        status: 201,
      },
      async ({ caller, body }) => {
        const { row, secret } = await createEndpoint(store, caller.orgId, body, policy, ctx.now(), caller.actor);
        const { disabledReason, ...endpoint } = serializeEndpoint(row);
        return created({ ...endpoint, secret, disabledReason });
      },
    )
    .op(
      { ...read, method: 'get', path: '/webhook-endpoints', summary: 'List webhook endpoints, oldest first', query: EndpointListQuery, response: WebhookEndpoint, list: true },
      async ({ caller, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listWebhookEndpoints(store, caller.orgId, page);
        return list(rows.map(serializeEndpoint), total, page);
      },
    )
    .op(
      { ...read, method: 'get', path: '/webhook-endpoints/:id', summary: 'Get a webhook endpoint', params: endpointParam, response: WebhookEndpoint },
      async ({ caller, params }) => ok(serializeEndpoint(await findEndpoint(store, caller.orgId, params.id))),
    )
    .op(
      {
        ...write,
        method: 'patch',
        path: '/webhook-endpoints/:id',
        summary: 'Update a webhook endpoint',
        description:
          'Any of `url`, `events`, `description`, `enabled`. Disabling an endpoint stops its deliveries: pending ones are marked ' +
          `FAILED and no new events are queued for it until it is enabled again. ${URL_RULES}`,
        params: endpointParam,
        body: WebhookEndpointPatch,
        response: WebhookEndpoint,
      },
      async ({ caller, params, body }) => ok(serializeEndpoint(await updateEndpoint(store, caller.orgId, params.id, body, policy, ctx.now(), caller.actor))),
    )
    .op(
      {
        ...write,
        method: 'delete',
        path: '/webhook-endpoints/:id',
        summary: 'Delete a webhook endpoint and its delivery log',
        params: endpointParam,
        response: Deleted,
      },
      async ({ caller, params }) => {
        await deleteEndpoint(store, caller.orgId, params.id, ctx.now(), caller.actor);
        return ok({ id: params.id, deleted: true });
      },
    )
    .op(
      {
        ...write,
        method: 'post',
        path: '/webhook-endpoints/:id/rotate-secret',
        summary: "Rotate an endpoint's signing secret",
        description:
          'Returns the new secret (shown only here). For 24 hours every delivery carries two signatures, space-separated in ' +
          '`webhook-signature`: by the new secret first, then by the previous one, so receivers can switch at their pace.',
        params: endpointParam,
        response: RotatedSecret,
      },
      async ({ caller, params }) => ok({ secret: await rotateEndpointSecret(store, caller.orgId, params.id, ctx.now(), caller.actor) }),
    )
    .op(
      {
        ...read,
        method: 'get',
        path: '/webhook-endpoints/:id/deliveries',
        summary: "List an endpoint's deliveries, newest first",
        description:
          'One delivery per event sent to this endpoint, with its attempts so far. `nextAttemptAt` is set while it is PENDING. ' +
          'Sorted by creation, newest first, then id.',
        params: endpointParam,
        query: DeliveryListQuery,
        response: Delivery,
        list: true,
      },
      async ({ caller, params, query }) => {
        const page = pageOf(query);
        const { rows, total } = await listDeliveries(store, caller.orgId, params.id, page);
        return list(rows.map(serializeDelivery), total, page);
      },
    )
    .op(
      {
        ...write,
        method: 'post',
        path: '/webhook-endpoints/:id/deliveries/:deliveryId/retry',
        summary: 'Send a delivery again now',
        description:
          'Whatever its state: a FAILED delivery becomes PENDING for one more attempt (and further ones if its retry schedule ' +
          'is not used up). 409 CONFLICT when the endpoint is disabled.',
        params: { id: 'webhookEndpoint', deliveryId: 'delivery' },
        response: Delivery,
        status: 202,
        errors: ['CONFLICT'],
      },
      async ({ caller, params }) => ok(serializeDelivery(await retryDelivery(store, caller.orgId, params.id, params.deliveryId, ctx.now(), caller.actor)), 202),
    );
}
