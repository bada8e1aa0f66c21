import type { Db } from './db.js';
import { dueNotifier } from './due-notifier.js';
import { newId } from '../domain/ids.js';
import type { Page, PageResult } from './statements.js';

export type MessageKind = 'BOOKING_CONFIRMED' | 'BOOKING_CHANGED' | 'BOOKING_CANCELLED' | 'BOOKING_REMINDER';
export type MessageStatus = 'PENDING' | 'SENT' | 'FAILED' | 'SKIPPED';

export interface MessageRow {
  id: string;
  orgId: string;
  bookingId: string;
  kind: MessageKind;
  to: string;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: number | null;
  leasedUntil: number | null;
  reminderFor: number | null;
  resendOf: string | null;
  sentAt: number | null;
  createdAt: number;
}

/** The outcome of one attempt, written when it ends (the lease is released with it). */
export interface MessageAttempt {
  status: MessageStatus;
  lastError: string | null;
  nextAttemptAt: number | null;
  sentAt: number | null;
}

/** A booking the reminder job found due, and where its reminder goes. */
export interface ReminderDue {
  bookingId: string;
  orgId: string;
  to: string;
  slotStart: number;
}

export const COLUMNS = `id, org_id AS orgId, booking_id AS bookingId, kind, to_address AS "to", status, attempts,
  last_error AS lastError, next_attempt_at AS nextAttemptAt, leased_until AS leasedUntil,
  reminder_for AS reminderFor, resend_of AS resendOf, sent_at AS sentAt, created_at AS createdAt`;

/**
 * Guest e-mails (the outbox) and manage-link tokens. `enqueueMessage` runs inside the transaction
 * of the booking change that causes the message, so both are committed together.
 */
/** What queuing a message takes. */
export interface NewMessage {
  orgId: string;
  bookingId: string;
  kind: MessageKind;
  to: string;
  createdAt: number;
  reminderFor?: number;
  resendOf?: string;
  /** Recorded SKIPPED at once, with this reason, when no mail can be sent. */
  skippedBecause?: string;
}

/** The row a queued message starts as, on either engine: due now, or SKIPPED with its reason. */
export function newMessageRow(input: NewMessage): MessageRow {
  return {
    id: newId('message'),
    orgId: input.orgId,
    bookingId: input.bookingId,
    kind: input.kind,
    to: input.to,
    status: input.skippedBecause === undefined ? 'PENDING' : 'SKIPPED',
    attempts: 0,
    lastError: input.skippedBecause ?? null,
    nextAttemptAt: input.skippedBecause === undefined ? input.createdAt : null,
    leasedUntil: null,
    reminderFor: input.reminderFor ?? null,
    resendOf: input.resendOf ?? null,
    sentAt: null,
    createdAt: input.createdAt,
  };
}

