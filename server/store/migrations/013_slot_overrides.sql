-- What the operator sets on one departure (an experience at one start): a capacity of its own
-- (NULL: the experience's maxParticipants), closed to new places, and a note for the team. They
-- live on the slot's counter row, so the capacity check of a booking (one conditional upsert of
-- that row) reads them under the same row lock as the places, and they stay with the start
-- whatever later happens to the schedule or the experience's capacity.
ALTER TABLE slot_counts ADD COLUMN capacity_override INTEGER CHECK (capacity_override IS NULL OR capacity_override BETWEEN 0 AND 10000);
ALTER TABLE slot_counts ADD COLUMN closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1));
ALTER TABLE slot_counts ADD COLUMN note TEXT CHECK (note IS NULL OR length(note) <= 500);
