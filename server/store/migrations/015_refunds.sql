-- Money given back to a guest. A refund by hand (cash, card terminal, bank transfer, other) is
-- SUCCEEDED when recorded; a STRIPE one stays PENDING until Stripe says how it ended. `payment_id`
-- is the Stripe payment it is taken from, `reference` Stripe's refund id once Stripe has answered.
CREATE TABLE refunds (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_id      TEXT NOT NULL REFERENCES bookings(id),
  amount          INTEGER NOT NULL CHECK (amount > 0),  -- cents
  currency        TEXT NOT NULL,
  method          TEXT NOT NULL CHECK (method IN ('CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER')),
  status          TEXT NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
  reason          TEXT,
  payment_id      TEXT REFERENCES payments(id),
  reference       TEXT,
  failure_reason  TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX refunds_booking ON refunds(booking_id, created_at, id);
-- STRIPE refunds still PENDING, for the sweeper that sends the ones not yet sent.
CREATE INDEX refunds_pending ON refunds(status, created_at);

-- The sum of a booking's SUCCEEDED refunds, kept in the transaction that makes one SUCCEEDED.
ALTER TABLE bookings ADD COLUMN amount_refunded INTEGER NOT NULL DEFAULT 0;

-- PAYMENT_REFUNDED is a sixth event kind. An endpoint created without `events` was stored with the
-- five kinds there were, in this very order: it asked for every kind, so it gets the new one too.
UPDATE webhook_endpoints
  SET events = '["BOOKING_CREATED","BOOKING_UPDATED","BOOKING_CANCELED","PAYMENT_SUCCEEDED","PAYMENT_FAILED","PAYMENT_REFUNDED"]'
  WHERE events = '["BOOKING_CREATED","BOOKING_UPDATED","BOOKING_CANCELED","PAYMENT_SUCCEEDED","PAYMENT_FAILED"]';
