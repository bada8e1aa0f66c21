import { newId } from '../domain/ids.js';
import { invalid } from '../domain/refusal.js';
import { iso } from '../serializers/instant.js';
import type { EventRow } from '../store/events.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/statements.js';
import type { EventData, EventKind, WebhookEvent } from '../../shared/index.js';

/**
 * Records an event and queues its deliveries. Call it inside the transaction of the change that
 * fires it: then a crash can delay the event but never lose it.
 */
export async function recordEvent(store: Store, orgId: string, event: EventKind, data: EventData, now: number): Promise<WebhookEvent> {
  const body: WebhookEvent = { id: newId('event'), event, timestamp: iso(now), data };
  await store.insertEvent({
    id: body.id,
    orgId,
    type: event,
    bookingId: data.booking.id,
    payload: JSON.stringify(body),
    createdAt: now,
  });
  await store.enqueueDeliveries(orgId, body.id, event, now);
  return body;
}

/** The org's events, oldest first; `after` (an event id of the org) reads only later ones. */
export async function listEvents(
  store: Store,
  orgId: string,
  filter: { after?: string; type?: EventKind },
  page: Page,
): Promise<PageResult<EventRow>> {
  let afterSeq: number | undefined;
  if (filter.after !== undefined) {
    afterSeq = await store.eventPosition(orgId, filter.after);
    if (afterSeq === undefined) throw invalid('after', `No event ${filter.after} in this organization`);
  }
  return await store.listEvents(orgId, { afterSeq, type: filter.type }, page);
}
