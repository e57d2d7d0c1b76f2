"""A game's settings screen in the reader's words (#24): each line's `name=value` is what the
reader types to change it (`iniziativa=confronto`, not `initiative=ftf`), English on English."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from tests.helpers import say

CASES = [
    ("it", "/inf impostazioni", "iniziativa=confronto", "initiative="),
    ("it", "/inf impostazioni", "critico_shock_uccide=sì", "=yes"),
    ("it", "/wm impostazioni", "schema_deviazione=orario", "deviation_layout="),
    ("it", "/aos impostazioni", "limite_salvezza=con_impatto", "save_cap="),
    ("it", "/c5 impostazioni", "tiri_aperti=sì", "open_ended="),
    # WoW's values from the one table every game's settings use (`values.*`), with its accent
    ("it", "/wow impostazioni", "campo_di_battaglia=sì ·", "campo_di_battaglia=si ·"),
    ("it", "/wow impostazioni campo_di_battaglia=si", "campo_di_battaglia=sì ·", "=si ·"),
    ("en", "/inf settings", "initiative=ftf", "iniziativa="),
    ("en", "/aos settings", "save_cap=with_rend", "con_impatto"),
]


@pytest.mark.parametrize(("lang", "command", "shown", "not_shown"), CASES)
async def test_a_settings_line_names_the_setting_as_the_reader_types_it(
    app: App, lang: str, command: str, shown: str, not_shown: str
) -> None:
    reply = await say(app, command, lang=lang, chat=f"console:settings-{lang}", admin=True)
    text = plain.render(reply)
    assert shown in text and not_shown not in text, text
