import { newId } from '../domain/ids.js';
import type { Actor } from '../domain/actor.js';
import { recordActivity } from './activity.js';
import { eraseWaitlistGuest } from './waitlist-removal.js';
import { notFound } from '../domain/refusal.js';
import type { CustomerRow, CustomerView } from '../store/customers.js';
import type { Page, PageResult } from '../store/sql.js';
import type { Store } from '../store/index.js';

/** One customer per org and lower-cased e-mail; a booking creates it or brings it up to date. */
export async function customerForBooking(
  store: Store,
  orgId: string,
  guest: { name: string; email: string; phone: string | null },
  now: number,
): Promise<CustomerRow> {
  const existing = await guestRecord(store, orgId, guest.email);
  const row = guestCustomer(orgId, existing, guest, now);
  await saveGuestCustomer(store, existing, row);
  return row;
}

/**
 * The customer record a guest's e-mail already has, if any. The record alone: summing the
 * customer's bookings here would make each booking cost more the more bookings its customer
 * already has.
 */
export async function guestRecord(store: Store, orgId: string, email: string): Promise<CustomerRow | undefined> {
  return await store.customers.getCustomerRecordByEmail(orgId, email.toLowerCase());
}

/** The customer a new booking of `guest` makes or updates, given the record `guestRecord` found. */
export function guestCustomer(
  orgId: string,
  existing: CustomerRow | undefined,
  guest: { name: string; email: string; phone: string | null },
  now: number,
): CustomerRow {
  if (existing) {
    return {
      ...existing,
      name: guest.name,
      phone: guest.phone ?? existing.phone,
      firstBookingAt: existing.firstBookingAt ?? now,
      lastBookingAt: now,
      updatedAt: now,
    };
  }
  return {
    id: newId('customer'),
    orgId,
    email: guest.email.toLowerCase(),
    name: guest.name,
    phone: guest.phone,
    firstBookingAt: now,
    lastBookingAt: now,
    erasedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Writes what `guestCustomer` made: an update of the record found, or a new customer. */
export async function saveGuestCustomer(store: Store, existing: CustomerRow | undefined, row: CustomerRow): Promise<void> {
  if (existing) await store.customers.updateCustomer(row);
  else await store.customers.insertCustomer(row);
}

/** After a booking left a customer, its first and latest booking times follow what remains. */
export async function refreshCustomerTimes(store: Store, orgId: string, customerId: string | null, now: number): Promise<void> {
  if (customerId === null) return; // a reseller's guest without an address is no customer
  const customer = await store.customers.getCustomer(orgId, customerId);
  if (!customer) return;
  const totals = await store.bookings.customerTotals(customerId);
  await store.customers.updateCustomer({ ...customer, firstBookingAt: totals.firstAt, lastBookingAt: totals.lastAt, updatedAt: now });
}

const ERASED = 'erased';

/** Replaces a person's name, e-mail and phone wherever Outing stored them (DELETE /v1/customers/{id}). */
function erasedGuest<T extends { guestName?: unknown; guestEmail?: unknown; guestPhone?: unknown }>(record: T, email: string): T {
  const out = { ...record };
  if ('guestName' in out) out.guestName = ERASED;
  if ('guestEmail' in out) out.guestEmail = email;
  if ('guestPhone' in out && out.guestPhone !== null) out.guestPhone = ERASED;
  return out;
}

export async function eraseCustomer(store: Store, orgId: string, customerId: string, now: number, actor: Actor): Promise<void> {
  await store.transaction(async () => {
    const customer = await store.customers.getCustomer(orgId, customerId);
    if (!customer) throw notFound('Customer');
    // Unique per org, so that a later booking with the real address starts a new customer.
    const placeholderEmail = `${ERASED}-${customer.id}@erased.invalid`;
    // Names no one: the log of an erasure must not keep what was erased.
    await recordActivity(store, orgId, actor, { action: 'customer.erase', targetType: 'customer', targetId: customer.id, summary: 'Erased the personal data of a customer' }, now);
    await store.customers.updateCustomer({ ...customer, name: ERASED, email: placeholderEmail, phone: customer.phone === null ? null : ERASED, erasedAt: now, updatedAt: now });
    for (const booking of await store.bookings.listCustomerBookings(customer.id, Number.MAX_SAFE_INTEGER)) {
      await store.bookings.updateBooking(erasedGuest({ ...booking, updatedAt: now }, placeholderEmail));
      // Its manage links die with the guest's data, and no e-mail goes to an erased address.
      await store.messages.deleteManageTokens(booking.id);
      await store.messages.eraseMessagesOf(booking.id, placeholderEmail, 'Not sent: the guest’s personal data were erased');
      for (const event of await store.events.listBookingEvents(booking.id)) {
        const body = JSON.parse(event.payload) as { data: { booking: Record<string, unknown>; changes?: Record<string, { from: unknown; to: unknown }> } };
        body.data.booking = erasedGuest(body.data.booking, placeholderEmail);
        for (const field of ['guestName', 'guestEmail', 'guestPhone'] as const) {
          const change = body.data.changes?.[field];
          if (change) body.data.changes![field] = { from: change.from === null ? null : field === 'guestEmail' ? placeholderEmail : ERASED, to: change.to === null ? null : field === 'guestEmail' ? placeholderEmail : ERASED };
        }
        await store.events.replaceEventPayload(event.id, JSON.stringify(body));
      }
    }
    // The same person's waitlist entries, found by the address they gave (any case).
    await eraseWaitlistGuest(store, orgId, customer.email, { name: ERASED, email: placeholderEmail, reason: 'Not sent: the guest’s personal data were erased' }, actor, now);
  });
}

/** Latest `lastBookingAt` first; `search` matches a part of the name or e-mail, in any case. */
export async function listCustomers(store: Store, orgId: string, search: string | undefined, page: Page): Promise<PageResult<CustomerView>> {
  return await store.customers.listCustomers(orgId, search, page);
}

/** A customer with their bookings, latest slot first (at most `historyLimit`). */
export async function getCustomerWithBookings(store: Store, orgId: string, id: string, historyLimit: number) {
  const customer = await store.customers.getCustomer(orgId, id);
  if (!customer) throw notFound('Customer');
  return { customer, bookings: await store.bookings.listCustomerBookings(customer.id, historyLimit) };
}
