-- TEMPORARY stand-in for the lead's groundwork (reverted before the merge).
ALTER TABLE bookings ALTER COLUMN customer_id DROP NOT NULL;
ALTER TABLE bookings ALTER COLUMN guest_name DROP NOT NULL;
ALTER TABLE bookings ALTER COLUMN guest_email DROP NOT NULL;

CREATE TABLE octo_bookings (
  booking_id         TEXT PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
  org_id             TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  uuid               TEXT NOT NULL,
  api_key_id         TEXT,
  reseller_reference TEXT,
  contact            TEXT NOT NULL,
  unit_items         TEXT NOT NULL,
  request_digest     TEXT NOT NULL,
  email_receipt      INTEGER NOT NULL DEFAULT 0,
  confirmed_at       BIGINT,
  expired_at         BIGINT
);
CREATE UNIQUE INDEX octo_bookings_uuid ON octo_bookings(org_id, uuid);
