-- outing: foreign keys off
-- Notices to the operator, staff invites and the organization's brand.
-- Where an organization's notices go (a JSON array of 0-5 addresses) and which booking events send
-- one (a JSON array of event kinds); its accent colour (#rrggbb, lower-case) and logo (an https URL).
ALTER TABLE organizations ADD COLUMN notification_emails TEXT NOT NULL DEFAULT '[]';
ALTER TABLE organizations ADD COLUMN notify_on TEXT NOT NULL DEFAULT '["BOOKING_CREATED","BOOKING_CANCELED"]';
ALTER TABLE organizations ADD COLUMN brand_color TEXT;
ALTER TABLE organizations ADD COLUMN logo_url TEXT;

-- The outbox gains two kinds: OPERATOR_NOTICE (about a booking, to one of the organization's notice
-- addresses; notice_of names the event it tells of) and USER_INVITE (to a new user, about no booking:
-- booking_id becomes optional). setup_url holds an invite's link only until its message is sent or
-- fails. SQLite changes a column's constraints only by copying the table.
CREATE TABLE messages_rebuilt (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_id      TEXT REFERENCES bookings(id) ON DELETE CASCADE,
  kind            TEXT NOT NULL CHECK (kind IN ('BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED', 'BOOKING_REMINDER',
                    'OPERATOR_NOTICE', 'USER_INVITE')),
  to_address      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED', 'SKIPPED')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  next_attempt_at INTEGER,
  leased_until    INTEGER,
  reminder_for    INTEGER,
  resend_of       TEXT,
  sent_at         INTEGER,
  created_at      INTEGER NOT NULL,
  notice_of       TEXT CHECK (notice_of IS NULL OR notice_of IN ('BOOKING_CREATED', 'BOOKING_CANCELED', 'BOOKING_UPDATED')),
  user_id         TEXT REFERENCES users(id) ON DELETE CASCADE,
  setup_url       TEXT
) WITHOUT ROWID;
INSERT INTO messages_rebuilt (id, org_id, booking_id, kind, to_address, status, attempts, last_error, next_attempt_at,
    leased_until, reminder_for, resend_of, sent_at, created_at)
  SELECT id, org_id, booking_id, kind, to_address, status, attempts, last_error, next_attempt_at,
    leased_until, reminder_for, resend_of, sent_at, created_at FROM messages;
DROP TABLE messages;
ALTER TABLE messages_rebuilt RENAME TO messages;
CREATE INDEX messages_booking ON messages(booking_id, created_at, id);
CREATE INDEX messages_due ON messages(next_attempt_at) WHERE status = 'PENDING';
CREATE UNIQUE INDEX messages_one_reminder ON messages(booking_id, reminder_for)
  WHERE kind = 'BOOKING_REMINDER' AND resend_of IS NULL;
CREATE INDEX messages_user ON messages(user_id) WHERE user_id IS NOT NULL;
