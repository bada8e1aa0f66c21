import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import { openTestStore, testEngine } from '../test-helpers/index.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2027, 2, 1, 8, 0, 0);

describe(`rate-limit store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
  });
  afterEach(async () => {
    await opened.close();
  });

  const hit = (bucket: string, at: number) => store.rateLimits.hitRateWindow(bucket, at, MINUTE);

  it('opens a window at the first hit, counts hits in it, and opens the next once it has run a minute', async () => {
    expect(await hit('key_a', T0 + 123)).toStrictEqual({ windowStart: T0 + 123, hits: 1 });
    expect(await hit('key_a', T0 + 30_000)).toStrictEqual({ windowStart: T0 + 123, hits: 2 });
    // Callers count apart; a bucket is matched exactly (case and all).
    expect(await hit('KEY_A', T0 + 30_000)).toStrictEqual({ windowStart: T0 + 30_000, hits: 1 });
    expect(await hit('public:r:203.0.113.9', T0 + 30_000)).toStrictEqual({ windowStart: T0 + 30_000, hits: 1 });
    // The last millisecond of the window still counts in it; the next opens a new one.
    expect(await hit('key_a', T0 + 123 + MINUTE - 1)).toStrictEqual({ windowStart: T0 + 123, hits: 3 });
    expect(await hit('key_a', T0 + 123 + MINUTE)).toStrictEqual({ windowStart: T0 + 123 + MINUTE, hits: 1 });
    expect(await hit('key_a', T0 + 123 + MINUTE)).toStrictEqual({ windowStart: T0 + 123 + MINUTE, hits: 2 });
    // Four windows: key_a twice, KEY_A, the address. Pruning past them all deletes four.
    expect(await store.rateLimits.pruneRateWindows(T0 + 10 * MINUTE)).toBe(4);
  });

  it('lets a hit join the latest running window, and one stamped before it opened (a clock behind) too', async () => {
    // Processes a few milliseconds apart each opened a window (they raced): later hits join the latest.
    expect(await hit('key_a', T0)).toStrictEqual({ windowStart: T0, hits: 1 });
    expect(await hit('key_a', T0 + MINUTE + 5)).toStrictEqual({ windowStart: T0 + MINUTE + 5, hits: 1 });
    expect(await hit('key_a', T0 + MINUTE + 10)).toStrictEqual({ windowStart: T0 + MINUTE + 5, hits: 2 });
    expect(await hit('key_a', T0 + MINUTE + 2)).toStrictEqual({ windowStart: T0 + MINUTE + 5, hits: 3 });
  });

  it('counts well past any limit, at instants past 2^32', async () => {
    const far = 8_000_000_000_000; // year 2223
    for (let i = 1; i <= 50; i++) expect(await hit('busy', far + i)).toStrictEqual({ windowStart: far + 1, hits: i });
  });

  it('prunes the windows that opened at or before an instant, and answers how many', async () => {
    for (const [bucket, at] of [['a', T0], ['b', T0 + 1_000], ['a', T0 + MINUTE], ['c', T0 + 2 * MINUTE]] as const) await hit(bucket, at);
    expect(await store.rateLimits.pruneRateWindows(T0 - 1)).toBe(0);
    expect(await store.rateLimits.pruneRateWindows(T0 + 1_000)).toBe(2);
    // What is left: a's second window and c's, each with its one hit.
    expect(await hit('a', T0 + MINUTE + 1)).toStrictEqual({ windowStart: T0 + MINUTE, hits: 2 });
    expect(await hit('c', T0 + 2 * MINUTE + 1)).toStrictEqual({ windowStart: T0 + 2 * MINUTE, hits: 2 });
    // b's window is gone: its next hit opens a new one.
    expect(await hit('b', T0 + 1_001)).toStrictEqual({ windowStart: T0 + 1_001, hits: 1 });
    expect(await store.rateLimits.pruneRateWindows(T0 + 10 * MINUTE)).toBe(3);
    expect(await store.rateLimits.pruneRateWindows(T0 + 10 * MINUTE)).toBe(0);
  });

  it('counts every one of many hits sent at once into the running window', async () => {
    await hit('key_a', T0);
    const hits = await Promise.all(Array.from({ length: 20 }, (_, i) => hit('key_a', T0 + 1 + i)));
    expect(hits.every((h) => h.windowStart === T0)).toBe(true);
    expect(hits.map((h) => h.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect(await hit('key_a', T0 + 100)).toStrictEqual({ windowStart: T0, hits: 22 });
  });
});
