-- Private rolls (/roll private) and re-rolls (/roll reroll). A private roll takes its number in
-- the chat's roll log like any roll, but the log row shows nothing (`/roll private`, no faces)
-- until it is revealed; what was rolled waits here with the salt and the SHA-256 commitment
-- shown at roll time. A re-roll is a new roll in the log; `roll_rerolls` links it to the roll
-- it re-rolled and the positions re-rolled, so the audit keeps both results.
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
