import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { timingSafeEqual } from 'node:crypto';
import { Refusal } from '../domain/refusal.js';
import type { Caller } from './context.js';
import { hashSecret, parseApiKey, sameHash } from '../domain/api-keys.js';
import type { Store } from '../store/index.js';
import type { SessionRow, UserRow } from '../store/users.js';
import { scopesOf } from '../domain/roles.js';
import { SESSION_TOUCH_GRANULARITY_MS, csrfTokenMatches, hashSessionToken, sessionLapsed } from '../domain/sessions.js';
import type { ApiKeyType, Scope } from '../../shared/index.js';

const LAST_USED_GRANULARITY_MS = 60_000;

function invalidKey(message = 'The API key is not valid') {
  return new Refusal('INVALID_API_KEY', message);
}

/** Resolves a presented key to its caller, or throws `401 INVALID_API_KEY`. */
export async function resolveKey(store: Store, presented: string, expected: ApiKeyType, now: number): Promise<Caller> {
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
  const row = await store.apiKeys.getApiKeyByHash(hash);
  if (!row || !sameHash(row.keyHash, hash)) throw invalidKey();
  if (row.revokedAt !== null) throw invalidKey('The API key has been revoked');
  // lastUsedAt is written at most once a minute per key, so reads do not turn into writes.
  if (row.lastUsedAt === null || now - row.lastUsedAt >= LAST_USED_GRANULARITY_MS) await store.apiKeys.touchApiKey(row.id, now);
  // Publishable keys act for guests in a browser; the activity log names them as such.
  const actor: Caller['actor'] =
    row.type === 'secret' ? { type: 'key', id: row.id, name: row.name, ip: null } : { type: 'guest', id: null, name: 'Guest', ip: null };
  return { orgId: row.orgId, keyId: row.id, type: row.type, scopes: JSON.parse(row.scopes) as Caller['scopes'], actor };
}

/** `/v1`: `Authorization: Bearer osk_…`. */
export async function authenticateSecret(c: Context, store: Store, now: number): Promise<Caller> {
  const header = c.req.header('authorization');
  if (!header) throw new Refusal('UNAUTHORIZED', 'Send your secret key as Authorization: Bearer osk_…');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new Refusal('UNAUTHORIZED', 'Use the Bearer scheme: Authorization: Bearer osk_…');
  return await resolveKey(store, match[1], 'secret', now);
}

/** `/public/v1`: the publishable key in `X-Outing-Key` or `?key=`. */
export async function authenticatePublishable(c: Context, store: Store, now: number): Promise<Caller> {
  const presented = c.req.header('x-outing-key') ?? c.req.query('key');
  if (!presented) throw new Refusal('UNAUTHORIZED', 'Send a publishable key in X-Outing-Key or ?key=');
  return await resolveKey(store, presented, 'publishable', now);
}

export function requireScope(caller: Caller, scope: Scope): void {
  if (caller.scopes.includes('*') || caller.scopes.includes(scope)) return;
  throw new Refusal('FORBIDDEN', `${caller.userId ? 'Your role' : 'This API key'} lacks the scope ${scope}`);
}

/** The dashboard's cookie: its value is a session token, stored on the server only as a SHA-256. */
export const SESSION_COOKIE = 'outing_session';

/** A session that has not ended, and its user. */
export interface LiveSession {
  session: SessionRow;
  user: UserRow;
}

/**
 * The session a cookie's token names, while it lives: unknown, idle for 12 hours, 7 days old, or of
 * a user since disabled or deleted, it is none.
 */
export async function resolveSession(store: Store, token: string, now: number): Promise<LiveSession | undefined> {
  const hash = hashSessionToken(token);
  const session = await store.users.getSessionByHash(hash);
  if (!session || !(session.tokenHash.length === hash.length && timingSafeEqual(session.tokenHash, hash))) return undefined;
  if (sessionLapsed(session, now)) {
    await store.users.deleteSession(session.id);
    return undefined;
  }
  const user = await store.users.getUser(session.userId);
  if (!user || user.disabledAt !== null) return undefined;
  if (now - session.lastSeenAt >= SESSION_TOUCH_GRANULARITY_MS) await store.users.touchSession(session.id, now);
  return { session, user };
}

/** The session of the request's cookie, while it lives; `undefined` without one. */
export async function sessionOf(c: Context, store: Store, now: number): Promise<LiveSession | undefined> {
  const token = getCookie(c, SESSION_COOKIE);
  return token ? await resolveSession(store, token, now) : undefined;
}

/** The caller a live session stands for: its user, with the scopes of the user's role. */
export function sessionCaller(live: LiveSession): Caller {
  const { user } = live;
  return {
    orgId: user.orgId,
    userId: user.id,
    sessionId: live.session.id,
    type: 'session',
    scopes: scopesOf(user.role),
    actor: { type: 'user', id: user.id, name: user.name, ip: null },
  };
}

/**
 * `/v1` with the dashboard's cookie instead of a key. A browser sends the cookie by itself, so the
 * cookie alone proves nothing about who wrote the request: it must come with the session's CSRF
 * token in `X-CSRF-Token`, which only a page of Outing's origin can read (SameSite=Strict is the
 * second lock, the absence of CORS on `/v1` the third).
 */
export async function authenticateSessionOnApi(c: Context, store: Store, now: number): Promise<Caller | undefined> {
  if (c.req.header('authorization') !== undefined || getCookie(c, SESSION_COOKIE) === undefined) return undefined;
  const live = await sessionOf(c, store, now);
  if (!live) throw new Refusal('UNAUTHORIZED', 'Your session has ended: sign in again, or send a secret key as Authorization: Bearer osk_…');
  if (!csrfTokenMatches(live.session, c.req.header('x-csrf-token'))) {
    throw new Refusal('FORBIDDEN', 'Requests with the session cookie must send the session’s CSRF token as X-CSRF-Token');
  }
  return sessionCaller(live);
}

/** The dashboard's own routes: the cookie's live session, or `401 UNAUTHORIZED`. */
export async function authenticateSession(c: Context, store: Store, now: number): Promise<Caller> {
  const live = await sessionOf(c, store, now);
  if (!live) throw new Refusal('UNAUTHORIZED', 'Sign in first: no live session');
  return sessionCaller(live);
}
