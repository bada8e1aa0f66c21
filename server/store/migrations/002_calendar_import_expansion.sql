-- Calendar imports (docs/ical.md) remember how their busy intervals were last expanded: a 304 keeps the
-- last good copy only while the horizon and the zone it was read in still hold; after that the next
-- sync fetches without conditions and expands again.
ALTER TABLE calendar_imports ADD COLUMN expanded_at INTEGER;
ALTER TABLE calendar_imports ADD COLUMN expanded_zone TEXT;
-- What the last good copy could not use (events skipped, limits reached), shown as lastError.
ALTER TABLE calendar_imports ADD COLUMN sync_note TEXT;
CREATE INDEX calendar_imports_due ON calendar_imports(next_sync_at);
