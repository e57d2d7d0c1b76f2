"""What a game draws under a unit's line names its codes in the reader's book (#24): Infinity's
profile reads `FL · CC 13 CD 12 FIS 10 VOL 12 ARM 1 PB 3` to an Italian (the Italian book's
abbreviations and troop types) and `LI · CC 13 BS 12 PH 10 WIP 12 ARM 1 BTS 3` to an English
reader; Confrontation's wound penalty `-2 INI ATT DIF TIR` / `-2 INI ATT DEF AIM`. rules_core
draws, the bot names each code (`label`)."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.i18n import Lang
from bot.render import plain
from rules_core.game.models import Unit
from rules_core.systems import get_system
from tests.helpers import say

INF_UNIT = "/unit add Angus cc=13 bs=12 ph=10 wip=12 arm=1 bts=3 w=1 lt=1 irr=1 type=1"
INF_LINE: dict[Lang, str] = {
    "it": "FL · CC 13 CD 12 FIS 10 VOL 12 ARM 1 PB 3 · MOV 10-10 · Tenente · Irregolare",
    "en": "LI · CC 13 BS 12 PH 10 WIP 12 ARM 1 BTS 3 · MOV 10-10 · LT · IRR",
}
C5_LINE: dict[Lang, str] = {"it": "-2 INI ATT DIF TIR", "en": "-2 INI ATT DEF AIM"}


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_infinity_profile_in_the_reader_book(app: App, lang: Lang) -> None:
    chat = f"console:draw-inf-{lang}"
    await say(app, "/game new inf", lang=lang, chat=chat)
    screen = plain.render(await say(app, INF_UNIT, lang=lang, chat=chat))
    assert INF_LINE[lang] in screen, screen


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_confrontation_wound_penalty_in_the_reader_book(app: App, lang: Lang) -> None:
    chat = f"console:draw-c5-{lang}"
    await say(app, "/game new c5", lang=lang, chat=chat)
    await say(app, "/unit add Orc res=5 size=2 wounds=6", lang=lang, chat=chat)
    screen = plain.render(await say(app, "/unit damage Orc 2", lang=lang, chat=chat))
    assert C5_LINE[lang] in screen, screen


def test_rules_core_draws_with_the_labels_it_is_given() -> None:
    """No language in rules_core: every code it draws goes through `label`."""
    unit = Unit(
        name="A", owner="u1", owner_name="U", stats={"cc": 13, "bs": 12, "type": 2, "lt": 1}
    )
    drawn = get_system("inf").draw_unit(unit, lambda code: f"<{code}>")
    assert drawn == "<type.2> · <cc> 13 <bs> 12 · <lt>"
