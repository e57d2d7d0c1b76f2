"""An error's syntax line speaks the reader's language: the command and its options as an
Italian reader types them (`/tira ESPRESSIONE… [dadi=3,5,6…]`), the declaration in English."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say
from tests.i18n_check import foreign_words


async def test_italian_errors_show_the_italian_syntax(app: App) -> None:
    bad = plain.render(await say(app, "/tira 2d", lang="it"))
    assert "Sintassi: /tira ESPRESSIONE… [dadi=3,5,6…]" in bad
    game = plain.render(await say(app, "/partita nuova", lang="it"))
    assert "Sintassi: /partita nuova SISTEMA [NOME…]" in game
    attack = plain.render(await say(app, "/aos attacco attacchi=x", lang="it"))
    syntax = attack.split("Sintassi: ", 1)[1]
    assert syntax.startswith("/aos attacco [attacchi=") and "[colpire=" in syntax  # cut: see below
    assert foreign_words("it", syntax) == []


async def test_english_errors_keep_the_declared_syntax(app: App) -> None:
    bad = plain.render(await say(app, "/roll 2d", lang="en"))
    assert "Syntax: /roll EXPRESSION… [dice=3,5,6…]" in bad


async def test_a_long_syntax_line_is_cut_with_where_to_read_it_whole(app: App) -> None:
    """Every `/wm attacco` error repeated its 25-option syntax, about 400 characters under a
    one-line reason, on a phone. A syntax line past 120 characters keeps its first options and
    points to the command's help for the rest; short ones stay whole."""
    it = plain.render(await say(app, "/wm attacco tipo=pugno", lang="it"))
    line = next(x for x in it.splitlines() if x.startswith("Sintassi:"))
    assert line.startswith("Sintassi: /wm attacco [tipo=mischia|distanza|magia]"), line
    assert "/aiuto wm attacco" in line and len(line) <= 200, line
    en = plain.render(await say(app, "/wm attack type=punch", lang="en"))
    line = next(x for x in en.splitlines() if x.startswith("Syntax:"))
    assert "/help wm attack" in line and len(line) <= 200, line
    short = plain.render(await say(app, "/tira 2d", lang="it"))
    assert "Sintassi: /tira ESPRESSIONE… [dadi=3,5,6…]" in short and "/aiuto" not in short
