-- The campaign journal and battle report put every roll in its place: which game it belongs
-- to, in which round, and after which event of the chat. A trigger fills these in as a roll is
-- logged (by /roll or by any attack command), so the roll log's writers need not know games.
ALTER TABLE rolls ADD COLUMN game_id INTEGER;
ALTER TABLE rolls ADD COLUMN round INTEGER;
ALTER TABLE rolls ADD COLUMN after_event INTEGER;

CREATE TRIGGER rolls_link_game AFTER INSERT ON rolls
BEGIN
    UPDATE rolls SET
        game_id = (SELECT id FROM games WHERE chat_key = NEW.chat_key AND status = 'active'),
        round = (
            SELECT json_extract(state, '$.round') FROM games
            WHERE chat_key = NEW.chat_key AND status = 'active'
        ),
        after_event = (SELECT MAX(id) FROM events WHERE chat_key = NEW.chat_key)
    WHERE id = NEW.id;
END;
