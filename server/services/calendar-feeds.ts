import { randomBytes } from 'node:crypto';
import type { Actor } from '../domain/actor.js';
import { recordActivity } from './activity.js';
import { hashSecret, sameHash } from '../domain/api-keys.js';
import { newId } from '../domain/ids.js';
import { notFound } from '../domain/refusal.js';
import type { CalendarFeedRow } from '../store/calendar-feeds.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/sql.js';

const DAY_MS = 86_400_000;
/** A feed shows bookings whose slot starts within the last 90 and the next 730 days. */
const FEED_PAST_MS = 90 * DAY_MS;
const FEED_FUTURE_MS = 730 * DAY_MS;

/** 32 random bytes in base64url, no padding. */
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export function feedUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/api/ical/${token}`;
}

/** A feed with a fresh token (32 random bytes, base64url); only the token's hash is kept. */
export async function createCalendarFeed(
  store: Store,
  input: { orgId: string; name: string; experienceId: string | null },
  now: number,
  actor: Actor,
) {
  if (input.experienceId !== null && !await store.experiences.getExperience(input.orgId, input.experienceId)) throw notFound('Experience');
  const token = randomBytes(32).toString('base64url');
  const row: CalendarFeedRow = {
    id: newId('calendarFeed'),
    orgId: input.orgId,
    name: input.name,
    experienceId: input.experienceId,
    tokenHash: hashSecret(token),
    createdAt: now,
  };
  await store.transaction(async () => {
    await store.calendarFeeds.insertCalendarFeed(row);
    await recordActivity(store, input.orgId, actor, { action: 'calendar_feed.create', targetType: 'calendar_feed', targetId: row.id, summary: `Created the feed ${row.name}` }, now);
  });
  return { row, token };
}

/**
 * The feed a token opens, or undefined for a malformed, unknown or deleted one. The look-up is by
 * SHA-256 of the token, so its timing tells nothing about the token itself; the comparison that
 * follows is constant-time so that this stays true whatever index sits behind the store.
 */
export async function feedForToken(store: Store, token: string): Promise<CalendarFeedRow | undefined> {
  if (!TOKEN_RE.test(token)) return undefined;
  const hash = hashSecret(token);
  const row = await store.calendarFeeds.getCalendarFeedByTokenHash(hash);
  return row && sameHash(Buffer.from(row.tokenHash), hash) ? row : undefined;
}

export async function deleteCalendarFeed(store: Store, orgId: string, id: string, now: number, actor: Actor): Promise<void> {
  await store.transaction(async () => {
    if (!await store.calendarFeeds.deleteCalendarFeed(orgId, id)) throw notFound('Calendar feed');
    await recordActivity(store, orgId, actor, { action: 'calendar_feed.delete', targetType: 'calendar_feed', targetId: id, summary: 'Deleted a bookings feed' }, now);
  });
}

export async function listCalendarFeeds(store: Store, orgId: string, page: Page): Promise<PageResult<CalendarFeedRow>> {
  return await store.calendarFeeds.listCalendarFeeds(orgId, page);
}

export async function getCalendarFeed(store: Store, orgId: string, id: string): Promise<CalendarFeedRow> {
  const row = await store.calendarFeeds.getCalendarFeed(orgId, id);
  if (!row) throw notFound('Calendar feed');
  return row;
}

/** What a feed token opens: the feed, its organization and the bookings it shows; undefined for any other token. */
export async function bookingsFeed(store: Store, token: string, now: number) {
  const feed = await feedForToken(store, token);
  const organization = feed && await store.organizations.getOrganization(feed.orgId);
  if (!feed || !organization) return undefined;
  const bookings = await store.bookings.listActiveBookingsBetween(organization.id, now - FEED_PAST_MS, now + FEED_FUTURE_MS + 1, feed.experienceId ?? undefined);
  return { feed, organization, bookings };
}
