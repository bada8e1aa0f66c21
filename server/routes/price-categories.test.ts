import ICAL from 'ical.js';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyDay, createTestApp, expectData, expectError, expectList, expectPriceChanged, expectValidationError, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { Availability, Booking, CalendarFeedWithToken, DailyReport, Experience, Manifest, PublicExperience, WebhookEvent } from '../../shared/index.js';
import { lineItemsOf } from '../services/online-checkout.js';

// Monday 2027-03-01, 08:00 UTC = 08:00 in Lisbon.
const NOW = Date.UTC(2027, 2, 1, 8, 0, 0);
const S1 = '2027-03-02T10:00:00.000Z';
const S2 = '2027-03-02T15:00:00.000Z';

const ADULT = { name: 'Adult', price: 2500, type: 'ADULT', minAge: 18 };
const CHILD = { name: 'Child', price: 1200, type: 'CHILD', minAge: 4, maxAge: 17 };
const INFANT = { name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, maxAge: 3 };

let t: TestApp;
let clock: ManualClock;
let exp: Experience;

async function newExperience(fields: Record<string, unknown> = {}): Promise<Experience> {
  const body = {
    name: 'Alfama walk',
    description: 'Two hours',
    duration: 120,
    price: 2000,
    maxParticipants: 10,
    schedule: { weekly: everyDay(['10:00', '15:00']) },
    priceCategories: [ADULT, CHILD, INFANT],
    ...fields,
  };
  return expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
}

const category = (name: string, e: Experience = exp) => e.priceCategories.find((c) => c.name === name)!.id;
const tickets = (counts: Record<string, number>, e: Experience = exp) =>
  Object.entries(counts).map(([name, quantity]) => ({ categoryId: category(name, e), quantity }));

const post = (fields: Record<string, unknown>) =>
  t.request('POST', '/v1/bookings', {
    body: { experienceId: exp.id, startTime: S1, customerName: 'Ana Costa', customerEmail: 'ana@example.com', ...fields },
  });
const book = async (fields: Record<string, unknown>) => expectData(await post(fields), Booking, 201);
const patch = (ref: string, body: unknown) => t.request('PATCH', `/v1/bookings/${ref}`, { body });

async function slot(startTime = S1) {
  const date = startTime.slice(0, 10);
  const a = expectData(await t.request('GET', `/v1/availability?experienceId=${exp.id}&startDate=${date}&endDate=${date}`), Availability);
  return a.slots.find((s) => s.startTime === startTime)!;
}

/** Rows that a refused request must not have written. */
async function written() {
  const page = { limit: 1, offset: 0 };
  return {
    bookings: (await t.store.bookings.listBookings(t.orgId, {}, page)).total,
    events: (await t.store.events.listEvents(t.orgId, {}, page)).total,
    places: [...(await t.store.bookings.bookedPlacesBetween(exp.id, 0, 8.64e15)).values()].reduce((a, b) => a + b, 0),
  };
}

beforeEach(async () => {
  clock = manualClock(NOW);
  t = await createTestApp({ now: clock.now, org: { timezone: 'Europe/Lisbon', currency: 'EUR' } });
  exp = await newExperience();
});
afterEach(() => t.close());

