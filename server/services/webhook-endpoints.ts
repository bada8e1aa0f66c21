import { Refusal, notFound } from '../domain/refusal.js';
import type { Actor } from '../domain/actor.js';
import { recordActivity } from './activity.js';
import { newId } from '../domain/ids.js';
import { assertReachableUrl } from './outbound-urls.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/sql.js';
import type { DeliveryRow, WebhookEndpointRow } from '../store/webhooks.js';
import { generateWebhookSecret } from '../webhooks/sign.js';
import {
  EVENT_KINDS,
  type WebhookEndpointCreate,
  type WebhookEndpointPatch,
} from '../../shared/index.js';
import type { z } from 'zod';

/** How long deliveries keep carrying a signature by the previous secret after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface EndpointPolicy {
  /** OUTBOUND_ALLOW_PRIVATE: accept URLs of loopback and private addresses. */
  allowPrivate: boolean;
}

export async function findEndpoint(store: Store, orgId: string, id: string): Promise<WebhookEndpointRow> {
  const row = await store.webhooks.getWebhookEndpoint(orgId, id);
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

/** A new endpoint; its secret exists in clear only in the return value and in the signing key store. */
export async function createEndpoint(
  store: Store,
  orgId: string,
  input: z.output<typeof WebhookEndpointCreate>,
  policy: EndpointPolicy,
  now: number,
  actor: Actor,
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  assertReachableUrl(input.url, policy.allowPrivate);
  const secret = generateWebhookSecret();
  const row: WebhookEndpointRow = {
    id: newId('webhookEndpoint'),
    orgId,
    url: input.url,
    events: JSON.stringify(input.events ?? EVENT_KINDS),
    description: input.description ?? null,
    enabled: 1,
    secret,
    previousSecret: null,
    previousSecretUntil: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
  await store.transaction(async () => {
    await store.webhooks.insertWebhookEndpoint(row);
    await recordActivity(store, orgId, actor, { action: 'webhook_endpoint.create', targetType: 'webhook_endpoint', targetId: row.id, summary: `Added the webhook endpoint ${row.url}` }, now);
  });
  return { row, secret };
}

/**
 * Changes an endpoint. Disabling it fails its pending deliveries (events are not queued for a
 * disabled endpoint, and none already queued are sent); enabling it clears the reason.
 */
export async function updateEndpoint(
  store: Store,
  orgId: string,
  id: string,
  patch: z.output<typeof WebhookEndpointPatch>,
  policy: EndpointPolicy,
  now: number,
  actor: Actor,
): Promise<WebhookEndpointRow> {
  if (patch.url !== undefined) assertReachableUrl(patch.url, policy.allowPrivate);
  return await store.transaction(async () => {
    const current = await findEndpoint(store, orgId, id);
    const enabled = patch.enabled === undefined ? current.enabled : patch.enabled ? 1 : 0;
    const next: WebhookEndpointRow = {
      ...current,
      url: patch.url ?? current.url,
      events: patch.events ? JSON.stringify(patch.events) : current.events,
      description: patch.description === undefined ? current.description : patch.description,
      enabled,
      disabledReason: enabled === 1 ? null : current.enabled === 1 ? 'Disabled through the API' : current.disabledReason,
      updatedAt: now,
    };
    await store.webhooks.updateWebhookEndpoint(next);
    if (current.enabled === 1 && enabled === 0) await store.webhooks.failPendingDeliveries(id, 'Endpoint disabled', now);
    await recordActivity(store, orgId, actor, { action: 'webhook_endpoint.update', targetType: 'webhook_endpoint', targetId: id, summary: `Changed ${Object.keys(patch).join(', ')} of ${next.url}` }, now);
    return next;
  });
}

export async function deleteEndpoint(store: Store, orgId: string, id: string, now: number, actor: Actor): Promise<void> {
  await store.transaction(async () => {
    const endpoint = await findEndpoint(store, orgId, id);
    await store.webhooks.deleteWebhookEndpoint(orgId, id);
    await recordActivity(store, orgId, actor, { action: 'webhook_endpoint.delete', targetType: 'webhook_endpoint', targetId: id, summary: `Deleted the webhook endpoint ${endpoint.url}` }, now);
  });
}

/** A new secret; the previous one keeps signing beside it for 24 hours. */
export async function rotateEndpointSecret(store: Store, orgId: string, id: string, now: number, actor: Actor): Promise<string> {
  return await store.transaction(async () => {
    const current = await findEndpoint(store, orgId, id);
    const secret = generateWebhookSecret();
    await store.webhooks.updateWebhookEndpoint({
      ...current,
      secret,
      previousSecret: current.secret,
      previousSecretUntil: now + ROTATION_OVERLAP_MS,
      updatedAt: now,
    });
    await recordActivity(store, orgId, actor, { action: 'webhook_endpoint.rotate_secret', targetType: 'webhook_endpoint', targetId: id, summary: `Rotated the signing secret of ${current.url}` }, now);
    return secret;
  });
}

/** Sends a delivery again now, whatever its state; a FAILED one becomes PENDING for one more attempt. */
export async function retryDelivery(store: Store, orgId: string, endpointId: string, deliveryId: string, now: number, actor: Actor): Promise<DeliveryRow> {
  return await store.transaction(async () => {
    const endpoint = await findEndpoint(store, orgId, endpointId);
    if (!await store.webhooks.getDelivery(orgId, endpointId, deliveryId)) throw notFound('Delivery');
    if (endpoint.enabled !== 1) {
      throw new Refusal('CONFLICT', 'The endpoint is disabled: enable it (PATCH enabled: true) before retrying its deliveries');
    }
    await store.webhooks.requeueDelivery(orgId, endpointId, deliveryId, now);
    await recordActivity(store, orgId, actor, { action: 'delivery.retry', targetType: 'delivery', targetId: deliveryId, summary: `Sent a delivery to ${endpoint.url} again` }, now);
    return await store.webhooks.getDelivery(orgId, endpointId, deliveryId) as DeliveryRow;
  });
}

export async function listWebhookEndpoints(store: Store, orgId: string, page: Page): Promise<PageResult<WebhookEndpointRow>> {
  return await store.webhooks.listWebhookEndpoints(orgId, page);
}

/** An endpoint's deliveries, newest first (404 when the endpoint is not the caller's). */
export async function listDeliveries(store: Store, orgId: string, endpointId: string, page: Page): Promise<PageResult<DeliveryRow>> {
  await findEndpoint(store, orgId, endpointId);
  return await store.webhooks.listDeliveries(orgId, endpointId, page);
}
