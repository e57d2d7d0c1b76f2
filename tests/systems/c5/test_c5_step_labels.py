"""A C5 test's step names the characteristic it adds ("[2] +4 TIR = 6"), not "value", whenever
the command knows which one it is: the shot's TIR, the blow's ATT and the parry's DIF, the fear
test's COR, `/c5 test stat=…`. Only a number given alone stays "value"."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.app import App
from bot.render import plain
from rules_core.dice import DiceSource
from rules_core.systems.c5 import models
from rules_core.systems.c5 import requests as rq
from rules_core.systems.c5.checks import resolve_test
from tests.helpers import say


def test_the_step_names_the_stat_tested_or_value() -> None:
    named, _ = resolve_test(models.TestRequest(value=4, stat="aim"), DiceSource.given([2]))
    plain_number, _ = resolve_test(models.TestRequest(value=4), DiceSource.given([2]))
    assert [m.name for m in named.modifiers] == ["aim"]
    assert [m.name for m in plain_number.modifiers] == ["value"]


def test_each_request_says_which_stat_it_tests() -> None:
    melee = rq.melee_request({"att": 5, "def": 4, "str": 7, "res": 6}, None, None)
    assert melee.attack.stat == "att"
    assert melee.defence is not None and melee.defence.stat == "def"
    shot = rq.shoot_request({"aim": 4, "str": 6, "res": 5}, None, None)
    assert shot.test.stat == "aim"
    assert rq.plain_test_request({"value": 3, "stat": "cor"}, None).stat == "cou"
    assert rq.plain_test_request({"value": 3}, None).stat is None


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_stat_a_test_can_name_has_its_label(lang: i18n.Lang) -> None:
    for stat in set(rq.STAT_NAMES.values()):
        assert i18n.has(f"c5.mod.{stat}", lang), (lang, stat)


@pytest.mark.parametrize(
    ("lang", "text", "shown"),
    [
        ("it", "/c5 tiro tir=4 forza=6 resistenza=5 dadi=5,3,4", "[5] +4 TIR = 9"),
        ("en", "/c5 shoot aim=4 str=6 res=5 dice=5,3,4", "[5] +4 AIM = 9"),
        ("it", "/c5 mischia att=5 dif=4 forza=7 resistenza=6 dadi=4,5", "[5] +4 DIF = 9"),
        ("en", "/c5 melee att=5 def=4 str=7 res=6 dice=4,5", "[4] +5 ATT = 9"),
        ("it", "/c5 paura cor=4 pau=5 dadi=2", "[2] +4 COR = 6"),
        ("it", "/c5 prova valore=3 caratteristica=cor difficoltà=5 dadi=2", "[2] +3 COR = 5"),
        ("it", "/c5 prova valore=3 difficoltà=5 dadi=2", "[2] +3 valore = 5"),
    ],
)
async def test_the_reply_shows_the_stat_in_the_readers_words(
    app: App, lang: str, text: str, shown: str
) -> None:
    reply = await say(app, text, lang=lang)
    assert reply.ok, reply.error
    assert shown in plain.render(reply)


@pytest.mark.parametrize(
    ("lang", "text", "title"),
    [
        ("it", "/c5 prova valore=3 caratteristica=cor difficoltà=5 dadi=2", "Test: COR 3 contro 5"),
        ("en", "/c5 test value=3 stat=att dice=2", "Test: ATT 3"),
        ("it", "/c5 prova valore=3 difficoltà=5 dadi=2", "Test: valore 3 contro 5"),
    ],
)
async def test_the_title_names_the_stat_too(app: App, lang: str, text: str, title: str) -> None:
    """The title said "Test: value 5 vs 9" above a step that names ATT."""
    reply = await say(app, text, lang=lang)
    assert reply.ok, reply.error
    assert reply.title == title
