import type { Db } from './db.js';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  name: string;
  type: 'secret' | 'publishable';
  scopes: string; // JSON array
  prefix: string;
  keyHash: Buffer;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export const COLUMNS = `id, org_id AS orgId, name, type, scopes, prefix, key_hash AS keyHash, created_at AS createdAt,
  last_used_at AS lastUsedAt, revoked_at AS revokedAt`;

/** Keys the cache below holds at most; past it, it starts again empty. */
const CACHED_KEYS_LIMIT = 1000;

export function apiKeyStore(db: Db) {
  const insert = db.prepare(`INSERT INTO api_keys
    (id, org_id, name, type, scopes, prefix, key_hash, created_at, last_used_at, revoked_at)
    VALUES (@id, @orgId, @name, @type, @scopes, @prefix, @keyHash, @createdAt, @lastUsedAt, @revokedAt)`);
  const byHash = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ?`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`);
  const list = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE org_id = ? ORDER BY created_at, id`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  const dataVersion = db.prepare('PRAGMA data_version').pluck();

  // Every request on /v1 looks its key up by hash, and keys rarely change: rows read outside a
  // transaction are kept, frozen, by hash. Any key this connection writes empties the cache, and
  // so does a commit by any other connection (the CLI, another process), which PRAGMA data_version tells
  // apart for a fraction of the lookup's cost. Reads inside a transaction are not kept: it may roll
  // back what they saw.
  const cached = new Map<string, ApiKeyRow>();
  let seenVersion: unknown;
  const forget = () => cached.clear();

  return {
    insertApiKey(row: ApiKeyRow): void {
      forget();
      insert.run(row);
    },
    getApiKeyByHash(hash: Buffer): ApiKeyRow | undefined {
      if (db.inTransaction) return byHash.get(hash) as ApiKeyRow | undefined;
      const version = dataVersion.get();
      if (version !== seenVersion) {
        forget();
        seenVersion = version;
      }
      const id = hash.toString('base64');
      const hit = cached.get(id);
      if (hit) return hit;
      const row = byHash.get(hash) as ApiKeyRow | undefined;
      if (row) {
        if (cached.size >= CACHED_KEYS_LIMIT) forget();
        cached.set(id, Object.freeze(row));
      }
      return row;
    },
    getApiKey(id: string): ApiKeyRow | undefined {
      return byId.get(id) as ApiKeyRow | undefined;
    },
    listApiKeys(orgId: string): ApiKeyRow[] {
      return list.all(orgId) as ApiKeyRow[];
    },
    revokeApiKey(id: string, at: number): void {
      forget();
      revoke.run(at, id);
    },
    touchApiKey(id: string, at: number): void {
      forget();
      touch.run(at, id);
    },
  };
}
