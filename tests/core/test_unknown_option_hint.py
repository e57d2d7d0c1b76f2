"""An option name the command doesn't have gets the closest it does, in the reader's words.
Found walking WoW in Italian: `/wow attacco potenza=4` answered "Qui non capisco 'potenza=4'."
(the option is `potere=`), a sentence that names no option and suggests nothing."""

from __future__ import annotations

from bot.app import App
from tests.helpers import say


async def test_a_near_miss_names_the_option_meant(app: App) -> None:
    reply = await say(app, "/wow attacco potenza=4 difesa=2", lang="it")
    assert reply.error is not None and reply.error.code == "cmd.unknown_option_like"
    assert reply.error.message == "Questo comando non ha l'opzione 'potenza': forse potere=?"
    english = await say(app, "/wow attack powr=4 defense=2", lang="en")
    assert english.error is not None
    assert english.error.message == "This command has no option 'powr': did you mean power=?"


async def test_the_suggestion_is_in_the_readers_language_whatever_was_typed(app: App) -> None:
    # an English name mistyped on an Italian screen is answered with the Italian name
    reply = await say(app, "/wow attacco powr=4 difesa=2", lang="it")
    assert reply.error is not None and "forse potere=?" in reply.error.message


async def test_a_key_like_no_option_says_so(app: App) -> None:
    reply = await say(app, "/wow attacco zzz=4 difesa=2", lang="it")
    assert reply.error is not None and reply.error.code == "cmd.unknown_option"
    assert reply.error.message.startswith("Questo comando non ha l'opzione 'zzz'.")


async def test_a_command_that_reads_free_text_still_takes_it(app: App) -> None:
    # `=` inside a macro's command or a search is text, not an option
    saved = await say(app, "/macro save fire /roll 2d6+3 fire")
    assert saved.ok, saved.error
