-- PostgreSQL form of migration 014_org_notices_branding.sql: notices to the operator, staff invites and the brand.
ALTER TABLE organizations ADD COLUMN notification_emails TEXT NOT NULL DEFAULT '[]';
ALTER TABLE organizations ADD COLUMN notify_on TEXT NOT NULL DEFAULT '["BOOKING_CREATED","BOOKING_CANCELED"]';
ALTER TABLE organizations ADD COLUMN brand_color TEXT;
ALTER TABLE organizations ADD COLUMN logo_url TEXT;

-- The outbox's two new kinds; PostgreSQL changes the constraints in place (SQLite copies the table).
ALTER TABLE messages ALTER COLUMN booking_id DROP NOT NULL;
ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check CHECK (kind IN ('BOOKING_CONFIRMED', 'BOOKING_CHANGED',
  'BOOKING_CANCELLED', 'BOOKING_REMINDER', 'OPERATOR_NOTICE', 'USER_INVITE'));
ALTER TABLE messages ADD COLUMN notice_of TEXT
  CHECK (notice_of IS NULL OR notice_of IN ('BOOKING_CREATED', 'BOOKING_CANCELED', 'BOOKING_UPDATED'));
ALTER TABLE messages ADD COLUMN user_id TEXT REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE messages ADD COLUMN setup_url TEXT;
CREATE INDEX messages_user ON messages(user_id) WHERE user_id IS NOT NULL;
