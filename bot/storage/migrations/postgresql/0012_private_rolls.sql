-- Twin of ../0012_private_rolls.sql: private rolls (payload, salt, commitment) and re-roll links.
CREATE TABLE private_rolls (
    chat_key    TEXT NOT NULL,
    number      INTEGER NOT NULL,
    user_id     TEXT NOT NULL,
    payload     TEXT NOT NULL,
    salt        TEXT NOT NULL,
    commitment  TEXT NOT NULL,
    revealed_at TEXT,
    PRIMARY KEY (chat_key, number)
);
CREATE TABLE roll_rerolls (
    chat_key  TEXT NOT NULL,
    number    INTEGER NOT NULL,
    original  INTEGER NOT NULL,
    positions TEXT NOT NULL,
    PRIMARY KEY (chat_key, number)
);
