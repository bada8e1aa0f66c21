// How long a dashboard session lives, and how its secrets are checked.
import { createHash, timingSafeEqual } from 'node:crypto';

/** A session ends after this long unused… */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** …and after this long in all, however busy. */
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** Activity is written to a session at most this often, so that reads do not all turn into writes. */
export const SESSION_TOUCH_GRANULARITY_MS = 60_000;

/** A cookie's token as the store keeps it: its SHA-256, never the token. */
export const hashSessionToken = (token: string): Buffer => createHash('sha256').update(token).digest();

/** Whether a session has ended by age: idle for SESSION_IDLE_MS, or SESSION_MAX_MS old. */
export const sessionLapsed = (session: { lastSeenAt: number; createdAt: number }, now: number): boolean =>
  now - session.lastSeenAt >= SESSION_IDLE_MS || now - session.createdAt >= SESSION_MAX_MS;

/** Whether `presented` is the session's CSRF token, compared in constant time. */
export function csrfTokenMatches(session: { csrfToken: string }, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
