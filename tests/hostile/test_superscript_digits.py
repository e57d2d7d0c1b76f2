"""`'²'.isdigit()` is True but `int('²')` fails: a check with `isdigit()` before `int()` let a
superscript digit through to a ValueError, i.e. "something went wrong" instead of one sentence.
Found by the command fuzzer in the 14th of 20 repeated suite runs (`/wm power … collateral=²`);
every such check now uses `isdecimal()`, the characters `int()` reads."""

from __future__ import annotations

import pytest

from bot.app import App
from rules_core.errors import UserError
from rules_core.systems.c5.requests import weapon_strength
from rules_core.systems.inf.tables import parse_damage
from rules_core.systems.wm.transitions import _number as wm_weapon_number
from tests.helpers import say


@pytest.mark.parametrize(
    "text", ["/wm power slam collateral=²", "/wm power slam collateral=Alpha,³"]
)
async def test_a_superscript_digit_is_one_sentence(app: App, text: str) -> None:
    reply = await say(app, text)
    assert reply.error is not None and reply.error.code != "internal", reply.error


def test_rules_parsers_refuse_a_superscript_digit() -> None:
    with pytest.raises(UserError) as inf:
        parse_damage("²")
    assert inf.value.key == "inf.bad_damage"
    with pytest.raises(UserError) as c5:
        weapon_strength({"str": "²"})
    assert c5.value.key == "c5.bad_weapon_str"
    with pytest.raises(UserError) as wm:
        wm_weapon_number({"pow": "²"}, "pow", "Sword")
    assert wm.value.key == "wm.weapon_value"
    assert parse_damage("١٣") == (13, None)  # decimal digits of any script read as int() does
