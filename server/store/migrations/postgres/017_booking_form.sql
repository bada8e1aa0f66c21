-- PostgreSQL form of migration 017_booking_form.sql: questions and extras.
-- The booking form: an experience's questions and extras (JSON arrays, '[]' when none), and a
-- booking's answers and extras as booked (JSON arrays; NULL, as on every older booking, reads as []).
ALTER TABLE experiences ADD COLUMN questions TEXT NOT NULL DEFAULT '[]';
ALTER TABLE experiences ADD COLUMN extras TEXT NOT NULL DEFAULT '[]';
ALTER TABLE bookings ADD COLUMN answers TEXT;
ALTER TABLE bookings ADD COLUMN extras TEXT;
