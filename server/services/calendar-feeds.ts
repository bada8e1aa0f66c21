import { randomBytes } from 'node:crypto';
import { hashSecret } from '../domain/api-keys.js';
import { newId } from '../domain/ids.js';
import type { Store } from '../store/index.js';

export function feedUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/api/ical/${token}`;
}

/** A feed with a fresh token (32 random bytes, base64url); only the token's hash is kept. */
export function createCalendarFeed(
  store: Store,
  input: { orgId: string; name: string; experienceId: string | null },
  now: number,
) {
  const token = randomBytes(32).toString('base64url');
  const row = { id: newId('calendarFeed'), orgId: input.orgId, name: input.name, experienceId: input.experienceId, tokenHash: hashSecret(token), createdAt: now };
  store.insertCalendarFeed(row);
  return { row, token };
}
