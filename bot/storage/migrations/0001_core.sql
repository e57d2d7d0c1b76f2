-- Core tables: per-chat settings, the roll log, the event log, button payloads and a small
-- key-value store for adapter bookkeeping (e.g. the hash of the last Discord command sync).
CREATE TABLE chat_settings (
    chat_key   TEXT PRIMARY KEY,
    lang       TEXT,
    updated_at TEXT NOT NULL
);

CREATE TABLE rolls (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_key   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    user_name  TEXT NOT NULL,
    expression TEXT NOT NULL,
    faces      TEXT NOT NULL,      -- JSON: every face in rolling order
    seed       INTEGER,            -- NULL when the players gave their own dice
    result     TEXT NOT NULL,      -- JSON: the list of roll results
    created_at TEXT NOT NULL
);
CREATE INDEX rolls_by_chat ON rolls (chat_key, id);

CREATE TABLE events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_key   TEXT NOT NULL,
    game_id    INTEGER,
    user_id    TEXT NOT NULL,
    user_name  TEXT NOT NULL,
    command    TEXT NOT NULL,
    kind       TEXT NOT NULL,
    before     TEXT,               -- JSON snapshot before the change (NULL for pure records)
    after      TEXT,               -- JSON snapshot after the change
    undone     INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE INDEX events_by_chat ON events (chat_key, id);

CREATE TABLE buttons (
    id         TEXT PRIMARY KEY,   -- short id carried by a Telegram callback or Discord custom id
    chat_key   TEXT NOT NULL,
    command    TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE kv (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
