-- Games: one active game per chat key; the state is a JSON document, versioned so two writers
-- can never silently overwrite each other. Ended games stay, archived, for /game history.
CREATE TABLE games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_key   TEXT NOT NULL,
    system     TEXT NOT NULL,
    name       TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'active',
    organiser  TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1,
    state      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX games_one_active_per_chat ON games (chat_key) WHERE status = 'active';
CREATE INDEX games_by_chat ON games (chat_key, id);
CREATE INDEX events_by_game ON events (game_id, id);
