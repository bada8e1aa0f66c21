-- outing: foreign keys off
-- Promo codes and gift vouchers (§19 of the contract): the codes, the vouchers and their spends and
-- returns, what a booking took of each, the failures a code guesser makes, and the vouchers sold
-- online while their checkout is open.

-- A promo code of an organization. `code` is stored upper-case and unique in the org; `uses` counts
-- the CONFIRMED and PENDING bookings that took it and is moved only by a conditional UPDATE (taken
-- while uses < max_uses), so two bookings at once cannot pass the limit. `experience_ids` is a JSON
-- array of experience ids, or NULL for every experience.
CREATE TABLE promo_codes (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  code            TEXT NOT NULL,
  discount_type   TEXT NOT NULL CHECK (discount_type IN ('PERCENT', 'AMOUNT')),
  discount_value  INTEGER NOT NULL CHECK (discount_value >= 1),
  experience_ids  TEXT,
  valid_from      INTEGER,
  valid_until     INTEGER,
  max_uses        INTEGER CHECK (max_uses IS NULL OR max_uses >= 1),
  uses            INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0),
  active          INTEGER NOT NULL DEFAULT 1,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  UNIQUE (org_id, code)
);
CREATE INDEX promo_codes_list ON promo_codes(org_id, created_at, id);

-- A gift voucher. `code` (GV-XXXX-XXXX-XXXX) is unique on the server. `balance` is moved only by a
-- conditional UPDATE (spent while balance >= the amount) and can never go below zero or above the
-- amount. `disabled` is the one status stored; EXPIRED and USED follow from expires_at and balance.
-- A voucher sold online records its purchase (provider, reference, amount); one per reference.
CREATE TABLE gift_vouchers (
  id                 TEXT PRIMARY KEY,
  org_id             TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  code               TEXT NOT NULL UNIQUE,
  amount             INTEGER NOT NULL CHECK (amount >= 100),
  balance            INTEGER NOT NULL CHECK (balance >= 0 AND balance <= amount),
  currency           TEXT NOT NULL,
  expires_at         INTEGER,
  disabled           INTEGER NOT NULL DEFAULT 0,
  recipient_name     TEXT,
  recipient_email    TEXT,
  message            TEXT,
  buyer_name         TEXT,
  buyer_email        TEXT,
  purchase_provider  TEXT,
  purchase_reference TEXT,
  purchase_amount    INTEGER,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  UNIQUE (purchase_provider, purchase_reference)
);
CREATE INDEX gift_vouchers_list ON gift_vouchers(org_id, created_at, id);

-- Each spend of a voucher by a booking (amount > 0) and each return by its cancellation (amount < 0).
CREATE TABLE voucher_redemptions (
  id          TEXT PRIMARY KEY,
  org_id      TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  voucher_id  TEXT NOT NULL REFERENCES gift_vouchers(id) ON DELETE CASCADE,
  booking_id  TEXT NOT NULL REFERENCES bookings(id),
  amount      INTEGER NOT NULL CHECK (amount <> 0),
  created_at  INTEGER NOT NULL
);
CREATE INDEX voucher_redemptions_voucher ON voucher_redemptions(voucher_id, created_at, id);
CREATE INDEX voucher_redemptions_booking ON voucher_redemptions(booking_id);

-- A gift voucher bought online while its checkout is open: the voucher is made from this row when the
-- provider reports the payment (once: voucher_id is then set), never when the checkout is abandoned.
CREATE TABLE gift_voucher_purchases (
  id                  TEXT PRIMARY KEY,
  org_id              TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  checkout_session_id TEXT UNIQUE,
  amount              INTEGER NOT NULL,
  currency            TEXT NOT NULL,
  buyer_name          TEXT NOT NULL,
  buyer_email         TEXT NOT NULL,
  recipient_name      TEXT,
  recipient_email     TEXT,
  message             TEXT,
  voucher_id          TEXT REFERENCES gift_vouchers(id),
  created_at          INTEGER NOT NULL
);

-- Codes refused on /public/v1, per client IP: ten within ten minutes stop that IP's codes. Shared by
-- every process of one database; rows older than the window are deleted as new ones come.
CREATE TABLE code_failures (
  ip  TEXT NOT NULL,
  at  INTEGER NOT NULL
);
CREATE INDEX code_failures_ip ON code_failures(ip, at);

-- What a booking took: the promo code (its id, to free the use on cancellation; and its own copy of
-- the rule, kept whatever becomes of the code) and the voucher (its id, its mask, the cents spent).
ALTER TABLE bookings ADD COLUMN promo_code_id TEXT REFERENCES promo_codes(id) ON DELETE SET NULL;
ALTER TABLE bookings ADD COLUMN discount_code TEXT;
ALTER TABLE bookings ADD COLUMN discount_type TEXT CHECK (discount_type IS NULL OR discount_type IN ('PERCENT', 'AMOUNT'));
ALTER TABLE bookings ADD COLUMN discount_value INTEGER;
ALTER TABLE bookings ADD COLUMN voucher_id TEXT REFERENCES gift_vouchers(id);
ALTER TABLE bookings ADD COLUMN voucher_mask TEXT;
ALTER TABLE bookings ADD COLUMN voucher_cents INTEGER;

