-- Twin of ../0011_macros.sql: personal macros, per user per chat.
CREATE TABLE macros (
    chat_key   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    command    TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (chat_key, user_id, name)
);
