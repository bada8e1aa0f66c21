import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Refusal } from './refusal.js';
import { assertPlacesFor, assertStatusMove, holdsPlaces, maxPartySize, overlapsAny, remainingPlaces } from './bookings.js';
import { BOOKING_STATUSES, type BookingStatus } from '../../shared/index.js';

function thrown(work: () => void): Refusal | undefined {
  try {
    work();
    return undefined;
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
}

describe('status moves', () => {
  const allowed = new Set(['PENDING>CONFIRMED', 'PENDING>CANCELLED', 'CONFIRMED>CANCELLED']);

  for (const from of BOOKING_STATUSES) {
    for (const to of BOOKING_STATUSES) {
      const move = `${from}>${to}`;
      if (from === to) {
        it(`treats ${from} → ${to} as no move`, () => expect(thrown(() => assertStatusMove(from, to))).toBeUndefined());
      } else if (allowed.has(move)) {
        it(`allows ${from} → ${to}`, () => expect(thrown(() => assertStatusMove(from, to))).toBeUndefined());
      } else {
        it(`refuses ${from} → ${to} with 409 INVALID_STATUS_TRANSITION`, () => {
          const err = thrown(() => assertStatusMove(from, to));
          expect(err).toMatchObject({ code: 'INVALID_STATUS_TRANSITION' });
          expect(err?.details).toBeUndefined();
        });
      }
    }
  }

  it('lets CONFIRMED and PENDING hold places, and CANCELLED free them', () => {
    const holding = BOOKING_STATUSES.filter((s: BookingStatus) => holdsPlaces(s));
    expect(holding.sort()).toEqual(['CONFIRMED', 'PENDING']);
  });
});

describe('places', () => {
  it('never gives a negative number of remaining places', () => {
    expect(remainingPlaces(10, 3)).toBe(7);
    expect(remainingPlaces(10, 10)).toBe(0);
    expect(remainingPlaces(5, 8)).toBe(0);
  });

  it('refuses a party larger than the places left, with "N remaining" in details', () => {
    expect(thrown(() => assertPlacesFor(3, 10, 7))).toBeUndefined();
    const err = thrown(() => assertPlacesFor(4, 10, 7));
    expect(err).toMatchObject({ code: 'CAPACITY_EXCEEDED', details: [{ path: 'participants', message: '3 remaining' }] });
    expect(thrown(() => assertPlacesFor(1, 5, 9))?.details).toEqual([{ path: 'participants', message: '0 remaining' }]);
  });

  it('accepts exactly when the party fits (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 20_000 }), (party, capacity, booked) => {
        const err = thrown(() => assertPlacesFor(party, capacity, booked));
        expect(err === undefined).toBe(booked + party <= capacity);
      }),
    );
  });

  it('lets an unset maxPerBooking follow the capacity', () => {
    expect(maxPartySize({ maxPerBooking: null, maxParticipants: 12 })).toBe(12);
    expect(maxPartySize({ maxPerBooking: 4, maxParticipants: 12 })).toBe(4);
  });
});

describe('overlapsAny', () => {
  it('treats intervals as half-open [start, end)', () => {
    const busy = [{ start: 100, end: 200 }];
    expect(overlapsAny(0, 100, busy)).toBe(false);
    expect(overlapsAny(200, 300, busy)).toBe(false);
    expect(overlapsAny(199, 300, busy)).toBe(true);
    expect(overlapsAny(0, 101, busy)).toBe(true);
    expect(overlapsAny(120, 130, busy)).toBe(true);
    expect(overlapsAny(0, 1000, [])).toBe(false);
  });
});
