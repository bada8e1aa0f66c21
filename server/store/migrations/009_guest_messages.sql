-- E-mails to guests: an outbox written in the transaction of the booking change that causes each
-- one, sent by a background job (WITHOUT ROWID: the id is the table's key, one B-tree less to write
-- on every booking). A message's content is composed when it is sent, from the booking
-- as it stands then; the row keeps what the log must show (kind, recipient, status, attempts).
CREATE TABLE messages (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_id      TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  kind            TEXT NOT NULL CHECK (kind IN ('BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED', 'BOOKING_REMINDER')),
  to_address      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED', 'SKIPPED')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  next_attempt_at INTEGER,
  leased_until    INTEGER,             -- an attempt in flight; expires if the process dies
  -- A reminder names the start it reminds of: one reminder per booking and start, however often
  -- the job looks. A resend (resend_of set) is another message of the same kind on purpose.
  reminder_for    INTEGER,
  resend_of       TEXT,
  sent_at         INTEGER,
  created_at      INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX messages_booking ON messages(booking_id, created_at, id);
CREATE INDEX messages_due ON messages(next_attempt_at) WHERE status = 'PENDING';
CREATE UNIQUE INDEX messages_one_reminder ON messages(booking_id, reminder_for)
  WHERE kind = 'BOOKING_REMINDER' AND resend_of IS NULL;

-- The links that let a guest manage their booking: only a SHA-256 of each token is kept. A new
-- token goes out with every message that carries a link; older ones stay valid while the booking exists.
CREATE TABLE manage_tokens (
  token_hash TEXT PRIMARY KEY,
  booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX manage_tokens_booking ON manage_tokens(booking_id);
