import type { Store } from '../store/index.js';

/** Most jobs one commit takes; the rest wait for the next one, so a burst cannot stretch one fsync's latency. */
const MAX_JOBS_PER_COMMIT = 256;

interface Job {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/**
 * Group commit: the write work (awaiting only the store) of requests that arrive together runs in ONE immediate
 * transaction, each job in its own savepoint, and is made durable by one commit — one fsync of the
 * WAL under synchronous=FULL, which costs ~2 ms on an ordinary disk and otherwise caps writes near
 * 500 per second. Nothing is answered before the commit that holds it has returned, so a 201 still
 * means "on disk".
 *
 * Jobs run one after another, in arrival order, inside the write lock: a job sees every earlier
 * job's writes (a capacity check counts the places booked just before it), and a job that throws
 * is rolled back to its savepoint alone. If the commit itself fails, every job of the batch fails.
 * On SQLite a batch never waits for I/O until its commit, so requests queue up in the sockets meanwhile
 * and the next batch takes them all: batches grow with the load, and a lone request is committed at once.
 * Each job's work runs exactly once: a job that fails is undone by its own savepoint, never by
 * running the batch again.
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;

  constructor(private readonly store: Pick<Store, 'transaction'>) {}

  /** Runs `work` in the next group commit; resolves with its result once that commit is durable. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const jobs = this.queue.splice(0, MAX_JOBS_PER_COMMIT);
    this.scheduled = this.queue.length > 0;
    if (this.scheduled) setImmediate(() => void this.flush());
    const settled: PromiseSettledResult<unknown>[] = [];
    try {
      await this.store.transaction(async () => {
        for (const job of jobs) {
          // A nested transaction: the job's own savepoint (or the clean one above it, shared); on
          // PostgreSQL a transaction of its own (`alone`, store/sql.ts).
          try {
            settled.push({ status: 'fulfilled', value: await this.store.transaction(job.work, { alone: true }) });
          } catch (reason) {
            settled.push({ status: 'rejected', reason });
          }
        }
      });
    } catch (err) {
      // The commit failed: nothing of the batch is stored.
      for (const job of jobs) job.reject(err);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = settled[i]!;
      if (outcome.status === 'fulfilled') job.resolve(outcome.value);
      else job.reject(outcome.reason);
    });
  }
}
