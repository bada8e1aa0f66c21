import type { Sql } from './sql.js';

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

/** Replies kept under an organization's idempotency keys, and the markers of keys in flight. */
export interface IdempotencyStore {
  /** The row of the key (case-sensitive, per organization): a saved reply or an in-flight marker. */
  getIdempotentResponse(orgId: string, key: string): Promise<IdempotencyRow | undefined>;
  /** Saves the reply under its key, replacing every column of a row the key had. */
  saveIdempotentResponse(row: IdempotencyRow): Promise<void>;
  /** Marks the key in flight for this request; false when another request holds it or its reply stands. */
  claimIdempotencyKey(claim: IdempotencyClaim, cutoffs: ReclaimCutoffs): Promise<boolean>;
  /** Removes this claim's marker (a reply that is not kept); a saved reply or another claim stays. */
  releaseIdempotencyKey(claim: IdempotencyClaim): Promise<void>;
  /** Deletes the rows created strictly before `cutoff`; answers how many. */
  pruneIdempotencyKeys(cutoff: number): Promise<number>;
}

/**
 * The claim is one statement: insert the marker, or take the row over when it is stale. Two claims
 * of one key can never both succeed, in one process or across several.
 */
const CLAIM = `INSERT INTO idempotency_keys (org_id, key, fingerprint, response_status, response_body, created_at)
  VALUES (?, ?, ?, ${IN_FLIGHT_STATUS}, '', ?)
  ON CONFLICT (org_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
    response_status = excluded.response_status, response_body = excluded.response_body, created_at = excluded.created_at
  WHERE (idempotency_keys.response_status = ${IN_FLIGHT_STATUS} AND idempotency_keys.created_at < ?)
    OR idempotency_keys.created_at < ?`;

export function idempotencyStore(sql: Sql): IdempotencyStore {
  return {
    getIdempotentResponse: (orgId, key) =>
      sql.get<IdempotencyRow>(
        `SELECT org_id AS "orgId", key, fingerprint, response_status AS "responseStatus", response_body AS "responseBody",
          created_at AS "createdAt" FROM idempotency_keys WHERE org_id = ? AND key = ?`,
        [orgId, key],
      ),
    // The primary key is the table's only uniqueness rule, and no trigger or foreign key tells a
    // replaced row from an updated one: updating every column is replacing the row.
    async saveIdempotentResponse(row) {
      await sql.run(
        `INSERT INTO idempotency_keys (org_id, key, fingerprint, response_status, response_body, created_at)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (org_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
            response_status = excluded.response_status, response_body = excluded.response_body, created_at = excluded.created_at`,
        [row.orgId, row.key, row.fingerprint, row.responseStatus, row.responseBody, row.createdAt],
      );
    },
    async claimIdempotencyKey(c, cutoffs) {
      const changed = await sql.run(CLAIM, [c.orgId, c.key, c.fingerprint, c.claimedAt, cutoffs.markerBefore, cutoffs.replyBefore]);
      return changed === 1;
    },
    async releaseIdempotencyKey(c) {
      await sql.run(
        `DELETE FROM idempotency_keys WHERE org_id = ? AND key = ? AND response_status = ${IN_FLIGHT_STATUS} AND created_at = ?`,
        [c.orgId, c.key, c.claimedAt],
      );
    },
    pruneIdempotencyKeys: (cutoff) => sql.run('DELETE FROM idempotency_keys WHERE created_at < ?', [cutoff]),
  };
}
