import { dueNotifier } from './due-notifier.js';
import { newId } from '../domain/ids.js';
import type { Page, PageResult, Sql } from './sql.js';

export type MessageKind = 'BOOKING_CONFIRMED' | 'BOOKING_CHANGED' | 'BOOKING_CANCELLED' | 'BOOKING_REMINDER' | 'OPERATOR_NOTICE' | 'USER_INVITE' | 'GIFT_VOUCHER'
  | 'WAITLIST_JOINED' | 'WAITLIST_OFFER';
/** The booking event an OPERATOR_NOTICE tells of. */
export type NoticeOf = 'BOOKING_CREATED' | 'BOOKING_CANCELED' | 'BOOKING_UPDATED';
export type MessageStatus = 'PENDING' | 'SENT' | 'FAILED' | 'SKIPPED';

export interface MessageRow {
  id: string;
  orgId: string;
  /** Null for a USER_INVITE, which is about no booking. */
  bookingId: string | null;
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
  /** An OPERATOR_NOTICE's event; null for other kinds. */
  noticeOf: NoticeOf | null;
  /** A USER_INVITE's user; null for other kinds. */
  userId: string | null;
  /** A USER_INVITE's setup link, kept only while the message is PENDING (erased once sent, failed or skipped). */
  setupUrl: string | null;
  /** A GIFT_VOUCHER's voucher; null for other kinds. */
  giftVoucherId: string | null;
  /** A WAITLIST_JOINED's or WAITLIST_OFFER's entry (migration 019); null for other kinds. */
  waitlistEntryId: string | null;
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

/** What queuing a message takes. */
export interface NewMessage {
  orgId: string;
  bookingId: string | null;
  kind: MessageKind;
  to: string;
  createdAt: number;
  reminderFor?: number;
  resendOf?: string;
  noticeOf?: NoticeOf;
  userId?: string;
  setupUrl?: string;
  giftVoucherId?: string;
  waitlistEntryId?: string;
  /** Recorded SKIPPED at once, with this reason, when no mail can be sent. */
  skippedBecause?: string;
}

/** The row a queued message starts as: due now, or SKIPPED with its reason. */
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
    noticeOf: input.noticeOf ?? null,
    userId: input.userId ?? null,
    // A message that is not to be sent never keeps a secret.
    setupUrl: input.skippedBecause === undefined ? (input.setupUrl ?? null) : null,
    giftVoucherId: input.giftVoucherId ?? null,
    waitlistEntryId: input.waitlistEntryId ?? null,
  };
}

/**
 * Guest e-mails (the outbox) and manage-link tokens. `enqueueMessage` runs inside the transaction
 * of the booking change that causes the message, so both are committed together. The outbox may be
 * read by the workers of several processes at once: a message is taken by one conditional UPDATE
 * (`leaseMessage`), never by a read and then a write.
 */
