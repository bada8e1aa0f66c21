-- Outing schema, version 1: every table the API needs (the OpenAPI description at /v1/openapi.json).
-- Instants are INTEGER milliseconds since the Unix epoch (UTC); JSON documents are TEXT.

CREATE TABLE organizations (
  id              TEXT PRIMARY KEY,
  name            TEXT NOT NULL,
  email           TEXT NOT NULL,
  phone           TEXT,
  timezone        TEXT NOT NULL,
  currency        TEXT NOT NULL DEFAULT 'USD',
  online_payments INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  type         TEXT NOT NULL CHECK (type IN ('secret', 'publishable')),
  scopes       TEXT NOT NULL,            -- JSON array; ["*"] = every scope
  prefix       TEXT NOT NULL,            -- first characters, to recognize a key in lists
  key_hash     BLOB NOT NULL UNIQUE,     -- SHA-256 of the whole key
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at   INTEGER
);
CREATE INDEX api_keys_org ON api_keys(org_id, created_at, id);

CREATE TABLE experiences (
  id                 TEXT PRIMARY KEY,
  org_id             TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name               TEXT NOT NULL,
  description        TEXT NOT NULL,
  duration           INTEGER NOT NULL,
  price              INTEGER NOT NULL,
  max_participants   INTEGER NOT NULL,
  max_per_booking    INTEGER,            -- NULL follows max_participants
  schedule           TEXT,               -- JSON, NULL = no slots
  min_notice_minutes INTEGER NOT NULL DEFAULT 0,
  max_advance_days   INTEGER NOT NULL DEFAULT 365,
  active             INTEGER NOT NULL DEFAULT 1,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL
);
CREATE INDEX experiences_org ON experiences(org_id, created_at, id);

CREATE TABLE customers (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email            TEXT NOT NULL,        -- lower-cased
  name             TEXT NOT NULL,
  phone            TEXT,
  first_booking_at INTEGER,
  last_booking_at  INTEGER,
  erased_at        INTEGER,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  UNIQUE (org_id, email)
);
CREATE INDEX customers_recent ON customers(org_id, last_booking_at DESC, id);

CREATE TABLE bookings (
  id                  TEXT PRIMARY KEY,
  org_id              TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  booking_number      TEXT NOT NULL UNIQUE,
  experience_id       TEXT NOT NULL REFERENCES experiences(id),
  customer_id         TEXT NOT NULL REFERENCES customers(id),
  slot_start          INTEGER NOT NULL,
  slot_end            INTEGER NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('CONFIRMED', 'PENDING', 'CANCELLED')),
  guest_name          TEXT NOT NULL,
  guest_email         TEXT NOT NULL,
  guest_phone         TEXT,
  participants        INTEGER NOT NULL CHECK (participants > 0),
  unit_price          INTEGER NOT NULL,
  currency            TEXT NOT NULL,
  source              TEXT NOT NULL CHECK (source IN ('API', 'WIDGET')),
  metadata            TEXT NOT NULL DEFAULT '{}',
  cancellation_reason TEXT,
  cancelled_at        INTEGER,
  hold_expires_at     INTEGER,
  checkout_session_id TEXT,
  checkout_url        TEXT,
  sequence            INTEGER NOT NULL DEFAULT 0,  -- iCal SEQUENCE: grows with each change
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL
);
CREATE INDEX bookings_org_slot ON bookings(org_id, slot_start, created_at, id);
CREATE INDEX bookings_experience_slot ON bookings(experience_id, slot_start);
CREATE INDEX bookings_customer ON bookings(customer_id, slot_start);
CREATE INDEX bookings_org_email ON bookings(org_id, guest_email);
CREATE INDEX bookings_holds ON bookings(hold_expires_at) WHERE status = 'PENDING' AND hold_expires_at IS NOT NULL;

