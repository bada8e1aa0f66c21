import type { Db } from './db.js';
import { rowCache } from './row-cache.js';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  name: string;
  type: 'secret' | 'publishable';
  scopes: string; // JSON array
  prefix: string;
  keyHash: Buffer;
  /** The whole key, kept for publishable keys made from version 1.2 on (they are public); always null for a secret key. */
  keyValue: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export const COLUMNS = `id, org_id AS orgId, name, type, scopes, prefix, key_hash AS keyHash, key_value AS keyValue,
  created_at AS createdAt,
  last_used_at AS lastUsedAt, revoked_at AS revokedAt`;

export function apiKeyStore(db: Db) {
  const insert = db.prepare(`INSERT INTO api_keys
    (id, org_id, name, type, scopes, prefix, key_hash, key_value, created_at, last_used_at, revoked_at)
    VALUES (@id, @orgId, @name, @type, @scopes, @prefix, @keyHash, @keyValue, @createdAt, @lastUsedAt, @revokedAt)`);
  const byHash = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ?`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`);
  const list = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE org_id = ? ORDER BY created_at, id`);
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  // Every request on /v1 looks its key up by hash, and keys rarely change: see row-cache.ts.
  const cached = rowCache<ApiKeyRow>(db);

  return {
    insertApiKey(row: ApiKeyRow): void {
      cached.forget();
      insert.run(row);
    },
    getApiKeyByHash(hash: Buffer): ApiKeyRow | undefined {
      return cached.read(hash.toString('base64'), () => byHash.get(hash) as ApiKeyRow | undefined);
    },
    getApiKey(id: string): ApiKeyRow | undefined {
      return byId.get(id) as ApiKeyRow | undefined;
    },
    listApiKeys(orgId: string): ApiKeyRow[] {
      return list.all(orgId) as ApiKeyRow[];
    },
    revokeApiKey(id: string, at: number): void {
      cached.forget();
      revoke.run(at, id);
    },
    touchApiKey(id: string, at: number): void {
      cached.forget();
      touch.run(at, id);
    },
  };
}