-- The sum of a booking's SUCCEEDED payments (a voucher's part included), kept by the payments store as
-- each is recorded: a booking's amount due is its total less this. Filled here for the payments made before.
ALTER TABLE bookings ADD COLUMN amount_paid INTEGER NOT NULL DEFAULT 0;
UPDATE bookings SET amount_paid = (SELECT sum(p.amount) FROM payments p WHERE p.booking_id = bookings.id AND p.status = 'SUCCEEDED')
  WHERE id IN (SELECT booking_id FROM payments WHERE status = 'SUCCEEDED');

-- The amounts sold online as gift vouchers: a JSON array of money strings, '[]' for none.
ALTER TABLE organizations ADD COLUMN gift_voucher_amounts TEXT NOT NULL DEFAULT '[]';

-- A voucher's part of a booking is a payment of method VOUCHER. SQLite changes a column's
-- constraints only by copying the table.
CREATE TABLE payments_rebuilt (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_id      TEXT NOT NULL REFERENCES bookings(id),
  amount          INTEGER NOT NULL,     -- cents
  currency        TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('SUCCEEDED', 'FAILED')),
  provider        TEXT NOT NULL,
  reference       TEXT,
  failure_reason  TEXT,
  refund_required INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  method          TEXT CHECK (method IS NULL OR method IN ('CASH', 'CARD', 'BANK_TRANSFER', 'STRIPE', 'OTHER', 'VOUCHER'))
);
INSERT INTO payments_rebuilt (id, org_id, booking_id, amount, currency, status, provider, reference, failure_reason, refund_required,
    created_at, method)
  SELECT id, org_id, booking_id, amount, currency, status, provider, reference, failure_reason, refund_required, created_at, method
  FROM payments;
DROP TABLE payments;
ALTER TABLE payments_rebuilt RENAME TO payments;
CREATE INDEX payments_booking ON payments(booking_id, created_at, id);

-- The outbox gains GIFT_VOUCHER (about a voucher: gift_voucher_id, no booking) and, for the waitlist
-- to come, WAITLIST_JOINED and WAITLIST_OFFER, so that the table is copied once for all three.
CREATE TABLE messages_rebuilt (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_id      TEXT REFERENCES bookings(id) ON DELETE CASCADE,
  kind            TEXT NOT NULL CHECK (kind IN ('BOOKING_CONFIRMED', 'BOOKING_CHANGED', 'BOOKING_CANCELLED', 'BOOKING_REMINDER',
                    'OPERATOR_NOTICE', 'USER_INVITE', 'GIFT_VOUCHER', 'WAITLIST_JOINED', 'WAITLIST_OFFER')),
  to_address      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED', 'SKIPPED')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  next_attempt_at INTEGER,
  leased_until    INTEGER,
  reminder_for    INTEGER,
  resend_of       TEXT,
  sent_at         INTEGER,
  created_at      INTEGER NOT NULL,
  notice_of       TEXT CHECK (notice_of IS NULL OR notice_of IN ('BOOKING_CREATED', 'BOOKING_CANCELED', 'BOOKING_UPDATED')),
  user_id         TEXT REFERENCES users(id) ON DELETE CASCADE,
  setup_url       TEXT,
  gift_voucher_id TEXT REFERENCES gift_vouchers(id) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO messages_rebuilt (id, org_id, booking_id, kind, to_address, status, attempts, last_error, next_attempt_at,
    leased_until, reminder_for, resend_of, sent_at, created_at, notice_of, user_id, setup_url)
  SELECT id, org_id, booking_id, kind, to_address, status, attempts, last_error, next_attempt_at,
    leased_until, reminder_for, resend_of, sent_at, created_at, notice_of, user_id, setup_url FROM messages;
DROP TABLE messages;
ALTER TABLE messages_rebuilt RENAME TO messages;
CREATE INDEX messages_booking ON messages(booking_id, created_at, id);
CREATE INDEX messages_due ON messages(next_attempt_at) WHERE status = 'PENDING';
CREATE UNIQUE INDEX messages_one_reminder ON messages(booking_id, reminder_for)
  WHERE kind = 'BOOKING_REMINDER' AND resend_of IS NULL;
CREATE INDEX messages_user ON messages(user_id) WHERE user_id IS NOT NULL;
CREATE INDEX messages_gift_voucher ON messages(gift_voucher_id, created_at, id) WHERE gift_voucher_id IS NOT NULL;