describe('price categories on experiences', () => {
  it('gives each new category an id and the defaults, on the record and on /public/v1', async () => {
    expect(exp.priceCategories).toEqual([
      { id: expect.stringMatching(/^pc_[A-Za-z0-9]+$/), name: 'Adult', price: 2500, type: 'ADULT', occupiesPlace: true, minAge: 18, maxAge: null },
      { id: expect.stringMatching(/^pc_/), name: 'Child', price: 1200, type: 'CHILD', occupiesPlace: true, minAge: 4, maxAge: 17 },
      { id: expect.stringMatching(/^pc_/), name: 'Infant', price: 0, type: 'INFANT', occupiesPlace: false, minAge: null, maxAge: 3 },
    ]);
    const plain = await newExperience({ name: 'Plain', priceCategories: undefined });
    expect(plain.priceCategories).toEqual([]);

    const pub = expectList(await t.request('GET', '/public/v1/experiences', { key: t.publishableKey }), PublicExperience);
    expect(pub.data.find((e) => e.id === exp.id)!.priceCategories).toEqual(exp.priceCategories);
  });

  it('keeps ids on PATCH, replaces the list, and refuses an unknown id, twins, more than ten and ages the wrong way round', async () => {
    const adult = category('Adult');
    const res = await t.request('PATCH', `/v1/experiences/${exp.id}`, {
      body: { priceCategories: [{ id: adult, name: 'Adult', price: 2800, type: 'ADULT' }, { name: 'Senior', price: 2000, type: 'SENIOR' }] },
    });
    const next = expectData(res, Experience);
    expect(next.priceCategories.map((c) => [c.name, c.price])).toEqual([['Adult', 2800], ['Senior', 2000]]);
    expect(next.priceCategories[0]!.id).toBe(adult);
    expect(next.priceCategories[1]!.id).not.toBe(category('Child'));

    const change = (priceCategories: unknown) => t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { priceCategories } });
    expectValidationError(await change([{ id: 'pc_unknown', name: 'Adult', price: 1 }]), 'priceCategories[0].id');
    expectValidationError(await change([{ name: 'Adult', price: 1 }, { name: 'adult ', price: 2 }]), 'priceCategories[1].name');
    expectValidationError(await change(Array.from({ length: 11 }, (_, i) => ({ name: `C${i}`, price: 1 }))), 'priceCategories');
    expectValidationError(await change([{ name: 'Kid', price: 1, minAge: 10, maxAge: 5 }]), 'priceCategories[0].maxAge');
    expectValidationError(await change([{ name: 'Kid', price: -1 }]), 'priceCategories[0].price');
    expectValidationError(await change([{ name: 'Kid', price: 1, type: 'BABY' }]), 'priceCategories[0].type');
    expectValidationError(await change([{ name: '', price: 1 }]), 'priceCategories[0].name');
    // Nothing of the refused changes was kept.
    expect(expectData(await t.request('GET', `/v1/experiences/${exp.id}`), Experience).priceCategories).toEqual(next.priceCategories);
  });
});

describe('booking with tickets', () => {
  it('prices the tickets, counts places apart from participants, and snapshots name, type and price', async () => {
    const b = await book({ tickets: tickets({ Adult: 2, Child: 1, Infant: 1 }) });
    expect(b.tickets).toEqual([
      { categoryId: category('Adult'), name: 'Adult', type: 'ADULT', quantity: 2, unitPrice: 2500 },
      { categoryId: category('Child'), name: 'Child', type: 'CHILD', quantity: 1, unitPrice: 1200 },
      { categoryId: category('Infant'), name: 'Infant', type: 'INFANT', quantity: 1, unitPrice: 0 },
    ]);
    expect(b.totalParticipants).toBe(4);
    expect(b.unitPrice).toBeNull();
    expect(b.total).toBe('62.00');
    // The infant on a lap takes no place.
    expect(await slot()).toMatchObject({ booked: 3, remaining: 7 });

    // A later price change leaves the booking as it was.
    await t.request('PATCH', `/v1/experiences/${exp.id}`, {
      body: { priceCategories: [{ id: category('Adult'), name: 'Grown-up', price: 9900, type: 'ADULT' }] },
    });
    const again = expectData(await t.request('GET', `/v1/bookings/${b.id}`), Booking);
    expect(again.tickets).toEqual(b.tickets);
    expect(again.total).toBe('62.00');

    // Participants given too must agree with the tickets.
    const ok = await book({ tickets: tickets({ Adult: 1 }, exp), participants: 1 });
    expect(ok.totalParticipants).toBe(1);
  });

  it('refuses each bad request with its field, and writes nothing', async () => {
    const plain = await newExperience({ name: 'Plain', priceCategories: [] });
    const before = await written();
    expectValidationError(await post({ participants: 2 }), 'tickets');
    expectValidationError(await post({}), 'participants');
    expectValidationError(await post({ tickets: tickets({ Adult: 2 }), participants: 3 }), 'participants');
    expectValidationError(await post({ tickets: [{ categoryId: 'pc_nope', quantity: 1 }] }), 'tickets[0].categoryId');
    expectValidationError(await post({ tickets: [...tickets({ Adult: 1 }), { categoryId: category('Adult'), quantity: 2 }] }), 'tickets[1].categoryId');
    expectValidationError(await post({ tickets: [{ categoryId: category('Adult'), quantity: 0 }] }), 'tickets[0].quantity');
    expectValidationError(await post({ tickets: [] }), 'tickets');
    expectValidationError(await post({ tickets: tickets({ Infant: 2 }) }), 'tickets');
    // A category of another experience is not one of this one's.
    const other = await newExperience({ name: 'Other', priceCategories: [{ name: 'Adult', price: 1 }] });
    expectValidationError(await post({ tickets: tickets({ Adult: 1 }, other) }), 'tickets[0].categoryId');
    // Tickets on an experience without categories.
    expectValidationError(
      await t.request('POST', '/v1/bookings', {
        body: { experienceId: plain.id, startTime: S1, tickets: tickets({ Adult: 1 }), customerName: 'A', customerEmail: 'a@example.com' },
      }),
      'tickets',
    );
    expect(await written()).toEqual(before);
  });

  it('counts places against capacity and maxPerBooking, with the refusal on tickets', async () => {
    const small = await newExperience({ name: 'Small', maxParticipants: 4, maxPerBooking: 3 });
    const at = (fields: Record<string, unknown>) =>
      t.request('POST', '/v1/bookings', {
        body: { experienceId: small.id, startTime: S1, customerName: 'B', customerEmail: 'b@example.com', ...fields },
      });
    // Three places and an infant: within maxPerBooking (places) and maxParticipants (every ticket).
    expectData(await at({ tickets: tickets({ Adult: 2, Child: 1, Infant: 1 }, small) }), Booking, 201);
    expectValidationError(await at({ tickets: tickets({ Adult: 4 }, small) }), 'tickets');
    const full = expectError(await at({ tickets: tickets({ Adult: 2 }, small) }), 409, 'CAPACITY_EXCEEDED');
    expect(full.details).toEqual([{ path: 'tickets', message: '1 remaining' }]);
    // An infant alone cannot book, but an adult with an infant fits the last place.
    expectData(await at({ tickets: tickets({ Adult: 1, Infant: 1 }, small) }), Booking, 201);
    // The participants query of availability counts places.
    const date = S1.slice(0, 10);
    const a = expectData(await t.request('GET', `/v1/availability?experienceId=${small.id}&startDate=${date}&endDate=${date}`), Availability);
    expect(a.slots.find((s) => s.startTime === S1)).toMatchObject({ booked: 4, remaining: 0 });
  });
});

