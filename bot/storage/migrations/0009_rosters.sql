-- Saved army rosters (/army save, /army load): a player's own, visible from every chat of the
-- platform they were saved on. `owner` is `platform:user_id` (a user id means a person only on
-- its own platform); `name_key` is the folded name, unique per owner; `roster` is the JSON of
-- rules_core.game.roster.Roster (its system, units, stats, weapons, kept fields).
CREATE TABLE rosters (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    owner      TEXT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    system     TEXT NOT NULL,
    roster     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (owner, name_key)
);
