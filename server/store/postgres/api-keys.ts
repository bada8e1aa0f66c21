import type { Async } from '../index.js';
import { COLUMNS as SQLITE_COLUMNS, type ApiKeyRow, type apiKeyStore } from '../api-keys.js';
import { quoteAliases, type PgDb } from './db.js';

/** SQLite's column list with its camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const COLUMNS = quoteAliases(SQLITE_COLUMNS);

/** key_hash is BYTEA: node-postgres sends and reads a Buffer, compared byte for byte as SQLite compares a BLOB. */
export function apiKeyStorePg(db: PgDb): Async<ReturnType<typeof apiKeyStore>> {
  return {
    async insertApiKey(row: ApiKeyRow): Promise<void> {
      await db.run(
        `INSERT INTO api_keys (id, org_id, name, type, scopes, prefix, key_hash, key_value, created_at, last_used_at, revoked_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [row.id, row.orgId, row.name, row.type, row.scopes, row.prefix, row.keyHash, row.keyValue, row.createdAt, row.lastUsedAt, row.revokedAt],
      );
    },
    async getApiKeyByHash(hash: Buffer): Promise<ApiKeyRow | undefined> {
      return await db.get<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`, [hash]);
    },
    async getApiKey(id: string): Promise<ApiKeyRow | undefined> {
      return await db.get<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]);
    },
    async listApiKeys(orgId: string): Promise<ApiKeyRow[]> {
      return await db.all<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
    },
    async revokeApiKey(id: string, at: number): Promise<void> {
      await db.run('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id]);
    },
    async touchApiKey(id: string, at: number): Promise<void> {
      await db.run('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id]);
    },
  };
}
