-- PostgreSQL form of migration 006_manifest_reports.sql: the same two report indexes.
-- GET /v1/reports/daily: bookings by the day they were created, with their participants and totals.
-- In SQLite the index covers the sums; in PostgreSQL an index-only scan also needs the table's
-- visibility map to be current (autovacuum), otherwise it reads the heap pages too.
CREATE INDEX bookings_org_created ON bookings(org_id, created_at, status, participants, unit_price);

-- ... and cancellations by the day they happened. Only cancelled bookings have cancelled_at.
CREATE INDEX bookings_org_cancelled ON bookings(org_id, cancelled_at) WHERE cancelled_at IS NOT NULL;
