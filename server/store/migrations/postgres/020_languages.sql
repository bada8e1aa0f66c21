-- PostgreSQL form of migration 020_languages.sql: seven languages for a booking's locale, the
-- organization's default language, and the booking source OCTO. PostgreSQL changes the CHECKs in
-- place (SQLite rebuilds the table); 008 and 012 left them the names used below.
ALTER TABLE organizations ADD COLUMN default_locale TEXT NOT NULL DEFAULT 'en'
  CHECK (default_locale IN ('en', 'pt', 'es', 'fr', 'de', 'it', 'nl'));
ALTER TABLE bookings DROP CONSTRAINT bookings_locale_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_locale_check
  CHECK (locale IS NULL OR locale IN ('en', 'pt', 'es', 'fr', 'de', 'it', 'nl'));
ALTER TABLE bookings DROP CONSTRAINT bookings_source_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_source_check CHECK (source IN ('API', 'WIDGET', 'DASHBOARD', 'OCTO'));
