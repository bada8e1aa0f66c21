import type { Logger } from '../logger.js';
import type { Job } from './job.js';

/** One item of an outbox; items of one `group` (a webhook endpoint) share a concurrency limit. */
export interface OutboxItem {
  id: string;
  group?: string;
}

/**
 * An outbox as it is stored: the rows to send, each leased (`leased_until`) for one attempt so that
 * only one process sends it, and due again when a holder dies and its lease runs out.
 */
export interface Outbox<I extends OutboxItem> {
  /** Items due at `now` whose lease (if any) has run out, oldest first, at most `limit`. */
  listDue(now: number, limit: number): Promise<I[]>;
  /** Takes an item for one attempt until `until`; false when another process has it. */
  lease(id: string, now: number, until: number): Promise<boolean>;
  /** Gives an item back, due again at once (an attempt that did not happen). */
  release(id: string): Promise<void>;
  /** When the next item falls due or a lease runs out, if any is pending. */
  nextDueAt(): Promise<number | undefined>;
  /** Calls `listener` when an item is queued, by this process or (PostgreSQL) another; answers how to stop. */
  onDue?(listener: () => void): Promise<() => void>;
}

export interface LeasedOutboxOptions<I extends OutboxItem> {
  name: string;
  logger: Logger;
  outbox: Outbox<I>;
  /**
   * Sends one leased item and records its outcome (or releases it). `signal` aborts once a stop's
   * grace is over, when `cancelAtStop` is set.
   */
  send(item: I, signal: AbortSignal): Promise<void>;
  /** How long a lease lasts: longer than one attempt, with room to record it. */
  leaseMs: number;
  /** Attempts in flight at once. */
  maxInFlight: number;
  /** Attempts in flight at once in one group (default: no limit per group). */
  maxPerGroup?: number;
  /** Longest sleep between looks at the outbox (default 1000 ms); new items wake the job at once. */
  pollMs?: number;
  /** How long `stop()` lets attempts in flight finish (default 3000 ms). */
  stopGraceMs?: number;
  /**
   * After the grace, abort the attempts still in flight (each releases its item: due again as soon
   * as a process is back). Without it, they keep their lease and are tried again once it runs out.
   */
  cancelAtStop?: boolean;
  /** Work of each pass before the outbox is read (guest mail queues the reminders now due). */
  beforePass?(now: number): Promise<void>;
  /** Work of `start()` before the first pass. */
  beforeStart?(): Promise<void>;
  now?: () => number;
}

export interface OutboxJob extends Job<void> {
  /** Looks for due items now; resolves once that pass has begun what it found. */
  wake(): Promise<void>;
  /** Attempts in flight (for tests and health). */
  inFlight(): number;
}

/**
 * The one outbox loop of the server, as pg-boss or graphile-worker run theirs: claim a due item
 * with a lease, send it, record the outcome (retries are rows due later), and sleep until the next
 * item is due, a new one is queued, or an attempt ends. Passes run one at a time; a wake during a
 * pass asks for one more pass after it. Each outbox supplies only how to read and lease its rows and
 * how to send one; what an outcome means is decided by the services its `send` calls.
 */
export function leasedOutboxJob<I extends OutboxItem>(options: LeasedOutboxOptions<I>): OutboxJob {
  const { outbox, logger } = options;
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 1_000;
  const cancel = new AbortController();
  const running = new Map<string, { group: string | undefined; done: Promise<void> }>();
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let stopped = false;
  let unsubscribe = () => {};
  // Passes run in a chain, one after another; at most one waits behind the one under way.
  let chain: Promise<void> = Promise.resolve();
  let waitingPass: Promise<void> | undefined;

  const inGroup = (group: string | undefined) => {
    let n = 0;
    for (const r of running.values()) if (r.group === group) n++;
    return n;
  };

  function schedule(delayMs: number): void {
    if (stopped || !started) return;
    clearTimeout(timer);
    timer = setTimeout(() => void wake(), Math.max(0, Math.min(delayMs, pollMs)));
    timer.unref();
  }

  function wake(): Promise<void> {
    if (waitingPass) return waitingPass;
    const next = chain.then(async () => {
      waitingPass = undefined;
      await pass();
    });
    waitingPass = next;
    chain = next;
    return next;
  }

  async function pass(): Promise<void> {
    if (stopped) return;
    clearTimeout(timer);
    try {
      const at = now();
      await options.beforePass?.(at);
      const free = options.maxInFlight - running.size;
      let waiting = true;
      if (free > 0) {
        // Groups with attempts in flight hold at most maxPerGroup candidates each (the outbox caps
        // them): reading this many always reaches the items of idle groups.
        const limit = options.maxPerGroup === undefined ? free : options.maxPerGroup * options.maxInFlight + options.maxInFlight;
        const candidates = await outbox.listDue(at, limit);
        let begun = 0;
        for (const item of candidates) {
          if (begun >= free || stopped) break;
          if (running.has(item.id)) continue;
          if (options.maxPerGroup !== undefined && inGroup(item.group) >= options.maxPerGroup) continue;
          // Leased from now, not from before the list was read (that read may have waited).
          const leasedAt = Math.max(at, now());
          if (!await outbox.lease(item.id, leasedAt, leasedAt + options.leaseMs)) continue;
          begin(item);
          begun++;
        }
        waiting = candidates.length > begun || candidates.length >= limit;
      }
      if (waiting) {
        // Due work is held back by the limits: a finishing attempt wakes the job.
        schedule(pollMs);
      } else {
        const next = await outbox.nextDueAt();
        schedule(next === undefined ? pollMs : Math.max(next - now(), 10));
      }
    } catch (err) {
      logger.error(`${options.name}: a pass failed`, { error: err instanceof Error ? err.message : String(err) });
      schedule(pollMs);
    }
  }

  function begin(item: I): void {
    const done = options.send(item, cancel.signal)
      .catch(async (err: unknown) => {
        logger.error(`${options.name}: an attempt failed unexpectedly`, { id: item.id, error: err instanceof Error ? err.message : String(err) });
        try {
          await outbox.release(item.id);
        } catch {
          // the database is closing; the lease simply runs out
        }
      })
      .finally(() => {
        running.delete(item.id);
        if (!stopped) setImmediate(() => void wake());
      });
    running.set(item.id, { group: item.group, done });
  }

  const underWay = () => Promise.allSettled([...running.values()].map((r) => r.done));

  return {
    name: options.name,
    async start() {
      if (started || stopped) return;
      started = true;
      await options.beforeStart?.();
      if (outbox.onDue) unsubscribe = await outbox.onDue(() => void wake());
      schedule(0);
    },
    wake,
    async runOnce() {
      if (stopped) return;
      await wake();
      await underWay();
    },
    inFlight: () => running.size,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      await chain;
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([underWay(), new Promise((resolve) => (grace = setTimeout(resolve, options.stopGraceMs ?? 3_000)))]);
      clearTimeout(grace);
      if (options.cancelAtStop) {
        cancel.abort();
        await underWay();
      }
      // Otherwise what is still in flight keeps its lease: tried again after it, never lost.
    },
  };
}
