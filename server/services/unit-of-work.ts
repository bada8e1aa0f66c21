// The one owner of a request's transaction. A caller (the HTTP router, today) says what kind of work
// it hands over; the unit of work decides the transaction around it and runs it exactly once.
import { Refusal } from '../domain/refusal.js';
import { IDEMPOTENCY_TTL_MS } from '../domain/retention.js';
import type { Store } from '../store/index.js';
import { IN_FLIGHT_STATUS, type IdempotencyClaim } from '../store/idempotency.js';
import { GroupCommit } from './group-commit.js';
import { withProcessSettings, type ProcessSettings } from './process-settings.js';

export { processSettings, type ProcessSettings } from './process-settings.js';

/**
 * How long a claimed key stays in flight without its outcome: longer than any asynchronous work
 * takes (their network calls time out within seconds), so only a request whose process died
 * leaves a marker this old; the key is then free again.
 */
export const IN_FLIGHT_LEASE_MS = 2 * 60 * 1000;

/** An outcome as kept under an Idempotency-Key: a status and the exact text of the answer. */
export interface KeptOutcome {
  status: number;
  body: string;
}

/**
 * How the caller's results are kept and answered again. The unit of work knows no status and no
 * wire format: the caller says which results are worth keeping and what a kept one answers.
 */
export interface Outcomes<R> {
  /**
   * The result a thrown error stands for when it is an answer in itself (a refusal of the request,
   * kept and replayed like a success); undefined lets the error propagate, and nothing is kept.
   */
  fromError(err: unknown): R | undefined;
  /**
   * What to keep of a result, and the result to answer now (the same text as the one kept);
   * undefined keeps nothing, so the client may send the request again under the same key.
   */
  keep(result: R): { kept: KeptOutcome; result: R } | undefined;
  /** The result a kept outcome answers again. */
  replay(kept: KeptOutcome): R;
}

/** One request under an Idempotency-Key: its organization's key, and what the request was. */
export interface IdempotentRequest {
  orgId: string;
  key: string;
  /** The request as sent (method, path, canonical body): the same key with another one is refused. */
  fingerprint: string;
}

/**
 * What work is handed over. Without any of these it is plain: the use case runs as it is, and each
 * change it makes is one transaction of its own (`store.transaction` in the service).
 */
export interface WorkKind<R> {
  /**
   * The work awaits more than the store (the network): it never runs inside a transaction, and an
   * Idempotency-Key is held by an in-flight marker in the store while it runs.
   */
  async?: boolean | undefined;
  /**
   * Hot write work that awaits only the store and may share its transaction and commit with the
   * requests that arrive with it (`GroupCommit`). Asynchronous work is never batched.
   */
  batched?: boolean | undefined;
  /** Run once per key: a repeat of the request answers the kept outcome instead. */
  idempotent?: { request: IdempotentRequest; outcomes: Outcomes<R> } | undefined;
}

export interface Done<R> {
  result: R;
  /** The result is the kept outcome of an earlier request under the same key. */
  replayed: boolean;
}

/**
 * Runs a request's work once, in the transaction its kind calls for:
 *
 * - plain: the work alone;
 * - idempotent: one transaction holding the key's check, the work (in a nested transaction, so that
 *   a refusal keeps none of its writes) and the kept outcome, so a crash can never leave a booking
 *   without its record and a replay answers the same text;
 * - idempotent and `async`: the key claimed in the store before the work starts (an in-flight
 *   marker, so a concurrent duplicate is refused in every process sharing the database), the outcome
 *   saved in its place afterwards;
 * - batched: a job of the next group commit, with its own savepoint; batched and idempotent, the
 *   idempotent transaction above is that job.
 *
 * Work is never run again: a job that fails is undone by its savepoint alone.
 */
