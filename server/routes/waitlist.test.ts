import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, everyDay, expectData, expectError, expectList, expectValidationError, manualClock, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { Availability, Booking, Customer, Experience, Manifest, Organization, Slot, WaitlistEntry, WaitlistMessage } from '../../shared/index.js';

// Monday 2027-03-01, 08:00 in Lisbon (UTC+0 in winter); the walk runs every day at 10:00 and 15:00.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';
const S3 = '2027-03-03T10:00:00.000Z';

let t: TestApp;
let clock: ManualClock;
let exp: Experience;

async function newExperience(fields: Record<string, unknown> = {}): Promise<Experience> {
  const body = {
    name: 'Alfama walk',
    description: 'Two hours',
    duration: 120,
    price: 2000,
    maxParticipants: 4,
    schedule: { weekly: everyDay(['10:00', '15:00']) },
    waitlist: true,
    ...fields,
  };
  return expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
}

const guest = (name: string) => ({ customerName: name, customerEmail: `${name.toLowerCase()}@example.com` });
const join = (body: Record<string, unknown>, path = '/v1/waitlist') =>
  t.request('POST', path, { body: { experienceId: exp.id, startTime: S1, participants: 2, ...guest('Ana'), ...body } });
const joined = async (body: Record<string, unknown>, path = '/v1/waitlist') => expectData(await join(body, path), WaitlistEntry, 201);
const book = async (participants: number, startTime = S1, e: Experience = exp) =>
  expectData(
    await t.request('POST', '/v1/bookings', { body: { experienceId: e.id, startTime, participants, customerName: 'Group', customerEmail: 'group@example.com' } }),
    Booking,
    201,
  );
