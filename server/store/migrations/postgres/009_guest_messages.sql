-- PostgreSQL form of migration 009_guest_messages.sql: the guest e-mail outbox and manage-link tokens.
-- (SQLite's WITHOUT ROWID is dropped: the table is a heap with its primary key index.)
-- The SQLite store queues with `INSERT ... ON CONFLICT DO NOTHING` and reads `.changes`: the same
-- statement works in PostgreSQL (with no conflict target it covers every unique index, the partial
-- messages_one_reminder included); read the result's rowCount.
-- nextMessageDueAt's `min(max(next_attempt_at, coalesce(leased_until, 0)))` becomes
-- `min(greatest(...))` with `AND next_attempt_at IS NOT NULL` (see webhook_deliveries in 001).
CREATE TABLE messages (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_id      TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  kind            TEXT NOT NULL CHECK (kind IN ('BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED', 'BOOKING_REMINDER')),
  to_address      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED', 'SKIPPED')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  next_attempt_at BIGINT,
  leased_until    BIGINT,              -- an attempt in flight; expires if the process dies
  -- A reminder names the start it reminds of (an instant: BIGINT): one reminder per booking and
  -- start, however often the job looks. A resend (resend_of set) is another message of the same kind.
  reminder_for    BIGINT,
  resend_of       TEXT,
  sent_at         BIGINT,
  created_at      BIGINT NOT NULL
);
CREATE INDEX messages_booking ON messages(booking_id, created_at, id);
CREATE INDEX messages_due ON messages(next_attempt_at) WHERE status = 'PENDING';
CREATE UNIQUE INDEX messages_one_reminder ON messages(booking_id, reminder_for)
  WHERE kind = 'BOOKING_REMINDER' AND resend_of IS NULL;

-- The links that let a guest manage their booking: only a SHA-256 of each token is kept, as hex
-- TEXT (not a BLOB in SQLite either).
CREATE TABLE manage_tokens (
  token_hash TEXT PRIMARY KEY,
  booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL
);
CREATE INDEX manage_tokens_booking ON manage_tokens(booking_id);
