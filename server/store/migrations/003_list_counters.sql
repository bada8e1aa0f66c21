-- Lists that cost the same with ten thousand bookings or a million (docs/PERFORMANCE.md).
--
-- 1. Counters for the totals of GET /v1/bookings and GET /v1/customers: one row per organization,
--    experience and status for bookings (an unfiltered, status-only, experience-only or
--    experience-and-status total sums at most experiences × 3 rows), one row per organization for
--    customers. Each is an upsert on a small, hot table: one B-tree page per write.
--    Every write is counted by the triggers below, whatever code makes it (the server, a tool that
--    loads rows, a copy between databases): a total must never drift from the rows. Counting inserts
--    in the store instead would save ~14 µs of CPU per booking (measured, docs/PERFORMANCE.md), but a
--    row written any other way would then go uncounted.
-- 2. An index for the lists of the rare statuses (the other orders have their indexes already).
-- Nothing here changes or removes a row; the counters are filled from the rows already there.

CREATE TABLE booking_counts (
  org_id        TEXT NOT NULL,
  experience_id TEXT NOT NULL,
  status        TEXT NOT NULL,
  n             INTEGER NOT NULL,
  PRIMARY KEY (org_id, experience_id, status)
) WITHOUT ROWID;

INSERT INTO booking_counts (org_id, experience_id, status, n)
  SELECT org_id, experience_id, status, count(*) FROM bookings GROUP BY org_id, experience_id, status;

CREATE TRIGGER booking_counts_insert AFTER INSERT ON bookings BEGIN
  INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (new.org_id, new.experience_id, new.status, 1)
    ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER booking_counts_delete AFTER DELETE ON bookings BEGIN
  INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (old.org_id, old.experience_id, old.status, -1)
    ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = n - 1;
END;

-- The store's UPDATE sets every mutable column, status included: the WHEN keeps other changes free.
CREATE TRIGGER booking_counts_update AFTER UPDATE OF org_id, experience_id, status ON bookings
  WHEN old.status IS NOT new.status OR old.experience_id IS NOT new.experience_id OR old.org_id IS NOT new.org_id
BEGIN
  INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (old.org_id, old.experience_id, old.status, -1)
    ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = n - 1;
  INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (new.org_id, new.experience_id, new.status, 1)
    ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = n + 1;
END;

CREATE TABLE customer_counts (
  org_id TEXT PRIMARY KEY,
  n      INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO customer_counts (org_id, n) SELECT org_id, count(*) FROM customers GROUP BY org_id;

CREATE TRIGGER customer_counts_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customer_counts (org_id, n) VALUES (new.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER customer_counts_delete AFTER DELETE ON customers BEGIN
  INSERT INTO customer_counts (org_id, n) VALUES (old.org_id, -1) ON CONFLICT (org_id) DO UPDATE SET n = n - 1;
END;

CREATE TRIGGER customer_counts_update AFTER UPDATE OF org_id ON customers WHEN old.org_id IS NOT new.org_id BEGIN
  INSERT INTO customer_counts (org_id, n) VALUES (old.org_id, -1) ON CONFLICT (org_id) DO UPDATE SET n = n - 1;
  INSERT INTO customer_counts (org_id, n) VALUES (new.org_id, 1) ON CONFLICT (org_id) DO UPDATE SET n = n + 1;
END;

-- GET /v1/bookings?status=PENDING|CANCELLED: the rare statuses in list order. CONFIRMED bookings,
-- the bulk of every history, are not in it, so a new booking does not write it; a CONFIRMED list
-- reads bookings_org_slot in order and skips the others.
CREATE INDEX bookings_org_status_order ON bookings(org_id, status, slot_start, created_at, id) WHERE status <> 'CONFIRMED';

-- Not added, on purpose: an index in the exact order of an experience's list
-- (org_id, experience_id, slot_start, created_at, id) and one for the customers' list
-- (org_id, last_booking_at DESC, id DESC). Each would cost every booking another page written at a
-- random place (+5.0 and +4.1 KB of WAL per booking, measured), and the indexes there already give
-- those lists their order but for ties: bookings_experience_slot sorts only the bookings of one slot
-- start (at most its capacity), customers_recent only customers with the same last booking instant.
