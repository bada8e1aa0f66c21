import { generateApiKey, hashSecret, keyDisplayPrefix } from '../domain/api-keys.js';
import type { Actor } from '../domain/actor.js';
import { newId } from '../domain/ids.js';
import { Refusal, invalid, notFound } from '../domain/refusal.js';
import { recordActivity } from './activity.js';
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

/**
 * A new key. The store keeps a SHA-256 of it; a publishable key, which every page embedding the
 * widget shows anyway, keeps its value too, so that it can be listed and put into embed snippets.
 * A secret key's value exists only in the return value.
 */
export async function createApiKey(
  store: Store,
  input: { orgId: string; name: string; type: ApiKeyType; scopes?: Scope[] },
  now: number,
): Promise<CreatedKey> {
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
    keyValue: input.type === 'publishable' ? key : null,
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  await store.apiKeys.insertApiKey(row);
  return { id: row.id, name: row.name, type: row.type, scopes, key };
}

export async function listApiKeys(store: Store, orgId: string): Promise<ApiKeyRow[]> {
  return await store.apiKeys.listApiKeys(orgId);
}

/** Who asks for a new key, and with what: a key may only be given scopes its maker holds. */
export interface KeyGrantor {
  orgId: string;
  scopes: readonly (Scope | '*')[];
  actor: Actor;
}

/**
 * A key made over the API or on the command line, logged as `api_key.create`. Without scopes it
 * gets the maker's own; asking for more than the maker holds is refused, so no key or user can
 * raise its own rights by minting a wider key.
 */
export async function issueApiKey(
  store: Store,
  grantor: KeyGrantor,
  input: { name: string; type: ApiKeyType; scopes?: Scope[] },
  now: number,
): Promise<{ row: ApiKeyRow; key: string }> {
  const all = grantor.scopes.includes('*');
  if (input.type === 'publishable' && input.scopes !== undefined) throw invalid('scopes', 'Publishable keys take no scopes');
  const beyond = (input.scopes ?? []).filter((s) => !all && !grantor.scopes.includes(s));
  if (beyond.length) throw new Refusal('FORBIDDEN', `A new key cannot hold scopes you lack: ${beyond.join(', ')}`);
  const scopes = input.scopes ?? (all ? undefined : (grantor.scopes as Scope[]));
  return await store.transaction(async () => {
    const created = await createApiKey(store, { orgId: grantor.orgId, name: input.name, type: input.type, scopes }, now);
    await recordActivity(
      store,
      grantor.orgId,
      grantor.actor,
      { action: 'api_key.create', targetType: 'api_key', targetId: created.id, summary: `Created the ${input.type} key ${input.name}` },
      now,
    );
    const row = await store.apiKeys.getApiKey(created.id);
    if (!row) throw notFound('API key');
    return { row, key: created.key };
  });
}

/** Refuses a key at once, the key making the request included. Revoking it again changes nothing. */
export async function revokeApiKey(store: Store, orgId: string, actor: Actor, id: string, now: number): Promise<ApiKeyRow> {
  return await store.transaction(async () => {
    const row = await store.apiKeys.getApiKey(id);
    if (!row || row.orgId !== orgId) throw notFound('API key');
    if (row.revokedAt !== null) return row;
    await store.apiKeys.revokeApiKey(id, now);
    await recordActivity(
      store,
      orgId,
      actor,
      { action: 'api_key.revoke', targetType: 'api_key', targetId: id, summary: `Revoked the ${row.type} key ${row.name} (${row.prefix}…)` },
      now,
    );
    return { ...row, revokedAt: now };
  });
}
