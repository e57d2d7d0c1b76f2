-- Twin of ../0013_live_boards.sql: each chat's live board message and the game it shows.
CREATE TABLE live_boards (
    chat_key   TEXT PRIMARY KEY,
    game_id    BIGINT NOT NULL REFERENCES games (id),
    message_id TEXT NOT NULL,
    lang       TEXT NOT NULL,
    posted_at  TEXT NOT NULL
);