export class UnitOfWork {
  private readonly batches: GroupCommit;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    /** This process's own configuration, which the work it runs reads through `processSettings()`. */
    readonly settings: ProcessSettings,
  ) {
    this.batches = new GroupCommit(store);
  }

  /** Runs `work` once, as `kind` says, with this process's settings; answers its result and whether it was replayed. */
  async run<R>(kind: WorkKind<R>, work: () => Promise<R>): Promise<Done<R>> {
    return await withProcessSettings(this.settings, async () => await this.runKind(kind, work));
  }

  private async runKind<R>(kind: WorkKind<R>, work: () => Promise<R>): Promise<Done<R>> {
    const idempotent = kind.idempotent;
    if (kind.async) {
      if (idempotent) return await this.claimed(idempotent.request, idempotent.outcomes, work);
      return { result: await work(), replayed: false };
    }
    const once = idempotent
      ? () => this.recorded(idempotent.request, idempotent.outcomes, work)
      : async (): Promise<Done<R>> => ({ result: await work(), replayed: false });
    return kind.batched ? await this.batches.run(once) : await once();
  }

  /** The work and its kept outcome in one transaction, unless the key already has one. */
  private async recorded<R>(req: IdempotentRequest, outcomes: Outcomes<R>, work: () => Promise<R>): Promise<Done<R>> {
    return await this.store.transaction(async () => {
      const previous = await this.kept(req);
      if (previous) return { result: outcomes.replay(previous), replayed: true };
      const result = await answered(outcomes, async () => await this.store.transaction(work));
      const keep = outcomes.keep(result);
      if (!keep) return { result, replayed: false };
      await this.save(req, keep.kept);
      return { result: keep.result, replayed: false };
    });
  }

  /**
   * Asynchronous work once for this key; a concurrent duplicate gets `IDEMPOTENCY_KEY_IN_USE`. The
   * outcome replaces the marker; one that is not kept, or a failure, removes it.
   */
  private async claimed<R>(req: IdempotentRequest, outcomes: Outcomes<R>, work: () => Promise<R>): Promise<Done<R>> {
    const previous = await this.kept(req);
    if (previous) return { result: outcomes.replay(previous), replayed: true };
    const claimedAt = this.now();
    const claim: IdempotencyClaim = { orgId: req.orgId, key: req.key, fingerprint: req.fingerprint, claimedAt };
    const cutoffs = { markerBefore: claimedAt - IN_FLIGHT_LEASE_MS, replyBefore: claimedAt - IDEMPOTENCY_TTL_MS };
    if (!(await this.store.idempotency.claimIdempotencyKey(claim, cutoffs))) {
      // Another request claimed it, or saved its outcome, since the read above.
      const raced = await this.kept(req);
      if (raced) return { result: outcomes.replay(raced), replayed: true };
      throw new Refusal('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed');
    }
    let result: R;
    try {
      result = await answered(outcomes, work);
    } catch (err) {
      await this.store.idempotency.releaseIdempotencyKey(claim);
      throw err;
    }
    const keep = outcomes.keep(result);
    if (!keep) {
      await this.store.idempotency.releaseIdempotencyKey(claim);
      return { result, replayed: false };
    }
    await this.save(req, keep.kept);
    return { result: keep.result, replayed: false };
  }

  /**
   * The outcome kept under the key, to answer again; undefined when there is none (or it expired,
   * or its request died in flight). Refuses a different request under the key, and the same
   * request while it is still in flight, in this process or another.
   */
  private async kept(req: IdempotentRequest): Promise<KeptOutcome | undefined> {
    const row = await this.store.idempotency.getIdempotentResponse(req.orgId, req.key);
    const now = this.now();
    if (!row || row.createdAt < now - IDEMPOTENCY_TTL_MS) return undefined;
    if (row.fingerprint !== req.fingerprint) {
      throw new Refusal('IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different request; use a new key for a new request',
      );
    }
    if (row.responseStatus === IN_FLIGHT_STATUS) {
      if (row.createdAt < now - IN_FLIGHT_LEASE_MS) return undefined;
      throw new Refusal('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed');
    }
    return { status: row.responseStatus, body: row.responseBody };
  }

  private async save(req: IdempotentRequest, kept: KeptOutcome): Promise<void> {
    await this.store.idempotency.saveIdempotentResponse({
      ...req,
      responseStatus: kept.status,
      responseBody: kept.body,
      createdAt: this.now(),
    });
  }
}

/** The work's result, or the result its error stands for; any other error propagates. */
async function answered<R>(outcomes: Outcomes<R>, work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (err) {
    const result = outcomes.fromError(err);
    if (result === undefined) throw err;
    return result;
  }
}
