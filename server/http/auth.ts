import type { Context } from 'hono';
import { Refusal } from '../domain/refusal.js';
import type { Caller } from './context.js';
import { hashSecret, parseApiKey, sameHash } from '../domain/api-keys.js';
import type { Store } from '../store/index.js';
import type { ApiKeyType, Scope } from '../../shared/index.js';

const LAST_USED_GRANULARITY_MS = 60_000;

function invalidKey(message = 'The API key is not valid') {
  return new Refusal('INVALID_API_KEY', message);
}

/** Resolves a presented key to its caller, or throws `401 INVALID_API_KEY`. */
export function resolveKey(store: Store, presented: string, expected: ApiKeyType, now: number): Caller {
  const type = parseApiKey(presented);
  if (type === null) throw invalidKey('The API key is malformed or mistyped');
  if (type !== expected) {
    throw invalidKey(
      expected === 'secret'
        ? 'Publishable keys (opk_) cannot be used on /v1: use a secret key (osk_)'
        : 'Secret keys (osk_) must never be used in a browser: use a publishable key (opk_)',
    );
  }
  const hash = hashSecret(presented);
  const row = store.getApiKeyByHash(hash);
  if (!row || !sameHash(row.keyHash, hash)) throw invalidKey();
  if (row.revokedAt !== null) throw invalidKey('The API key has been revoked');
  // lastUsedAt is written at most once a minute per key, so reads do not turn into writes.
  if (row.lastUsedAt === null || now - row.lastUsedAt >= LAST_USED_GRANULARITY_MS) store.touchApiKey(row.id, now);
  // Publishable keys act for guests in a browser; the activity log names them as such.
  const actor: Caller['actor'] =
    row.type === 'secret' ? { type: 'key', id: row.id, name: row.name, ip: null } : { type: 'guest', id: null, name: 'Guest', ip: null };
  return { orgId: row.orgId, keyId: row.id, type: row.type, scopes: JSON.parse(row.scopes) as Caller['scopes'], actor };
}

/** `/v1`: `Authorization: Bearer osk_…`. */
export function authenticateSecret(c: Context, store: Store, now: number): Caller {
  const header = c.req.header('authorization');
  if (!header) throw new Refusal('UNAUTHORIZED', 'Send your secret key as Authorization: Bearer osk_…');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new Refusal('UNAUTHORIZED', 'Use the Bearer scheme: Authorization: Bearer osk_…');
  return resolveKey(store, match[1], 'secret', now);
}

/** `/public/v1`: the publishable key in `X-Outing-Key` or `?key=`. */
export function authenticatePublishable(c: Context, store: Store, now: number): Caller {
  const presented = c.req.header('x-outing-key') ?? c.req.query('key');
  if (!presented) throw new Refusal('UNAUTHORIZED', 'Send a publishable key in X-Outing-Key or ?key=');
  return resolveKey(store, presented, 'publishable', now);
}

export function requireScope(caller: Caller, scope: Scope): void {
  if (caller.scopes.includes('*') || caller.scopes.includes(scope)) return;
  throw new Refusal('FORBIDDEN', `This API key lacks the scope ${scope}`);
}
