import type { Db } from './db.js';

export interface IdempotencyRow {
  orgId: string;
  key: string;
  fingerprint: string;
  responseStatus: number;
  responseBody: string;
  createdAt: number;
}

/**
 * A request with this key is being worked on: the row of a claimed key before its reply is saved.
 * `response_status` 0 marks it (no reply has that status); `created_at` is when it was claimed.
 */
export const IN_FLIGHT_STATUS = 0;

/** A key claimed for a request still running: its row until the reply replaces it. */
export interface IdempotencyClaim {
  orgId: string;
  key: string;
  fingerprint: string;
  claimedAt: number;
}

/**
 * When an existing row of the key may be taken over by a new claim: an in-flight marker claimed
 * before `markerBefore` (its process died or gave up), or any row created before `replyBefore`
 * (its reply has expired).
 */
export interface ReclaimCutoffs {
  markerBefore: number;
  replyBefore: number;
}

/**
 * The claim is one statement on both engines: insert the marker, or take the row over when it is
 * stale. Two claims of one key can never both succeed, in one process or across several.
 */
export const CLAIM_SQL = `INSERT INTO idempotency_keys (org_id, key, fingerprint, response_status, response_body, created_at)
  VALUES (?, ?, ?, ${IN_FLIGHT_STATUS}, '', ?)
  ON CONFLICT (org_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
    response_status = excluded.response_status, response_body = excluded.response_body, created_at = excluded.created_at
  WHERE (idempotency_keys.response_status = ${IN_FLIGHT_STATUS} AND idempotency_keys.created_at < ?)
    OR idempotency_keys.created_at < ?`;

export const RELEASE_SQL = `DELETE FROM idempotency_keys
  WHERE org_id = ? AND key = ? AND response_status = ${IN_FLIGHT_STATUS} AND created_at = ?`;

export function idempotencyStore(db: Db) {
  const get = db.prepare(`SELECT org_id AS orgId, key, fingerprint, response_status AS responseStatus,
    response_body AS responseBody, created_at AS createdAt FROM idempotency_keys WHERE org_id = ? AND key = ?`);
  const insert = db.prepare(`INSERT OR REPLACE INTO idempotency_keys
    (org_id, key, fingerprint, response_status, response_body, created_at)
    VALUES (@orgId, @key, @fingerprint, @responseStatus, @responseBody, @createdAt)`);
  const prune = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  const claim = db.prepare(CLAIM_SQL);
  const release = db.prepare(RELEASE_SQL);

  return {
    getIdempotentResponse(orgId: string, key: string): IdempotencyRow | undefined {
      return get.get(orgId, key) as IdempotencyRow | undefined;
    },
    saveIdempotentResponse(row: IdempotencyRow): void {
      insert.run(row);
    },
    /** Marks the key in flight for this request; false when another request holds it or its reply stands. */
    claimIdempotencyKey(c: IdempotencyClaim, cutoffs: ReclaimCutoffs): boolean {
      return claim.run(c.orgId, c.key, c.fingerprint, c.claimedAt, cutoffs.markerBefore, cutoffs.replyBefore).changes === 1;
    },
    /** Removes this claim's marker (a reply that is not kept); a saved reply or another claim stays. */
    releaseIdempotencyKey(c: IdempotencyClaim): void {
      release.run(c.orgId, c.key, c.claimedAt);
    },
    pruneIdempotencyKeys(cutoff: number): number {
      return prune.run(cutoff).changes;
    },
  };
}
