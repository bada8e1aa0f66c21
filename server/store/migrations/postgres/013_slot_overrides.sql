-- PostgreSQL form of migration 013_slot_overrides.sql: a departure's own capacity (NULL: the
-- experience's), whether it is closed to new places, and the team's note, on the slot's counter
-- row that every booking of the slot locks to take its places.
ALTER TABLE slot_counts ADD COLUMN capacity_override INTEGER CHECK (capacity_override IS NULL OR capacity_override BETWEEN 0 AND 10000);
ALTER TABLE slot_counts ADD COLUMN closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1));
ALTER TABLE slot_counts ADD COLUMN note TEXT CHECK (note IS NULL OR length(note) <= 500);
