import type { Reply } from './reply.js';
import type { ExperienceAvailability } from '../domain/availability.js';
import { serializeAvailability } from '../serializers/availability.js';

/** How long an answer may be reused when nothing was written: a slot entering its notice period or a new day shows within this. */
export const ANSWER_TTL_MS = 2_000;
/** Answers kept at most, in bytes of JSON: a page of 100 bookings is ~65 KB. */
const MAX_BYTES = 16 * 1024 * 1024;

interface Entry {
  json: string;
  marker: string;
  expiresAt: number;
}

/**
 * Serialized answers of reads, reused while the database has not changed (any write, here or from
 * another process, changes the marker) and for at most a couple of seconds. A widget page that
 * many visitors open at once, or a dashboard polling a list, then costs one computation, not one
 * per request; every write still checks and changes the data in its own transaction, so a reused
 * answer can never let a slot be overbooked.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  get(key: string, marker: string, now: number): Reply | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.marker !== marker || entry.expiresAt <= now) {
      this.drop(key, entry);
      return undefined;
    }
    return { status: 200, body: undefined, json: entry.json };
  }

  set(key: string, marker: string, body: unknown, validUntil: number, now: number): Reply {
    const json = JSON.stringify(body);
    const previous = this.entries.get(key);
    if (previous) this.drop(key, previous);
    // Oldest first: a Map iterates in insertion order.
    for (const [oldKey, old] of this.entries) {
      if (this.bytes + json.length <= MAX_BYTES) break;
      this.drop(oldKey, old);
    }
    if (json.length <= MAX_BYTES) {
      this.entries.set(key, { json, marker, expiresAt: Math.min(validUntil, now + ANSWER_TTL_MS) });
      this.bytes += json.length;
    }
    return { status: 200, body: undefined, json };
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.json.length;
  }
}

/** The answer for `key`: reused while valid, else computed; `validUntil` may cut its life shorter. */
export async function cachedAnswer(
  cache: AnswerCache,
  store: { changeMarker(): Promise<string> },
  key: string,
  now: number,
  compute: () => Promise<{ body: unknown; validUntil?: number }>,
): Promise<Reply> {
  // Read before computing: a write meanwhile changes the marker, so this answer is never reused after it.
  const marker = await store.changeMarker();
  const hit = cache.get(key, marker, now);
  if (hit) return hit;
  const { body, validUntil } = await compute();
  return cache.set(key, marker, body, validUntil ?? Number.POSITIVE_INFINITY, now);
}

/** Availability stays true until its first slot enters the experience's notice period (or, ignoring it, ends). */
export async function cachedAvailability(
  cache: AnswerCache,
  store: { changeMarker(): Promise<string> },
  key: string,
  now: number,
  compute: () => Promise<ExperienceAvailability>,
): Promise<Reply> {
  return await cachedAnswer(cache, store, key, now, async () => {
    const availability = await compute();
    const first = availability.slots[0];
    return {
      body: { success: true, data: serializeAvailability(availability) },
      validUntil: first ? (availability.ignoreNotice ? first.end : first.start - availability.minNoticeMinutes * 60_000) : undefined,
    };
  });
}
