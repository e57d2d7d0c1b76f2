"""/roll private, /roll reveal and /roll reroll through the dispatcher on a real database."""

from __future__ import annotations

import hashlib

from bot.app import App
from bot.protocol import Reply
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words

CHAT = "telegram:-960"


def ok(reply: Reply) -> Reply:
    assert reply.error is None, plain.render(reply)
    return reply


async def test_a_private_roll_is_hidden_until_revealed_with_proof(app: App) -> None:
    ok(await say(app, "/roll 1d6", user="1", name="Ann", chat=CHAT))
    made = ok(await say(app, "/roll private 3d6 deployment", user="1", name="Ann", chat=CHAT))
    assert made.data is not None and made.data["id"] == 2 and made.data["private"] is True
    commitment = made.data["commitment"]
    public = plain.render(made)
    assert "private roll #2" in public and commitment in public
    secret = made.private
    assert secret is not None and secret.data is not None
    total = secret.data["total"]
    assert "deployment" in plain.render(secret) and str(total) in plain.render(secret)
    # Nobody can read it from the log before the reveal.
    shown = ok(await say(app, "/roll show 2", user="2", chat=CHAT))
    assert shown.data is not None and shown.data.get("total") is None
    assert "deployment" not in plain.render(shown)
    history = ok(await say(app, "/roll history", user="2", chat=CHAT))
    assert "deployment" not in plain.render(history)
    # Only the roller reveals it.
    refused = await say(app, "/roll reveal 2", user="2", chat=CHAT)
    assert refused.error is not None and refused.error.code == "private.not_yours"
    revealed = ok(await say(app, "/roll reveal 2", user="1", name="Ann", chat=CHAT))
    data = revealed.data
    assert data is not None and data["total"] == total and data["verified"] is True
    assert data["commitment"] == commitment
    proof = hashlib.sha256(f"{data['salt']}:{data['payload']}".encode()).hexdigest()
    assert proof == commitment  # what anyone can check by hand
    assert "deployment" in plain.render(revealed) and data["salt"] in plain.render(revealed)
    after = ok(await say(app, "/roll show 2", user="2", chat=CHAT))
    assert after.data is not None and after.data["total"] == total


async def test_reveal_of_a_public_roll_and_in_italian(app: App) -> None:
    ok(await say(app, "/roll 1d6", user="1", chat=CHAT))
    reply = await say(app, "/roll reveal 1", user="1", chat=CHAT, lang="it")
    assert reply.error is not None and reply.error.code == "private.not_private"
    made = ok(await say(app, "/tira privato 2d6", user="1", name="Ann", chat=CHAT, lang="it"))
    assert made.private is not None and made.data is not None
    shown = plain.render(made.private).replace(made.data["commitment"], "")  # hex isn't words
    assert not foreign_words("it", shown)


async def test_reroll_changes_only_the_positions_and_keeps_both(app: App) -> None:
    first = ok(await say(app, "/roll 5d6 dice=1,2,3,4,5", user="1", name="Ann", chat=CHAT))
    assert first.data is not None and first.data["id"] == 1
    again = ok(await say(app, "/roll reroll 1 dice=2,5", user="1", name="Ann", chat=CHAT, seed=3))
    data = again.data
    assert data is not None and data["id"] == 2 and data["rerolled_from"] == 1
    after = data["dice"][0]["faces"]
    assert data["before"] == [1, 2, 3, 4, 5] and data["positions"] == [2, 5]
    assert [after[0], after[2], after[3]] == [1, 3, 4]
    assert "Re-roll of roll #1, dice 2, 5" in plain.render(again)
    original = ok(await say(app, "/roll show 1", user="2", chat=CHAT))
    assert original.data is not None and original.data["dice"][0]["faces"] == [1, 2, 3, 4, 5]
    second = ok(await say(app, "/roll show 2", user="2", chat=CHAT))
    assert second.data is not None and second.data["dice"][0]["faces"] == after


