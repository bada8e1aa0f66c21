-- The activity log: one entry per change to an organization's data, written in the transaction
-- of the change, newest first per organization, filterable by actor and by target.
CREATE TABLE activity (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'key', 'guest', 'system', 'cli')),
  actor_id TEXT,
  actor_name TEXT NOT NULL,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  summary TEXT NOT NULL,
  ip TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX activity_by_org ON activity(org_id, seq);
CREATE INDEX activity_by_actor ON activity(org_id, actor_id, seq);
CREATE INDEX activity_by_target ON activity(org_id, target_id, seq);
-- No index on created_at: entries are appended in time order, so the oldest are the lowest seq
-- (pruning reads them from the start of the table; every index is one more write per change).

-- Check-in at the start of a tour: when the guest was checked in, or null.
ALTER TABLE bookings ADD COLUMN checked_in_at INTEGER;
