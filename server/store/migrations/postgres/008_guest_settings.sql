-- PostgreSQL form of migration 008_guest_settings.sql: guest self-service settings and a booking's locale.
-- What guests may do on their own: cancel or change a booking up to a number of hours
-- before it starts, if the organization allows it at all. Defaults: 24 hours, allowed.
-- guest_self_service is a 0/1 flag: INTEGER, as every flag of this schema.
ALTER TABLE organizations ADD COLUMN cancellation_cutoff_hours INTEGER NOT NULL DEFAULT 24
  CHECK (cancellation_cutoff_hours BETWEEN 0 AND 720);
ALTER TABLE organizations ADD COLUMN guest_self_service INTEGER NOT NULL DEFAULT 1 CHECK (guest_self_service IN (0, 1));

-- The language a booking's guest reads; NULL is English.
ALTER TABLE bookings ADD COLUMN locale TEXT CHECK (locale IS NULL OR locale IN ('en', 'pt'));
