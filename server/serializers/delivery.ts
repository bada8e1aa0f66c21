import type { DeliveryRow } from '../store/webhooks.js';
import { iso, isoOrNull } from './instant.js';
import type { Delivery, EventKind } from '../../shared/index.js';

export function serializeDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    eventId: row.eventId,
    event: row.eventType as EventKind,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'PENDING' ? isoOrNull(row.nextAttemptAt) : null,
    createdAt: iso(row.createdAt),
    deliveredAt: isoOrNull(row.deliveredAt),
  };
}
