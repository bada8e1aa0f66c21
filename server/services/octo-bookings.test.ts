import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../domain/ids.js';
import { slotId } from '../domain/slots.js';
import { OctoRefusal } from '../domain/octo.js';
import { createLogger } from '../logger.js';
import type { WaitlistRow } from '../store/waitlist.js';
import { createTestApp, everyDay, expectData, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Experience } from '../../shared/index.js';
import { createBooking } from './bookings.js';
import { sweepLapsedHolds } from './hold-expiry.js';
import { cancelOctoBooking, confirmOctoBooking, reserveOctoBooking, updateOctoBooking, type OctoCaller } from './octo-bookings.js';

// The OCTO booking use cases on the engine under test: holds racing other bookings in one process
// never oversell; a refused change leaves everything as it was; a lapsed hold's places go to the
// slot's waitlist as any freed places do.

const NOW = Date.UTC(2027, 2, 1, 8, 0);
const TUESDAY_18 = Date.UTC(2027, 2, 2, 18, 0);
const MINUTE = 60_000;

describe('OCTO booking use cases', () => {
  let t: TestApp;
  let clock: ManualClock;
  let exp: Experience;
  let caller: OctoCaller;

  beforeEach(async () => {
    clock = manualClock(NOW);
    t = await createTestApp({ now: clock.now, org: { timezone: 'UTC', currency: 'EUR' } });
    const body = { name: 'Sunset sail', description: '', duration: 60, price: 2000, maxParticipants: 4, waitlist: true, schedule: { weekly: everyDay(['18:00']) } };
    exp = expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
    caller = { orgId: t.orgId, apiKeyId: t.apiKeyId, actor: { type: 'key', id: t.apiKeyId, name: 'Reseller', ip: null } };
  });
  afterEach(() => t.close());

  const hold = (units: number, fields: Record<string, unknown> = {}) =>
    reserveOctoBooking(t.store, caller, {
      productId: exp.id, optionId: 'DEFAULT', availabilityId: slotId(exp.id, TUESDAY_18), unitItems: Array.from({ length: units }, () => ({ unitId: 'adult' })), ...fields,
    }, clock.now());
  const booked = async () => (await t.store.slots.getSlot(exp.id, TUESDAY_18))?.booked ?? 0;

  it('never oversells when holds and bookings race for the last places', async () => {
    const racers = Array.from({ length: 12 }, (_, i) =>
      i % 2
        ? hold(1).then(() => 'held', (err: unknown) => (err instanceof OctoRefusal ? err.code : Promise.reject(err)))
        : createBooking(t.store, t.orgId, {
            experienceId: exp.id, startTime: new Date(TUESDAY_18).toISOString(), participants: 1, customerName: `G ${i}`, customerEmail: `g${i}@example.com`,
          }, { source: 'API', actor: caller.actor }, clock.now()).then(() => 'booked', (err: { code?: string }) => err.code ?? Promise.reject(err)),
    );
    const outcomes = await Promise.all(racers);
    expect(outcomes.filter((o) => o === 'held' || o === 'booked')).toHaveLength(4);
    for (const o of outcomes) expect(['held', 'booked', 'UNPROCESSABLE_ENTITY', 'CAPACITY_EXCEEDED']).toContain(o);
    expect(await booked()).toBe(4);
  });

  it('changes nothing when a change is refused', async () => {
    const view = await hold(2, { resellerReference: 'R-1' });
    await hold(2, { uuid: crypto.randomUUID() });
    await expect(updateOctoBooking(t.store, caller, view.octo.uuid, { unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }, { unitId: 'adult' }], resellerReference: 'R-2', contact: { fullName: 'X' } }, clock.now()))
      .rejects.toMatchObject({ code: 'UNPROCESSABLE_ENTITY' });
    expect(await t.store.octoBookings.getOctoBooking(view.booking.id)).toEqual(view.octo);
    expect(await t.store.bookings.getBooking(t.orgId, view.booking.id)).toMatchObject({ participants: 2, guestName: null, sequence: 0 });
    expect(await booked()).toBe(4);
  });

  it('offers a lapsed hold\'s places to the waitlist, and the cancelled booking is EXPIRED to the reseller', async () => {
    const view = await hold(4, { expirationMinutes: 5 });
    const now = clock.now();
    const row: WaitlistRow = {
      id: newId('waitlistEntry', now), orgId: t.orgId, experienceId: exp.id, slotStart: TUESDAY_18, slotEnd: TUESDAY_18 + 60 * MINUTE,
      status: 'WAITING', places: 2, totalParticipants: 2, tickets: '[]', answers: '[]', guestName: 'Waiting guest', guestEmail: 'wait@example.com',
      guestPhone: null, locale: 'en', tokenHash: null, offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: now, updatedAt: now,
    };
    await t.store.waitlist.insertEntry(row);
    clock.advance(5 * MINUTE);
    expect(await sweepLapsedHolds({ store: t.store, provider: undefined, logger: createLogger('silent'), now: clock.now })).toBe(1);
    expect((await t.store.waitlist.getEntry(t.orgId, row.id))?.status).toBe('OFFERED');
    expect(await t.store.bookings.getBooking(t.orgId, view.booking.id)).toMatchObject({ status: 'CANCELLED', cancellationReason: 'expired' });
    expect(await t.store.octoBookings.getOctoBooking(view.booking.id)).toMatchObject({ expiredAt: NOW + 5 * MINUTE });
    await expect(confirmOctoBooking(t.store, caller, view.octo.uuid, { contact: {} }, clock.now())).rejects.toMatchObject({ code: 'INVALID_BOOKING_UUID' });
    await expect(cancelOctoBooking(t.store, caller, view.octo.uuid, {}, clock.now())).rejects.toMatchObject({ code: 'UNPROCESSABLE_ENTITY' });
  });
});
