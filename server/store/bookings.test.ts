import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { BookingOrder, BookingRow } from './bookings.js';
import { addOrganization, openTestStore, testEngine } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

// Behaviour of the store, not of one engine: the same expectations hold on SQLite and, in the
// server-postgres project, on a leased database of the PostgreSQL test cluster.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SLOT = Date.UTC(2030, 0, 1, 10);
const T0 = Date.UTC(2029, 11, 1);

describe(`booking store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgId: string;
  let otherOrg: string;
  const refusal = (why: keyof typeof REFUSALS) => (testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg);

  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgId = (await addOrganization(store)).orgId;
    otherOrg = (await addOrganization(store, { name: 'Other' })).orgId;
    for (const [id, org] of [['exp_x', orgId], ['exp_y', orgId], ['exp_w', otherOrg]] as const) {
      await store.experiences.insertExperience({
        id, orgId: org, name: `Tour ${id}`, description: '', duration: 60, price: 4500, maxParticipants: 10, maxPerBooking: null,
        schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: T0, updatedAt: T0,
      });
    }
    for (const [id, org] of [['cus_1', orgId], ['cus_2', orgId], ['cus_w', otherOrg]] as const) {
      await store.customers.insertCustomer({
        id, orgId: org, email: `${id}@example.com`, name: id, phone: null, firstBookingAt: null, lastBookingAt: null, erasedAt: null,
        createdAt: T0, updatedAt: T0,
      });
    }
  });
  afterEach(async () => {
    await opened.close();
  });

  const booking = (fields: Pick<BookingRow, 'id' | 'bookingNumber'> & Partial<BookingRow>): BookingRow => ({
    orgId, experienceId: 'exp_x', customerId: 'cus_1', slotStart: SLOT, slotEnd: SLOT + HOUR, status: 'CONFIRMED', guestName: 'Ada Lovelace',
    guestEmail: 'ada@example.com', guestPhone: null, participants: 2, unitPrice: 4500, currency: 'EUR', source: 'API', metadata: '{}',
    cancellationReason: null, cancelledAt: null, holdExpiresAt: null, checkoutSessionId: null, checkoutUrl: null, sequence: 0,
    checkedInAt: null, tickets: null, places: null, totalCents: null, locale: null, internalNote: null, answers: null, extras: null, promoCodeId: null, discountCode: null, discountType: null, discountValue: null, voucherId: null, voucherMask: null, voucherCents: null, createdAt: T0, updatedAt: T0, ...fields,
  });
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  it('inserts and reads a booking by id, number and checkout session, every field as written', async () => {
    const full = booking({
      id: 'bk_full', bookingNumber: 'BK-FULL0001', guestPhone: '+351 912 345 678', metadata: '{"room":"12"}', locale: 'pt',
      checkoutSessionId: 'cs_1', checkoutUrl: 'https://pay.example/cs_1', tickets: '[{"categoryId":"adult","quantity":2}]', places: 2,
      totalCents: 12_345, unitPrice: 0, holdExpiresAt: T0 + HOUR, status: 'PENDING', checkedInAt: null, sequence: 3,
      source: 'DASHBOARD', internalNote: 'Walk-in; pays the rest on board',
      answers: '[{"questionId":"q_1","label":"Shoe size","type":"SELECT","value":"40"}]',
      extras: '[{"extraId":"ex_1","name":"Lunch","per":"PERSON","quantity":2,"unitPrice":1200}]',
    });
    await store.bookings.insertBooking(full);
    await store.bookings.insertBooking(booking({ id: 'bk_later', bookingNumber: 'BK-LATER001', checkoutSessionId: 'cs_1' }));
    expect(await store.bookings.getBooking(orgId, 'bk_full')).toStrictEqual({ ...full, experienceName: 'Tour exp_x', amountRefunded: 0, amountPaid: 0, octo: null });
    expect(await store.bookings.getBooking(otherOrg, 'bk_full')).toBeUndefined();
    expect((await store.bookings.getBookingByNumber(orgId, 'BK-FULL0001'))?.id).toBe('bk_full');
    expect(await store.bookings.getBookingByNumber(orgId, 'bk-full0001')).toBeUndefined(); // exact
    expect(await store.bookings.getBookingByNumber(otherOrg, 'BK-FULL0001')).toBeUndefined();
    // Two bookings on one session: the first made (ids sort by creation).
    expect((await store.bookings.getBookingByCheckoutSession('cs_1'))?.id).toBe('bk_full');
    expect(await store.bookings.getBookingByCheckoutSession('cs_none')).toBeUndefined();
    expect(await store.bookings.bookingNumberTaken('BK-FULL0001')).toBe(true);
    expect(await store.bookings.bookingNumberTaken('BK-NONE0001')).toBe(false);
    expect(await store.bookings.orgHasBookings(orgId)).toBe(true);
    expect(await store.bookings.orgHasBookings(otherOrg)).toBe(false);
  });

  it('keeps a reseller’s booking without customer, name or e-mail, and lists bookings by source', async () => {
    const nameless = booking({ id: 'bk_octo', bookingNumber: 'BK-OCTO0001', source: 'OCTO', customerId: null, guestName: null, guestEmail: null });
    await store.bookings.insertBooking(nameless);
    await store.bookings.insertBooking(booking({ id: 'bk_api', bookingNumber: 'BK-API00001', slotStart: SLOT + HOUR, slotEnd: SLOT + 2 * HOUR }));
    await store.bookings.insertBooking(booking({ id: 'bk_wid', bookingNumber: 'BK-WID00001', source: 'WIDGET' }));
    // No octo_bookings row was written here, so its reseller side reads as null.
    expect(await store.bookings.getBooking(orgId, 'bk_octo')).toStrictEqual({ ...nameless, experienceName: 'Tour exp_x', amountRefunded: 0, amountPaid: 0, octo: null });
    const page = { limit: 10, offset: 0 };
    const bySource = async (source: BookingRow['source']) => {
      const { rows, total } = await store.bookings.listBookings(orgId, { source }, page);
      return { ids: ids(rows), total };
    };
    expect(await bySource('OCTO')).toEqual({ ids: ['bk_octo'], total: 1 });
    expect(await bySource('API')).toEqual({ ids: ['bk_api'], total: 1 });
    expect(await bySource('DASHBOARD')).toEqual({ ids: [], total: 0 });
    const { rows, total } = await store.bookings.listBookings(orgId, { source: 'OCTO', status: 'CONFIRMED', experienceId: 'exp_x' }, page);
    expect({ ids: ids(rows), total }).toEqual({ ids: ['bk_octo'], total: 1 });
    expect((await store.bookings.listBookings(orgId, {}, page)).total).toBe(3);
  });

  it('updates what a booking may change, and nothing else', async () => {
    await store.bookings.insertBooking(booking({ id: 'bk_a', bookingNumber: 'BK-A0000001' }));
    const changed = booking({
      id: 'bk_a', bookingNumber: 'BK-IGNORED1', unitPrice: 1, currency: 'USD', source: 'WIDGET', createdAt: 1, customerId: 'cus_2',
      slotStart: SLOT + DAY, slotEnd: SLOT + DAY + HOUR, status: 'CANCELLED', cancelledAt: T0 + 5, cancellationReason: 'Rain', sequence: 1,
      guestName: 'Grace', participants: 3, checkedInAt: T0 + 6, locale: 'en', internalNote: 'Moved by phone', updatedAt: T0 + 7,
      answers: '[{"questionId":"q_1","label":"Age","type":"NUMBER","value":41}]', extras: '[{"extraId":"ex_1","name":"Gear","per":"BOOKING","quantity":1,"unitPrice":800}]',
      totalCents: 14_300,
    });
    await store.bookings.updateBooking(changed);
    expect(await store.bookings.getBooking(orgId, 'bk_a')).toStrictEqual({
      ...changed, bookingNumber: 'BK-A0000001', unitPrice: 4500, currency: 'EUR', source: 'API', createdAt: T0, experienceName: 'Tour exp_x', amountRefunded: 0, amountPaid: 0, octo: null,
    });
  });

  it('refuses a taken id or number, an unknown experience or customer, and a party of none', async () => {
    await store.bookings.insertBooking(booking({ id: 'bk_a', bookingNumber: 'BK-A0000001' }));
    const refused = (row: BookingRow, why: keyof typeof REFUSALS) => expect(store.bookings.insertBooking(row)).rejects.toMatchObject({ code: refusal(why) });
    await refused(booking({ id: 'bk_a', bookingNumber: 'BK-B0000001' }), 'unique');
    await refused(booking({ id: 'bk_b', bookingNumber: 'BK-A0000001' }), 'unique');
    await refused(booking({ id: 'bk_b', bookingNumber: 'BK-B0000001', experienceId: 'exp_none' }), 'foreignKey');
    await refused(booking({ id: 'bk_b', bookingNumber: 'BK-B0000001', customerId: 'cus_none' }), 'foreignKey');
    await refused(booking({ id: 'bk_b', bookingNumber: 'BK-B0000001', participants: 0 }), 'check');
    await refused(booking({ id: 'bk_b', bookingNumber: 'BK-B0000001', source: 'FAX' as BookingRow['source'] }), 'check');
    expect(await store.bookings.bookingNumberTaken('BK-B0000001')).toBe(false);
  });

  it('keeps places per slot, never below zero', async () => {
    expect(await store.bookings.bookedPlaces('exp_x', SLOT)).toBe(0);
    await store.bookings.addBookedPlaces('exp_x', SLOT, 3);
    await store.bookings.addBookedPlaces('exp_x', SLOT, 2);
    await store.bookings.addBookedPlaces('exp_x', SLOT + 2 * HOUR, 1);
    await store.bookings.addBookedPlaces('exp_x', SLOT - HOUR, 4);
    await store.bookings.addBookedPlaces('exp_y', SLOT, 7);
    await store.bookings.addBookedPlaces('exp_x', SLOT, -1);
    await store.bookings.addBookedPlaces('exp_x', SLOT, 0);
    expect(await store.bookings.bookedPlaces('exp_x', SLOT)).toBe(4);
    // More given back than taken: CHECK (booked >= 0) refuses it and the count stays.
    await expect(store.bookings.addBookedPlaces('exp_x', SLOT, -5)).rejects.toMatchObject({ code: refusal('check') });
    expect(await store.bookings.bookedPlaces('exp_x', SLOT)).toBe(4);
    // Given back in a slot nobody booked: nothing changes, no row is made.
    await store.bookings.addBookedPlaces('exp_x', SLOT + 5 * HOUR, -1);
    expect([...(await store.bookings.bookedPlacesBetween('exp_x', SLOT - HOUR, SLOT + 6 * HOUR)).entries()]).toEqual([
      [SLOT - HOUR, 4], [SLOT, 4], [SLOT + 2 * HOUR, 1],
    ]);
    // [from, to): the end is left out.
    expect([...(await store.bookings.bookedPlacesBetween('exp_x', SLOT, SLOT + 2 * HOUR)).entries()]).toEqual([[SLOT, 4]]);
  });

  describe('lists', () => {
    beforeEach(async () => {
      const rows: BookingRow[] = [
        booking({ id: 'bk_05', bookingNumber: 'BK-00000005', slotStart: SLOT + DAY, createdAt: T0 + 1, guestName: 'Zoë Martins', guestEmail: 'zoe@example.com' }),
        booking({ id: 'bk_04', bookingNumber: 'BK-00000004', slotStart: SLOT, createdAt: T0 + 2, status: 'PENDING', holdExpiresAt: T0 + 50 }),
        booking({ id: 'bk_03', bookingNumber: 'BK-00000003', slotStart: SLOT, createdAt: T0 + 1, experienceId: 'exp_y', customerId: 'cus_2' }),
        booking({ id: 'bk_02', bookingNumber: 'BK-00000002', slotStart: SLOT, createdAt: T0 + 1, status: 'CANCELLED', guestName: '50% off_\\' }),
        booking({ id: 'bk_01', bookingNumber: 'BK-00000001', slotStart: SLOT + 2 * DAY, createdAt: T0, status: 'PENDING', holdExpiresAt: T0 + 50, checkoutSessionId: 'cs_9' }),
        booking({ id: 'bk_06', bookingNumber: 'BK-00000006', slotStart: SLOT + 3 * DAY, createdAt: T0, status: 'PENDING', holdExpiresAt: T0 + 10, totalCents: 9000, tickets: '[]', places: 2, unitPrice: 0 }),
        booking({ id: 'bk_w1', bookingNumber: 'BK-0000000W', orgId: otherOrg, experienceId: 'exp_w', customerId: 'cus_w', slotStart: SLOT }),
      ];
      await store.transaction(async () => {
        for (const row of rows) await store.bookings.insertBooking(row);
      });
    });

    it('pages in slot order, then creation, then id, with totals for every filter', async () => {
      const list = (filter: Parameters<Store['bookings']['listBookings']>[1], limit = 10, offset = 0) =>
        store.bookings.listBookings(orgId, filter, { limit, offset });
      const all = await list({});
      expect(ids(all.rows)).toEqual(['bk_02', 'bk_03', 'bk_04', 'bk_05', 'bk_01', 'bk_06']);
      expect(all.total).toBe(6);
      expect(all.rows[0]).toStrictEqual({
        ...booking({ id: 'bk_02', bookingNumber: 'BK-00000002', slotStart: SLOT, createdAt: T0 + 1, status: 'CANCELLED', guestName: '50% off_\\' }),
        experienceName: 'Tour exp_x', amountRefunded: 0, amountPaid: 0, octo: null,
      });
      expect(await list({}, 2, 1)).toMatchObject({ total: 6, rows: [{ id: 'bk_03' }, { id: 'bk_04' }] });
      // A page past the end answers the total with no rows.
      expect(await list({}, 10, 6)).toStrictEqual({ rows: [], total: 6 });
      expect(await list({ experienceId: 'exp_none' })).toStrictEqual({ rows: [], total: 0 });
      expect(await store.bookings.listBookings('org_none', {}, { limit: 10, offset: 0 })).toStrictEqual({ rows: [], total: 0 });

      const totals = async (filter: Parameters<Store['bookings']['listBookings']>[1]) => {
        const page = await list(filter);
        return [ids(page.rows), page.total];
      };
      expect(await totals({ status: 'PENDING' })).toEqual([['bk_04', 'bk_01', 'bk_06'], 3]);
      expect(await totals({ status: 'CONFIRMED' })).toEqual([['bk_03', 'bk_05'], 2]);
      expect(await totals({ experienceId: 'exp_x', status: 'CANCELLED' })).toEqual([['bk_02'], 1]);
      expect(await totals({ experienceId: 'exp_y' })).toEqual([['bk_03'], 1]);
      expect(await totals({ customerId: 'cus_2' })).toEqual([['bk_03'], 1]);
      expect(await totals({ customerId: 'cus_1', status: 'PENDING' })).toEqual([['bk_04', 'bk_01', 'bk_06'], 3]);
      expect(await totals({ startFrom: SLOT + DAY })).toEqual([['bk_05', 'bk_01', 'bk_06'], 3]);
      expect(await totals({ startTo: SLOT + DAY })).toEqual([['bk_02', 'bk_03', 'bk_04', 'bk_05'], 4]);
      // CONFIRMED over a range: all of the range less PENDING and CANCELLED.
      expect(await totals({ startFrom: SLOT, startTo: SLOT + 2 * DAY, status: 'CONFIRMED' })).toEqual([['bk_03', 'bk_05'], 2]);
      // Search: the number ignoring case, the e-mail or name anywhere, its %, _ and \ taken literally.
      expect(await totals({ q: 'bk-00000005' })).toEqual([['bk_05'], 1]);
      expect(await totals({ q: 'ZOE@' })).toEqual([['bk_05'], 1]);
      expect(await totals({ q: 'martins' })).toEqual([['bk_05'], 1]);
      expect(await totals({ q: '%' })).toEqual([['bk_02'], 1]);
      expect(await totals({ q: '_' })).toEqual([['bk_02'], 1]);
      expect(await totals({ q: '\\' })).toEqual([['bk_02'], 1]);
      expect(await totals({ q: 'ada', status: 'PENDING', startFrom: SLOT + DAY })).toEqual([['bk_01', 'bk_06'], 2]);
      await expect(list({ status: 'LOST' as BookingRow['status'] })).rejects.toThrow('Unknown booking status');
    });

    it('sorts by slot start or creation, either way, every tie broken by id, pages joining up', async () => {
      const sorted = async (order: BookingOrder, filter: Parameters<Store['bookings']['listBookings']>[1] = {}, limit = 10, offset = 0) => {
        const page = await store.bookings.listBookings(orgId, filter, { limit, offset }, order);
        return [ids(page.rows), page.total];
      };
      expect(await sorted('startTime')).toEqual([['bk_02', 'bk_03', 'bk_04', 'bk_05', 'bk_01', 'bk_06'], 6]);
      expect(await sorted('-startTime')).toEqual([['bk_06', 'bk_01', 'bk_05', 'bk_04', 'bk_03', 'bk_02'], 6]);
      // Made at T0: bk_01, bk_06; at T0 + 1: bk_02, bk_03, bk_05; at T0 + 2: bk_04.
      expect(await sorted('createdAt')).toEqual([['bk_01', 'bk_06', 'bk_02', 'bk_03', 'bk_05', 'bk_04'], 6]);
      expect(await sorted('-createdAt')).toEqual([['bk_04', 'bk_05', 'bk_03', 'bk_02', 'bk_06', 'bk_01'], 6]);
      // Pages of two make up the whole list, in each order.
      for (const order of ['startTime', '-startTime', 'createdAt', '-createdAt'] as const) {
        const pages = [await sorted(order, {}, 2, 0), await sorted(order, {}, 2, 2), await sorted(order, {}, 2, 4)];
        expect(pages.flatMap(([rows]) => rows as string[])).toEqual((await sorted(order))[0]);
      }
      // With filters: the same rows as in slot order, in the order asked.
      expect(await sorted('-createdAt', { status: 'PENDING' })).toEqual([['bk_04', 'bk_06', 'bk_01'], 3]);
      expect(await sorted('createdAt', { startFrom: SLOT + DAY })).toEqual([['bk_01', 'bk_06', 'bk_05'], 3]);
      expect(await sorted('-startTime', { experienceId: 'exp_x', status: 'CANCELLED' })).toEqual([['bk_02'], 1]);
      expect(await sorted('createdAt', { customerId: 'cus_1' }, 2, 1)).toEqual([['bk_06', 'bk_02'], 5]);
    });

    it('reads a deep page in every order, the same rows as a shallow read gives', async () => {
      await store.transaction(async () => {
        for (let n = 0; n < 1_050; n++) {
          await store.bookings.insertBooking(booking({
            id: `bk_d${String(n).padStart(4, '0')}`, bookingNumber: `BK-D${String(n).padStart(7, '0')}`, slotStart: SLOT + 10 * DAY + (n % 7) * HOUR,
            createdAt: T0 + (n % 3),
          }));
        }
      });
      for (const order of ['startTime', '-startTime', 'createdAt', '-createdAt'] as const) {
        const whole = ids((await store.bookings.listBookings(orgId, {}, { limit: 100, offset: 1_000 - 100 }, order)).rows);
        const rest = ids((await store.bookings.listBookings(orgId, {}, { limit: 100, offset: 1_000 }, order)).rows);
        const across = ids((await store.bookings.listBookings(orgId, {}, { limit: 10, offset: 995 }, order)).rows);
        expect(across, order).toEqual([...whole.slice(95), ...rest.slice(0, 5)]);
      }
      // Newest first ends on the first made (at T0: bk_01, bk_06 and every third of the others), highest id first.
      expect(ids((await store.bookings.listBookings(orgId, {}, { limit: 5, offset: 1_051 }, '-createdAt')).rows)).toEqual([
        'bk_d0006', 'bk_d0003', 'bk_d0000', 'bk_06', 'bk_01',
      ]);
    });

    it('reads a deep page by a deferred join, in the same order', async () => {
      await store.transaction(async () => {
        for (let n = 0; n < 1_050; n++) {
          await store.bookings.insertBooking(booking({
            id: `bk_d${String(n).padStart(4, '0')}`, bookingNumber: `BK-D${String(n).padStart(7, '0')}`, slotStart: SLOT + 10 * DAY + (n % 7) * HOUR,
            createdAt: T0 + (n % 3),
          }));
        }
      });
      const deep = await store.bookings.listBookings(orgId, {}, { limit: 5, offset: 1_040 });
      expect(deep.total).toBe(1_056);
      // The last slot (n % 7 = 6, after 900 others), its bookings made at T0 + 2 (n % 21 = 20), from the 35th on.
      expect(ids(deep.rows)).toEqual(['bk_d0734', 'bk_d0755', 'bk_d0776', 'bk_d0797', 'bk_d0818']);
      expect(deep.rows[0]!.experienceName).toBe('Tour exp_x');
      expect(await store.bookings.listBookings(orgId, {}, { limit: 5, offset: 1_056 })).toStrictEqual({ rows: [], total: 1_056 });
    });

    it('answers a customer’s bookings latest first, and their totals', async () => {
      expect(ids(await store.bookings.listCustomerBookings('cus_1', 10))).toEqual(['bk_06', 'bk_01', 'bk_05', 'bk_04', 'bk_02']);
      expect(ids(await store.bookings.listCustomerBookings('cus_1', 2))).toEqual(['bk_06', 'bk_01']);
      expect(await store.bookings.customerTotals('cus_1')).toStrictEqual({ bookingCount: 5, spentCents: 9000, firstAt: T0, lastAt: T0 + 2 });
      expect(await store.bookings.customerTotals('cus_none')).toStrictEqual({ bookingCount: 0, spentCents: 0, firstAt: null, lastAt: null });
    });

    it('answers the active bookings of a window, and the lapsed holds soonest first', async () => {
      expect(ids(await store.bookings.listActiveBookingsBetween(orgId, SLOT, SLOT + 2 * DAY))).toEqual(['bk_03', 'bk_04', 'bk_05']);
      expect(ids(await store.bookings.listActiveBookingsBetween(orgId, SLOT, SLOT + 4 * DAY, 'exp_x'))).toEqual(['bk_04', 'bk_05', 'bk_01', 'bk_06']);
      expect(ids(await store.bookings.listLapsedHolds(T0 + 50, 10))).toEqual(['bk_06', 'bk_01', 'bk_04']);
      expect(ids(await store.bookings.listLapsedHolds(T0 + 49, 10))).toEqual(['bk_06']);
      expect(ids(await store.bookings.listLapsedHolds(T0 + 50, 2))).toEqual(['bk_06', 'bk_01']);
      expect((await store.bookings.getBookingByCheckoutSession('cs_9'))?.id).toBe('bk_01');
    });
  });
});
