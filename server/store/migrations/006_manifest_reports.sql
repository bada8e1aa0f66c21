-- Operator reports that cost the same with ten thousand bookings or a million (docs/PERFORMANCE.md):
-- each reads one range of an index in the order of its question, never the whole history.
--
-- GET /v1/reports/daily: bookings by the local day they were created, and their participants and
-- totals, read from the index alone (it holds every column the sums need), one range per day.
CREATE INDEX bookings_org_created ON bookings(org_id, created_at, status, participants, unit_price);

-- ... and cancellations by the day they happened. Only cancelled bookings have cancelled_at, so the
-- index holds those alone and a new booking never writes it.
CREATE INDEX bookings_org_cancelled ON bookings(org_id, cancelled_at) WHERE cancelled_at IS NOT NULL;

-- GET /v1/manifest needs nothing new: bookings_org_slot (org_id, slot_start, …) already reads one day.