describe('expectedTotal with tickets', () => {
  it('compares the tickets’ total: a category’s new price is said as the new total, on both APIs, and nothing is written', async () => {
    const party = tickets({ Adult: 2, Child: 1, Infant: 1 });
    expect(await book({ tickets: party, expectedTotal: '62.00' })).toMatchObject({ total: '62.00' });
    // The child's ticket goes from 12.00 to 15.00 while a second guest looks at 62.00.
    const repriced = exp.priceCategories.map((c) => (c.name === 'Child' ? { ...c, price: 1500 } : c));
    expectData(await t.request('PATCH', `/v1/experiences/${exp.id}`, { body: { priceCategories: repriced } }), Experience);
    const before = await written();
    const body = { tickets: party, expectedTotal: '62.00', customerEmail: 'second@example.com' };
    expect(expectPriceChanged(await post(body))).toBe('65.00');
    expect(expectPriceChanged(await t.request('POST', '/public/v1/bookings', { body: { experienceId: exp.id, startTime: S1, customerName: 'Ana Costa', ...body } }))).toBe('65.00');
    expect(await written()).toEqual(before);
    // Tickets that take no place are refused (400) before any price is compared.
    expectValidationError(await post({ tickets: tickets({ Infant: 1 }), expectedTotal: '1.00' }), 'tickets');
    expect(await book({ ...body, expectedTotal: '65.00' })).toMatchObject({ total: '65.00' });
  });
});

