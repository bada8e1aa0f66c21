import { describe, expect, it } from 'vitest';
import { entriesToOffer, offerEndsAt } from './waitlist-offers.js';

const MINUTE = 60_000;

describe('entriesToOffer', () => {
  const entry = (id: string, places: number) => ({ id, places });

  it('takes the oldest entries that fit, a smaller later party passing a larger one', () => {
    const waiting = [entry('a', 3), entry('b', 1), entry('c', 2), entry('d', 1)];
    expect(entriesToOffer(waiting, 2).map((e) => e.id)).toEqual(['b', 'd']);
    expect(entriesToOffer(waiting, 3).map((e) => e.id)).toEqual(['a']);
    expect(entriesToOffer(waiting, 4).map((e) => e.id)).toEqual(['a', 'b']);
    expect(entriesToOffer(waiting, 7).map((e) => e.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('offers nothing when nothing fits, and a party that takes no places always fits', () => {
    expect(entriesToOffer([entry('a', 2)], 1)).toEqual([]);
    expect(entriesToOffer([entry('a', 2), entry('free', 0)], 0).map((e) => e.id)).toEqual(['free']);
  });
});

describe('offerEndsAt', () => {
  const start = Date.UTC(2027, 2, 2, 18, 0, 0);

  it('is the offer time after now', () => {
    expect(offerEndsAt(start - 24 * 60 * MINUTE, 720, start, 0)).toBe(start - 12 * 60 * MINUTE);
  });

  it('is never after the departure stops taking bookings', () => {
    expect(offerEndsAt(start - 10 * 60 * MINUTE, 720, start, 0)).toBe(start);
    expect(offerEndsAt(start - 10 * 60 * MINUTE, 720, start, 120)).toBe(start - 120 * MINUTE);
  });
});