async def test_bad_rerolls_are_refused(app: App) -> None:
    ok(await say(app, "/roll 3d6", user="1", chat=CHAT))
    ok(await say(app, "/roll 4d6! dice=6,6,1,2,3,4", user="1", chat=CHAT))
    ok(await say(app, "/roll private 1d6", user="1", chat=CHAT))
    cases = {
        ("2", "/roll reroll 1 dice=1"): "reroll.not_yours",
        ("1", "/roll reroll 1 dice=4"): "reroll.bad_position",
        ("1", "/roll reroll 1 dice=1,1"): "reroll.bad_position",
        ("1", "/roll reroll 2 dice=1"): "reroll.unsupported",  # exploded: more dice than shown
        ("1", "/roll reroll 3 dice=1"): "reroll.hidden",
        ("1", "/roll reroll 9 dice=1"): "roll.not_found",
    }
    for (user, text), key in cases.items():
        reply = await say(app, text, user=user, chat=CHAT)
        assert reply.error is not None and reply.error.code == key, (text, reply.error)
    history = ok(await say(app, "/roll history", user="1", chat=CHAT))
    assert history.data is not None and len(history.data["rolls"]) == 3


async def test_a_private_roll_in_a_batch_still_reaches_only_the_roller(app: App) -> None:
    reply = ok(await say(app, "/roll 1d4\n/roll private 2d6 marker", user="1", chat=CHAT))
    public = plain.render(reply)
    assert "private roll #2" in public and "Only you can see" not in public
    assert reply.private is not None and reply.private.data is None
    secret = plain.render(reply.private)
    assert "Line 2:" in secret and "Only you can see" in secret and "marker" in secret


async def test_a_hidden_roll_in_the_log_is_named_in_the_readers_words(app: App) -> None:
    """An unrevealed private roll in the Italian log read '#2 13:16 Marco /roll private = '
    (English, an empty total), and `/tira mostra 2` drew 'Dadi: ' and 'Dadi tirati a mano al
    tavolo' (it was rolled by the bot, only hidden). Both now say it is a private roll not yet
    revealed, with the command that reveals it; nothing of it is shown."""
    ok(await say(app, "/tira 1d6", user="1", name="Marco", chat=CHAT, lang="it"))
    ok(
        await say(
            app, "/tira privato 3d6 schieramento", user="1", name="Marco", chat=CHAT, lang="it"
        )
    )
    history = plain.render(ok(await say(app, "/tira storico", user="2", chat=CHAT, lang="it")))
    line = next(x for x in history.splitlines() if x.startswith("#2"))
    assert "/roll" not in line and not line.rstrip().endswith("=")
    assert "privato" in line and "/tira rivela 2" in line
    shown = plain.render(ok(await say(app, "/tira mostra 2", user="2", chat=CHAT, lang="it")))
    assert "a mano" not in shown and "/roll" not in shown and "schieramento" not in shown
    assert "/tira rivela 2" in shown
    assert foreign_words(shown, "it") == [] and foreign_words(history, "it") == []
    english = plain.render(ok(await say(app, "/roll show 2", user="2", chat=CHAT, lang="en")))
    assert "by hand" not in english and "/roll reveal 2" in english


async def test_private_written_after_the_dice_is_not_a_public_roll(app: App) -> None:
    """'/tira 2d6 privato' rolled in front of the whole chat under the label 'privato': the
    player meant a hidden roll. Refused now, nothing rolled, with the command to write."""
    for text, lang, hint in (
        ("/tira 2d6 privato", "it", "/tira privato 2d6"),
        ("/tira d20 segreto", "it", "/tira privato d20"),
        ("/roll 2d6 private", "en", "/roll private 2d6"),
        ("/roll 3d6 hidden", "en", "/roll private 3d6"),
    ):
        reply = await say(app, text, user="1", name="Marco", chat=CHAT, lang=lang)
        assert reply.error is not None and reply.error.code == "roll.label_is_private", text
        assert hint in plain.render(reply), plain.render(reply)
    history = await say(app, "/roll history", user="1", chat=CHAT)
    assert history.data == {"rolls": []}  # nothing was rolled


async def test_nascosto_is_a_private_roll_too(app: App) -> None:
    made = ok(await say(app, "/tira nascosto d20", user="1", name="Marco", chat=CHAT, lang="it"))
    assert made.data is not None and made.data["private"] is True