const entry = async (id: string) => expectData(await t.request('GET', `/v1/waitlist/${id}`), WaitlistEntry);
const remainingAt = async (startTime: string) => {
  const date = startTime.slice(0, 10);
  const a = expectData(await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=${date}&endDate=${date}`), Availability);
  return a.slots.find((s) => s.startTime === startTime)?.remaining;
};
/** An offer as the offers engine makes one: its places taken in the slot's counter, the entry OFFERED. */
async function offer(id: string): Promise<void> {
  const row = (await t.store.waitlist.getEntry(t.orgId, id))!;
  await t.store.transaction(async () => {
    expect(await t.store.bookings.takePlaces(row.experienceId, row.slotStart, row.places, 100)).toBe(true);
    expect(await t.store.waitlist.moveEntry(id, ['WAITING'], 'OFFERED', { offeredAt: NOW, offerExpiresAt: NOW + 3_600_000, updatedAt: NOW })).toBe(true);
  });
}
const activityOf = async (targetId: string) =>
  (await t.store.activity.listActivity(t.orgId, { targetId }, { limit: 50, offset: 0 })).rows.map((r) => ({ action: r.action, actorType: r.actorType, actorName: r.actorName, summary: r.summary }));

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  exp = await newExperience();
});
afterEach(() => t.close());

describe('joining a full slot’s waitlist', () => {
  it('without a locale, takes the organization’s default language on both APIs', async () => {
    expectData(await t.request('PATCH', '/v1/organization', { body: { defaultLocale: 'nl' } }), Organization);
    await book(4);
    expect((await joined({})).locale).toBe('nl');
    expect((await joined({ ...guest('Rui'), participants: 1 }, '/public/v1/waitlist')).locale).toBe('nl');
    expect((await joined({ ...guest('Eva'), participants: 1, locale: 'fr' })).locale).toBe('fr');
    expectValidationError(await join({ ...guest('Zoe'), locale: 'pt-BR' }), 'locale');
  });

  it('puts guests in the queue on both APIs, WAITING with their position, with their e-mail queued and the join logged', async () => {
    await book(4);
    const ana = await joined({ locale: 'pt', customerPhone: '+351 912 345 678' });
    expect(ana).toMatchObject({
      status: 'WAITING', position: 1, experience: { id: exp.id, title: 'Alfama walk' }, timeSlot: { startTime: S1, endTime: '2027-03-02T12:00:00.000Z' },
      places: 2, totalParticipants: 2, tickets: [], guestName: 'Ana', guestEmail: 'ana@example.com', guestPhone: '+351 912 345 678', locale: 'pt',
      offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: new Date(NOW).toISOString(),
    });
    expect(ana.id).toMatch(/^wl_/);
    clock.advance(1000);
    const rui = await joined({ ...guest('Rui'), participants: 1 }, '/public/v1/waitlist');
    expect(rui).toMatchObject({ status: 'WAITING', position: 2, places: 1, locale: 'en', guestPhone: null });

    const messages = expectList(await t.request('GET', `/v1/waitlist/${rui.id}/messages`), WaitlistMessage);
    expect(messages.data).toMatchObject([{ kind: 'WAITLIST_JOINED', to: 'rui@example.com', status: 'PENDING', waitlistEntryId: rui.id }]);
    expect(await activityOf(ana.id)).toMatchObject([{ action: 'waitlist.join', actorType: 'key', summary: expect.stringContaining('2 guests, Alfama walk') }]);
    expect(await activityOf(rui.id)).toMatchObject([{ action: 'waitlist.join', actorType: 'guest', actorName: 'Rui' }]);
    // The log names the party and the slot, never the guest.
    expect((await activityOf(rui.id))[0]!.summary).not.toContain('rui@example.com');
    // Joining takes no place: the slot stays as full as it was.
    expect(await remainingAt(S1)).toBe(0);
  });

  it('takes a party larger than the places left, and sends one that fits to book instead', async () => {
    await book(3);
    const big = await joined({ participants: 2 });
    expect(big.position).toBe(1);
    const fits = expectError(await join({ ...guest('Rui'), participants: 1 }, '/public/v1/waitlist'), 409, 'SLOT_HAS_PLACES');
    expect(fits.message).toMatch(/1 place left/);
    expectError(await join({ ...guest('Rui'), participants: 1, startTime: S2 }), 409, 'SLOT_HAS_PLACES');
    expect((await t.store.waitlist.listEntries(t.orgId, {}, { limit: 10, offset: 0 })).total).toBe(1);
  });

  it('refuses a second live entry of the same address on the slot, in any case, before saying it has places', async () => {
    await book(4);
    const first = await joined({});
    expectError(await join({ customerEmail: 'ANA@Example.com' }, '/public/v1/waitlist'), 409, 'ALREADY_ON_WAITLIST');
    // Freed places would answer SLOT_HAS_PLACES, but the guest is told they are already waiting.
    await t.store.transaction(() => t.store.bookings.addBookedPlaces(exp.id, Date.parse(S1), -4));
    expectError(await join({}), 409, 'ALREADY_ON_WAITLIST');
    // Another slot, or once the entry has left the queue, the address may join again.
    await book(4, S2);
    await joined({ startTime: S2 });
    await t.store.transaction(() => t.store.bookings.addBookedPlaces(exp.id, Date.parse(S1), 4));
    expectData(await t.request('DELETE', `/v1/waitlist/${first.id}`), WaitlistEntry);
    expect((await joined({ customerEmail: 'Ana@example.com' })).position).toBe(1);
  });

  it('checks the body, then the experience, then the party and answers, then the slot, in that order', async () => {
    await book(4);
    // No e-mail (400) wins over an unknown experience (404).
    expectValidationError(await join({ customerEmail: undefined, experienceId: 'exp_unknown' }), 'customerEmail');
    expectValidationError(await join({ participants: undefined }), 'participants');
    expectError(await join({ experienceId: 'exp_unknown' }), 404, 'NOT_FOUND');
    // A party over the per-booking limit (400) wins over a time that is no slot (409).
    const limited = await newExperience({ name: 'Small boat', maxPerBooking: 2 });
    expectValidationError(await join({ experienceId: limited.id, participants: 3, startTime: '2027-03-02T11:00:00.000Z' }), 'participants');
    expectValidationError(await join({ participants: 5 }), 'participants');
    // A required question unanswered is a 400 on answers, as for a booking.
    const asking = await newExperience({ name: 'Asking walk', questions: [{ label: 'Any allergies?', type: 'TEXT', required: true }] });
    // Full (its own guests answered too): the places taken straight in the slot's counter.
    await t.store.transaction(() => t.store.bookings.addBookedPlaces(asking.id, Date.parse(S1), 4));
    const questionId = asking.questions[0]!.id;
    expectValidationError(await join({ experienceId: asking.id }), `answers.${questionId}`);
    const answered = await joined({ experienceId: asking.id, answers: [{ questionId, value: 'None' }] });
    expect(JSON.parse((await t.store.waitlist.getEntry(t.orgId, answered.id))!.answers)).toMatchObject([{ questionId, value: 'None' }]);
  });

  it('answers SLOT_UNAVAILABLE for a start that is no bookable slot, a closed slot, an experience without a waitlist or an inactive one', async () => {
    await book(4);
    for (const startTime of ['2027-03-02T11:00:00.000Z', '2027-02-28T10:00:00.000Z']) {
      expectError(await join({ startTime }), 409, 'SLOT_UNAVAILABLE');
    }
    // Inside the notice period: no longer bookable, so no waitlist either.
    const late = await newExperience({ name: 'Late walk', minNoticeMinutes: 180 });
    await book(4, S1, late);
    clock.set(Date.parse(S1) - 60 * 60_000);
    expectError(await join({ experienceId: late.id }), 409, 'SLOT_UNAVAILABLE');
    clock.set(NOW);
    const slotId = (await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=2027-03-02&endDate=2027-03-02`)).body.data.slots[0].id as string;
    expectData(await t.request('PATCH', `/v1/slots/${slotId}`, { body: { closed: true } }), Slot);
    expectError(await join({}), 409, 'SLOT_UNAVAILABLE');

    // A slot an imported calendar blocks is no bookable slot either.
    await book(4, S2);
    const imported = {
      id: 'cal_blocking0000000000', orgId: t.orgId, name: 'Guide’s days off', url: 'https://calendar.example/off.ics', experienceId: exp.id, etag: null,
      lastModified: null, lastSyncedAt: NOW, lastError: null, eventCount: 1, nextSyncAt: NOW + 3_600_000, expandedAt: null, expandedZone: null,
      syncNote: null, createdAt: NOW, updatedAt: NOW,
    };
    await t.store.calendarImports.insertCalendarImport(imported);
    await t.store.calendarImports.replaceBusyIntervals(imported, [{ start: Date.parse(S2) - 3_600_000, end: Date.parse(S2) + 60_000 }]);
    expect((await join({ startTime: S2 })).body.error).toMatchObject({ code: 'SLOT_UNAVAILABLE', message: expect.stringMatching(/blocked by a calendar/) });

    const without = await newExperience({ name: 'No waitlist', waitlist: false });
    await book(4, S1, without);
    const refused = expectError(await join({ experienceId: without.id }, '/public/v1/waitlist'), 409, 'SLOT_UNAVAILABLE');
    expect(refused.message).toMatch(/no waitlist/);
    const inactive = await newExperience({ name: 'Inactive walk' });
    await book(4, S1, inactive);
    expectData(await t.request('PATCH', `/v1/experiences/${inactive.id}`, { body: { active: false } }), Experience);
    expectError(await join({ experienceId: inactive.id }), 409, 'SLOT_UNAVAILABLE');
    // The public API does not know an inactive experience at all.
    expectError(await join({ experienceId: inactive.id }, '/public/v1/waitlist'), 404, 'NOT_FOUND');
    expect((await t.store.waitlist.listEntries(t.orgId, {}, { limit: 10, offset: 0 })).total).toBe(0);
  });

  it('joins with tickets as a booking takes them, counting places apart from free tickets', async () => {
    const ticketed = await newExperience({
      name: 'Family walk',
      priceCategories: [{ name: 'Adult', price: 2500, type: 'ADULT' }, { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false }],
    });
    const [adult, infant] = ticketed.priceCategories.map((c) => c.id);
    await t.request('POST', '/v1/bookings', { body: { experienceId: ticketed.id, startTime: S1, tickets: [{ categoryId: adult, quantity: 4 }], ...guest('Group') } });
    const family = await joined({ experienceId: ticketed.id, participants: undefined, tickets: [{ categoryId: adult, quantity: 2 }, { categoryId: infant, quantity: 1 }] });
    expect(family).toMatchObject({ places: 2, totalParticipants: 3, tickets: [{ categoryId: adult, quantity: 2, name: 'Adult' }, { categoryId: infant, quantity: 1, name: 'Infant' }] });
    expectValidationError(await join({ experienceId: ticketed.id, ...guest('Rui') }), 'tickets');
  });

  it('refuses a filled-in honeypot on the public API and counts joins against PUBLIC_BOOKINGS_PER_MINUTE', async () => {
    await t.close();
    t = await createTestApp({ now: clock.now, env: { PUBLIC_BOOKINGS_PER_MINUTE: '2' } });
    exp = await newExperience();
    await book(4);
    expectValidationError(await join({ website: 'http://spam.example' }, '/public/v1/waitlist'), 'website');
    await joined({ website: '' }, '/public/v1/waitlist');
    const limited = await join(guest('Rui'), '/public/v1/waitlist');
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // The other public requests have their own budget.
    expect((await t.request('GET', `/public/v1/experiences/${exp.id}`)).status).toBe(200);
  });

  it('makes one entry of parallel joins by one address, and gives parallel guests distinct positions', async () => {
    await book(4);
    const same = await Promise.all(Array.from({ length: 6 }, (_, i) => join({ customerEmail: i % 2 ? 'ANA@example.com' : 'ana@example.com' }, i % 2 ? '/public/v1/waitlist' : '/v1/waitlist')));
    expect(same.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of same.filter((r) => r.status === 409)) expectError(r, 409, 'ALREADY_ON_WAITLIST');
    const many = await Promise.all(['Bia', 'Eva', 'Rui', 'Zoe'].map((name) => joined(guest(name), '/public/v1/waitlist')));
    expect(many.map((e) => e.position).sort()).toEqual([2, 3, 4, 5]);
    const listed = expectList(await t.request('GET', '/v1/waitlist?status=WAITING'), WaitlistEntry).data;
    expect(listed.map((e) => e.position)).toEqual([1, 2, 3, 4, 5]);
    expect(await remainingAt(S1)).toBe(0);
  });

  it('needs bookings:write on /v1', async () => {
    await book(4);
    const reader = await t.createKey({ scopes: ['bookings:read'] });
    expectError(await t.request('POST', '/v1/waitlist', { key: reader.key, body: { experienceId: exp.id, startTime: S1, participants: 2, ...guest('Ana') } }), 403, 'FORBIDDEN');
    const made = await joined({});
    expectData(await t.request('GET', `/v1/waitlist/${made.id}`, { key: reader.key }), WaitlistEntry);
    expectError(await t.request('DELETE', `/v1/waitlist/${made.id}`, { key: reader.key }), 403, 'FORBIDDEN');
  });
});

