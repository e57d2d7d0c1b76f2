"""Typed options of /wm, /c5 and /wow (#20 item 5): every command declares an Args class, its
handlers read no `ctx.opts`, and a number that becomes a field of a rules model has that
field's bounds, so the option check refuses exactly what the rules model would."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from bot.commands.c5.declarations import SPECS as C5_SPECS
from bot.commands.spec import CommandSpec, stat_bounds
from bot.commands.wm.declarations import SPECS as WM_SPECS
from bot.commands.wow.declarations import SPECS as WOW_SPECS
from rules_core.systems.c5.attack import ShootRequest
from rules_core.systems.c5.models import C5Settings, TestRequest, WoundRequest
from rules_core.systems.wm.models import AttackRequest as WmAttack
from rules_core.systems.wm.power import PowerRequest
from rules_core.systems.wow.attack import AttackRequest as WowAttack
from rules_core.systems.wow.attack import HealRequest
from rules_core.systems.wow.cards import Card

ROOT = Path(__file__).resolve().parents[2]
SPECS = {spec.name: spec for spec in (*WM_SPECS, *C5_SPECS, *WOW_SPECS)}


def test_every_command_declares_its_options_as_a_class() -> None:
    untyped = [s.name for s in SPECS.values() if s.options and s.args is None]
    assert untyped == []


@pytest.mark.parametrize("game", ["wm", "c5", "wow"])
def test_no_handler_reads_the_untyped_options(game: str) -> None:
    found = [
        f"{path.name}:{n}"
        for path in sorted((ROOT / "bot" / "commands" / game).glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bctx\.opts\b", line)
    ]
    assert found == []


# (command, option, rules model, its field): the option becomes that field.
FROM_MODELS: list[tuple[str, str, type[BaseModel], str]] = [
    ("wm attack", "arm", WmAttack, "arm"),
    ("wm odds", "def", WmAttack, "defense"),
    ("wm power", "def", PowerRequest, "defense"),
    ("wm power", "hit_mod", PowerRequest, "hit_mod"),
    ("wm power", "target_str", PowerRequest, "target_str"),
    ("c5 test", "diff", TestRequest, "diff"),
    ("c5 melee", "diff", TestRequest, "diff"),
    ("c5 wound", "str", WoundRequest, "str_"),
    ("c5 wound", "res", WoundRequest, "res"),
    ("c5 melee", "master", WoundRequest, "master"),
    ("c5 wound", "pen", WoundRequest, "penalty"),
    ("c5 shoot", "str", WoundRequest, "str_"),
    ("c5 shoot", "altitude", ShootRequest, "altitude"),
    ("c5 settings", "range_long", C5Settings, "range_long"),
    ("wow attack", "power", WowAttack, "power"),
    ("wow attack", "defense", WowAttack, "defense"),
    ("wow attack", "force_reroll_defense", WowAttack, "force_reroll_defense"),
    ("wow odds", "reroll_attack", WowAttack, "reroll_attack"),
    ("wow heal", "power", HealRequest, "power"),
    ("wow heal", "reroll", HealRequest, "rerolls"),
    ("wow card", "cost", Card, "cost"),
    ("wow card", "power", Card, "power"),
    ("wow card", "range", Card, "range"),
    ("wow act", "cost", Card, "cost"),
]


@pytest.mark.parametrize(("command", "option", "model", "field"), FROM_MODELS)
def test_an_options_bounds_are_its_rules_fields(
    command: str, option: str, model: type[BaseModel], field: str
) -> None:
    spec: CommandSpec = SPECS[command]
    opt = spec.option(option)
    assert opt is not None
    lo, hi = stat_bounds(model, field)
    assert (lo, hi) != (None, None), f"{model.__name__}.{field} declares no bounds"
    assert (opt.min_value, opt.max_value) == (lo, hi)


def test_the_c5_models_refuse_past_the_bounds_the_options_show() -> None:
    """The bounds live on the rules models (rules_core), not only on the bot's options."""
    with pytest.raises(ValidationError):
        WoundRequest(str_=41, res=5)
    with pytest.raises(ValidationError):
        WoundRequest(str_=5, res=-11)
    with pytest.raises(ValidationError):
        WoundRequest(str_=5, res=5, master=11)
    with pytest.raises(ValidationError):
        TestRequest(value=5, diff=41)
    assert WoundRequest(str_=40, res=-10, master=10).master == 10


def test_the_wow_pools_default_to_no_reroll() -> None:
    """A reroll pool left out is 0, as before (the option's default, not None)."""
    spec = SPECS["wow attack"]
    assert {o.name: o.default for o in spec.options if o.name.startswith(("reroll", "force"))} == {
        "reroll_attack": 0,
        "reroll_defense": 0,
        "force_reroll_attack": 0,
        "force_reroll_defense": 0,
    }
