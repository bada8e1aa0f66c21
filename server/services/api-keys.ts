import { generateApiKey, hashSecret, keyDisplayPrefix } from '../domain/api-keys.js';
import { newId } from '../domain/ids.js';
import type { ApiKeyRow } from '../store/api-keys.js';
import type { Store } from '../store/index.js';
import type { ApiKeyType, Scope } from '../../shared/index.js';

export interface CreatedKey {
  id: string;
  name: string;
  type: ApiKeyType;
  scopes: (Scope | '*')[];
  key: string;
}

/** A new key; its full value exists only in the return value, the store keeps a SHA-256 of it. */
export function createApiKey(
  store: Store,
  input: { orgId: string; name: string; type: ApiKeyType; scopes?: Scope[] },
  now: number,
): CreatedKey {
  const key = generateApiKey(input.type);
  const scopes: (Scope | '*')[] = input.type === 'publishable' || !input.scopes?.length ? ['*'] : [...new Set(input.scopes)];
  const row: ApiKeyRow = {
    id: newId('apiKey'),
    orgId: input.orgId,
    name: input.name,
    type: input.type,
    scopes: JSON.stringify(scopes),
    prefix: keyDisplayPrefix(key),
    keyHash: hashSecret(key),
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  store.insertApiKey(row);
  return { id: row.id, name: row.name, type: row.type, scopes, key };
}
