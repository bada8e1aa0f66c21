import type { Async } from '../index.js';
import { CLAIM_SQL, RELEASE_SQL, type IdempotencyClaim, type IdempotencyRow, type ReclaimCutoffs, type idempotencyStore } from '../idempotency.js';
import { numbered, type PgDb } from './db.js';

export function idempotencyStorePg(db: PgDb): Async<ReturnType<typeof idempotencyStore>> {
  return {
    async getIdempotentResponse(orgId: string, key: string): Promise<IdempotencyRow | undefined> {
      return await db.get<IdempotencyRow>(
        `SELECT org_id AS "orgId", key, fingerprint, response_status AS "responseStatus",
          response_body AS "responseBody", created_at AS "createdAt" FROM idempotency_keys WHERE org_id = $1 AND key = $2`,
        [orgId, key],
      );
    },
    /**
     * SQLite's INSERT OR REPLACE: the primary key is the table's only uniqueness rule, and nothing
     * (trigger, foreign key) tells replacing the row from updating every other column of it.
     */
    async saveIdempotentResponse(row: IdempotencyRow): Promise<void> {
      await db.run(
        `INSERT INTO idempotency_keys (org_id, key, fingerprint, response_status, response_body, created_at)
          VALUES ($1, $2, $3, $4, $5, $6)
          ON CONFLICT (org_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
            response_status = excluded.response_status, response_body = excluded.response_body,
            created_at = excluded.created_at`,
        [row.orgId, row.key, row.fingerprint, row.responseStatus, row.responseBody, row.createdAt],
      );
    },
    async claimIdempotencyKey(c: IdempotencyClaim, cutoffs: ReclaimCutoffs): Promise<boolean> {
      return (await db.run(numbered(CLAIM_SQL), [c.orgId, c.key, c.fingerprint, c.claimedAt, cutoffs.markerBefore, cutoffs.replyBefore])) === 1;
    },
    async releaseIdempotencyKey(c: IdempotencyClaim): Promise<void> {
      await db.run(numbered(RELEASE_SQL), [c.orgId, c.key, c.claimedAt]);
    },
    async pruneIdempotencyKeys(cutoff: number): Promise<number> {
      return await db.run('DELETE FROM idempotency_keys WHERE created_at < $1', [cutoff]);
    },
  };
}