describe('the organization’s list', () => {
  it('lists by slot start, then creation, with filters, pages and the /api/v1 alias', async () => {
    await book(4, S1);
    await book(4, S2);
    await book(4, S3);
    const other = await newExperience({ name: 'Boat' });
    await book(4, S1, other);
    const later = await joined({ startTime: S3, ...guest('Eva') });
    clock.advance(1000);
    const s2 = await joined({ startTime: S2, ...guest('Bia') });
    clock.advance(1000);
    const first = await joined({ ...guest('Ana') });
    clock.advance(1000);
    const second = await joined({ ...guest('Rui') });
    clock.advance(1000);
    const boat = await joined({ experienceId: other.id, ...guest('Ana') });
    expectData(await t.request('DELETE', `/v1/waitlist/${first.id}`), WaitlistEntry);

    const all = expectList(await t.request('GET', '/v1/waitlist'), WaitlistEntry);
    expect(all.data.map((e) => e.id)).toEqual([first.id, second.id, boat.id, s2.id, later.id]);
    expect(all.data.map((e) => e.position)).toEqual([null, 1, 1, 1, 1]);
    expect(all.pagination).toMatchObject({ total: 5, limit: 20, offset: 0, hasMore: false });
    const ids = async (query: string, prefix = '/v1') => expectList(await t.request('GET', `${prefix}/waitlist?${query}`), WaitlistEntry).data.map((e) => e.id);
    expect(await ids(`experienceId=${exp.id}`)).toEqual([first.id, second.id, s2.id, later.id]);
    expect(await ids('status=CANCELLED')).toEqual([first.id]);
    expect(await ids('status=WAITING&startDate=2027-03-02&endDate=2027-03-02')).toEqual([second.id, boat.id, s2.id]);
    expect(await ids('startDate=2027-03-03')).toEqual([later.id]);
    expect(await ids(`endDate=${encodeURIComponent('2027-03-02T10:00:00.000Z')}`)).toEqual([first.id, second.id, boat.id]);
    expect(await ids('limit=2&offset=1', '/api/v1')).toEqual([second.id, boat.id]);
    expectValidationError(await t.request('GET', '/v1/waitlist?status=LATE'), 'status');
    expectValidationError(await t.request('GET', '/v1/waitlist?startDate=yesterday'), 'startDate');
  });

  it('shows one entry within the organization only, and its e-mails', async () => {
    await book(4);
    const made = await joined({});
    expect(await entry(made.id)).toEqual(made);
    expect(expectData(await t.request('GET', `/api/v1/waitlist/${made.id}`), WaitlistEntry).id).toBe(made.id);
    expectError(await t.request('GET', '/v1/waitlist/wl_unknown0000000000'), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/v1/waitlist/bk_notanentry'), 404, 'NOT_FOUND');
    const stranger = await t.addOrganization();
    expectError(await t.request('GET', `/v1/waitlist/${made.id}`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `/v1/waitlist/${made.id}/messages`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    expectError(await t.request('DELETE', `/v1/waitlist/${made.id}`, { key: stranger.secretKey }), 404, 'NOT_FOUND');
    expect(expectList(await t.request('GET', '/v1/waitlist', { key: stranger.secretKey }), WaitlistEntry).data).toEqual([]);
    expect((await t.request('GET', `/v1/waitlist/${made.id}`)).headers.get('cache-control')).toBe('no-store');
  });
});

describe('removing an entry', () => {
  it('cancels a WAITING entry, moves those behind it up, and refuses to remove a final one', async () => {
    await book(4);
    const ana = await joined({});
    clock.advance(1000);
    const rui = await joined(guest('Rui'));
    const removed = expectData(await t.request('DELETE', `/v1/waitlist/${ana.id}`), WaitlistEntry);
    expect(removed).toMatchObject({ id: ana.id, status: 'CANCELLED', position: null });
    expect((await entry(rui.id)).position).toBe(1);
    const again = expectError(await t.request('DELETE', `/v1/waitlist/${ana.id}`), 409, 'INVALID_STATUS_TRANSITION');
    expect(again.message).toMatch(/CANCELLED/);
    // Newest first.
    expect(await activityOf(ana.id)).toMatchObject([{ action: 'waitlist.cancel', actorType: 'key' }, { action: 'waitlist.join' }]);
    for (const status of ['EXPIRED', 'BOOKED'] as const) {
      const other = await joined(guest(status === 'EXPIRED' ? 'Eva' : 'Bia'));
      await t.store.waitlist.moveEntry(other.id, ['WAITING'], status, { updatedAt: NOW });
      expectError(await t.request('DELETE', `/v1/waitlist/${other.id}`), 409, 'INVALID_STATUS_TRANSITION');
    }
  });

  it('gives an OFFERED entry’s places back to the slot at once', async () => {
    await book(3);
    const ana = await joined({});
    await offer(ana.id);
    expect(await remainingAt(S1)).toBe(0);
    expect((await entry(ana.id)).status).toBe('OFFERED');
    const removed = expectData(await t.request('DELETE', `/v1/waitlist/${ana.id}`), WaitlistEntry);
    expect(removed).toMatchObject({ status: 'CANCELLED', offerExpiresAt: new Date(NOW + 3_600_000).toISOString() });
    expect(await remainingAt(S1)).toBe(1);
  });
});

describe('elsewhere', () => {
  it('counts a slot’s WAITING and OFFERED entries on the manifest, and offers’ places in booked', async () => {
    await book(3);
    const ana = await joined({});
    clock.advance(1000);
    await joined(guest('Rui'));
    clock.advance(1000);
    const eva = await joined(guest('Eva'));
    expectData(await t.request('DELETE', `/v1/waitlist/${eva.id}`), WaitlistEntry);
    await offer(ana.id);
    const manifest = expectData(await t.request('GET', '/v1/manifest?date=2027-03-02'), Manifest);
    expect(manifest.slots.map((s) => ({ start: s.timeSlot.startTime, booked: s.booked, waitlist: s.waitlist }))).toEqual([
      { start: S1, booked: 5, waitlist: { waiting: 1, offered: 1 } },
      { start: S2, booked: 0, waitlist: { waiting: 0, offered: 0 } },
    ]);
    // The CSV keeps its columns.
    const csv = await t.request('GET', '/v1/manifest.csv?date=2027-03-02');
    expect(csv.text.split('\n')[0]).not.toMatch(/waitlist/i);
  });

  it('erases a customer’s entries with their data: no name, address or phone, live ones cancelled and their places freed', async () => {
    await book(2);
    // Ana booked before: she is a customer.
    const booked = expectData(
      await t.request('POST', '/v1/bookings', { body: { experienceId: exp.id, startTime: S1, participants: 1, ...guest('Ana'), customerPhone: '+351 900 000 000' } }),
      Booking,
      201,
    );
    await book(1);
    const waiting = await joined({ customerEmail: 'ANA@example.com', customerPhone: '+351 900 000 000', startTime: S1 });
    await book(4, S2);
    const offered = await joined({ startTime: S2 });
    await offer(offered.id);
    const bystander = await joined(guest('Rui'));
    const customerId = expectList(await t.request('GET', '/v1/customers?search=ana%40example.com'), Customer).data[0]!.id;
    expect(customerId).toBe(booked.customerId);
    expect((await t.request('DELETE', `/v1/customers/${customerId}`)).status).toBe(200);

    for (const id of [waiting.id, offered.id]) {
      const e = await entry(id);
      expect(e).toMatchObject({ status: 'CANCELLED', guestName: 'erased', guestEmail: `erased-${customerId}@erased.invalid` });
      const messages = expectList(await t.request('GET', `/v1/waitlist/${id}/messages`), WaitlistMessage).data;
      expect(messages).toMatchObject([{ kind: 'WAITLIST_JOINED', to: `erased-${customerId}@erased.invalid`, status: 'FAILED' }]);
    }
    expect((await entry(waiting.id)).guestPhone).toBe('erased');
    expect((await entry(offered.id)).guestPhone).toBeNull();
    expect(await remainingAt(S2)).toBe(0);
    expect(await t.store.bookings.bookedPlaces(exp.id, Date.parse(S2))).toBe(4);
    // Nothing of her is left in the log of the removals either.
    expect((await activityOf(offered.id))[0]).toMatchObject({ action: 'waitlist.cancel', summary: expect.not.stringContaining('Ana') });
    expect(await entry(bystander.id)).toMatchObject({ status: 'WAITING', guestName: 'Rui', position: 1 });
  });
});
