import type { WebhookEndpointRow } from '../store/webhooks.js';
import { iso } from './instant.js';
import type { EventKind, WebhookEndpoint } from '../../shared/index.js';

export function serializeWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventKind[],
    description: row.description,
    enabled: row.enabled === 1,
    disabledReason: row.disabledReason,
    createdAt: iso(row.createdAt),
  };
}
