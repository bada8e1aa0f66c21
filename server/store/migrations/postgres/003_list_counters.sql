-- PostgreSQL form of migration 003_list_counters.sql: the same counter tables, filled the same way,
-- and the same triggers, as PL/pgSQL trigger functions with the same effect.
--
-- Lists that cost the same with ten thousand bookings or a million (docs/PERFORMANCE.md).
-- 1. Counters for the totals of GET /v1/bookings and GET /v1/customers: one row per organization,
--    experience and status for bookings, one row per organization for customers, kept by the
--    triggers below whatever code writes the rows (a total must never drift from the rows).
-- 2. An index for the lists of the rare statuses.
-- Nothing here changes or removes a row; the counters are filled from the rows already there.
--
-- As in SQLite: the triggers are row triggers that run in the statement that writes the row (so
-- in its transaction); a row deleted by ON DELETE CASCADE (an organization's bookings) is counted
-- down like any other; a counter row is never deleted, it can reach 0. Unlike SQLite, TRUNCATE
-- fires no row trigger in PostgreSQL: truncating bookings or customers would leave the counters
-- behind (the store never truncates).
-- The upserts name the existing row (`booking_counts.n`): a bare `n` is ambiguous in PostgreSQL.
-- Concurrency: two transactions counting the same (org, experience, status) serialise on that
-- counter row's lock until they commit, as every SQLite writer does on the database.

CREATE TABLE booking_counts (
  org_id        TEXT NOT NULL,
  experience_id TEXT NOT NULL,
  status        TEXT NOT NULL,
  n             INTEGER NOT NULL,
  PRIMARY KEY (org_id, experience_id, status)
);

INSERT INTO booking_counts (org_id, experience_id, status, n)
  SELECT org_id, experience_id, status, count(*) FROM bookings GROUP BY org_id, experience_id, status;

-- SQLite's booking_counts_insert, booking_counts_delete and booking_counts_update in one function:
-- an insert counts the new row's group up, a delete counts the old row's group down, and an update
-- does both (the trigger's WHEN lets only updates that move a booking between groups through).
CREATE FUNCTION booking_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (OLD.org_id, OLD.experience_id, OLD.status, -1)
      ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = booking_counts.n - 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO booking_counts (org_id, experience_id, status, n) VALUES (NEW.org_id, NEW.experience_id, NEW.status, 1)
      ON CONFLICT (org_id, experience_id, status) DO UPDATE SET n = booking_counts.n + 1;
  END IF;
  RETURN NULL; -- an AFTER trigger's result is ignored
END;
$$;

CREATE TRIGGER booking_counts_insert AFTER INSERT ON bookings
  FOR EACH ROW EXECUTE FUNCTION booking_counts_keep();

CREATE TRIGGER booking_counts_delete AFTER DELETE ON bookings
  FOR EACH ROW EXECUTE FUNCTION booking_counts_keep();

-- The store's UPDATE sets every mutable column, status included: the WHEN keeps other changes free.
-- (SQLite's `IS NOT` is PostgreSQL's `IS DISTINCT FROM`.)
CREATE TRIGGER booking_counts_update AFTER UPDATE OF org_id, experience_id, status ON bookings
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.experience_id IS DISTINCT FROM NEW.experience_id
    OR OLD.org_id IS DISTINCT FROM NEW.org_id)
  EXECUTE FUNCTION booking_counts_keep();

CREATE TABLE customer_counts (
  org_id TEXT PRIMARY KEY,
  n      INTEGER NOT NULL
);

INSERT INTO customer_counts (org_id, n) SELECT org_id, count(*) FROM customers GROUP BY org_id;

-- SQLite's customer_counts_insert, customer_counts_delete and customer_counts_update in one function.
CREATE FUNCTION customer_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO customer_counts (org_id, n) VALUES (OLD.org_id, -1)
      ON CONFLICT (org_id) DO UPDATE SET n = customer_counts.n - 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO customer_counts (org_id, n) VALUES (NEW.org_id, 1)
      ON CONFLICT (org_id) DO UPDATE SET n = customer_counts.n + 1;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER customer_counts_insert AFTER INSERT ON customers
  FOR EACH ROW EXECUTE FUNCTION customer_counts_keep();

CREATE TRIGGER customer_counts_delete AFTER DELETE ON customers
  FOR EACH ROW EXECUTE FUNCTION customer_counts_keep();

CREATE TRIGGER customer_counts_update AFTER UPDATE OF org_id ON customers
  FOR EACH ROW WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id)
  EXECUTE FUNCTION customer_counts_keep();

-- GET /v1/bookings?status=PENDING|CANCELLED: the rare statuses in list order. CONFIRMED bookings,
-- the bulk of every history, are not in it, so a new booking does not write it. (PostgreSQL proves
-- `status = 'PENDING'` implies `status <> 'CONFIRMED'` by itself; the SQLite store's extra
-- `b.status <> 'CONFIRMED'` clause is harmless here.)
CREATE INDEX bookings_org_status_order ON bookings(org_id, status, slot_start, created_at, id) WHERE status <> 'CONFIRMED';

-- Not added, on purpose (as in SQLite): an index in the exact order of an experience's list and one
-- for the customers' list; see the SQLite migration for the measurements.
