-- PostgreSQL form of migration 019_waitlist.sql: the waitlist.
-- The waitlist (§20 of the contract): a full slot of an experience that allows it takes entries, and
-- places that free up are offered to them in turn, each offer holding its places for a while.

ALTER TABLE experiences ADD COLUMN waitlist INTEGER NOT NULL DEFAULT 0;
ALTER TABLE organizations ADD COLUMN waitlist_offer_minutes INTEGER NOT NULL DEFAULT 720;

-- One guest's wish for a slot. An OFFERED entry holds its `places` in the slot's counter
-- (slot_counts.booked) from its offer until it is accepted, declined, removed or lapses, so every
-- capacity check counts them as it counts a PENDING booking's. `token_hash` (SHA-256 of the offer's
-- token) is set by the offer; `booking_id` once the offer is accepted. `tickets` and `answers` are
-- JSON as a booking keeps them ('[]' when none). Times are epoch milliseconds.
CREATE TABLE waitlist_entries (
  id                 TEXT PRIMARY KEY,
  org_id             TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  experience_id      TEXT NOT NULL REFERENCES experiences(id),
  slot_start         BIGINT NOT NULL,
  slot_end           BIGINT NOT NULL,
  status             TEXT NOT NULL CHECK (status IN ('WAITING', 'OFFERED', 'BOOKED', 'EXPIRED', 'CANCELLED')),
  places             INTEGER NOT NULL CHECK (places >= 0),
  total_participants INTEGER NOT NULL CHECK (total_participants >= 1),
  tickets            TEXT NOT NULL DEFAULT '[]',
  answers            TEXT NOT NULL DEFAULT '[]',
  guest_name         TEXT NOT NULL,
  guest_email        TEXT NOT NULL,
  guest_phone        TEXT,
  locale             TEXT NOT NULL CHECK (locale IN ('en', 'pt', 'es', 'fr', 'de', 'it', 'nl')),
  token_hash         TEXT UNIQUE,
  offered_at         BIGINT,
  offer_expires_at   BIGINT,
  booking_id         TEXT REFERENCES bookings(id),
  created_at         BIGINT NOT NULL,
  updated_at         BIGINT NOT NULL
);
-- A slot's queue, oldest first; the org's list by slot start then creation; offers in expiry order.
CREATE INDEX waitlist_slot ON waitlist_entries(experience_id, slot_start, status, created_at, id);
CREATE INDEX waitlist_list ON waitlist_entries(org_id, slot_start, created_at, id);
CREATE INDEX waitlist_offers_due ON waitlist_entries(offer_expires_at) WHERE status = 'OFFERED';
-- One live entry per guest and slot, whatever the case of the address.
CREATE UNIQUE INDEX waitlist_one_live ON waitlist_entries(experience_id, slot_start, lower(guest_email))
  WHERE status IN ('WAITING', 'OFFERED');

-- WAITLIST_JOINED and WAITLIST_OFFER messages are about an entry (no booking).
ALTER TABLE messages ADD COLUMN waitlist_entry_id TEXT REFERENCES waitlist_entries(id) ON DELETE CASCADE;
CREATE INDEX messages_waitlist_entry ON messages(waitlist_entry_id, created_at, id) WHERE waitlist_entry_id IS NOT NULL;
