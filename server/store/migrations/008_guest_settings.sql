-- What guests may do on their own: cancel or change a booking up to a number of hours
-- before it starts, if the organization allows it at all. Defaults: 24 hours, allowed.
ALTER TABLE organizations ADD COLUMN cancellation_cutoff_hours INTEGER NOT NULL DEFAULT 24
  CHECK (cancellation_cutoff_hours BETWEEN 0 AND 720);
ALTER TABLE organizations ADD COLUMN guest_self_service INTEGER NOT NULL DEFAULT 1 CHECK (guest_self_service IN (0, 1));

-- The language a booking's guest reads (the widget sends its own); NULL is English, so no
-- existing row is rewritten.
ALTER TABLE bookings ADD COLUMN locale TEXT CHECK (locale IS NULL OR locale IN ('en', 'pt'));
