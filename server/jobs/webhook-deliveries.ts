import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { Resolver } from '../net/outbound.js';
import { postEvent } from '../webhooks/attempt.js';
import {
  abandonDeliveryAttempt, beginDeliveryAttempt, deliveryOutbox, recordDeliveryOutcome, type DueDelivery,
} from '../services/webhook-deliveries.js';
import { leasedOutboxJob, type OutboxJob } from './outbox.js';

export interface WebhookWorkerOptions {
  store: Store;
  config: Pick<Config, 'webhookRetrySchedule' | 'webhookTimeoutMs' | 'outboundAllowPrivate'>;
  logger: Logger;
  /** Attempts in flight at once, over all endpoints (default 8). */
  maxInFlight?: number;
  /** Attempts in flight at once to one endpoint (default 2), so a slow receiver cannot starve the others. */
  maxPerEndpoint?: number;
  /** Longest sleep between looks at the database (default 1000 ms); new events wake it at once. */
  pollMs?: number;
  /** How long `stop()` lets attempts in flight finish before cancelling them (default 3000 ms). */
  stopGraceMs?: number;
  random?: () => number;
  resolver?: Resolver;
}

export type WebhookWorker = OutboxJob;

/** Lease slack beyond the attempt's own time limit, for recording its outcome. */
const LEASE_MARGIN_MS = 2_000;

/**
 * The delivery worker: runs inside the server process, off the request path, on the leased outbox
 * (jobs/outbox.ts). Its part is sending one delivery: the POST, signed afresh. A crash mid-attempt
 * makes the delivery due again when its lease runs out; a stop cancels attempts still in flight after
 * the grace, and those are due again at once, not counted.
 */
export function webhookDeliveryJob(options: WebhookWorkerOptions): WebhookWorker {
  const { store, config, logger } = options;
  const random = options.random ?? Math.random;
  const maxPerEndpoint = options.maxPerEndpoint ?? 2;

  async function send(item: DueDelivery, signal: AbortSignal): Promise<void> {
    const job = await beginDeliveryAttempt(store, item.id, Date.now());
    if (!job) return;
    const startedAt = Date.now();
    const result = await postEvent(job, startedAt, {
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.outboundAllowPrivate,
      signal,
      resolver: options.resolver,
    });
    if (result.kind === 'cancelled') {
      await abandonDeliveryAttempt(store, item.id);
      return;
    }
    const now = Date.now();
    const record = await recordDeliveryOutcome(store, job, result, { retrySchedule: config.webhookRetrySchedule, random: random() }, now);
    logger.info('webhook attempt', {
      deliveryId: job.id,
      endpointId: job.endpointId,
      eventId: job.eventId,
      attempt: job.attempts + 1,
      statusCode: record.lastStatusCode,
      outcome: record.status,
      durationMs: now - startedAt,
      ...(record.lastError ? { error: record.lastError } : {}),
    });
  }

  return leasedOutboxJob({
    name: 'webhook deliveries',
    logger,
    outbox: deliveryOutbox(store, maxPerEndpoint),
    send,
    leaseMs: config.webhookTimeoutMs + LEASE_MARGIN_MS,
    maxInFlight: options.maxInFlight ?? 8,
    maxPerGroup: maxPerEndpoint,
    pollMs: options.pollMs,
    stopGraceMs: options.stopGraceMs,
    cancelAtStop: true,
  });
}
