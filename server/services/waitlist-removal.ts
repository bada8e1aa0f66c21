// Taking entries off the waitlist: a live one CANCELLED (an offer's places given back and offered
// on), and an erased customer's entries emptied of their personal data. Apart from waitlist-entries.ts
// so that the customers' erasure can call it without importing the booking use cases (a circle).
import type { Actor } from '../domain/actor.js';
import type { WaitlistRow } from '../store/waitlist.js';
import type { Store } from '../store/index.js';
import { recordActivity } from './activity.js';
import { offerFreedPlaces } from './waitlist.js';

/**
 * Ends a live entry as CANCELLED: one WAITING leaves the queue; one OFFERED gives its places back to
 * the slot, and they are offered on at once. Answers the entry as it was left, or undefined when it
 * was already final. The move is conditional on the status read, so an offer, an accept or an expiry
 * made meanwhile is seen and the entry read again.
 */
export async function cancelLiveEntry(store: Store, row: WaitlistRow, fields: { tokenHash?: null }, now: number): Promise<WaitlistRow | undefined> {
  for (let entry: WaitlistRow | undefined = row; entry; entry = await store.waitlist.getEntry(row.orgId, row.id)) {
    if (entry.status !== 'WAITING' && entry.status !== 'OFFERED') return undefined;
    if (!(await store.waitlist.moveEntry(entry.id, [entry.status], 'CANCELLED', { ...fields, updatedAt: now }))) continue;
    if (entry.status === 'OFFERED') {
      await store.bookings.addBookedPlaces(entry.experienceId, entry.slotStart, -entry.places);
      await offerFreedPlaces(store, entry.orgId, entry.experienceId, entry.slotStart, now);
    }
    return { ...entry, status: 'CANCELLED', updatedAt: now, ...fields };
  }
  return undefined;
}

/**
 * An erased customer's entries (DELETE /v1/customers/{id}): each keeps no name, address or phone,
 * its offer's link stops opening it, its unsent e-mails are not sent, and a live one is CANCELLED
 * (an offer's places freed and offered on). Run inside the erasure's transaction.
 */
export async function eraseWaitlistGuest(
  store: Store,
  orgId: string,
  email: string,
  erased: { name: string; email: string; reason: string },
  actor: Actor,
  now: number,
): Promise<void> {
  for (const row of await store.waitlist.listEntriesOfEmail(orgId, email)) {
    if (await cancelLiveEntry(store, row, { tokenHash: null }, now)) {
      // Names no one: the log of an erasure keeps nothing of the guest.
      await recordActivity(store, orgId, actor, {
        action: 'waitlist.cancel', targetType: 'waitlist_entry', targetId: row.id, summary: 'Removed from the waitlist: the guest’s personal data were erased',
      }, now);
    }
    await store.waitlist.replaceGuest(row.id, { name: erased.name, email: erased.email, phone: row.guestPhone === null ? null : erased.name }, now);
    await store.messages.eraseWaitlistMessagesOf(row.id, erased.email, erased.reason);
  }
}
