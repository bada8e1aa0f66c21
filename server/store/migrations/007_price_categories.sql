-- Price categories (adult, child, …) on experiences, and the tickets a booking bought in them.
-- The categories are a short list (at most 10) always read with their experience: a JSON column.
ALTER TABLE experiences ADD COLUMN price_categories TEXT NOT NULL DEFAULT '[]';

-- A booking with tickets keeps them as booked (name, type, unit price) in `tickets` (JSON), the
-- places they occupy in `places` (infants on a lap do not) and what they cost in `total_cents`.
-- All three stay NULL for a booking without categories: its places are its participants and its
-- total is unit_price × participants, so no existing row is rewritten.
ALTER TABLE bookings ADD COLUMN tickets TEXT;
ALTER TABLE bookings ADD COLUMN places INTEGER CHECK (places IS NULL OR places >= 1);
ALTER TABLE bookings ADD COLUMN total_cents INTEGER CHECK (total_cents IS NULL OR total_cents >= 0);

-- The daily report sums revenue from covering indexes alone. A booking with tickets stores
-- unit_price 0, so bookings_org_created (migration 006) already sums every other booking's revenue;
-- this partial index holds the ticketed ones' totals, and a booking without tickets never writes it.
CREATE INDEX bookings_org_created_tickets ON bookings(org_id, created_at, status, total_cents) WHERE total_cents IS NOT NULL;
