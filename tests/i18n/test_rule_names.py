"""A rule entry's names in the reader's language only (#24 item 3): under the title, an Italian
/regola lists the entry's other Italian names and abbreviations (`LdV · linea di tiro`), never
its English ones (`Line of Sight · LOS`), and the reverse; its see-also buttons likewise."""

from __future__ import annotations

from typing import Any

import pytest

from bot import i18n
from bot.app import App
from bot.commands.rules import entry_blocks, rule_button
from bot.render import plain
from bot.rules_data import rule_index
from tests.helpers import say


class _Reader:
    def __init__(self, lang: i18n.Lang) -> None:
        self.lang = lang

    def t(self, key: str, /, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)


def _only_other(entry: Any, lang: i18n.Lang) -> set[str]:
    mine = entry.names.it if lang == "it" else entry.names.en
    theirs = entry.names.en if lang == "it" else entry.names.it
    keep = {n.casefold() for n in [*mine, *entry.names.abbr]}
    return {n for n in theirs if n.casefold() not in keep}


@pytest.mark.parametrize("lang", ["it", "en"])
def test_no_entry_lists_a_name_of_the_other_language(lang: i18n.Lang) -> None:
    index = rule_index()
    found = {}
    for entry in index.entries.values():
        aka = {span.text for span in entry_blocks(_Reader(lang), entry)[0]}
        names = {n.strip() for text in aka for n in text.split(" · ")}
        links = {
            rule_button(_Reader(lang), index.entries[i]).label
            for i in entry.see_also
            if i in index.entries
        }
        if bad := (names | links) & _only_other(entry, lang):
            found[entry.id] = bad
    assert found == {}


@pytest.mark.parametrize(
    ("lang", "command", "shown", "not_shown"),
    [
        ("it", "/regola linea di vista sistema=wm", "LdV", "Line of Sight"),
        ("en", "/rule line of sight system=wm", "LOS", "Linea di Vista"),
    ],
)
async def test_a_rule_reply_names_it_in_the_readers_language(
    app: App, lang: str, command: str, shown: str, not_shown: str
) -> None:
    text = plain.render(await say(app, command, lang=lang, chat=f"console:rule-names-{lang}"))
    assert shown in text and not_shown not in text, text
