import type { Actor } from '../domain/actor.js';
import { newId } from '../domain/ids.js';
import type { ActivityFilter, ActivityRow } from '../store/activity.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/sql.js';

/** What changed: `action` is `<resource>.<verb>` (`booking.create`, `api_key.revoke`, …). */
export interface ActivityEntry {
  action: string;
  targetType: string;
  targetId: string;
  /** One line for a person: "Cancelled BK-7Q2M4X9A (2 guests, Sunset walk)". */
  summary: string;
}

/** Kept this long, then pruned with the other expired records. */
export const ACTIVITY_RETENTION_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Records one change. Call it inside the transaction of the change itself, so the log can never
 * show a change that did not happen, nor miss one that did.
 */
export async function recordActivity(store: Store, orgId: string, actor: Actor, entry: ActivityEntry, now: number): Promise<void> {
  await store.activity.insertActivity({
    id: newId('activity'),
    orgId,
    actorType: actor.type,
    actorId: actor.id,
    actorName: actor.name,
    ...entry,
    summary: entry.summary.slice(0, 500),
    ip: actor.ip,
    createdAt: now,
  });
}

export async function listActivity(store: Store, orgId: string, filter: ActivityFilter, page: Page): Promise<PageResult<ActivityRow>> {
  return await store.activity.listActivity(orgId, filter, page);
}
