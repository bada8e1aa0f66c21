-- PostgreSQL form of migration 012_operator_bookings.sql: a booking's internal note and the source
-- DASHBOARD; how a payment was made. PostgreSQL changes the CHECK in place (SQLite rebuilds the
-- table). 001 left the constraint its default name, bookings_source_check.
ALTER TABLE bookings ADD COLUMN internal_note TEXT;  -- the operator's, never shown to the guest
ALTER TABLE bookings DROP CONSTRAINT bookings_source_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_source_check CHECK (source IN ('API', 'WIDGET', 'DASHBOARD'));

-- How a payment was made. Every payment recorded from now on says it; those recorded before stay
-- NULL, and the store reads them as the provider made them: the Stripe provider's as STRIPE, those
-- recorded by hand as OTHER (nothing is rewritten).
ALTER TABLE payments ADD COLUMN method TEXT
  CHECK (method IS NULL OR method IN ('CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER'));
