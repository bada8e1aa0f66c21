import type { ApiKeyRow } from '../store/api-keys.js';
import { iso, isoOrNull } from './instant.js';

/**
 * A key as listed: the prefix that lets a person recognise it, and the whole value of a publishable
 * key (public by design) when it was kept; a secret key's value never, nor any hash.
 */
export function serializeApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    scopes: JSON.parse(row.scopes) as string[],
    prefix: row.prefix,
    key: row.type === 'publishable' ? row.keyValue : null,
    createdAt: iso(row.createdAt),
    lastUsedAt: isoOrNull(row.lastUsedAt),
    revokedAt: isoOrNull(row.revokedAt),
  };
}