export interface MessageStore {
  /**
   * Queues a message, due now (or SKIPPED, see `NewMessage`). A reminder already queued for the same
   * booking and start is not queued twice: undefined is answered.
   */
  enqueueMessage(input: NewMessage): Promise<MessageRow | undefined>;
  getMessage(id: string): Promise<MessageRow | undefined>;
  /** A user's invitations, oldest first. */
  listUserMessages(userId: string): Promise<MessageRow[]>;
  /** A gift voucher's e-mails, oldest first, id breaking ties. */
  listGiftVoucherMessages(orgId: string, giftVoucherId: string, page: Page): Promise<PageResult<MessageRow>>;
  /** Oldest first, id breaking ties. */
  listBookingMessages(orgId: string, bookingId: string, page: Page): Promise<PageResult<MessageRow>>;
  /**
   * Calls `listener` soon after this process queues a message (once committed); answers the
   * unsubscribe function. Other processes sharing the database find the message when they poll.
   */
  onMessagesDue(listener: () => void): Promise<() => void>;
  /** Due, unleased messages, oldest due first, id breaking ties. */
  listDueMessages(now: number, limit: number): Promise<string[]>;
  /** When the next pending message becomes due (or its lease runs out), if any. */
  nextMessageDueAt(): Promise<number | undefined>;
  /** Takes a due message for one attempt until `until`; false when another worker has it. */
  leaseMessage(id: string, now: number, until: number): Promise<boolean>;
  releaseMessage(id: string): Promise<void>;
  /**
   * Every lease: for a process that knows it is the database's only sender, at its start. With
   * several processes on one database, calling it would take back the sends in flight of the others.
   */
  releaseAllMessageLeases(): Promise<number>;
  /** An attempt's outcome, releasing the lease; `counted: false` for a message skipped without an attempt. */
  recordMessageAttempt(id: string, outcome: MessageAttempt, counted?: boolean): Promise<void>;
  /**
   * A booking's guest was erased: its guest messages name a placeholder (notices keep the operator's
   * address, which is not the guest's), and the unsent ones end FAILED.
   */
  eraseMessagesOf(bookingId: string, placeholder: string, reason: string): Promise<void>;
  /** Ends an organization's unsent messages without sending them (the demo's made-up guests). */
  skipPendingMessagesOf(orgId: string, reason: string): Promise<number>;
  /** Ends every unsent message without sending it (no mail server is configured); answers how many. */
  skipAllPendingMessages(reason: string): Promise<number>;
  /**
   * Confirmed bookings starting within `windowMs` after `now` that have no reminder for that start
   * yet, made before the window opened and without a confirmation or change e-mail queued inside it
   * (a reseller's booking only once the reseller asked for guest e-mails);
   * soonest start first, id breaking ties.
   */
  listRemindersDue(now: number, windowMs: number, limit: number): Promise<ReminderDue[]>;
  insertManageToken(tokenHash: string, bookingId: string, now: number): Promise<void>;
  /** The booking a manage token's hash belongs to. */
  findManageToken(tokenHash: string): Promise<{ tokenHash: string; orgId: string; bookingId: string } | undefined>;
  deleteManageTokens(bookingId: string): Promise<void>;
  /** A waitlist entry's e-mails, oldest first, id breaking ties. */
  listWaitlistMessages(orgId: string, waitlistEntryId: string, page: Page): Promise<PageResult<MessageRow>>;
  /** A waitlist entry's guest was erased: as `eraseMessagesOf`, for the entry's messages. */
  eraseWaitlistMessagesOf(waitlistEntryId: string, placeholder: string, reason: string): Promise<void>;
}

const COLUMNS = `id, org_id AS "orgId", booking_id AS "bookingId", kind, to_address AS "to", status, attempts,
  last_error AS "lastError", next_attempt_at AS "nextAttemptAt", leased_until AS "leasedUntil",
  reminder_for AS "reminderFor", resend_of AS "resendOf", sent_at AS "sentAt", created_at AS "createdAt",
  notice_of AS "noticeOf", user_id AS "userId", setup_url AS "setupUrl", gift_voucher_id AS "giftVoucherId",
  waitlist_entry_id AS "waitlistEntryId"`;

