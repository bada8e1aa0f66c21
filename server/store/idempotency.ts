import type { Db } from './db.js';

export interface IdempotencyRow {
  orgId: string;
  key: string;
  fingerprint: string;
  responseStatus: number;
  responseBody: string;
  createdAt: number;
}

export function idempotencyStore(db: Db) {
  const get = db.prepare(`SELECT org_id AS orgId, key, fingerprint, response_status AS responseStatus,
    response_body AS responseBody, created_at AS createdAt FROM idempotency_keys WHERE org_id = ? AND key = ?`);
  const insert = db.prepare(`INSERT OR REPLACE INTO idempotency_keys
    (org_id, key, fingerprint, response_status, response_body, created_at)
    VALUES (@orgId, @key, @fingerprint, @responseStatus, @responseBody, @createdAt)`);
  const prune = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');

  return {
    getIdempotentResponse(orgId: string, key: string): IdempotencyRow | undefined {
      return get.get(orgId, key) as IdempotencyRow | undefined;
    },
    saveIdempotentResponse(row: IdempotencyRow): void {
      insert.run(row);
    },
    pruneIdempotencyKeys(cutoff: number): number {
      return prune.run(cutoff).changes;
    },
  };
}
