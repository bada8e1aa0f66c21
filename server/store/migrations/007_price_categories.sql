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

-- The daily report sums totals from its covering index alone: the index gains total_cents.
DROP INDEX bookings_org_created;
CREATE INDEX bookings_org_created ON bookings(org_id, created_at, status, participants, unit_price, total_cents);
