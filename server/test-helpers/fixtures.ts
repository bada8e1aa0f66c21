import { newBookingNumber, newId } from '../domain/ids.js';
import type { TestApp } from './app.js';
import { expectData } from './assert.js';
import { Experience } from '../../shared/index.js';
import type { BookingRow } from '../store/bookings.js';
import type { ExperienceRow } from '../store/experiences.js';
import type { Store } from '../store/index.js';

/** The fields of a booking nobody has changed since it was made: no cancellation, hold, checkout, check-in, tickets or locale. */
export const UNTOUCHED_BOOKING = {
  cancellationReason: null,
  cancelledAt: null,
  holdExpiresAt: null,
  checkoutSessionId: null,
  checkoutUrl: null,
  sequence: 0,
  checkedInAt: null,
  tickets: null,
  places: null,
  totalCents: null,
  locale: null,
  internalNote: null,
  answers: null,
  extras: null,
  promoCodeId: null,
  discountCode: null,
  discountType: null,
  discountValue: null,
  voucherId: null,
  voucherMask: null,
  voucherCents: null,
} satisfies Partial<BookingRow>;

/** Writes a plain experience ("Cruise", `exp_1` unless told, 10 places, no schedule) straight into the store. */
export async function insertExperienceRow(store: Store, orgId: string, row: Partial<ExperienceRow> = {}): Promise<void> {
  await store.experiences.insertExperience({
    id: 'exp_1', orgId, name: 'Cruise', description: '', duration: 60, price: 1500, maxParticipants: 10, maxPerBooking: null,
    schedule: null, minNoticeMinutes: 0, maxAdvanceDays: 365, active: 1, priceCategories: '[]', createdAt: 1, updatedAt: 1,
    ...row,
  });
}

/**
 * Writes a booking (and its customer) straight into the store, bypassing the booking rules: for
 * tests of other parts that only need "a booking exists" (CONFLICT on delete, currency changes…).
 */
export async function insertBookingRow(
  store: Store,
  input: { orgId: string; experienceId: string; slotStart?: number; participants?: number } & Partial<BookingRow>,
): Promise<BookingRow> {
  const now = Date.now();
  // `guestEmail: null`: a reseller's guest given without an address, so without a customer.
  if (input.guestEmail === null) return await insertRow(store, { ...input, customerId: null, guestEmail: null }, now);
  const email = input.guestEmail ?? `guest-${newId('customer').slice(4, 12).toLowerCase()}@example.com`;
  const existing = await store.customers.getCustomerByEmail(input.orgId, email);
  const customerId = input.customerId ?? existing?.id ?? newId('customer');
  if (!existing && input.customerId === undefined) {
    await store.customers.insertCustomer({
      id: customerId,
      orgId: input.orgId,
      email,
      name: input.guestName ?? 'Test Guest',
      phone: null,
      firstBookingAt: now,
      lastBookingAt: now,
      erasedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }
  return await insertRow(store, { ...input, customerId, guestEmail: email }, now);
}

async function insertRow(
  store: Store,
  input: { orgId: string; experienceId: string; slotStart?: number; customerId: string | null; guestEmail: string | null } & Partial<BookingRow>,
  now: number,
): Promise<BookingRow> {
  const slotStart = input.slotStart ?? now + 7 * 24 * 3600_000;
  const row: BookingRow = {
    id: newId('booking'),
    bookingNumber: newBookingNumber(),
    slotStart,
    slotEnd: slotStart + 3600_000,
    status: 'CONFIRMED',
    guestName: 'Test Guest',
    guestPhone: null,
    participants: 1,
    unitPrice: 1000,
    currency: 'EUR',
    source: 'API',
    metadata: '{}',
    ...UNTOUCHED_BOOKING,
    createdAt: now,
    updatedAt: now,
    ...input,
  };
  await store.transaction(async () => {
    await store.bookings.insertBooking(row);
    if (row.status !== 'CANCELLED') await store.bookings.addBookedPlaces(row.experienceId, row.slotStart, row.participants);
  });
  return row;
}

/** A weekly schedule with the same start times every day. */
export const everyDay = (times: string[]) => ({ mon: times, tue: times, wed: times, thu: times, fri: times, sat: times, sun: times });

/** "Harbour cruise": ten places at 10:00 and 15:00 every day, €45.00, created through the API. */
export async function harbourCruise(t: TestApp, fields: Record<string, unknown> = {}): Promise<Experience> {
  const body = {
    name: 'Harbour cruise',
    description: 'Two hours on the river',
    duration: 120,
    price: 4500,
    maxParticipants: 10,
    schedule: { weekly: everyDay(['10:00', '15:00']) },
    ...fields,
  };
  return expectData(await t.request('POST', '/v1/experiences', { body }), Experience, 201);
}

/**
 * The secret with its last character changed to another one, so a "wrong token" test never sends the
 * right token by chance (a fixed replacement letter matches the real last character once in 64 runs).
 */
export function tampered(secret: string): string {
  const last = secret.at(-1);
  return `${secret.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}
