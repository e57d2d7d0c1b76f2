-- Rolls and games are numbered per chat (`/roll show 3` is this chat's third roll), so a chat
-- neither sees how busy the others are nor can guess their numbers. The global `id` stays the
-- internal key. Existing rows are numbered in the order they were made; new ones get
-- MAX(number) + 1 of their chat inside the command's write transaction, and the unique index
-- makes a duplicate impossible even if two writers ever raced.
ALTER TABLE rolls ADD COLUMN number INTEGER;
ALTER TABLE games ADD COLUMN number INTEGER;

CREATE TEMP TABLE chat_numbers (id INTEGER PRIMARY KEY, n INTEGER NOT NULL);

INSERT INTO chat_numbers (id, n)
SELECT id, ROW_NUMBER() OVER (PARTITION BY chat_key ORDER BY id) FROM rolls;
UPDATE rolls SET number = (SELECT n FROM chat_numbers WHERE chat_numbers.id = rolls.id);
DELETE FROM chat_numbers;

INSERT INTO chat_numbers (id, n)
SELECT id, ROW_NUMBER() OVER (PARTITION BY chat_key ORDER BY id) FROM games;
UPDATE games SET number = (SELECT n FROM chat_numbers WHERE chat_numbers.id = games.id);

DROP TABLE chat_numbers;

CREATE UNIQUE INDEX rolls_number_by_chat ON rolls (chat_key, number);
CREATE UNIQUE INDEX games_number_by_chat ON games (chat_key, number);