describe('changing tickets', () => {
  it('keeps its own unit prices, prices new categories at today’s price, and reports changes.tickets', async () => {
    const b = await book({ tickets: tickets({ Adult: 2 }) });
    await t.request('PATCH', `/v1/experiences/${exp.id}`, {
      body: {
        priceCategories: [
          { id: category('Adult'), name: 'Adult', price: 3000, type: 'ADULT' },
          { id: category('Child'), name: 'Child', price: 1500, type: 'CHILD' },
        ],
      },
    });
    const next = expectData(await patch(b.id, { tickets: tickets({ Adult: 3, Child: 1 }) }), Booking);
    expect(next.tickets.map((x) => [x.name, x.quantity, x.unitPrice])).toEqual([['Adult', 3, 2500], ['Child', 1, 1500]]);
    expect(next.total).toBe('90.00');
    expect(next.totalParticipants).toBe(4);
    expect(await slot()).toMatchObject({ booked: 4 });

    const events = expectList(await t.request('GET', '/v1/events?type=BOOKING_UPDATED'), WebhookEvent).data;
    const changes = events[0]!.data.changes!;
    expect(Object.keys(changes).sort()).toEqual(['amountDue', 'subtotal', 'tickets', 'total', 'totalParticipants']);
    expect(changes['tickets']).toEqual({ from: b.tickets, to: next.tickets });
    expect(changes['total']).toEqual({ from: '50.00', to: '90.00' });
    expect(events[0]!.data.booking.tickets).toEqual(next.tickets);
  });

  it('keeps whether a booked category takes a place, after the experience drops or changes it', async () => {
    const b = await book({ tickets: tickets({ Adult: 2, Infant: 1 }) });
    expect(await slot()).toMatchObject({ booked: 2 });
    // The infants' category is dropped and the adults' repriced: the booking keeps both as booked.
    await t.request('PATCH', `/v1/experiences/${exp.id}`, {
      body: { priceCategories: [{ id: category('Adult'), name: 'Adult', price: 3000, type: 'ADULT' }] },
    });
    const next = expectData(await patch(b.id, { tickets: [...tickets({ Adult: 3 }), { categoryId: category('Infant'), quantity: 2 }] }), Booking);
    expect(next.tickets.map((x) => [x.name, x.quantity, x.unitPrice])).toEqual([['Adult', 3, 2500], ['Infant', 2, 0]]);
    expect(Object.keys(next.tickets[1]!).sort()).toEqual(['categoryId', 'name', 'quantity', 'type', 'unitPrice']);
    // Three places: the infants still take none.
    expect(await slot()).toMatchObject({ booked: 3 });
  });

  it('refuses places a full slot has not got, participants on a ticketed booking, and tickets on a plain one', async () => {
    const b = await book({ tickets: tickets({ Adult: 6 }) });
    await book({ tickets: tickets({ Adult: 4 }), customerEmail: 'other@example.com' });
    const before = await written();
    const full = expectError(await patch(b.id, { tickets: tickets({ Adult: 6, Child: 1 }) }), 409, 'CAPACITY_EXCEEDED');
    expect(full.details).toEqual([{ path: 'tickets', message: '6 remaining' }]);
    // An infant more adds no place, and fits.
    expectData(await patch(b.id, { tickets: tickets({ Adult: 6, Infant: 1 }) }), Booking);
    const after = await written();
    expect(after.places).toBe(before.places);
    expect(after.events).toBe(before.events + 1);

    expectValidationError(await patch(b.id, { participants: 3 }), 'participants');
    expectValidationError(await patch(b.id, { tickets: tickets({ Adult: 1 }), participants: 1 }), 'participants');
    // Moving it to a slot with room keeps its tickets.
    const moved = expectData(await patch(b.id, { startTime: S2 }), Booking);
    expect(moved.tickets).toHaveLength(2);
    expect(await slot(S2)).toMatchObject({ booked: 6 });
    expect(await slot(S1)).toMatchObject({ booked: 4 });

    const plain = await newExperience({ name: 'Plain', priceCategories: [] });
    const p = expectData(
      await t.request('POST', '/v1/bookings', {
        body: { experienceId: plain.id, startTime: S1, participants: 2, customerName: 'C', customerEmail: 'c@example.com' },
      }),
      Booking,
      201,
    );
    expect(p).toMatchObject({ tickets: [], unitPrice: 2000, total: '40.00' });
    expectValidationError(await patch(p.id, { tickets: tickets({ Adult: 1 }) }), 'tickets');
  });
});

