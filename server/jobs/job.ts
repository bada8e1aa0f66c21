import type { Logger } from '../logger.js';

/**
 * Background work of the server, in one shape: started after the server listens, stopped before
 * the database closes, and runnable once on demand (tests, and passes that must not wait for the
 * timer). Each job's first pass runs at start, so work that fell due while the server was down is
 * done at once.
 */
export interface Job<R = void> {
  readonly name: string;
  /** Starts the loop; resolves once the job has read what it needs to begin. */
  start(): Promise<void>;
  /** Stops the loop and waits for the work under way. */
  stop(): Promise<void>;
  /** One pass now, after any pass under way; resolves with what it did. */
  runOnce(): Promise<R>;
}

export interface RepeatingJobOptions<R> {
  name: string;
  logger: Logger;
  /** Time between passes. */
  everyMs: number;
  /** Delay of the first pass after `start` (default 0). */
  firstAfterMs?: number;
  /** One pass; its errors are logged and the next pass runs as planned. */
  pass: () => Promise<R> | R;
  /** What a pass answers when it fails, or when the job has stopped. */
  idle: R;
}

/**
 * A job that runs `pass` on a timer. Passes run one after another, never side by side, so a slow
 * pass (a provider that takes long to answer) cannot make two passes act on the same work.
 */
export function repeatingJob<R>(options: RepeatingJobOptions<R>): Job<R> {
  let queue: Promise<unknown> = Promise.resolve();
  let queued = 0;
  let stopped = false;
  let firstTimer: NodeJS.Timeout | undefined;
  let firstImmediate: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;

  const pass = async (): Promise<R> => {
    if (stopped) return options.idle;
    try {
      return await options.pass();
    } catch (err) {
      options.logger.error(`${options.name} failed`, { error: err instanceof Error ? err.message : String(err) });
      return options.idle;
    }
  };
  const runOnce = (): Promise<R> => {
    queued++;
    const next = queue.then(pass);
    queue = next.finally(() => void queued--);
    return next;
  };
  // A timer tick is skipped while a pass is queued: passes never pile up behind a slow one.
  const tick = () => {
    if (queued === 0) void runOnce();
  };

  return {
    name: options.name,
    runOnce,
    async start() {
      if (stopped || timer) return;
      if (options.firstAfterMs) firstTimer = setTimeout(tick, options.firstAfterMs).unref();
      else firstImmediate = setImmediate(tick);
      timer = setInterval(tick, options.everyMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(firstTimer);
      clearImmediate(firstImmediate);
      clearInterval(timer);
      await queue;
    },
  };
}
