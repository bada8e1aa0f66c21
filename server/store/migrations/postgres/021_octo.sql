-- PostgreSQL form of migration 021_octo.sql: a booking's customer, guest name and guest e-mail may
-- be null (a reseller's guest may come without them), and OCTO bookings keep their reseller's side in
-- octo_bookings. PostgreSQL drops the NOT NULLs in place (SQLite rebuilds the table).
ALTER TABLE bookings ALTER COLUMN customer_id DROP NOT NULL;
ALTER TABLE bookings ALTER COLUMN guest_name DROP NOT NULL;
ALTER TABLE bookings ALTER COLUMN guest_email DROP NOT NULL;

CREATE TABLE octo_bookings (
  booking_id         TEXT PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
  org_id             TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  uuid               TEXT NOT NULL,
  api_key_id         TEXT NOT NULL,
  reseller_reference TEXT,
  contact            TEXT NOT NULL DEFAULT '{}',
  unit_items         TEXT NOT NULL DEFAULT '[]',
  request_digest     TEXT NOT NULL,
  email_receipt      INTEGER NOT NULL DEFAULT 0,
  confirmed_at       BIGINT,
  expired_at         BIGINT,
  UNIQUE (org_id, uuid)
);
CREATE INDEX octo_bookings_org_reference ON octo_bookings(org_id, reseller_reference);