-- Places taken per slot (CONFIRMED + PENDING), kept in step with bookings in the same transaction,
-- so that availability costs the same with ten bookings or a million.
CREATE TABLE slot_counts (
  experience_id TEXT NOT NULL,
  slot_start    INTEGER NOT NULL,
  booked        INTEGER NOT NULL CHECK (booked >= 0),
  PRIMARY KEY (experience_id, slot_start)
) WITHOUT ROWID;

-- The outbox: every event is written in the transaction of the change that fires it.
CREATE TABLE events (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  id         TEXT NOT NULL UNIQUE,
  org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type       TEXT NOT NULL,
  booking_id TEXT,
  payload    TEXT NOT NULL,            -- the whole webhook body as JSON
  created_at INTEGER NOT NULL
);
CREATE INDEX events_org ON events(org_id, seq);
CREATE INDEX events_org_type ON events(org_id, type, seq);
CREATE INDEX events_created ON events(created_at);
CREATE INDEX events_booking ON events(booking_id);

CREATE TABLE webhook_endpoints (
  id                     TEXT PRIMARY KEY,
  org_id                 TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  url                    TEXT NOT NULL,
  events                 TEXT NOT NULL,  -- JSON array of event kinds
  description            TEXT,
  enabled                INTEGER NOT NULL DEFAULT 1,
  secret                 TEXT NOT NULL,
  previous_secret        TEXT,
  previous_secret_until  INTEGER,
  disabled_reason        TEXT,
  created_at             INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints(org_id, created_at, id);

CREATE TABLE webhook_deliveries (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  endpoint_id      TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id         TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  event_type       TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  last_status_code INTEGER,
  last_error       TEXT,
  next_attempt_at  INTEGER,
  leased_until     INTEGER,             -- an attempt in flight; expires if the process dies
  created_at       INTEGER NOT NULL,
  delivered_at     INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at, id);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);

CREATE TABLE idempotency_keys (
  org_id          TEXT NOT NULL,
  key             TEXT NOT NULL,
  fingerprint     TEXT NOT NULL,        -- method, path and canonical JSON body
  response_status INTEGER NOT NULL,
  response_body   TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  PRIMARY KEY (org_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

CREATE TABLE calendar_feeds (
  id            TEXT PRIMARY KEY,
  org_id        TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  experience_id TEXT REFERENCES experiences(id) ON DELETE CASCADE,
  token_hash    BLOB NOT NULL UNIQUE,   -- SHA-256 of the token
  created_at    INTEGER NOT NULL
);
CREATE INDEX calendar_feeds_org ON calendar_feeds(org_id, created_at, id);

CREATE TABLE calendar_imports (
  id             TEXT PRIMARY KEY,
  org_id         TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  url            TEXT NOT NULL,
  experience_id  TEXT REFERENCES experiences(id) ON DELETE CASCADE,
  etag           TEXT,
  last_modified  TEXT,
  last_synced_at INTEGER,
  last_error     TEXT,
  event_count    INTEGER NOT NULL DEFAULT 0,
  next_sync_at   INTEGER,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
);
CREATE INDEX calendar_imports_org ON calendar_imports(org_id, created_at, id);

-- Busy time taken from imported calendars, expanded over the booking horizon.
CREATE TABLE busy_intervals (
  import_id     TEXT NOT NULL REFERENCES calendar_imports(id) ON DELETE CASCADE,
  org_id        TEXT NOT NULL,
  experience_id TEXT,                   -- NULL blocks every experience of the org
  start_at      INTEGER NOT NULL,
  end_at        INTEGER NOT NULL
);
CREATE INDEX busy_intervals_org ON busy_intervals(org_id, start_at);
CREATE INDEX busy_intervals_import ON busy_intervals(import_id);

CREATE TABLE payments (
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
  created_at      INTEGER NOT NULL
);
CREATE INDEX payments_booking ON payments(booking_id, created_at, id);

-- Provider callbacks already handled, so a callback sent twice is applied once.
CREATE TABLE provider_events (
  provider    TEXT NOT NULL,
  event_id    TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (provider, event_id)
) WITHOUT ROWID;

-- Small facts about this installation, such as which organization is the demo.
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
