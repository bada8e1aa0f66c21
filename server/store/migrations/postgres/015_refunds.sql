-- PostgreSQL form of migration 015_refunds.sql: refunds, the booking's refunded sum, and the sixth
-- event kind for endpoints that asked for every kind.
CREATE TABLE refunds (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_id      TEXT NOT NULL REFERENCES bookings(id),
  amount          BIGINT NOT NULL CHECK (amount > 0),   -- cents
  currency        TEXT NOT NULL,
  method          TEXT NOT NULL CHECK (method IN ('CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER')),
  status          TEXT NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
  reason          TEXT,
  payment_id      TEXT REFERENCES payments(id),
  reference       TEXT,
  failure_reason  TEXT,
  created_at      BIGINT NOT NULL,
  updated_at      BIGINT NOT NULL
);
CREATE INDEX refunds_booking ON refunds(booking_id, created_at, id);
CREATE INDEX refunds_pending ON refunds(status, created_at);

ALTER TABLE bookings ADD COLUMN amount_refunded BIGINT NOT NULL DEFAULT 0;

UPDATE webhook_endpoints
  SET events = '["BOOKING_CREATED","BOOKING_UPDATED","BOOKING_CANCELED","PAYMENT_SUCCEEDED","PAYMENT_FAILED","PAYMENT_REFUNDED"]'
  WHERE events = '["BOOKING_CREATED","BOOKING_UPDATED","BOOKING_CANCELED","PAYMENT_SUCCEEDED","PAYMENT_FAILED"]';
