// Guest e-mails as use cases: the booking's message log, resending, reminders, and manage tokens.
// Which change queues which message is message-queue.ts; composing a queued one is message-compose.ts.
import { createHash, randomBytes } from 'node:crypto';
import { Refusal, notFound } from '../domain/refusal.js';
import type { MessageRow } from '../store/messages.js';
import type { Store } from '../store/index.js';
import type { Page, PageResult } from '../store/sql.js';
import { findBooking } from './bookings.js';
import { queueingNow } from './message-queue.js';

/** A booking's e-mails, oldest first. */
export async function listBookingMessages(store: Store, orgId: string, bookingRef: string, page: Page): Promise<PageResult<MessageRow>> {
  const booking = await findBooking(store, orgId, bookingRef);
  return await store.messages.listBookingMessages(orgId, booking.id, page);
}

/**
 * Sends a message again: a new message of the same kind, queued now, to the booking's current
 * address. A message still being tried is not doubled, and a cancelled booking's confirmation, change
 * or reminder is not repeated: it is no longer true.
 */
export async function resendMessage(store: Store, orgId: string, bookingRef: string, messageId: string, now: number): Promise<MessageRow> {
  return await store.transaction(async () => {
    const booking = await findBooking(store, orgId, bookingRef);
    const original = await store.messages.getMessage(messageId);
    if (!original || original.orgId !== orgId || original.bookingId !== booking.id) throw notFound('Message');
    if (original.status === 'PENDING') {
      throw new Refusal('CONFLICT', 'This message is still being sent; it is tried again on its own at nextAttemptAt');
    }
    const notice = original.kind === 'OPERATOR_NOTICE';
    if (!notice && booking.guestEmail === null) {
      throw new Refusal('CONFLICT', 'This booking has no guest e-mail address to send to');
    }
    if (booking.status === 'CANCELLED' && original.kind !== 'BOOKING_CANCELLED' && !notice) {
      throw new Refusal('CONFLICT', `This booking is cancelled: its ${original.kind} message is no longer true; resend its cancellation instead`);
    }
    const row = await store.messages.enqueueMessage({
      orgId,
      bookingId: booking.id,
      kind: original.kind,
      // A notice goes again to the operator's address it went to; a guest's e-mail to the guest's address now.
      to: notice || booking.guestEmail === null ? original.to : booking.guestEmail,
      createdAt: now,
      resendOf: original.id,
      ...(notice && original.noticeOf ? { noticeOf: original.noticeOf } : {}),
      ...queueingNow(),
      ...(original.kind === 'BOOKING_REMINDER' ? { reminderFor: booking.slotStart } : {}),
    });
    if (!row) throw new Error('A resent message was not queued');
    return row;
  });
}

/** Queues the reminders now due (at most `limit`); answers how many. */
export async function queueDueReminders(store: Store, reminderHours: number, now: number, limit = 500): Promise<number> {
  if (reminderHours <= 0) return 0;
  const windowMs = Math.round(reminderHours * 3_600_000);
  return await store.transaction(async () => {
    const queueing = queueingNow();
    let queued = 0;
    for (const due of await store.messages.listRemindersDue(now, windowMs, limit)) {
      const row = await store.messages.enqueueMessage({
        orgId: due.orgId,
        bookingId: due.bookingId,
        kind: 'BOOKING_REMINDER',
        to: due.to,
        createdAt: now,
        reminderFor: due.slotStart,
        ...queueing,
      });
      if (row) queued++;
    }
    return queued;
  });
}

/** Only a hash of a manage token is stored; this is that hash. */
export function manageTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** A new manage token for a booking: 32 random bytes, base64url; only its hash is kept. */
export async function issueManageToken(store: Store, bookingId: string, now: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await store.messages.insertManageToken(manageTokenHash(token), bookingId, now);
  return token;
}
