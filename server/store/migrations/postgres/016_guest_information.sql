-- PostgreSQL form of migration 016_guest_information.sql: an experience's guest information.
-- What a guest needs on the day, shown in confirmation and reminder e-mails, on the widget's
-- confirmation and on the manage page: where to meet (with a map link) and what to bring or know.
-- All three are optional; existing experiences keep NULL.
ALTER TABLE experiences ADD COLUMN meeting_point TEXT;
ALTER TABLE experiences ADD COLUMN meeting_point_url TEXT;
ALTER TABLE experiences ADD COLUMN guest_instructions TEXT;
