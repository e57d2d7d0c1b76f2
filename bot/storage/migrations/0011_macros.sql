-- Personal macros (/save NAME COMMAND, then /NAME): a user's own, in one chat. `name` is the
-- lower-case command word; `command` the text form it runs (`/aos attack target=Orcs ...`).
CREATE TABLE macros (
    chat_key   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    command    TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (chat_key, user_id, name)
);
