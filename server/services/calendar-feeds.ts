import { randomBytes } from 'node:crypto';
import { hashSecret, sameHash } from '../domain/api-keys.js';
import { newId } from '../domain/ids.js';
import { notFound } from '../domain/refusal.js';
import { iso } from '../serialize.js';
import type { CalendarFeedRow } from '../store/calendar-feeds.js';
import type { Store } from '../store/index.js';
import type { CalendarFeed } from '../../shared/index.js';

/** 32 random bytes in base64url, no padding. */
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export function feedUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/api/ical/${token}`;
}

/** A feed with a fresh token (32 random bytes, base64url); only the token's hash is kept. */
export function createCalendarFeed(
  store: Store,
  input: { orgId: string; name: string; experienceId: string | null },
  now: number,
) {
  if (input.experienceId !== null && !store.getExperience(input.orgId, input.experienceId)) throw notFound('Experience');
  const token = randomBytes(32).toString('base64url');
  const row: CalendarFeedRow = {
    id: newId('calendarFeed'),
    orgId: input.orgId,
    name: input.name,
    experienceId: input.experienceId,
    tokenHash: hashSecret(token),
    createdAt: now,
  };
  store.insertCalendarFeed(row);
  return { row, token };
}

/**
 * The feed a token opens, or undefined for a malformed, unknown or deleted one. The look-up is by
 * SHA-256 of the token, so its timing tells nothing about the token itself; the comparison that
 * follows is constant-time so that this stays true whatever index sits behind the store.
 */
export function feedForToken(store: Store, token: string): CalendarFeedRow | undefined {
  if (!TOKEN_RE.test(token)) return undefined;
  const hash = hashSecret(token);
  const row = store.getCalendarFeedByTokenHash(hash);
  return row && sameHash(Buffer.from(row.tokenHash), hash) ? row : undefined;
}

export function deleteCalendarFeed(store: Store, orgId: string, id: string): void {
  if (!store.deleteCalendarFeed(orgId, id)) throw notFound('Calendar feed');
}

export function serializeCalendarFeed(row: CalendarFeedRow): CalendarFeed {
  return { id: row.id, name: row.name, experienceId: row.experienceId, createdAt: iso(row.createdAt) };
}
