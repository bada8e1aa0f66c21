import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { Resolver } from '../net/outbound.js';
import { outcomeOf, postEvent } from '../webhooks/attempt.js';
import type { Job } from './job.js';

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

export interface WebhookWorker extends Job<void> {
  /** Looks for due deliveries now. */
  wake(): void;
  /** Attempts in flight (for tests and health). */
  inFlight(): number;
}

/** Lease slack beyond the attempt's own time limit, for recording its outcome. */
const LEASE_MARGIN_MS = 2_000;

/**
 * The delivery worker: runs inside the server process, off the request path. Due deliveries are
 * read from the database and leased (`leased_until`) for one attempt, so a crash mid-attempt only
 * makes them due again when the lease runs out, and a restart resumes every pending delivery.
 */
export function webhookDeliveryJob(options: WebhookWorkerOptions): WebhookWorker {
  const { store, config, logger } = options;
  const maxInFlight = options.maxInFlight ?? 8;
  const maxPerEndpoint = options.maxPerEndpoint ?? 2;
  const pollMs = options.pollMs ?? 1_000;
  const random = options.random ?? Math.random;
  const cancel = new AbortController();
  const running = new Map<string, { endpointId: string; done: Promise<void> }>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let started = false;

  const perEndpoint = (endpointId: string) => {
    let n = 0;
    for (const r of running.values()) if (r.endpointId === endpointId) n++;
    return n;
  };

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, Math.max(0, Math.min(delayMs, pollMs)));
    timer.unref();
  }

  async function tick(): Promise<void> {
    if (stopped || !started) return;
    clearTimeout(timer);
    let waiting = false;
    try {
      const now = Date.now();
      const free = maxInFlight - running.size;
      if (free > 0) {
        // Endpoints with attempts in flight hold at most maxPerEndpoint candidates each: reading this
        // many always reaches the deliveries of idle endpoints.
        const candidates = await store.listDueDeliveries(now, maxPerEndpoint * maxInFlight + maxInFlight, maxPerEndpoint);
        let started = 0;
        for (const c of candidates) {
          if (started >= free) break;
          if (perEndpoint(c.endpointId) >= maxPerEndpoint) continue;
          // The lease runs from now, not from before the list was read (that read may have waited).
          const leasedAt = Date.now();
          if (!await store.leaseDelivery(c.id, leasedAt, leasedAt + config.webhookTimeoutMs + LEASE_MARGIN_MS)) continue;
          begin(c.id, c.endpointId);
          started++;
        }
        waiting = candidates.length > started;
      } else {
        waiting = true;
      }
      if (waiting) {
        // Due work is held back by the concurrency limits: a finishing attempt wakes us.
        schedule(pollMs);
      } else {
        const next = await store.nextDeliveryDueAt();
        schedule(next === undefined ? pollMs : Math.max(next - Date.now(), 10));
      }
    } catch (err) {
      logger.error('webhook worker failed to read deliveries', { error: err instanceof Error ? err.message : String(err) });
      schedule(pollMs);
    }
  }

  function begin(id: string, endpointId: string): void {
    const done = attempt(id)
      .catch(async (err: unknown) => {
        logger.error('webhook attempt failed unexpectedly', { deliveryId: id, error: err instanceof Error ? err.message : String(err) });
        try {
          await store.releaseDelivery(id);
        } catch {
          // the database is closing; the lease simply runs out
        }
      })
      .finally(() => {
        running.delete(id);
        if (!stopped) setImmediate(tick);
      });
    running.set(id, { endpointId, done });
  }

  async function attempt(id: string): Promise<void> {
    const job = await store.getDeliveryJob(id);
    if (!job) return; // the endpoint or the event was deleted meanwhile
    if (job.enabled !== 1) {
      // Disabled between the lease and now: nothing is sent to a disabled endpoint.
      await store.transaction(async () => {
        await store.releaseDelivery(id);
        await store.failPendingDeliveries(job.endpointId, 'Endpoint disabled', Date.now());
      });
      return;
    }
    const startedAt = Date.now();
    const result = await postEvent(job, startedAt, {
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.outboundAllowPrivate,
      signal: cancel.signal,
      resolver: options.resolver,
    });
    if (result.kind === 'cancelled') {
      // Shutting down: not counted as an attempt, due again as soon as the server is back.
      await store.releaseDelivery(id);
      return;
    }
    const now = Date.now();
    const outcome = outcomeOf(result, job.attempts, config.webhookRetrySchedule, now, random());
    const { gone, ...record } = outcome;
    await store.transaction(async () => {
      await store.recordDeliveryAttempt(id, record);
      if (gone) {
        await store.disableWebhookEndpoint(job.endpointId, `Receiver answered 410 Gone on ${new Date(now).toISOString()}`, now);
        await store.failPendingDeliveries(job.endpointId, 'Endpoint disabled after its receiver answered 410 Gone', now);
      } else if (record.status === 'PENDING' && (await store.getDeliveryJob(id))?.enabled === 0) {
        // Disabled while this attempt was in flight: no more attempts.
        await store.failPendingDeliveries(job.endpointId, 'Endpoint disabled', now);
      }
    });
    logger.info('webhook attempt', {
      deliveryId: id,
      endpointId: job.endpointId,
      eventId: job.eventId,
      attempt: job.attempts + 1,
      statusCode: record.lastStatusCode,
      outcome: record.status,
      durationMs: now - startedAt,
      ...(record.lastError ? { error: record.lastError } : {}),
    });
  }

  let unsubscribe = () => {};

  return {
    name: 'webhook deliveries',
    async start() {
      if (started || stopped) return;
      started = true;
      unsubscribe = await store.onDeliveriesDue(async () => await tick());
      schedule(0);
    },
    wake: async () => await tick(),
    async runOnce() {
      await tick();
      await Promise.allSettled([...running.values()].map((r) => r.done));
    },
    inFlight: () => running.size,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      const all = () => Promise.allSettled([...running.values()].map((r) => r.done));
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([all(), new Promise((resolve) => (grace = setTimeout(resolve, options.stopGraceMs ?? 3_000)))]);
      clearTimeout(grace);
      cancel.abort();
      await all();
    },
  };
}