export function messageStore(sql: Sql): MessageStore {
  // In-process: wakes this process's worker only.
  const wake = dueNotifier();

  return {
    async enqueueMessage(input) {
      const row = newMessageRow(input);
      // ON CONFLICT DO NOTHING without a target covers every unique index, the partial one that
      // holds a booking to one reminder per start (messages_one_reminder) included.
      const inserted = await sql.run(
        `INSERT INTO messages (id, org_id, booking_id, kind, to_address, status, attempts, last_error,
          next_attempt_at, reminder_for, resend_of, created_at, notice_of, user_id, setup_url, gift_voucher_id, waitlist_entry_id)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT DO NOTHING`,
        [row.id, row.orgId, row.bookingId, row.kind, row.to, row.status, row.attempts, row.lastError,
          row.nextAttemptAt, row.reminderFor, row.resendOf, row.createdAt, row.noticeOf, row.userId, row.setupUrl, row.giftVoucherId, row.waitlistEntryId],
      );
      if (inserted !== 1) return undefined;
      // The worker woken must find the row: not before the booking change's transaction commits.
      if (row.status === 'PENDING') sql.afterCommit(() => wake.notify());
      return row;
    },
    getMessage: (id) => sql.get<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE id = ?`, [id]),
    listUserMessages: (userId) =>
      sql.all<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE user_id = ? ORDER BY created_at, id`, [userId]),
    async listGiftVoucherMessages(orgId, giftVoucherId, page) {
      const count = await sql.get<{ n: number }>('SELECT count(*) AS n FROM messages WHERE org_id = ? AND gift_voucher_id = ?', [orgId, giftVoucherId]);
      const rows = await sql.all<MessageRow>(
        `SELECT ${COLUMNS} FROM messages WHERE org_id = ? AND gift_voucher_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [orgId, giftVoucherId, page.limit, page.offset],
      );
      return { rows, total: count!.n }; // count(*) always answers one row
    },
    async listBookingMessages(orgId, bookingId, page) {
      const count = await sql.get<{ n: number }>('SELECT count(*) AS n FROM messages WHERE org_id = ? AND booking_id = ?', [orgId, bookingId]);
      const rows = await sql.all<MessageRow>(
        `SELECT ${COLUMNS} FROM messages WHERE org_id = ? AND booking_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [orgId, bookingId, page.limit, page.offset],
      );
      return { rows, total: count!.n }; // count(*) always answers one row
    },
    onMessagesDue: async (listener) => wake.subscribe(listener),
    async listDueMessages(now, limit) {
      const rows = await sql.values<[string]>(
        `SELECT id FROM messages WHERE status = 'PENDING' AND next_attempt_at <= ?
          AND (leased_until IS NULL OR leased_until <= ?) ORDER BY next_attempt_at, id LIMIT ?`,
        [now, now, limit],
      );
      return rows.map(([id]) => id);
    },
    async nextMessageDueAt() {
      // The later of the due time and the lease's end; a pending message without a due time (never
      // written by the store) counts for nothing.
      const row = await sql.get<{ at: number | null }>(
        `SELECT min(CASE WHEN leased_until > next_attempt_at THEN leased_until ELSE next_attempt_at END) AS at
          FROM messages WHERE status = 'PENDING' AND next_attempt_at IS NOT NULL`,
      );
      return row?.at ?? undefined;
    },
    leaseMessage: async (id, now, until) =>
      (await sql.run(
        `UPDATE messages SET leased_until = ?
          WHERE id = ? AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= ?)`,
        [until, id, now],
      )) === 1,
    async releaseMessage(id) {
      await sql.run('UPDATE messages SET leased_until = NULL WHERE id = ?', [id]);
    },
    releaseAllMessageLeases: () =>
      sql.run(`UPDATE messages SET leased_until = NULL WHERE status = 'PENDING' AND leased_until IS NOT NULL`),
    async recordMessageAttempt(id, outcome, counted = true) {
      await sql.run(
        `UPDATE messages SET status = ?, attempts = attempts + ?, last_error = ?, next_attempt_at = ?,
          sent_at = coalesce(?, sent_at), leased_until = NULL,
          setup_url = CASE WHEN CAST(? AS TEXT) = 'PENDING' THEN setup_url ELSE NULL END
          WHERE id = ?`,
        [outcome.status, counted ? 1 : 0, outcome.lastError, outcome.nextAttemptAt, outcome.sentAt, outcome.status, id],
      );
    },
    async eraseMessagesOf(bookingId, placeholder, reason) {
      // An erasure leaves no address behind: not in the recipient, not in an SMTP reply that quoted
      // it. Every SET expression reads the row as it was (the CASEs see the old status); the CAST
      // gives PostgreSQL the parameter's type, which a CASE with a NULL branch does not.
      await sql.run(
        `UPDATE messages SET to_address = CASE WHEN kind = 'OPERATOR_NOTICE' THEN to_address ELSE CAST(? AS TEXT) END,
          last_error = CASE WHEN status = 'PENDING' THEN CAST(? AS TEXT) ELSE NULL END,
          status = CASE WHEN status = 'PENDING' THEN 'FAILED' ELSE status END,
          next_attempt_at = CASE WHEN status = 'PENDING' THEN NULL ELSE next_attempt_at END
          WHERE booking_id = ?`,
        [placeholder, reason, bookingId],
      );
    },
    skipPendingMessagesOf: (orgId, reason) =>
      sql.run(`UPDATE messages SET status = 'SKIPPED', last_error = ?, next_attempt_at = NULL, setup_url = NULL WHERE org_id = ? AND status = 'PENDING'`, [
        reason,
        orgId,
      ]),
    skipAllPendingMessages: (reason) =>
      sql.run(`UPDATE messages SET status = 'SKIPPED', last_error = ?, next_attempt_at = NULL, setup_url = NULL WHERE status = 'PENDING'`, [reason]),
    // Per experience, a range on bookings_experience_slot, so the look costs the bookings starting
    // soon, not the whole table. A booking made or moved inside the window gets none: its
    // confirmation or change e-mail is fresh. CROSS JOIN holds SQLite to that order (left to choose,
    // its planner scanned every booking: 30 ms at 100k bookings, on every tick of the mail job);
    // PostgreSQL plans it as any inner join. The CASTs type the parameters added to each other.
    listRemindersDue: (now, windowMs, limit) =>
      sql.all<ReminderDue>(
        `SELECT b.id AS "bookingId", b.org_id AS "orgId", b.guest_email AS "to", b.slot_start AS "slotStart"
          FROM experiences e CROSS JOIN bookings b
          WHERE b.experience_id = e.id
            AND b.slot_start > CAST(? AS BIGINT) AND b.slot_start <= CAST(? AS BIGINT) + CAST(? AS BIGINT) AND b.status = 'CONFIRMED'
            AND b.created_at <= b.slot_start - CAST(? AS BIGINT)
            -- A reseller's guest: only with an address, and only once the reseller asked for e-mails.
            AND b.guest_email IS NOT NULL
            AND (b.source <> 'OCTO' OR EXISTS (SELECT 1 FROM octo_bookings o WHERE o.booking_id = b.id AND o.email_receipt = 1))
            AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.booking_id = b.id
              AND ((m.kind = 'BOOKING_REMINDER' AND m.reminder_for = b.slot_start)
                OR (m.kind IN ('BOOKING_CHANGED', 'BOOKING_CONFIRMED') AND m.created_at > b.slot_start - CAST(? AS BIGINT))))
          ORDER BY b.slot_start, b.id
          LIMIT ?`,
        [now, now, windowMs, windowMs, windowMs, limit],
      ),
    async insertManageToken(tokenHash, bookingId, now) {
      await sql.run('INSERT INTO manage_tokens (token_hash, booking_id, created_at) VALUES (?, ?, ?)', [tokenHash, bookingId, now]);
    },
    findManageToken: (tokenHash) =>
      sql.get<{ tokenHash: string; orgId: string; bookingId: string }>(
        `SELECT t.token_hash AS "tokenHash", b.org_id AS "orgId", b.id AS "bookingId"
          FROM manage_tokens t JOIN bookings b ON b.id = t.booking_id WHERE t.token_hash = ?`,
        [tokenHash],
      ),
    async deleteManageTokens(bookingId) {
      await sql.run('DELETE FROM manage_tokens WHERE booking_id = ?', [bookingId]);
    },
    async listWaitlistMessages(orgId, waitlistEntryId, page) {
      const count = await sql.get<{ n: number }>('SELECT count(*) AS n FROM messages WHERE org_id = ? AND waitlist_entry_id = ?', [orgId, waitlistEntryId]);
      const rows = await sql.all<MessageRow>(
        `SELECT ${COLUMNS} FROM messages WHERE org_id = ? AND waitlist_entry_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [orgId, waitlistEntryId, page.limit, page.offset],
      );
      return { rows, total: Number(count!.n) }; // count(*) always answers one row
    },
    async eraseWaitlistMessagesOf(waitlistEntryId, placeholder, reason) {
      // As eraseMessagesOf: the CASEs read the row as it was; the CAST types the parameter for PostgreSQL.
      await sql.run(
        `UPDATE messages SET to_address = CAST(? AS TEXT),
          last_error = CASE WHEN status = 'PENDING' THEN CAST(? AS TEXT) ELSE NULL END,
          status = CASE WHEN status = 'PENDING' THEN 'FAILED' ELSE status END,
          next_attempt_at = CASE WHEN status = 'PENDING' THEN NULL ELSE next_attempt_at END
          WHERE waitlist_entry_id = ?`,
        [placeholder, reason, waitlistEntryId],
      );
    },
  };
}
