import { TransactionDoomed, type Store } from '../store/index.js';

/** Most jobs one commit takes; the rest wait for the next one, so a burst cannot stretch one fsync's latency. */
const MAX_JOBS_PER_COMMIT = 256;

/**
 * Batches that take a savepoint per job after a batch had to be run again: while jobs keep failing
 * (a full slot under load refuses booking after booking), at most one batch in this many runs twice.
 */
const GUARDED_BATCHES_AFTER_FAILURE = 16;

interface Outcome {
  ok: boolean;
  value: unknown;
}

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
 *
 * A savepoint per job is paid for by every job, on SQLite a copy of each page a job changes (the
 * same hot pages, job after job), though jobs rarely fail. So a batch first runs its jobs
 * `unguarded`, without one; if any of them fails, the store rolls the batch back whole
 * (`TransactionDoomed`) and it runs again with a savepoint per job, as do the next
 * GUARDED_BATCHES_AFTER_FAILURE batches. A job's work may therefore run twice: it must only await
 * the store, and leave no trace outside it (docs/PERFORMANCE.md, "The speed mechanisms, and what each gained").
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;
  /** Batches still to run with a savepoint per job. */
  private guarded = 0;

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
    let outcomes: Outcome[];
    try {
      outcomes = (await this.firstTry(jobs)) ?? (await this.commit(jobs, false));
    } catch (err) {
      for (const job of jobs) job.reject(err);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.value);
    });
  }

  /** The batch unguarded, unless a recent batch failed so; undefined when it must run guarded. */
  private async firstTry(jobs: Job[]): Promise<Outcome[] | undefined> {
    if (this.guarded > 0) {
      this.guarded--;
      return undefined;
    }
    try {
      return await this.commit(jobs, true);
    } catch (err) {
      if (!(err instanceof TransactionDoomed)) throw err;
      this.guarded = GUARDED_BATCHES_AFTER_FAILURE;
      return undefined;
    }
  }

  /**
   * Runs the jobs in one transaction and commits it; answers each job's outcome. Guarded, each job
   * has a savepoint and one that throws leaves no trace. Unguarded, a job that fails makes the
   * store roll the whole batch back and reject with `TransactionDoomed`.
   */
  private async commit(jobs: Job[], unguarded: boolean): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    await this.store.transaction(async () => {
      for (const job of jobs) {
        try {
          outcomes.push({ ok: true, value: await this.store.transaction(job.work, { unguarded }) });
        } catch (err) {
          outcomes.push({ ok: false, value: err });
        }
      }
    });
    return outcomes;
  }
}
