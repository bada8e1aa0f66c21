import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectError, expectList, harbourCruise, manualClock, tampered, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { offeredEntry } from '../test-helpers/waitlist.js';
import { Activity, Availability, Booking, Message, WaitlistAccepted, WaitlistOffer, type Experience } from '../../shared/index.js';

const HOUR = 3_600_000;
// The clock starts on Monday 5 January 2026, 12:00 in Lisbon (UTC+0 in winter).
const SATURDAY_10 = '2026-01-10T10:00:00.000Z';

describe('a guest’s waitlist offer: /public/v1/waitlist/offer', { timeout: 60_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let exp: Experience;

  beforeEach(async () => {
    clock = manualClock();
    t = await createTestApp({ now: clock.now, env: { PUBLIC_REQUESTS_PER_MINUTE: '0', PUBLIC_BOOKINGS_PER_MINUTE: '0' } });
    exp = await harbourCruise(t); // ten places, €45.00
  });
  afterEach(async () => {
    await t.close();
  });

  const offer = (more: Parameters<typeof offeredEntry>[5] = {}) => offeredEntry(t.store, exp, t.orgId, SATURDAY_10, clock.now(), more);
  const asGuest = (token: string | undefined, method: string, path = '') =>
    t.request(method, `/public/v1/waitlist/offer${path}`, { key: null, headers: token === undefined ? {} : { 'x-waitlist-token': token } });
  const remaining = async () => {
    const slots = expectData(await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=2026-01-10&endDate=2026-01-10`), Availability).slots;
    return slots.find((s) => s.startTime === SATURDAY_10)?.remaining;
  };
  const activity = async () => expectList(await t.request('GET', '/v1/activity?limit=100'), Activity).data;

  it('shows the offer by its token alone, never cached: the entry, what booking it costs now and whom to ask', async () => {
    const { entry, token } = await offer();
    const res = await asGuest(token, 'GET');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const seen = expectData(res, WaitlistOffer);
    expect(Object.keys(seen)).toEqual(['entry', 'total', 'currency', 'organization']);
    expect(seen).toMatchObject({
      entry: {
        id: entry.id, status: 'OFFERED', position: null, experience: { id: exp.id, title: 'Harbour cruise' },
        timeSlot: { startTime: SATURDAY_10, endTime: '2026-01-10T12:00:00.000Z' }, places: 2, totalParticipants: 2, tickets: [],
        guestName: 'Wren Guest', guestEmail: 'wren@example.com', guestPhone: '+351 912 000 000', locale: 'en',
        offeredAt: new Date(clock.now()).toISOString(), offerExpiresAt: new Date(clock.now() + 12 * HOUR).toISOString(), bookingId: null,
      },
      total: '90.00',
      currency: 'EUR',
      organization: { name: 'Test Tours', phone: null },
    });
    // The price asked is today's.
    await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { price: 5000 } });
    expect(expectData(await asGuest(token, 'GET'), WaitlistOffer).total).toBe('100.00');
  });

  it('answers 404 to a missing, malformed or unknown token, with no-store too', async () => {
    const { token } = await offer();
    for (const bad of [undefined, '', 'short', tampered(token), `${token}x`]) {
      const res = await asGuest(bad, 'GET');
      expectError(res, 404, 'NOT_FOUND');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expectError(await asGuest(bad, 'POST', '/accept'), 404, 'NOT_FOUND');
      expectError(await asGuest(bad, 'POST', '/decline'), 404, 'NOT_FOUND');
    }
    // A manage token is no offer token, and an offer token opens no booking.
    expectError(await t.request('GET', '/public/v1/manage', { key: null, headers: { 'x-manage-token': token } }), 404, 'NOT_FOUND');
  });

  it('accepts: a WIDGET booking of the entry’s party and guest takes the offer’s places, the entry BOOKED', async () => {
    const { entry, token } = await offer();
    expect(await remaining()).toBe(8);
    const res = await asGuest(token, 'POST', '/accept');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const accepted = expectData(res, WaitlistAccepted, 201);
    expect(accepted.entry).toMatchObject({ id: entry.id, status: 'BOOKED', position: null });
    expect(accepted.booking).toMatchObject({
      status: 'CONFIRMED', totalParticipants: 2, total: '90.00', guestName: 'Wren Guest', guestEmail: 'wren@example.com', checkoutUrl: null,
      timeSlot: { startTime: SATURDAY_10 },
    });
    expect(accepted).toMatchObject({ total: '90.00', currency: 'EUR' });
    const booking = expectData(await t.request('GET', `/v1/bookings/${accepted.booking.bookingNumber}`), Booking);
    expect(accepted.entry.bookingId).toBe(booking.id);
    expect(booking).toMatchObject({ source: 'WIDGET', guestPhone: '+351 912 000 000', locale: 'en', status: 'CONFIRMED' });
    // The offer's two places became the booking's: none more taken, none freed.
    expect(await remaining()).toBe(8);
    const messages = expectList(await t.request('GET', `/v1/bookings/${booking.id}/messages`), Message).data;
    expect(messages.map((m) => m.kind)).toEqual(['BOOKING_CONFIRMED']);
    const actions = (await activity()).filter((a) => a.targetId === entry.id || a.targetId === booking.id);
    expect(actions.map((a) => [a.action, a.actor.type, a.actor.name]).sort()).toEqual([
      ['booking.create', 'guest', 'Wren Guest'],
      ['waitlist.accept', 'guest', 'Wren Guest'],
    ]);
    expect(actions.find((a) => a.action === 'waitlist.accept')).toMatchObject({ targetType: 'waitlist_entry', targetId: entry.id });

    // The token still opens the entry, now with its booking; answering it again is refused.
    const after = expectData(await asGuest(token, 'GET'), WaitlistOffer);
    expect(after.entry).toMatchObject({ status: 'BOOKED', bookingId: booking.id });
    expect(after.booking).toMatchObject({ bookingNumber: booking.bookingNumber, status: 'CONFIRMED' });
    expectError(await asGuest(token, 'POST', '/accept'), 409, 'INVALID_STATUS_TRANSITION');
    expectError(await asGuest(token, 'POST', '/decline'), 409, 'INVALID_STATUS_TRANSITION');
    expect(await remaining()).toBe(8);
  });

  it('copies tickets (at today’s prices), answers and language into the booking', async () => {
    const ticketed = await harbourCruise(t, {
      name: 'Family cruise',
      priceCategories: [{ name: 'Adult', price: 3000 }, { name: 'Child', price: 1000 }, { name: 'Infant', price: 0, occupiesPlace: false }],
      questions: [{ label: 'Dietary needs', type: 'TEXT', required: true }],
    });
    const [adult, child, infant] = ticketed.priceCategories;
    const question = ticketed.questions[0]!;
    const stored = [adult, child, infant].map((c, i) => ({ categoryId: c!.id, name: c!.name, type: c!.type, quantity: i === 0 ? 2 : 1, unitPrice: c!.price, occupiesPlace: c!.occupiesPlace }));
    const { token } = await offeredEntry(t.store, ticketed, t.orgId, SATURDAY_10, clock.now(), {
      places: 3, totalParticipants: 4, tickets: JSON.stringify(stored), locale: 'pt',
      answers: JSON.stringify([{ questionId: question.id, label: question.label, type: 'TEXT', value: 'No nuts' }]),
    });
    await t.request('PATCH', `/v1/experiences/${ticketed.id}`, {
      body: { priceCategories: ticketed.priceCategories.map((c) => ({ id: c.id, name: c.name, price: c.name === 'Adult' ? 3500 : c.price, occupiesPlace: c.occupiesPlace })) },
    });
    const seen = expectData(await asGuest(token, 'GET'), WaitlistOffer);
    expect(seen.total).toBe('80.00');
    expect(seen.entry.tickets.map((x) => [x.name, x.quantity])).toEqual([['Adult', 2], ['Child', 1], ['Infant', 1]]);
    const accepted = expectData(await asGuest(token, 'POST', '/accept'), WaitlistAccepted, 201);
    expect(accepted.booking).toMatchObject({ totalParticipants: 4, total: '80.00' });
    const booking = expectData(await t.request('GET', `/v1/bookings/${accepted.booking.bookingNumber}`), Booking);
    expect(booking).toMatchObject({ locale: 'pt', answers: [{ questionId: question.id, value: 'No nuts' }] });
    expect(booking.tickets.map((x) => [x.name, x.quantity, x.unitPrice])).toEqual([['Adult', 2, 3500], ['Child', 1, 1000], ['Infant', 1, 0]]);
  });

  it('declines: the entry CANCELLED, its places free again, the guest named in the log', async () => {
    const { entry, token } = await offer();
    expect(await remaining()).toBe(8);
    const declined = expectData(await asGuest(token, 'POST', '/decline'), WaitlistOffer);
    expect(declined.entry).toMatchObject({ id: entry.id, status: 'CANCELLED', bookingId: null });
    expect(await remaining()).toBe(10);
    const logged = (await activity()).find((a) => a.targetId === entry.id);
    expect(logged).toMatchObject({ action: 'waitlist.decline', targetType: 'waitlist_entry', actor: { type: 'guest', name: 'Wren Guest' } });
    expectError(await asGuest(token, 'POST', '/accept'), 409, 'INVALID_STATUS_TRANSITION');
    expectError(await asGuest(token, 'POST', '/decline'), 409, 'INVALID_STATUS_TRANSITION');
    expect(expectData(await asGuest(token, 'GET'), WaitlistOffer).entry.status).toBe('CANCELLED');
    expect(await remaining()).toBe(10);
  });

  it('an offer past its time: using the token makes it EXPIRED at once (places freed), and accepting it is 409 OFFER_EXPIRED', async () => {
    const { entry, token } = await offer({ expiresInMs: HOUR });
    clock.advance(HOUR - 1);
    expect(expectData(await asGuest(token, 'GET'), WaitlistOffer).entry.status).toBe('OFFERED');
    clock.advance(1);
    // Accepting first: refused, and the expiry it found stays (its transaction is not the refusal's).
    expect(expectError(await asGuest(token, 'POST', '/accept'), 409, 'OFFER_EXPIRED').message).toMatch(/expired/);
    expect(await remaining()).toBe(10);
    expect(expectData(await asGuest(token, 'GET'), WaitlistOffer).entry).toMatchObject({ status: 'EXPIRED', offerExpiresAt: new Date(clock.now()).toISOString() });
    expectError(await asGuest(token, 'POST', '/decline'), 409, 'OFFER_EXPIRED');
    const logged = (await activity()).filter((a) => a.targetId === entry.id);
    expect(logged.map((a) => [a.action, a.actor.type])).toEqual([['waitlist.expire', 'system']]);
    expect((await t.request('GET', '/v1/bookings')).body).toMatchObject({ data: [] });
  });

  it('a GET past the expiry expires it too; an entry EXPIRED otherwise (a closed slot) answers OFFER_EXPIRED', async () => {
    const { token } = await offer({ expiresInMs: HOUR });
    clock.advance(2 * HOUR);
    expect(expectData(await asGuest(token, 'GET'), WaitlistOffer).entry.status).toBe('EXPIRED');
    expect(await remaining()).toBe(10);
    const other = await offer({ guestEmail: 'other@example.com' });
    await t.store.transaction(async () => {
      await t.store.waitlist.moveEntry(other.entry.id, ['OFFERED'], 'EXPIRED', { updatedAt: clock.now() });
      await t.store.bookings.addBookedPlaces(exp.id, Date.parse(SATURDAY_10), -2);
    });
    expectError(await asGuest(other.token, 'POST', '/accept'), 409, 'OFFER_EXPIRED');
  });

  it('an accept the booking rules refuse leaves the offer as it was, its places still held', async () => {
    const { entry, token } = await offer();
    // A required question added since the guest joined: the booking cannot be made without its answer.
    await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { questions: [{ label: 'Allergies', type: 'TEXT', required: true }] } });
    expectError(await asGuest(token, 'POST', '/accept'), 400, 'VALIDATION_ERROR');
    expect(expectData(await asGuest(token, 'GET'), WaitlistOffer).entry).toMatchObject({ id: entry.id, status: 'OFFERED', bookingId: null });
    expect(await remaining()).toBe(8);
    expect((await activity()).filter((a) => a.targetId === entry.id)).toEqual([]);
  });

  it('answered twice at once (two tabs): one answer wins, the other is told what became of the offer; places counted once', async () => {
    const first = await offer();
    const both = await Promise.all([asGuest(first.token, 'POST', '/accept'), asGuest(first.token, 'POST', '/accept')]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(expectList(await t.request('GET', '/v1/bookings'), Booking).data).toHaveLength(1);
    expect(await remaining()).toBe(8);

    const second = await offer({ guestEmail: 'second@example.com' });
    expect(await remaining()).toBe(6);
    const [accept, decline] = await Promise.all([asGuest(second.token, 'POST', '/accept'), asGuest(second.token, 'POST', '/decline')]);
    const won = expectData(await asGuest(second.token, 'GET'), WaitlistOffer).entry.status;
    if (won === 'BOOKED') {
      expect([accept.status, decline.status]).toEqual([201, 409]);
      expect(await remaining()).toBe(6);
    } else {
      expect(won).toBe('CANCELLED');
      expect([accept.status, decline.status]).toEqual([409, 200]);
      expect(await remaining()).toBe(8);
    }
  });

  it('counts against PUBLIC_REQUESTS_PER_MINUTE per address', async () => {
    const limited = await createTestApp({ now: clock.now, env: { PUBLIC_REQUESTS_PER_MINUTE: '2' } });
    try {
      const e = await harbourCruise(limited);
      const { token } = await offeredEntry(limited.store, e, limited.orgId, SATURDAY_10, clock.now());
      const get = () => limited.request('GET', '/public/v1/waitlist/offer', { key: null, headers: { 'x-waitlist-token': token } });
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(200);
      const refused = await get();
      expectError(refused, 429, 'RATE_LIMITED');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });

  it('is in the OpenAPI document with its token scheme', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json', { key: null })).body as {
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, { name?: string }> };
    };
    expect(Object.keys(doc.paths['/public/v1/waitlist/offer'] ?? {})).toEqual(['get']);
    expect(doc.paths['/public/v1/waitlist/offer/accept']?.post?.security).toEqual([{ waitlistToken: [] }]);
    expect(Object.keys(doc.paths['/public/v1/waitlist/offer/accept']?.post?.responses ?? {})).toEqual(expect.arrayContaining(['201', '404', '409', '429']));
    expect(Object.keys(doc.paths['/public/v1/waitlist/offer/decline']?.post?.responses ?? {})).toEqual(expect.arrayContaining(['200', '404', '409']));
    expect(doc.components.securitySchemes['waitlistToken']?.name).toBe('X-Waitlist-Token');
  });
});
