import { describe, expect, it } from 'vitest';
import { ANSWER_TTL_MS, AnswerCache, cachedAvailability } from './answer-cache.js';
import { serializeAvailability } from '../serializers/availability.js';

const slotAt = (ms: number) => ({ id: 'ts_x', start: ms, end: ms + 3_600_000, capacity: 10, booked: 0, remaining: 10, unavailableReason: null });

function counting(slots: ReturnType<typeof slotAt>[], minNoticeMinutes = 0) {
  let computed = 0;
  return {
    get computed() {
      return computed;
    },
    compute: async () => {
      computed++;
      return { experienceId: 'exp_x', timezone: 'UTC', startDate: '2027-01-01', endDate: '2027-01-02', slots, minNoticeMinutes };
    },
  };
}

describe('availability answers reused while nothing changed', () => {
  const now = Date.UTC(2027, 0, 1, 8);
  const later = now + 6 * 3_600_000;

  it('computes once for repeated questions while the database is unchanged', async () => {
    const cache = new AnswerCache();
    const source = counting([slotAt(later)]);
    const store = { changeMarker: async () => '1:1' };
    const first = await cachedAvailability(cache, store, 'k', now, source.compute);
    const second = await cachedAvailability(cache, store, 'k', now + 100, source.compute);
    expect(source.computed).toBe(1);
    expect(second.json).toBe(first.json);
    expect(JSON.parse(first.json ?? '')).toEqual({ success: true, data: serializeAvailability(await source.compute()) });
  });

  it('computes again after any write, here or by another process', async () => {
    const cache = new AnswerCache();
    const source = counting([slotAt(later)]);
    let marker = '1:1';
    const store = { changeMarker: async () => marker };
    await cachedAvailability(cache, store, 'k', now, source.compute);
    marker = '2:1';
    await cachedAvailability(cache, store, 'k', now, source.compute);
    marker = '2:2';
    await cachedAvailability(cache, store, 'k', now, source.compute);
    expect(source.computed).toBe(3);
  });

  it('computes again after its time to live', async () => {
    const cache = new AnswerCache();
    const source = counting([slotAt(later)]);
    const store = { changeMarker: async () => '1:1' };
    await cachedAvailability(cache, store, 'k', now, source.compute);
    await cachedAvailability(cache, store, 'k', now + ANSWER_TTL_MS, source.compute);
    expect(source.computed).toBe(2);
  });

  it('never serves an answer past the moment its first slot enters the notice period', async () => {
    const cache = new AnswerCache();
    // The first slot's notice period (60 min) begins one second from now, inside the time to live.
    const soon = now + 60 * 60_000 + 1_000;
    const source = counting([slotAt(soon)], 60);
    const store = { changeMarker: async () => '1:1' };
    await cachedAvailability(cache, store, 'k', now, source.compute);
    await cachedAvailability(cache, store, 'k', now + 999, source.compute);
    expect(source.computed).toBe(1);
    await cachedAvailability(cache, store, 'k', now + 1_000, source.compute);
    expect(source.computed).toBe(2);
  });

  it('keeps different questions apart and does not keep refusals', async () => {
    const cache = new AnswerCache();
    const store = { changeMarker: async () => '1:1' };
    const a = counting([slotAt(later)]);
    const b = counting([]);
    await cachedAvailability(cache, store, 'a', now, a.compute);
    await cachedAvailability(cache, store, 'b', now, b.compute);
    expect([a.computed, b.computed]).toEqual([1, 1]);
    const refuse = () => {
      throw new Error('no such experience');
    };
    await expect(cachedAvailability(cache, store, 'c', now, refuse)).rejects.toThrow();
    await expect(cachedAvailability(cache, store, 'c', now, refuse)).rejects.toThrow();
  });
});
