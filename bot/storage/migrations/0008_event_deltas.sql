-- The event log stores what a change did (a delta) instead of the whole game before and after
-- it, plus the whole state before the change (`base`) at a game's first change and then once
-- every 100 changes (see bot/storage/events.py). The Python step `events.convert_log` rewrites
-- the old rows between the two halves of this script, in the same transaction.
ALTER TABLE events ADD COLUMN patch TEXT;   -- JSON delta from the state before to the state after
ALTER TABLE events ADD COLUMN base TEXT;    -- JSON of the whole state before, at snapshot points
CREATE INDEX events_snapshots ON events (game_id, id) WHERE base IS NOT NULL;
-- @python events.convert_log
ALTER TABLE events DROP COLUMN before;
ALTER TABLE events DROP COLUMN after;