export function messageStore(db: Db) {
  const insert = db.prepare(`INSERT INTO messages (id, org_id, booking_id, kind, to_address, status, attempts,
    last_error, next_attempt_at, reminder_for, resend_of, created_at)
    VALUES (@id, @orgId, @bookingId, @kind, @to, @status, @attempts, @lastError, @nextAttemptAt, @reminderFor, @resendOf, @createdAt)
    ON CONFLICT DO NOTHING`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM messages WHERE id = ?`);
  const ofBooking = db.prepare(`SELECT ${COLUMNS} FROM messages WHERE org_id = ? AND booking_id = ?
    ORDER BY created_at, id LIMIT ? OFFSET ?`);
  const countOfBooking = db.prepare('SELECT count(*) AS n FROM messages WHERE org_id = ? AND booking_id = ?');
  const due = db.prepare(`SELECT id FROM messages WHERE status = 'PENDING' AND next_attempt_at <= @now
    AND (leased_until IS NULL OR leased_until <= @now) ORDER BY next_attempt_at, id LIMIT @limit`);
  const nextDue = db.prepare(`SELECT min(max(next_attempt_at, coalesce(leased_until, 0))) AS at
    FROM messages WHERE status = 'PENDING'`);
  const lease = db.prepare(`UPDATE messages SET leased_until = @until
    WHERE id = @id AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= @now)`);
  const release = db.prepare('UPDATE messages SET leased_until = NULL WHERE id = ?');
  const releaseAll = db.prepare('UPDATE messages SET leased_until = NULL WHERE status = \'PENDING\' AND leased_until IS NOT NULL');
  const recordAttempt = db.prepare(`UPDATE messages SET status = @status, attempts = attempts + @counted,
    last_error = @lastError, next_attempt_at = @nextAttemptAt, sent_at = coalesce(@sentAt, sent_at), leased_until = NULL
    WHERE id = @id`);
  // An erasure leaves no address behind: not in the recipient, not in an SMTP reply that quoted it.
  const eraseOfBooking = db.prepare(`UPDATE messages SET to_address = @placeholder,
    last_error = CASE WHEN status = 'PENDING' THEN @reason ELSE NULL END,
    status = CASE WHEN status = 'PENDING' THEN 'FAILED' ELSE status END,
    next_attempt_at = CASE WHEN status = 'PENDING' THEN NULL ELSE next_attempt_at END
    WHERE booking_id = @bookingId`);
  // Reminders: per experience, a range on bookings_experience_slot, so the look costs the bookings
  // starting soon, not the whole table. A booking made or moved inside the window gets none: its
  // confirmation or change e-mail is fresh. CROSS JOIN holds SQLite to that order: left to choose,
  // its planner scanned every booking (30 ms at 100k bookings, on every tick of the mail job).
  const remindersDue = db.prepare(`SELECT b.id AS bookingId, b.org_id AS orgId, b.guest_email AS "to", b.slot_start AS slotStart
    FROM experiences e CROSS JOIN bookings b ON b.experience_id = e.id
    WHERE b.slot_start > @now AND b.slot_start <= @now + @windowMs AND b.status = 'CONFIRMED'
      AND b.created_at <= b.slot_start - @windowMs
      AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.booking_id = b.id
        AND ((m.kind = 'BOOKING_REMINDER' AND m.reminder_for = b.slot_start)
          OR (m.kind IN ('BOOKING_CHANGED', 'BOOKING_CONFIRMED') AND m.created_at > b.slot_start - @windowMs)))
    ORDER BY b.slot_start, b.id
    LIMIT @limit`);
  const skipOfOrg = db.prepare(`UPDATE messages SET status = 'SKIPPED', last_error = ?, next_attempt_at = NULL
    WHERE org_id = ? AND status = 'PENDING'`);
  const skipAll = db.prepare(`UPDATE messages SET status = 'SKIPPED', last_error = ?, next_attempt_at = NULL
    WHERE status = 'PENDING'`);
  const insertToken = db.prepare('INSERT INTO manage_tokens (token_hash, booking_id, created_at) VALUES (?, ?, ?)');
  const tokenBooking = db.prepare(`SELECT t.token_hash AS tokenHash, b.org_id AS orgId, b.id AS bookingId
    FROM manage_tokens t JOIN bookings b ON b.id = t.booking_id WHERE t.token_hash = ?`);
  const deleteTokens = db.prepare('DELETE FROM manage_tokens WHERE booking_id = ?');

  const wake = dueNotifier();

  return {
    /**
     * Queues a message, due now. A reminder already queued for the same booking and start is not
     * queued twice (undefined is returned).
     */
    enqueueMessage(input: NewMessage): MessageRow | undefined {
      const row = newMessageRow(input);
      if (insert.run(row).changes !== 1) return undefined;
      if (row.status === 'PENDING') wake.notify();
      return row;
    },
    getMessage(id: string): MessageRow | undefined {
      return byId.get(id) as MessageRow | undefined;
    },
    /** Oldest first. */
    listBookingMessages(orgId: string, bookingId: string, page: Page): PageResult<MessageRow> {
      const total = (countOfBooking.get(orgId, bookingId) as { n: number }).n;
      return { rows: ofBooking.all(orgId, bookingId, page.limit, page.offset) as MessageRow[], total };
    },
    onMessagesDue(listener: () => void): () => void {
      return wake.subscribe(listener);
    },
    listDueMessages(now: number, limit: number): string[] {
      return (due.all({ now, limit }) as { id: string }[]).map((r) => r.id);
    },
    /** When the next pending message becomes due (or its lease runs out), if any. */
    nextMessageDueAt(): number | undefined {
      return (nextDue.get() as { at: number | null }).at ?? undefined;
    },
    /** Takes a due message for one attempt until `until`; false when another worker has it. */
    leaseMessage(id: string, now: number, until: number): boolean {
      return lease.run({ id, now, until }).changes === 1;
    },
    releaseMessage(id: string): void {
      release.run(id);
    },
    /** Every lease: for a process that knows it is the database's only sender, at its start. */
    releaseAllMessageLeases(): number {
      return releaseAll.run().changes;
    },
    /** An attempt's outcome; `counted: false` for a message skipped without an attempt. */
    recordMessageAttempt(id: string, outcome: MessageAttempt, counted = true): void {
      recordAttempt.run({ id, ...outcome, counted: counted ? 1 : 0 });
    },
    /** A booking's guest was erased: its messages name a placeholder, and the unsent ones end FAILED. */
    eraseMessagesOf(bookingId: string, placeholder: string, reason: string): void {
      eraseOfBooking.run({ bookingId, placeholder, reason });
    },
    /** Ends an organization's unsent messages without sending them (the demo's made-up guests). */
    skipPendingMessagesOf(orgId: string, reason: string): number {
      return skipOfOrg.run(reason, orgId).changes;
    },
    /** Ends every unsent message without sending it (no mail server is configured); answers how many. */
    skipAllPendingMessages(reason: string): number {
      return skipAll.run(reason).changes;
    },
    listRemindersDue(now: number, windowMs: number, limit: number): ReminderDue[] {
      return remindersDue.all({ now, windowMs, limit }) as ReminderDue[];
    },
    insertManageToken(tokenHash: string, bookingId: string, now: number): void {
      insertToken.run(tokenHash, bookingId, now);
    },
    /** The booking a manage token's hash belongs to. */
    findManageToken(tokenHash: string): { tokenHash: string; orgId: string; bookingId: string } | undefined {
      return tokenBooking.get(tokenHash) as { tokenHash: string; orgId: string; bookingId: string } | undefined;
    },
    deleteManageTokens(bookingId: string): void {
      deleteTokens.run(bookingId);
    },
  };
}
