-- PostgreSQL form of migration 007_price_categories.sql: price categories and tickets.
-- The categories are a short list (at most 10) always read with their experience: a JSON column,
-- TEXT as in SQLite.
ALTER TABLE experiences ADD COLUMN price_categories TEXT NOT NULL DEFAULT '[]';

-- A booking with tickets keeps them as booked in `tickets` (JSON, TEXT), the places they occupy in
-- `places` and what they cost in `total_cents`. All three stay NULL for a booking without categories.
-- total_cents is BIGINT: up to 10 categories of 10,000 tickets at up to 10^9 cents each.
-- (PostgreSQL adds a column with a constant default, or none, without rewriting the table.)
ALTER TABLE bookings ADD COLUMN tickets TEXT;
ALTER TABLE bookings ADD COLUMN places INTEGER CHECK (places IS NULL OR places >= 1);
ALTER TABLE bookings ADD COLUMN total_cents BIGINT CHECK (total_cents IS NULL OR total_cents >= 0);

-- The daily report sums the ticketed bookings' totals from this partial index.
CREATE INDEX bookings_org_created_tickets ON bookings(org_id, created_at, status, total_cents) WHERE total_cents IS NOT NULL;
