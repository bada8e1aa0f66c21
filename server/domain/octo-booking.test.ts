import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  contactOf,
  extendedHold,
  guestOf,
  holdEndOf,
  isCancellable,
  localeOf,
  octoSlotStatus,
  octoStatusOf,
  partyOfItems,
  unitsOf,
  type StoredUnitItem,
} from './octo-booking.js';

const HOUR = 3_600_000;
const item = (unitId: string, priceCents: number): StoredUnitItem => ({ uuid: `u-${Math.random()}`, unitId, resellerReference: null, contact: contactOf(null), priceCents });

describe('OCTO booking rules', () => {
  it('shows a hold ON_HOLD until its end, EXPIRED from then on, before and after the sweeper cancels it', () => {
    const hold = { status: 'PENDING' as const, holdExpiresAt: 1000, expiredAt: null };
    expect(octoStatusOf(hold, 999)).toBe('ON_HOLD');
    expect(octoStatusOf(hold, 1000)).toBe('EXPIRED');
    expect(holdEndOf(hold, 'EXPIRED')).toBe(1000);
    const swept = { status: 'CANCELLED' as const, holdExpiresAt: null, expiredAt: 1000 };
    expect(octoStatusOf(swept, 5000)).toBe('EXPIRED');
    expect(holdEndOf(swept, 'EXPIRED')).toBe(1000);
    expect(octoStatusOf({ status: 'CANCELLED', holdExpiresAt: null, expiredAt: null }, 0)).toBe('CANCELLED');
    expect(octoStatusOf({ status: 'CONFIRMED', holdExpiresAt: null, expiredAt: null }, 0)).toBe('CONFIRMED');
  });

  it('lets a hold be cancelled always, a confirmed booking until the cutoff', () => {
    expect(isCancellable('ON_HOLD', 0, 24, 10 * HOUR)).toBe(true);
    expect(isCancellable('CONFIRMED', 48 * HOUR, 24, 23 * HOUR)).toBe(true);
    expect(isCancellable('CONFIRMED', 48 * HOUR, 24, 24 * HOUR)).toBe(false);
    expect(isCancellable('EXPIRED', 48 * HOUR, 24, 0)).toBe(false);
  });

  it('takes the guest from the contact: fullName, else first and last name; an address only if it is one', () => {
    expect(guestOf(contactOf({ fullName: ' Ana Sousa ', firstName: 'A', emailAddress: 'ana@example.com', phoneNumber: '+351 1' }))).toEqual({
      guestName: 'Ana Sousa', guestEmail: 'ana@example.com', guestPhone: '+351 1',
    });
    expect(guestOf(contactOf({ firstName: 'Rui', lastName: 'Lopes', emailAddress: 'not an address' }))).toEqual({ guestName: 'Rui Lopes', guestEmail: null, guestPhone: null });
    expect(guestOf(contactOf({ lastName: 'Lopes' })).guestName).toBe('Lopes');
    expect(guestOf(contactOf(null))).toEqual({ guestName: null, guestEmail: null, guestPhone: null });
  });

  it('speaks the first of the contact\'s languages Outing knows, else the organization\'s', () => {
    expect(localeOf(contactOf({ locales: ['xx', 'FR', 'de'] }), 'en')).toBe('fr');
    expect(localeOf(contactOf({ locales: ['en-GB'] }), 'pt')).toBe('pt');
    expect(localeOf(contactOf(null), 'nl')).toBe('nl');
  });

  it('makes a party of unit items: tickets per unit in the categories\' order, none for adult', () => {
    const adultOnly = unitsOf(4500, []);
    expect(partyOfItems(adultOnly, [item('adult', 4500), item('adult', 4500)])).toEqual({ participants: 2, places: 2, tickets: null, totalCents: 9000 });
    const categories = unitsOf(0, [
      { id: 'pc_a', name: 'Adult', price: 3000, type: 'ADULT', occupiesPlace: true, minAge: null, maxAge: null },
      { id: 'pc_i', name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, minAge: null, maxAge: 2 },
    ]);
    const party = partyOfItems(categories, [item('pc_i', 0), item('pc_a', 3000), item('pc_a', 3000)]);
    expect(party).toMatchObject({ participants: 3, places: 2, totalCents: 6000 });
    expect(party.tickets?.map((x) => [x.categoryId, x.quantity])).toEqual([['pc_a', 2], ['pc_i', 1]]);
  });

  it('extends a hold without ever shortening it, and rates a slot by its vacancies', () => {
    expect(extendedHold(10 * 60_000, 0, 5)).toBe(10 * 60_000);
    expect(extendedHold(10 * 60_000, 0, 30)).toBe(30 * 60_000);
    expect([octoSlotStatus(true, 5, 10), octoSlotStatus(false, 0, 10), octoSlotStatus(false, 4, 10), octoSlotStatus(false, 5, 10)]).toEqual([
      'CLOSED', 'SOLD_OUT', 'LIMITED', 'AVAILABLE',
    ]);
  });

  it('reads two bodies with their keys in another order as the same request', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: null }], c: undefined })).toBe(canonicalJson({ a: [{ x: null, y: 2 }], b: 1 }));
  });
});
