// Webhook deliveries as use cases: the outbox the delivery job leases from, and what one attempt's
// outcome means (a retry, success, failure for good, or a receiver saying its endpoint is gone).
// The job only sends (webhooks/attempt.ts posts the event); everything decided is here.
import type { Store } from '../store/index.js';
import type { AttemptRecord, DeliveryJob } from '../store/webhooks.js';
import { outcomeOf, type AttemptResult } from '../webhooks/attempt.js';

/** A due delivery, grouped by endpoint so that one slow receiver cannot hold every attempt. */
export interface DueDelivery {
  id: string;
  group: string;
}

/** The deliveries' outbox: each endpoint contributes at most `perEndpoint` candidates to a read. */
export function deliveryOutbox(store: Store, perEndpoint: number) {
  return {
    async listDue(now: number, limit: number): Promise<DueDelivery[]> {
      return (await store.webhooks.listDueDeliveries(now, limit, perEndpoint)).map((d) => ({ id: d.id, group: d.endpointId }));
    },
    lease: (id: string, now: number, until: number) => store.webhooks.leaseDelivery(id, now, until),
    release: (id: string) => store.webhooks.releaseDelivery(id),
    nextDueAt: () => store.webhooks.nextDeliveryDueAt(),
    onDue: async (listener: () => void) => await store.webhooks.onDeliveriesDue(listener),
  };
}

/**
 * What a leased delivery is to send, or undefined when there is nothing to send: the endpoint or
 * the event was deleted meanwhile, or the endpoint was disabled between the lease and now (its
 * pending deliveries then fail; nothing is sent to a disabled endpoint).
 */
export async function beginDeliveryAttempt(store: Store, id: string, now: number): Promise<DeliveryJob | undefined> {
  const job = await store.webhooks.getDeliveryJob(id);
  if (!job) return undefined;
  if (job.enabled !== 1) {
    await store.transaction(async () => {
      await store.webhooks.releaseDelivery(id);
      await store.webhooks.failPendingDeliveries(job.endpointId, 'Endpoint disabled', now);
    });
    return undefined;
  }
  return job;
}

/** An attempt that did not happen (the server is stopping): not counted, due again at once. */
export async function abandonDeliveryAttempt(store: Store, id: string): Promise<void> {
  await store.webhooks.releaseDelivery(id);
}

export interface DeliveryPolicy {
  /** WEBHOOK_RETRY_SCHEDULE, in seconds. */
  retrySchedule: readonly number[];
  /** A number in [0, 1) for the retry's jitter. */
  random: number;
}

/**
 * Records what an attempt came to. A 410 Gone disables the endpoint and fails its pending
 * deliveries; an endpoint disabled while the attempt was in flight gets no further attempt.
 * Answers the record written.
 */
export async function recordDeliveryOutcome(
  store: Store,
  job: DeliveryJob,
  result: Exclude<AttemptResult, { kind: 'cancelled' }>,
  policy: DeliveryPolicy,
  now: number,
): Promise<AttemptRecord> {
  const { gone, ...record } = outcomeOf(result, job.attempts, policy.retrySchedule, now, policy.random);
  await store.transaction(async () => {
    await store.webhooks.recordDeliveryAttempt(job.id, record);
    if (gone) {
      await store.webhooks.disableWebhookEndpoint(job.endpointId, `Receiver answered 410 Gone on ${new Date(now).toISOString()}`, now);
      await store.webhooks.failPendingDeliveries(job.endpointId, 'Endpoint disabled after its receiver answered 410 Gone', now);
    } else if (record.status === 'PENDING' && (await store.webhooks.getDeliveryJob(job.id))?.enabled === 0) {
      await store.webhooks.failPendingDeliveries(job.endpointId, 'Endpoint disabled', now);
    }
  });
  return record;
}
