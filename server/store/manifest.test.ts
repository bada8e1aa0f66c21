import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { BookingRow } from './bookings.js';
import type { ManifestBookingRow } from './manifest.js';
import { insertBookingRow, testEngine, openStoreWithTwoOrganizations } from '../test-helpers/index.js';

// Behaviour of the store, not of one engine: the `server-postgres` project runs the same
// expectations on a leased, migrated PostgreSQL database.

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const MIDNIGHT = Date.UTC(2030, 5, 10);
const CREATED = Date.UTC(2030, 4, 1);
const NINE = MIDNIGHT + 9 * HOUR;

describe(`manifest store (${testEngine()})`, () => {
  let close: () => Promise<void>;
  let store: Store;
  let orgA: string;
  let orgB: string;
  beforeEach(async () => {
    ({ store, close, orgA, orgB } = await openStoreWithTwoOrganizations());
    // Names that sort differently by byte and by dictionary ('Kayak' < 'Twin' < 'kayak' < 'Éclair' byte
    // by byte), and two alike (the experience id decides).
    for (const [id, name, orgId] of [
      ['exp_kayak', 'kayak', orgA], ['exp_Kayak', 'Kayak', orgA], ['exp_eclair', 'Éclair walk', orgA],
      ['exp_twin2', 'Twin', orgA], ['exp_twin1', 'Twin', orgA], ['exp_other', 'Kayak', orgB],
    ] as const) {
      await store.experiences.insertExperience({
        id, orgId, name, description: '', duration: 120, price: 3000, maxParticipants: 20, maxPerBooking: null, schedule: null,
        minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: CREATED - DAY, updatedAt: CREATED - DAY,
      });
    }
  });
  afterEach(async () => {
    await close();
  });

  const book = (id: string, experienceId: string, slotStart: number, fields: Partial<BookingRow> = {}) =>
    insertBookingRow(store, {
      id, orgId: experienceId === 'exp_other' ? orgB : orgA, bookingNumber: `OUT-${id.toUpperCase()}`, experienceId, slotStart,
      slotEnd: slotStart + 2 * HOUR, guestName: `Guest ${id}`, guestEmail: `${id}@example.com`, participants: 2, unitPrice: 3000,
      metadata: '{"pickup":"hotel"}', createdAt: CREATED, updatedAt: CREATED, ...fields,
    });
  const pay = (id: string, bookingId: string, amount: number, status: 'SUCCEEDED' | 'FAILED', orgId = orgA) =>
    store.payments.insertPayment({
      id, orgId, bookingId, amount, currency: 'EUR', status, provider: 'fake', method: 'OTHER', reference: null, failureReason: null,
      refundRequired: 0, createdAt: CREATED + HOUR,
    });
  const ids = (rows: ManifestBookingRow[]) => rows.map((r) => r.id);

  it('answers nothing for an empty day, an unknown org or experience, and an empty range', async () => {
    expect(await store.manifest.listManifestBookings(orgA, MIDNIGHT, MIDNIGHT + DAY)).toStrictEqual([]);
    await book('b01', 'exp_kayak', NINE);
    expect(await store.manifest.listManifestBookings('org_none', MIDNIGHT, MIDNIGHT + DAY)).toStrictEqual([]);
    expect(await store.manifest.listManifestBookings(orgA, MIDNIGHT, MIDNIGHT + DAY, 'exp_none')).toStrictEqual([]);
    expect(await store.manifest.listManifestBookings(orgA, MIDNIGHT + DAY, MIDNIGHT)).toStrictEqual([]);
  });

  it('lists a day by slot, experience name byte by byte, experience, creation and id, with what each paid', async () => {
    await book('b07', 'exp_kayak', NINE);
    await book('b03', 'exp_Kayak', NINE, { createdAt: CREATED + 5 });
    await book('b05', 'exp_Kayak', NINE, { createdAt: CREATED + 1 });
    await book('b04', 'exp_Kayak', NINE, { createdAt: CREATED + 1 });
    await book('b02', 'exp_eclair', NINE, { guestPhone: '+44 20 7946 0000', checkedInAt: NINE - 600_000, internalNote: 'Wheelchair; meet at the side gate' });
    await book('b09', 'exp_twin2', NINE);
    await book('b08', 'exp_twin1', NINE);
    await book('b01', 'exp_twin1', MIDNIGHT); // exactly at midnight: in this day
    await book('b10', 'exp_kayak', MIDNIGHT + DAY); // next midnight: the next day
    await book('b11', 'exp_kayak', MIDNIGHT + 14 * HOUR, { status: 'PENDING', holdExpiresAt: CREATED + HOUR });
    await book('b12', 'exp_kayak', MIDNIGHT + 14 * HOUR, { status: 'CANCELLED', cancelledAt: CREATED + DAY });
    await book('b13', 'exp_Kayak', MIDNIGHT + 14 * HOUR, {
      unitPrice: 0, participants: 4, places: 3, tickets: '[{"category":"adult","quantity":3}]', totalCents: 9000,
    });
    await book('b14', 'exp_other', NINE);
    await pay('pay_1', 'b03', 3000, 'SUCCEEDED');
    await pay('pay_2', 'b03', 3_000_000_000, 'SUCCEEDED');
    await pay('pay_3', 'b03', 3000, 'FAILED');
    await pay('pay_4', 'b13', 9000, 'SUCCEEDED');
    await pay('pay_5', 'b11', 6000, 'FAILED');
    await pay('pay_6', 'b14', 6000, 'SUCCEEDED', orgB);

    const day = await store.manifest.listManifestBookings(orgA, MIDNIGHT, MIDNIGHT + DAY);
    expect(ids(day)).toEqual(['b01', 'b04', 'b05', 'b03', 'b08', 'b09', 'b07', 'b02', 'b13', 'b11']);
    expect(day.map((b) => b.paidCents)).toEqual([0, 0, 0, 3_000_003_000, 0, 0, 0, 0, 9000, 0]);
    expect(day.find((b) => b.id === 'b02')).toStrictEqual({
      id: 'b02', bookingNumber: 'OUT-B02', experienceId: 'exp_eclair', experienceName: 'Éclair walk', slotStart: NINE,
      slotEnd: NINE + 2 * HOUR, status: 'CONFIRMED', guestName: 'Guest b02', guestEmail: 'b02@example.com',
      guestPhone: '+44 20 7946 0000', participants: 2, unitPrice: 3000, currency: 'EUR', metadata: '{"pickup":"hotel"}',
      checkedInAt: NINE - 600_000, tickets: null, totalCents: null, paidCents: 0, internalNote: 'Wheelchair; meet at the side gate', answers: null, extras: null,
    });
    expect(day.find((b) => b.id === 'b13')).toMatchObject({
      status: 'CONFIRMED', unitPrice: 0, participants: 4, tickets: '[{"category":"adult","quantity":3}]', totalCents: 9000, paidCents: 9000,
    });
    expect(day.find((b) => b.id === 'b11')).toMatchObject({ status: 'PENDING', guestPhone: null, checkedInAt: null, internalNote: null });

    expect(ids(await store.manifest.listManifestBookings(orgA, MIDNIGHT + DAY, MIDNIGHT + 2 * DAY))).toEqual(['b10']);
    expect(ids(await store.manifest.listManifestBookings(orgA, MIDNIGHT - DAY, MIDNIGHT + 3 * DAY))).toEqual([
      'b01', 'b04', 'b05', 'b03', 'b08', 'b09', 'b07', 'b02', 'b13', 'b11', 'b10',
    ]);
    expect(ids(await store.manifest.listManifestBookings(orgA, MIDNIGHT, MIDNIGHT + DAY, 'exp_Kayak'))).toEqual(['b04', 'b05', 'b03', 'b13']);
    expect(ids(await store.manifest.listManifestBookings(orgA, MIDNIGHT, MIDNIGHT + DAY, 'exp_kayak'))).toEqual(['b07', 'b11']);
    // Another org's experience and bookings stay out of the day, asked for or not.
    expect(await store.manifest.listManifestBookings(orgA, MIDNIGHT, MIDNIGHT + DAY, 'exp_other')).toStrictEqual([]);
    const other = await store.manifest.listManifestBookings(orgB, MIDNIGHT, MIDNIGHT + DAY);
    expect(other.map((b) => [b.id, b.experienceName, b.paidCents])).toEqual([['b14', 'Kayak', 6000]]);
  });

  it('follows check-ins and cancellations', async () => {
    const b04 = await book('b04', 'exp_Kayak', NINE);
    const b05 = await book('b05', 'exp_Kayak', NINE, { createdAt: CREATED + 1 });
    await store.bookings.updateBooking({ ...b04, checkedInAt: NINE - HOUR, updatedAt: NINE - HOUR });
    await store.bookings.updateBooking({ ...b05, status: 'CANCELLED', cancelledAt: MIDNIGHT, updatedAt: MIDNIGHT });
    const day = await store.manifest.listManifestBookings(orgA, MIDNIGHT, MIDNIGHT + DAY);
    expect(day.map((b) => [b.id, b.checkedInAt])).toEqual([['b04', NINE - HOUR]]);
  });
});
