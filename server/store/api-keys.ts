import type { Sql } from './sql.js';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  name: string;
  type: 'secret' | 'publishable';
  scopes: string; // JSON array
  prefix: string;
  /** SHA-256 of the whole key: the only form a secret key is kept in. */
  keyHash: Buffer;
  /** The whole key, kept for publishable keys made from version 1.2 on (they are public); always null for a secret key. */
  keyValue: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** An organization's API keys. */
export interface ApiKeyStore {
  insertApiKey(row: ApiKeyRow): Promise<void>;
  /** The key whose hash is exactly these bytes (every request on /v1 and /public looks its key up so). */
  getApiKeyByHash(hash: Buffer): Promise<ApiKeyRow | undefined>;
  getApiKey(id: string): Promise<ApiKeyRow | undefined>;
  /** Oldest first, id breaking ties (byte for byte). */
  listApiKeys(orgId: string): Promise<ApiKeyRow[]>;
  /** Revokes the key at `at`; a key already revoked keeps its first revocation time. */
  revokeApiKey(id: string, at: number): Promise<void>;
  /** Records the key's last use, revoked or not. */
  touchApiKey(id: string, at: number): Promise<void>;
}

const COLUMNS = `id, org_id AS "orgId", name, type, scopes, prefix, key_hash AS "keyHash", key_value AS "keyValue",
  created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

export function apiKeyStore(sql: Sql): ApiKeyStore {
  return {
    async insertApiKey(row) {
      await sql.run(
        `INSERT INTO api_keys (id, org_id, name, type, scopes, prefix, key_hash, key_value, created_at, last_used_at, revoked_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.name, row.type, row.scopes, row.prefix, row.keyHash, row.keyValue, row.createdAt, row.lastUsedAt, row.revokedAt],
      );
    },
    getApiKeyByHash: (hash) => sql.getCached<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ?`, [hash]),
    getApiKey: (id) => sql.get<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`, [id]),
    listApiKeys: (orgId) => sql.all<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE org_id = ? ORDER BY created_at, id`, [orgId]),
    async revokeApiKey(id, at) {
      await sql.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]);
    },
    async touchApiKey(id, at) {
      await sql.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [at, id]);
    },
  };
}
