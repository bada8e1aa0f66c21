// Which booking change queues which guest e-mail. Apart from services/messages.ts so that the
// booking use cases can queue messages without importing the message use cases (which read bookings).
import type { BookingRow } from '../store/bookings.js';
import type { MessageKind, NoticeOf } from '../store/messages.js';
import { noticeAddressesFor } from '../domain/notices.js';
import { bookingExtrasOf } from '../domain/booking-form.js';
import type { Store } from '../store/index.js';
import { processSettings } from './process-settings.js';

export const NO_MAIL_SERVER = 'No mail server is configured (SMTP_URL)';

/**
 * How a message is queued now: for the mail job, or (when the process runs without SMTP_URL)
 * recorded SKIPPED at once, so a message that cannot go out costs no later write. Whether guest
 * e-mails can go out is the process's own configuration, which the unit of work running the change
 * carries (a booking asks memory, not the database: on PostgreSQL each process says it for itself).
 */
export function queueingNow(): { skippedBecause?: string } {
  return processSettings().guestMail ? {} : { skippedBecause: NO_MAIL_SERVER };
}

/** Whether two stored lists of extras say the same (null and `[]` are both none). */
const sameExtras = (a: string | null, b: string | null): boolean =>
  JSON.stringify(bookingExtrasOf(a)) === JSON.stringify(bookingExtrasOf(b));

/**
 * The message a booking change calls for, if any: a confirmation when it becomes CONFIRMED (made so,
 * or paid), a cancellation when it is cancelled (by anyone, a lapsed hold too, but not a hold whose
 * payment page never opened), and a change notice
 * when a confirmed booking's time, party or extras change (answers alone send none: nothing the guest
 * comes to changes). `before` is undefined for a new booking.
 */
export function messageKindFor(before: BookingRow | undefined, after: BookingRow): MessageKind | undefined {
  if (after.status === 'CANCELLED') {
    if (before === undefined || before.status === 'CANCELLED') return undefined;
    // A hold whose payment page never opened was never the guest's booking: the widget told them at once.
    if (before.status === 'PENDING' && before.checkoutUrl === null) return undefined;
    return 'BOOKING_CANCELLED';
  }
  if (after.status !== 'CONFIRMED') return undefined;
  if (before === undefined || before.status !== 'CONFIRMED') return 'BOOKING_CONFIRMED';
  const changed =
    before.slotStart !== after.slotStart ||
    before.participants !== after.participants ||
    (before.tickets ?? null) !== (after.tickets ?? null) ||
    !sameExtras(before.extras, after.extras);
  return changed ? 'BOOKING_CHANGED' : undefined;
}

/**
 * Queues the message a change calls for. Call it inside the change's transaction. A booking whose
 * time has come (one recorded afterwards, or changed while under way) gets no e-mail: it would only
 * tell the guest what they are living.
 */
export async function queueMessageForChange(store: Store, before: BookingRow | undefined, after: BookingRow, now: number): Promise<void> {
  if (after.slotStart <= now) return;
  // A reseller's booking may have no guest address: nothing to send.
  if (after.guestEmail === null) return;
  // A reseller's guest hears from Outing only once the reseller asked for it (emailReceipt).
  if (after.source === 'OCTO' && (await store.octoBookings.getOctoBooking(after.id))?.emailReceipt !== 1) return;
  const kind = messageKindFor(before, after);
  if (kind) await store.messages.enqueueMessage({ orgId: after.orgId, bookingId: after.id, kind, to: after.guestEmail, createdAt: now, ...queueingNow() });
}

/**
 * Queues a notice of a booking event to each of the organization's notice addresses that asked for
 * this kind (none for a check-in). Call it inside the transaction that records the event, so the
 * notices are committed with it, or not at all.
 */
export async function queueOperatorNotices(
  store: Store,
  org: { notificationEmails: string; notifyOn: string },
  event: string,
  booking: { id: string; orgId: string },
  changedFields: readonly string[],
  now: number,
): Promise<void> {
  const addresses = noticeAddressesFor(org, event, changedFields);
  if (addresses.length === 0) return;
  const queueing = queueingNow();
  for (const to of addresses) {
    await store.messages.enqueueMessage({
      orgId: booking.orgId,
      bookingId: booking.id,
      kind: 'OPERATOR_NOTICE',
      noticeOf: event as NoticeOf,
      to,
      createdAt: now,
      ...queueing,
    });
  }
}
