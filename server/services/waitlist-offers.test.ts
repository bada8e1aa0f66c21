import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../domain/ids.js';
import { createLogger } from '../logger.js';
import type { WaitlistRow } from '../store/waitlist.js';
import { holdExpiryJob } from '../jobs/hold-expiry.js';
import { createTestApp, everyDay, expectData, expectError, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Availability, Booking, Experience, Slot } from '../../shared/index.js';
import { expireOffer, settleAllWaitlists, sweepLapsedOffers } from './waitlist-offers.js';

// Monday 2027-03-01, 08:00 UTC; the org and the schedule in UTC.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const MINUTE = 60_000;
const TUESDAY_18 = '2027-03-02T18:00:00.000Z';
const WEDNESDAY_18 = '2027-03-03T18:00:00.000Z';

describe('waitlist offers: freed places go to waiting guests first', () => {
  let t: TestApp;
  let clock: ManualClock;
  let exp: Experience;
  const logger = createLogger('silent');

  beforeEach(async () => {
    clock = manualClock(NOW);
    t = await createTestApp({ now: clock.now, org: { timezone: 'UTC', currency: 'EUR' } });
    const body = { name: 'Sunset sail', description: '', duration: 60, price: 2000, maxParticipants: 4, waitlist: true, schedule: { weekly: everyDay(['18:00']) } };
    exp = expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
  });
  afterEach(() => t.close());

  const book = async (participants: number, at = TUESDAY_18, email = `b${Math.random().toString(36).slice(2)}@example.com`) =>
    expectData(await t.request('POST', '/v1/bookings', { body: { experienceId: exp.id, startTime: at, participants, customerName: 'Booker', customerEmail: email } }), Booking, 201);
  const cancel = (id: string) => t.request('PATCH', `/v1/bookings/${id}/cancel`, { body: {} });
  /** A WAITING entry, as joining makes it; each a millisecond younger than the one before. */
  const wait = async (places: number, email: string, at = TUESDAY_18): Promise<string> => {
    clock.advance(1);
    const start = Date.parse(at);
    const row: WaitlistRow = {
      id: newId('waitlistEntry', clock.now()), orgId: t.orgId, experienceId: exp.id, slotStart: start, slotEnd: start + 60 * MINUTE,
      status: 'WAITING', places, totalParticipants: places, tickets: '[]', answers: '[]', guestName: 'Waiting guest', guestEmail: email,
      guestPhone: null, locale: 'en', tokenHash: null, offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: clock.now(), updatedAt: clock.now(),
    };
    await t.store.waitlist.insertEntry(row);
    return row.id;
  };
  const entry = async (id: string) => (await t.store.waitlist.getEntry(t.orgId, id))!;
  const statuses = async (...ids: string[]) => Promise.all(ids.map(async (id) => (await entry(id)).status));
  const slotAt = async (at = TUESDAY_18) => {
    const slots = expectData(await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=${at.slice(0, 10)}&endDate=${at.slice(0, 10)}`), Availability).slots;
    return slots.find((s) => s.startTime === at)!;
  };
  const activity = async (targetId: string) => {
    const res = await t.request('GET', `/v1/activity?targetId=${targetId}`);
    expect(res.status).toBe(200);
    // Newest first in the list: oldest first here.
    return (res.body.data as { action: string; actor: { type: string } }[]).map((a) => `${a.action} by ${a.actor.type}`).reverse();
  };
  const offerMessages = async (entryId: string) => {
    const due = await Promise.all((await t.store.messages.listDueMessages(clock.now() + 1, 100)).map((id) => t.store.messages.getMessage(id)));
    return due.filter((m) => m?.waitlistEntryId === entryId).map((m) => [m!.kind, m!.to, m!.status]);
  };

  it('offers a cancelled booking’s places to the oldest entry that fits, a smaller later party passing a larger one', async () => {
    const a = await book(2);
    await book(2);
    const big = await wait(3, 'big@example.com');
    const small = await wait(2, 'small@example.com');
    const later = await wait(1, 'later@example.com');

    clock.advance(MINUTE);
    expectData(await cancel(a.id), Booking);
    expect(await statuses(big, small, later)).toEqual(['WAITING', 'OFFERED', 'WAITING']);
    const offered = await entry(small);
    expect(offered).toMatchObject({ offeredAt: clock.now(), offerExpiresAt: clock.now() + 720 * MINUTE });
    // The offer holds its places as a pending booking would: none left for anyone else.
    expect(await slotAt()).toMatchObject({ capacity: 4, booked: 4, remaining: 0 });
    expectError(await t.request('POST', '/public/v1/bookings', {
      body: { experienceId: exp.id, startTime: TUESDAY_18, participants: 1, customerName: 'Walk-in', customerEmail: 'walkin@example.com' },
    }), 409, 'CAPACITY_EXCEEDED');
    expect(await offerMessages(small)).toEqual([['WAITLIST_OFFER', 'small@example.com', 'PENDING']]);
    expect(await activity(small)).toEqual(['waitlist.offer by system']);
    expect(await activity(big)).toEqual([]);
  });

  it('gives several entries offers when enough places free up, and none beyond what is free', async () => {
    const a = await book(3);
    await book(1);
    const one = await wait(1, 'one@example.com');
    const two = await wait(1, 'two@example.com');
    const three = await wait(2, 'three@example.com');
    const four = await wait(1, 'four@example.com');
    expectData(await cancel(a.id), Booking);
    // 3 places: one (1), two (1), three (2) does not fit in the 1 left, four (1) does.
    expect(await statuses(one, two, three, four)).toEqual(['OFFERED', 'OFFERED', 'WAITING', 'OFFERED']);
    expect(await slotAt()).toMatchObject({ booked: 4, remaining: 0 });
  });

  it('never lets an offer outlast the notice period of its departure', async () => {
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { minNoticeMinutes: 120 } }), Experience);
    const a = await book(4);
    const guest = await wait(2, 'guest@example.com');
    // 08:00 on Tuesday: 720 minutes would end at 20:00, after the start; the notice ends bookings at 16:00.
    clock.set(Date.UTC(2027, 2, 2, 8, 0, 0));
    expectData(await cancel(a.id), Booking);
    expect(await entry(guest)).toMatchObject({ status: 'OFFERED', offerExpiresAt: Date.UTC(2027, 2, 2, 16, 0, 0) });
  });

  it('makes no offer at the very instant the notice period begins: the entry expires', async () => {
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { minNoticeMinutes: 120 } }), Experience);
    const a = await book(4);
    const guest = await wait(2, 'guest@example.com');
    clock.set(Date.UTC(2027, 2, 2, 16, 0, 0));
    expectData(await cancel(a.id), Booking);
    expect(await statuses(guest)).toEqual(['EXPIRED']);
  });

  it('offers the places a smaller party or a move to another time frees', async () => {
    const a = await book(4);
    const first = await wait(1, 'first@example.com');
    const second = await wait(2, 'second@example.com');
    expectData(await t.request('PATCH', `/v1/bookings/${a.id}`, { body: { participants: 3 } }), Booking);
    expect(await statuses(first, second)).toEqual(['OFFERED', 'WAITING']);
    expectData(await t.request('PATCH', `/v1/bookings/${a.id}`, { body: { startTime: WEDNESDAY_18 } }), Booking);
    expect(await statuses(first, second)).toEqual(['OFFERED', 'OFFERED']);
    expect(await slotAt()).toMatchObject({ booked: 3, remaining: 1 });
    // A change that frees nothing offers nothing: the party grows back on Wednesday.
    const wed = await wait(1, 'wed@example.com', WEDNESDAY_18);
    expectData(await t.request('PATCH', `/v1/bookings/${a.id}`, { body: { participants: 4 } }), Booking);
    expect(await statuses(wed)).toEqual(['WAITING']);
  });

  it('expires the waiting entries instead when the departure no longer takes bookings', async () => {
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { minNoticeMinutes: 120 } }), Experience);
    const a = await book(4);
    const guest = await wait(1, 'guest@example.com');
    clock.set(Date.UTC(2027, 2, 2, 16, 30, 0));
    expectData(await cancel(a.id), Booking);
    expect(await statuses(guest)).toEqual(['EXPIRED']);
    expect(await activity(guest)).toEqual(['waitlist.expire by system']);
  });

  it('offers the places a higher maxParticipants adds, in every slot with a waitlist', async () => {
    await book(4);
    await book(4, WEDNESDAY_18);
    const tue = await wait(2, 'tue@example.com');
    const wed = await wait(1, 'wed@example.com', WEDNESDAY_18);
    const tooBig = await wait(3, 'toobig@example.com', WEDNESDAY_18);
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { maxParticipants: 6 } }), Experience);
    expect(await statuses(tue, wed, tooBig)).toEqual(['OFFERED', 'OFFERED', 'WAITING']);
    // Taken off the schedule: the waiting entry of that slot expires; the offer keeps its time.
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { schedule: { weekly: { tue: ['18:00'] } } } }), Experience);
    expect(await statuses(tue, wed, tooBig)).toEqual(['OFFERED', 'OFFERED', 'EXPIRED']);
  });

  it('offers a raised capacity or a reopened departure, and ends the waitlist of a closed one', async () => {
    await book(4);
    const slot = await slotAt();
    const offered = await wait(1, 'offered@example.com');
    const waiting = await wait(2, 'waiting@example.com');
    expect(expectData(await t.request('PATCH', `/v1/slots/${slot.id}`, { body: { capacity: 5 } }), Slot)).toMatchObject({ booked: 5, remaining: 0 });
    expect(await statuses(offered, waiting)).toEqual(['OFFERED', 'WAITING']);

    // Closing: both expire, the offer's place leaves the counter.
    expect(expectData(await t.request('PATCH', `/v1/slots/${slot.id}`, { body: { closed: true } }), Slot)).toMatchObject({ closed: true, booked: 4 });
    expect(await statuses(offered, waiting)).toEqual(['EXPIRED', 'EXPIRED']);
    expect(await activity(offered)).toEqual(['waitlist.offer by system', 'waitlist.expire by system']);

    const again = await wait(1, 'again@example.com');
    expectData(await t.request('PATCH', `/v1/slots/${slot.id}`, { body: { closed: false } }), Slot);
    expect(await statuses(again)).toEqual(['OFFERED']);
  });

  it('expires a lapsed offer within a sweep and offers its places on, once however many sweep at once', async () => {
    const a = await book(4);
    const first = await wait(2, 'first@example.com');
    const second = await wait(2, 'second@example.com');
    const third = await wait(2, 'third@example.com');
    expectData(await cancel(a.id), Booking);
    expect(await statuses(first, second, third)).toEqual(['OFFERED', 'OFFERED', 'WAITING']);

    clock.advance(720 * MINUTE - 1);
    expect(await sweepLapsedOffers({ store: t.store, logger, now: clock.now })).toBe(0);
    clock.advance(1);
    const swept = await Promise.all([0, 1, 2].map(() => sweepLapsedOffers({ store: t.store, logger, now: clock.now })));
    expect(swept.reduce((x, y) => x + y, 0)).toBe(2);
    expect(await statuses(first, second, third)).toEqual(['EXPIRED', 'EXPIRED', 'OFFERED']);
    expect(await entry(third)).toMatchObject({ offeredAt: clock.now(), offerExpiresAt: clock.now() + 720 * MINUTE });
    expect(await activity(first)).toEqual(['waitlist.offer by system', 'waitlist.expire by system']);
    // 2 held by the new offer, 2 free: nobody else waits, so a booking may have them.
    expect(await slotAt()).toMatchObject({ booked: 2, remaining: 2 });
    await book(2);

    // Expired already: a late call changes nothing.
    expect(await expireOffer(t.store, await entry(first), clock.now())).toBe(false);
  });

  it('runs in the hold sweeper’s job, which also settles waitlists that no change announced', async () => {
    const a = await book(4);
    const offered = await wait(1, 'offered@example.com');
    const tue = await wait(4, 'tue@example.com');
    expectData(await cancel(a.id), Booking);
    await book(3);
    // Wednesday's slot is full; its waiting guest expires once the departure is blocked by a calendar.
    await book(4, WEDNESDAY_18);
    const wed = await wait(1, 'wed@example.com', WEDNESDAY_18);
    const importId = newId('calendarImport');
    await t.store.calendarImports.insertCalendarImport({
      id: importId, orgId: t.orgId, name: 'Boat maintenance', url: 'https://calendar.example/boat.ics', experienceId: exp.id, etag: null,
      lastModified: null, lastSyncedAt: null, lastError: null, eventCount: 1, nextSyncAt: null, expandedAt: null, expandedZone: null,
      syncNote: null, createdAt: NOW, updatedAt: NOW,
    });
    await t.store.calendarImports.replaceBusyIntervals({ id: importId, orgId: t.orgId, experienceId: exp.id }, [
      { start: Date.parse(WEDNESDAY_18) - 30 * MINUTE, end: Date.parse(WEDNESDAY_18) + 30 * MINUTE },
    ]);

    const job = holdExpiryJob({ store: t.store, provider: undefined, logger, now: clock.now });
    clock.advance(720 * MINUTE);
    await job.runOnce();
    expect(await statuses(offered, tue, wed)).toEqual(['EXPIRED', 'WAITING', 'EXPIRED']);
    // Tuesday at 20:00: the departure has started; its waiting entry expires on the next minute's round.
    clock.set(Date.UTC(2027, 2, 2, 20, 0, 0));
    await job.runOnce();
    expect(await statuses(tue)).toEqual(['EXPIRED']);
    expect(await activity(tue)).toEqual(['waitlist.expire by system']);
  });

  it('settles the waitlist of a slot whose places were freed without an offer (a safety net)', async () => {
    await book(2);
    const guest = await wait(2, 'guest@example.com');
    expect(await settleAllWaitlists({ store: t.store, logger, now: clock.now })).toBe(1);
    expect(await statuses(guest)).toEqual(['OFFERED']);
  });
});

describe('waitlist offers under concurrency', () => {
  let t: TestApp;
  let exp: Experience;
  afterEach(() => t.close());

  it('never oversells, and never lets a booking take a freed place while a waiting entry it fits waits', async () => {
    const clock = manualClock(NOW);
    t = await createTestApp({ now: clock.now, org: { timezone: 'UTC', currency: 'EUR' }, env: { RATE_LIMIT_PER_MINUTE: '100000', PUBLIC_BOOKINGS_PER_MINUTE: '100000' } });
    const CAPACITY = 8;
    const body = { name: 'Race boat', description: '', duration: 60, price: 2000, maxParticipants: CAPACITY, waitlist: true, schedule: { weekly: everyDay(['18:00']) } };
    exp = expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
    const bookings: Booking[] = [];
    for (let i = 0; i < CAPACITY; i++) {
      bookings.push(expectData(await t.request('POST', '/v1/bookings', {
        body: { experienceId: exp.id, startTime: TUESDAY_18, participants: 1, customerName: `Guest ${i}`, customerEmail: `guest${i}@example.com` },
      }), Booking, 201));
    }
    const start = Date.parse(TUESDAY_18);
    const waiting: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(1);
      const id = newId('waitlistEntry', clock.now());
      await t.store.waitlist.insertEntry({
        id, orgId: t.orgId, experienceId: exp.id, slotStart: start, slotEnd: start + 60 * MINUTE, status: 'WAITING', places: 1,
        totalParticipants: 1, tickets: '[]', answers: '[]', guestName: `Waiting ${i}`, guestEmail: `waiting${i}@example.com`, guestPhone: null,
        locale: 'en', tokenHash: null, offeredAt: null, offerExpiresAt: null, bookingId: null, createdAt: clock.now(), updatedAt: clock.now(),
      });
      waiting.push(id);
    }

    // 6 cancellations and 24 guests booking, all at once: 6 places free, the 4 waiting entries are owed 4 of them.
    const answers = await Promise.all([
      ...bookings.slice(0, 6).map((b) => t.request('PATCH', `/v1/bookings/${b.id}/cancel`, { body: {} })),
      ...Array.from({ length: 24 }, (_, i) =>
        t.request('POST', '/public/v1/bookings', {
          body: { experienceId: exp.id, startTime: TUESDAY_18, participants: 1, customerName: `Rival ${i}`, customerEmail: `rival${i}@example.com` },
        }),
      ),
    ]);
    const cancels = answers.slice(0, 6);
    const rivals = answers.slice(6);
    for (const c of cancels) expect(c.status, c.text).toBe(200);
    for (const r of rivals) if (r.status !== 201) expect([r.status, r.body.error.code]).toEqual([409, 'CAPACITY_EXCEEDED']);
    const won = rivals.filter((r) => r.status === 201).length;

    const entries = await Promise.all(waiting.map(async (id) => (await t.store.waitlist.getEntry(t.orgId, id))!));
    expect(entries.map((e) => e.status)).toEqual(['OFFERED', 'OFFERED', 'OFFERED', 'OFFERED']);
    expect(won).toBeLessThanOrEqual(2);
    const slot = expectData(await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=2027-03-02&endDate=2027-03-02`), Availability).slots[0]!;
    // The counter is exactly the bookings still holding places and the offers.
    const holding = (await t.store.bookings.listBookings(t.orgId, { experienceId: exp.id }, { limit: 100, offset: 0 })).rows.filter((b) => b.status !== 'CANCELLED');
    expect(holding).toHaveLength(2 + won);
    expect(slot).toMatchObject({ capacity: CAPACITY, booked: holding.length + 4 });
    expect(slot.booked).toBeLessThanOrEqual(CAPACITY);
  });
});
