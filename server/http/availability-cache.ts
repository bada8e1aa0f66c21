import type { Reply } from './reply.js';
import type { ExperienceAvailability } from '../domain/availability.js';
import { serializeAvailability } from '../serializers/availability.js';

/** How long an answer may be reused when nothing was written: a slot entering its notice period or a new day shows within this. */
export const AVAILABILITY_TTL_MS = 2_000;
const MAX_ENTRIES = 2_000;

interface Entry {
  json: string;
  marker: string;
  expiresAt: number;
}

/**
 * Serialized availability answers, reused while the database has not changed (any write, here or
 * from another process, changes the marker) and for at most a couple of seconds, and never past
 * the moment the first slot in the answer enters its notice period. A widget page that many
 * visitors open at once then costs one computation, not one per visitor; booking still checks
 * places in its own transaction, so a reused answer can never let a slot be overbooked.
 */
export class AvailabilityCache {
  private readonly entries = new Map<string, Entry>();

  get(key: string, marker: string, now: number): Reply | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.marker !== marker || entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return { status: 200, body: undefined, json: entry.json };
  }

  set(key: string, marker: string, body: unknown, validUntil: number, now: number): Reply {
    const json = JSON.stringify(body);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { json, marker, expiresAt: Math.min(validUntil, now + AVAILABILITY_TTL_MS) });
    return { status: 200, body: undefined, json };
  }
}

/**
 * The answer for `key`: reused when still valid, else computed. The experience's notice period
 * bounds how long an answer stays true.
 */
export function cachedAvailability(
  cache: AvailabilityCache,
  store: { changeMarker(): string },
  key: string,
  now: number,
  compute: () => ExperienceAvailability,
): Reply {
  const marker = store.changeMarker();
  const hit = cache.get(key, marker, now);
  if (hit) return hit;
  const availability = compute();
  const first = availability.slots[0];
  const validUntil = first ? first.start - availability.minNoticeMinutes * 60_000 : Number.POSITIVE_INFINITY;
  return cache.set(key, marker, { success: true, data: serializeAvailability(availability) }, validUntil, now);
}
