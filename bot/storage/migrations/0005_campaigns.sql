-- Play-by-post campaigns: one active (or paused) campaign per chat, its turn order, deadline
-- and reminder points; reminders are rows so a restart loses none and sends none twice.
CREATE TABLE campaigns (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_key        TEXT NOT NULL,
    name            TEXT NOT NULL,
    organiser       TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'active',   -- active | paused | ended
    players         TEXT NOT NULL DEFAULT '[]',       -- JSON [{"user_id", "name"}]
    turn_no         INTEGER NOT NULL DEFAULT 0,       -- how many turns have passed
    deadline_s      INTEGER,                          -- seconds per turn, NULL = none
    points          TEXT NOT NULL DEFAULT '0.5,0.9',  -- reminder points, fractions
    turn_started_at TEXT NOT NULL,
    paused_at       TEXT,
    created_at      TEXT NOT NULL
);
CREATE UNIQUE INDEX campaigns_one_per_chat ON campaigns (chat_key) WHERE status != 'ended';

CREATE TABLE campaign_games (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    game_id     INTEGER NOT NULL REFERENCES games (id),
    PRIMARY KEY (campaign_id, game_id)
);

CREATE TABLE reminders (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    turn_no     INTEGER NOT NULL,
    kind        TEXT NOT NULL,                         -- remind:50 | remind:90 | expired
    user_id     TEXT NOT NULL,                         -- whose turn it is
    due_at      TEXT NOT NULL,
    sent_at     TEXT,
    UNIQUE (campaign_id, turn_no, kind)
);
CREATE INDEX reminders_due ON reminders (sent_at, due_at);
