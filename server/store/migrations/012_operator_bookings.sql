-- outing: foreign keys off
-- Bookings made at the desk: a booking keeps an operator's internal note, and its source may be
-- DASHBOARD (made with a dashboard session). Payments say how the money came: CASH, CARD,
-- BANK_TRANSFER, STRIPE or OTHER.
--
-- SQLite cannot change a CHECK constraint in place, so the bookings table is rebuilt the way
-- SQLite documents (https://sqlite.org/lang_altertable.html#otheralter): the first line above makes
-- the migration run with foreign keys off, and `PRAGMA foreign_key_check` must find nothing before
-- it commits. Dropping the old table drops its indexes and triggers: they are made again below,
-- exactly as migrations 001, 003, 006 and 007 made them.
CREATE TABLE bookings_rebuilt (
  id                  TEXT PRIMARY KEY,
  org_id              TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_number      TEXT NOT NULL UNIQUE,
  experience_id       TEXT NOT NULL REFERENCES experiences(id),
  customer_id         TEXT NOT NULL REFERENCES customers(id),
  slot_start          INTEGER NOT NULL,
  slot_end            INTEGER NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('CONFIRMED', 'PENDING', 'CANCELLED')),
  guest_name          TEXT NOT NULL,
  guest_email         TEXT NOT NULL,
  guest_phone         TEXT,
  participants        INTEGER NOT NULL CHECK (participants > 0),
  unit_price          INTEGER NOT NULL,
  currency            TEXT NOT NULL,
  source              TEXT NOT NULL CHECK (source IN ('API', 'WIDGET', 'DASHBOARD')),
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
  locale              TEXT CHECK (locale IS NULL OR locale IN ('en', 'pt')),
  internal_note       TEXT  -- the operator's, never shown to the guest
);
-- rowid kept: the bookings list pages by it.
INSERT INTO bookings_rebuilt (rowid, id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status,
  guest_name, guest_email, guest_phone, participants, unit_price, currency, source, metadata, cancellation_reason,
  cancelled_at, hold_expires_at, checkout_session_id, checkout_url, sequence, created_at, updated_at, checked_in_at,
  tickets, places, total_cents, locale)
SELECT rowid, id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status,
  guest_name, guest_email, guest_phone, participants, unit_price, currency, source, metadata, cancellation_reason,
  cancelled_at, hold_expires_at, checkout_session_id, checkout_url, sequence, created_at, updated_at, checked_in_at,
  tickets, places, total_cents, locale
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

-- How a payment was made. Every payment recorded from now on says it; those recorded before stay
-- NULL, and the store reads them as the provider made them: the Stripe provider's as STRIPE, those
-- recorded by hand as OTHER (nothing is rewritten).
ALTER TABLE payments ADD COLUMN method TEXT
  CHECK (method IS NULL OR method IN ('CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER'));
