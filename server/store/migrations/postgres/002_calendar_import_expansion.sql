-- PostgreSQL form of migration 002_calendar_import_expansion.sql: the same columns and index.
-- Calendar imports (docs/ical.md) remember how their busy intervals were last expanded: a 304 keeps the
-- last good copy only while the horizon and the zone it was read in still hold; after that the next
-- sync fetches without conditions and expands again.
ALTER TABLE calendar_imports ADD COLUMN expanded_at BIGINT;
ALTER TABLE calendar_imports ADD COLUMN expanded_zone TEXT;
-- What the last good copy could not use (events skipped, limits reached), shown as lastError.
ALTER TABLE calendar_imports ADD COLUMN sync_note TEXT;
-- The due imports are read `WHERE next_sync_at IS NULL OR next_sync_at <= ? ORDER BY next_sync_at, id`:
-- SQLite puts NULLs (never synced) first in ascending order, PostgreSQL last. The PostgreSQL store
-- writes `ORDER BY next_sync_at NULLS FIRST, id`, and the index is in that order.
CREATE INDEX calendar_imports_due ON calendar_imports(next_sync_at NULLS FIRST);
