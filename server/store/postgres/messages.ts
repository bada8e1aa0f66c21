import { dueNotifier } from '../due-notifier.js';
import type { Async } from '../index.js';
import {
  COLUMNS as SQLITE_COLUMNS,
  newMessageRow,
  type MessageAttempt,
  type NewMessage,
  type MessageRow,
  type ReminderDue,
  type messageStore,
} from '../messages.js';
import type { Page, PageResult } from '../statements.js';
import { quoteAliases, type PgDb } from './db.js';

/** SQLite's column list with its camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const COLUMNS = quoteAliases(SQLITE_COLUMNS);

/**
 * Guest e-mails (the outbox) and manage-link tokens, as `messageStore` keeps them in SQLite. The
 * outbox may be read by the workers of several processes at once: a message is taken by one
 * conditional UPDATE (`leaseMessage`), never by a read and then a write.
 */
export function messageStorePg(db: PgDb): Async<ReturnType<typeof messageStore>> {
  const wake = dueNotifier();

  return {
    /**
     * Queues a message, due now. A reminder already queued for the same booking and start is not
     * queued twice (undefined is returned): ON CONFLICT DO NOTHING without a target covers every
     * unique index, the partial messages_one_reminder included, as in SQLite.
     */
    async enqueueMessage(input: NewMessage): Promise<MessageRow | undefined> {
      const row = newMessageRow(input);
      const inserted = await db.run(
        `INSERT INTO messages (id, org_id, booking_id, kind, to_address, status, attempts, last_error,
          next_attempt_at, reminder_for, resend_of, created_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
          ON CONFLICT DO NOTHING`,
        [row.id, row.orgId, row.bookingId, row.kind, row.to, row.status, row.attempts, row.lastError,
          row.nextAttemptAt, row.reminderFor, row.resendOf, row.createdAt],
      );
      if (inserted !== 1) return undefined;
      // The worker woken must find the row: not before the booking change's transaction commits.
      if (row.status === 'PENDING') db.afterCommit(() => wake.notify());
      return row;
    },
    async getMessage(id: string): Promise<MessageRow | undefined> {
      return await db.get<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE id = $1`, [id]);
    },
    /** Oldest first. */
    async listBookingMessages(orgId: string, bookingId: string, page: Page): Promise<PageResult<MessageRow>> {
      const total = (await db.get<{ n: number }>(
        'SELECT count(*) AS n FROM messages WHERE org_id = $1 AND booking_id = $2',
        [orgId, bookingId],
      ))!.n;
      const rows = await db.all<MessageRow>(
        `SELECT ${COLUMNS} FROM messages WHERE org_id = $1 AND booking_id = $2
          ORDER BY created_at, id LIMIT $3 OFFSET $4`,
        [orgId, bookingId, page.limit, page.offset],
      );
      return { rows, total };
    },
    /**
     * Wakes `listener` after a message is queued by this process (once its transaction committed).
     * The workers of other processes sharing the database are not woken: they find it when they poll.
     */
    async onMessagesDue(listener: () => void): Promise<() => void> {
      return wake.subscribe(listener);
    },
    async listDueMessages(now: number, limit: number): Promise<string[]> {
      const rows = await db.all<{ id: string }>(
        `SELECT id FROM messages WHERE status = 'PENDING' AND next_attempt_at <= $1
          AND (leased_until IS NULL OR leased_until <= $1) ORDER BY next_attempt_at, id LIMIT $2`,
        [now, limit],
      );
      return rows.map((r) => r.id);
    },
    /**
     * When the next pending message becomes due (or its lease runs out), if any. SQLite's
     * `max(next_attempt_at, …)` is NULL for a message with no next attempt, and min() skips it;
     * greatest() ignores NULLs instead, so such messages are left out by the WHERE.
     */
    async nextMessageDueAt(): Promise<number | undefined> {
      const row = await db.get<{ at: number | null }>(
        `SELECT min(greatest(next_attempt_at, coalesce(leased_until, 0))) AS at
          FROM messages WHERE status = 'PENDING' AND next_attempt_at IS NOT NULL`,
      );
      return row?.at ?? undefined;
    },
    /**
     * Takes a due message for one attempt until `until`; false when another worker has it. One
     * conditional UPDATE: a second process updating the same row waits for the first to commit,
     * then re-checks the WHERE against the new lease (READ COMMITTED) and changes nothing.
     */
    async leaseMessage(id: string, now: number, until: number): Promise<boolean> {
      return (await db.run(
        `UPDATE messages SET leased_until = $3
          WHERE id = $1 AND status = 'PENDING' AND (leased_until IS NULL OR leased_until <= $2)`,
        [id, now, until],
      )) === 1;
    },
    async releaseMessage(id: string): Promise<void> {
      await db.run('UPDATE messages SET leased_until = NULL WHERE id = $1', [id]);
    },
    /**
     * Every lease: for a process that knows it is the database's only sender, at its start. With
     * several processes on one database, calling it would take back the sends in flight of the others.
     */
    async releaseAllMessageLeases(): Promise<number> {
      return await db.run(`UPDATE messages SET leased_until = NULL WHERE status = 'PENDING' AND leased_until IS NOT NULL`);
    },
    /** An attempt's outcome; `counted: false` for a message skipped without an attempt. */
    async recordMessageAttempt(id: string, outcome: MessageAttempt, counted = true): Promise<void> {
      await db.run(
        `UPDATE messages SET status = $2, attempts = attempts + $3, last_error = $4, next_attempt_at = $5,
          sent_at = coalesce($6, sent_at), leased_until = NULL
          WHERE id = $1`,
        [id, outcome.status, counted ? 1 : 0, outcome.lastError, outcome.nextAttemptAt, outcome.sentAt],
      );
    },
    /** A booking's guest was erased: its messages name a placeholder, and the unsent ones end FAILED. */
    async eraseMessagesOf(bookingId: string, placeholder: string, reason: string): Promise<void> {
      // As in SQLite, every SET expression reads the row as it was (the CASEs see the old status).
      await db.run(
        `UPDATE messages SET to_address = $2,
          last_error = CASE WHEN status = 'PENDING' THEN $3::text ELSE NULL END,
          status = CASE WHEN status = 'PENDING' THEN 'FAILED' ELSE status END,
          next_attempt_at = CASE WHEN status = 'PENDING' THEN NULL ELSE next_attempt_at END
          WHERE booking_id = $1`,
        [bookingId, placeholder, reason],
      );
    },
    /** Ends an organization's unsent messages without sending them (the demo's made-up guests). */
    async skipPendingMessagesOf(orgId: string, reason: string): Promise<number> {
      return await db.run(
        `UPDATE messages SET status = 'SKIPPED', last_error = $2, next_attempt_at = NULL
          WHERE org_id = $1 AND status = 'PENDING'`,
        [orgId, reason],
      );
    },
    /** Ends every unsent message without sending it (no mail server is configured); answers how many. */
    async skipAllPendingMessages(reason: string): Promise<number> {
      return await db.run(
        `UPDATE messages SET status = 'SKIPPED', last_error = $1, next_attempt_at = NULL WHERE status = 'PENDING'`,
        [reason],
      );
    },
    /**
     * Confirmed bookings starting within the window that have no reminder for that start yet and no
     * confirmation or change e-mail sent inside the window. SQLite has no ORDER BY here (its rows come
     * in its scan's order, unspecified); with a limit the soonest starts are the ones that matter, so
     * PostgreSQL answers them first, `id` breaking ties.
     */
    async listRemindersDue(now: number, windowMs: number, limit: number): Promise<ReminderDue[]> {
      return await db.all<ReminderDue>(
        `SELECT b.id AS "bookingId", b.org_id AS "orgId", b.guest_email AS "to", b.slot_start AS "slotStart"
          FROM experiences e JOIN bookings b ON b.experience_id = e.id
          WHERE b.slot_start > $1::bigint AND b.slot_start <= $1::bigint + $2::bigint AND b.status = 'CONFIRMED'
            AND b.created_at <= b.slot_start - $2::bigint
            AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.booking_id = b.id
              AND ((m.kind = 'BOOKING_REMINDER' AND m.reminder_for = b.slot_start)
                OR (m.kind IN ('BOOKING_CHANGED', 'BOOKING_CONFIRMED') AND m.created_at > b.slot_start - $2::bigint)))
          ORDER BY b.slot_start, b.id
          LIMIT $3`,
        [now, windowMs, limit],
      );
    },
    async insertManageToken(tokenHash: string, bookingId: string, now: number): Promise<void> {
      await db.run('INSERT INTO manage_tokens (token_hash, booking_id, created_at) VALUES ($1, $2, $3)', [tokenHash, bookingId, now]);
    },
    /** The booking a manage token's hash belongs to. */
    async findManageToken(tokenHash: string): Promise<{ tokenHash: string; orgId: string; bookingId: string } | undefined> {
      return await db.get<{ tokenHash: string; orgId: string; bookingId: string }>(
        `SELECT t.token_hash AS "tokenHash", b.org_id AS "orgId", b.id AS "bookingId"
          FROM manage_tokens t JOIN bookings b ON b.id = t.booking_id WHERE t.token_hash = $1`,
        [tokenHash],
      );
    },
    async deleteManageTokens(bookingId: string): Promise<void> {
      await db.run('DELETE FROM manage_tokens WHERE booking_id = $1', [bookingId]);
    },
  };
}
