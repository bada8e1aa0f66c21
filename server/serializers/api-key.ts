import type { ApiKeyRow } from '../store/api-keys.js';
import { iso, isoOrNull } from './instant.js';

/** A key as listed: never its value or hash, only the prefix that lets a person recognise it. */
export function serializeApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    scopes: JSON.parse(row.scopes) as string[],
    prefix: row.prefix,
    createdAt: iso(row.createdAt),
    lastUsedAt: isoOrNull(row.lastUsedAt),
    revokedAt: isoOrNull(row.revokedAt),
  };
}