describe('tickets everywhere a booking appears', () => {
  it('in the manifest, its CSV, the iCal feed, the daily report and the checkout lines', async () => {
    const b = await book({ tickets: tickets({ Adult: 2, Child: 1 }) });
    const m = expectData(await t.request('GET', '/v1/manifest?date=2027-03-02'), Manifest);
    const row = m.slots.flatMap((s) => s.bookings).find((x) => x.id === b.id)!;
    expect(row.tickets).toEqual(b.tickets);
    expect(row.total).toBe('62.00');
    expect(m.slots.find((s) => s.timeSlot.startTime === S1)!.booked).toBe(3);
    const csv = (await t.request('GET', '/v1/manifest.csv?date=2027-03-02')).text.split('\r\n');
    expect(csv.find((l) => l.includes(b.bookingNumber))).toContain(',3,2 Adult; 1 Child,62.00,');

    const feed = expectData(await t.request('POST', '/v1/calendar-feeds', { body: { name: 'Guides' } }), CalendarFeedWithToken, 201);
    const text = await (await t.app.request(new URL(feed.url).pathname)).text();
    const cal = new ICAL.Component(ICAL.parse(text));
    const description = String(cal.getFirstSubcomponent('vevent')!.getFirstPropertyValue('description'));
    expect(description).toContain('Tickets: 2 × Adult, 1 × Child');
    expect(description).toContain('Total: 62.00 EUR');

    const report = expectData(await t.request('GET', '/v1/reports/daily?startDate=2027-03-01&endDate=2027-03-01'), DailyReport);
    expect(report.days[0]).toMatchObject({ bookings: 1, participants: 3, revenue: '62.00' });

    const view = (await t.store.bookings.getBooking(t.orgId, b.id))!;
    expect(lineItemsOf(view)).toEqual([
      { name: 'Alfama walk · Adult', unitAmount: 2500, quantity: 2 },
      { name: 'Alfama walk · Child', unitAmount: 1200, quantity: 1 },
    ]);
  });
});

describe('places under any sequence of changes (property)', () => {
  it('availability’s booked equals the places of the live bookings', async () => {
    const adult = category('Adult');
    const child = category('Child');
    const infant = category('Infant');
    const ticketList = fc
      .record({ a: fc.integer({ min: 0, max: 4 }), c: fc.integer({ min: 0, max: 3 }), i: fc.integer({ min: 0, max: 2 }) })
      .map(({ a, c, i }) =>
        [
          { categoryId: adult, quantity: a },
          { categoryId: child, quantity: c },
          { categoryId: infant, quantity: i },
        ].filter((x) => x.quantity > 0),
      );
    const step = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), tickets: ticketList, slot: fc.constantFrom(S1, S2) }),
      fc.record({ kind: fc.constant('patch' as const), tickets: ticketList, pick: fc.nat() }),
      fc.record({ kind: fc.constant('move' as const), slot: fc.constantFrom(S1, S2), pick: fc.nat() }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        // A fresh experience per run: the slots start empty.
        exp = await newExperience({ name: `Walk ${run++}` });
        const ids: string[] = [];
        const remap = (list: { categoryId: string; quantity: number }[]) =>
          list.map((x) => ({ ...x, categoryId: x.categoryId === adult ? category('Adult') : x.categoryId === child ? category('Child') : category('Infant') }));
        for (const s of steps) {
          if (s.kind === 'create') {
            const res = await post({ tickets: remap(s.tickets), startTime: s.slot, customerEmail: `g${ids.length}@example.com` });
            if (res.status === 201) ids.push(expectData(res, Booking, 201).id);
            else expect([400, 409]).toContain(res.status);
          } else if (ids.length > 0) {
            const id = ids[s.pick % ids.length]!;
            const res =
              s.kind === 'cancel'
                ? await t.request('PATCH', `/v1/bookings/${id}/cancel`, { body: {} })
                : await patch(id, s.kind === 'patch' ? { tickets: remap(s.tickets) } : { startTime: s.slot });
            expect([200, 400, 409]).toContain(res.status);
          }
        }
        const live = (await Promise.all(ids.map(async (id) => expectData(await t.request('GET', `/v1/bookings/${id}`), Booking)))).filter(
          (b) => b.status !== 'CANCELLED',
        );
        const placesIn = (start: string) =>
          live
            .filter((b) => b.timeSlot.startTime === start)
            .reduce((n, b) => n + b.tickets.filter((x) => x.type !== 'INFANT').reduce((m, x) => m + x.quantity, 0), 0);
        for (const start of [S1, S2]) {
          const s = await slot(start);
          expect(s.booked).toBe(placesIn(start));
          expect(s.booked).toBeLessThanOrEqual(10);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
