-- outing: foreign keys off
-- OCTO (resellers): a reseller may hold places before it knows the guest, and may confirm a booking
-- without a name or an e-mail address. So a booking's customer, guest name and guest e-mail may be
-- null, and each booking made over OCTO has one row in octo_bookings: the reseller's uuid (unique in
-- the organization), the key that made it, the reseller's reference, the contact and unit items as
-- last given (JSON), the digest of the body that made it (a repeated uuid with the same body returns
-- the booking), whether the guest asked for e-mails, and when it was confirmed or its hold lapsed.
--
-- SQLite cannot drop NOT NULL in place, so the bookings table is rebuilt as migration 020 rebuilt it:
-- foreign keys off for this migration, every column in its present order, then the indexes and
-- triggers made again exactly as before.

CREATE TABLE bookings_rebuilt (
  id                  TEXT PRIMARY KEY,
  org_id              TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_number      TEXT NOT NULL UNIQUE,
  experience_id       TEXT NOT NULL REFERENCES experiences(id),
  customer_id         TEXT REFERENCES customers(id),  -- null for a reseller's guest given without an e-mail
  slot_start          INTEGER NOT NULL,
  slot_end            INTEGER NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('CONFIRMED', 'PENDING', 'CANCELLED')),
  guest_name          TEXT,
  guest_email         TEXT,
  guest_phone         TEXT,
  participants        INTEGER NOT NULL CHECK (participants > 0),
  unit_price          INTEGER NOT NULL,
  currency            TEXT NOT NULL,
  source              TEXT NOT NULL CHECK (source IN ('API', 'WIDGET', 'DASHBOARD', 'OCTO')),
  metadata            TEXT NOT NULL DEFAULT '{}',
  cancellation_reason TEXT,
  cancelled_at        INTEGER,
  hold_expires_at     INTEGER,
  checkout_session_id TEXT,
  checkout_url        TEXT,
  sequence            INTEGER NOT NULL DEFAULT 0,  -- iCal SEQUENCE: grows with each change
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  checked_in_at       INTEGER,
  tickets             TEXT,
  places              INTEGER CHECK (places IS NULL OR places >= 1),
  total_cents         INTEGER CHECK (total_cents IS NULL OR total_cents >= 0),
  locale              TEXT CHECK (locale IS NULL OR locale IN ('en', 'pt', 'es', 'fr', 'de', 'it', 'nl')),
  internal_note       TEXT,  -- the operator's, never shown to the guest
  amount_refunded     INTEGER NOT NULL DEFAULT 0,
  answers             TEXT,
  extras              TEXT,
  promo_code_id       TEXT REFERENCES promo_codes(id) ON DELETE SET NULL,
  discount_code       TEXT,
  discount_type       TEXT CHECK (discount_type IS NULL OR discount_type IN ('PERCENT', 'AMOUNT')),
  discount_value      INTEGER,
  voucher_id          TEXT REFERENCES gift_vouchers(id),
  voucher_mask        TEXT,
  voucher_cents       INTEGER,
  amount_paid         INTEGER NOT NULL DEFAULT 0
);
-- rowid kept: the bookings list pages by it.
INSERT INTO bookings_rebuilt (rowid, id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status,
  guest_name, guest_email, guest_phone, participants, unit_price, currency, source, metadata, cancellation_reason,
  cancelled_at, hold_expires_at, checkout_session_id, checkout_url, sequence, created_at, updated_at, checked_in_at,
  tickets, places, total_cents, locale, internal_note, amount_refunded, answers, extras, promo_code_id, discount_code,
  discount_type, discount_value, voucher_id, voucher_mask, voucher_cents, amount_paid)
SELECT rowid, id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status,
  guest_name, guest_email, guest_phone, participants, unit_price, currency, source, metadata, cancellation_reason,
  cancelled_at, hold_expires_at, checkout_session_id, checkout_url, sequence, created_at, updated_at, checked_in_at,
  tickets, places, total_cents, locale, internal_note, amount_refunded, answers, extras, promo_code_id, discount_code,
  discount_type, discount_value, voucher_id, voucher_mask, voucher_cents, amount_paid
FROM bookings;
DROP TABLE bookings;
ALTER TABLE bookings_rebuilt RENAME TO bookings;

CREATE INDEX bookings_org_slot ON bookings(org_id, slot_start, created_at, id);
CREATE INDEX bookings_experience_slot ON bookings(experience_id, slot_start);
CREATE INDEX bookings_customer ON bookings(customer_id, slot_start);
CREATE INDEX bookings_org_email ON bookings(org_id, guest_email);
CREATE INDEX bookings_holds ON bookings(hold_expires_at) WHERE status = 'PENDING' AND hold_expires_at IS NOT NULL;
CREATE INDEX bookings_org_status_order ON bookings(org_id, status, slot_start, created_at, id) WHERE status <> 'CONFIRMED';
CREATE INDEX bookings_org_created ON bookings(org_id, created_at, status, participants, unit_price);
CREATE INDEX bookings_org_cancelled ON bookings(org_id, cancelled_at) WHERE cancelled_at IS NOT NULL;
CREATE INDEX bookings_org_created_tickets ON bookings(org_id, created_at, status, total_cents) WHERE total_cents IS NOT NULL;

CREATE TRIGGER booking_counts_insert AFTER INSERT ON bookings BEGIN
  INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (new.org_id, new.experience_id, new.status, 1)
    ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER booking_counts_delete AFTER DELETE ON bookings BEGIN
  INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (old.org_id, old.experience_id, old.status, -1)
    ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = n - 1;
END;
CREATE TRIGGER booking_counts_update AFTER UPDATE OF org_id, experience_id, status ON bookings
  WHEN old.status IS NOT new.status OR old.experience_id IS NOT new.experience_id OR old.org_id IS NOT new.org_id
BEGIN
  INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (old.org_id, old.experience_id, old.status, -1)
    ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = n - 1;
  INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (new.org_id, new.experience_id, new.status, 1)
    ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = n + 1;
END;

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
  confirmed_at       INTEGER,
  expired_at         INTEGER,
  UNIQUE (org_id, uuid)
);
CREATE INDEX octo_bookings_org_reference ON octo_bookings(org_id, reseller_reference);
