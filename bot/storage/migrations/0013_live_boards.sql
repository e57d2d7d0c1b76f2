-- The live board (/game board): each chat's one board message, which the bot edits in place
-- after every change to its game. The platform's message id is kept so a restarted bot edits
-- the same message; `lang` is the language it was posted in (the chat's /lang wins when set).
-- A message deleted by the users is forgotten when an edit finds it gone.
CREATE TABLE live_boards (
    chat_key   TEXT PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    message_id TEXT NOT NULL,
    lang       TEXT NOT NULL,
    posted_at  TEXT NOT NULL
);
