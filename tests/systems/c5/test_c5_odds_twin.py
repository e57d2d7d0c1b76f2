"""The odds twins: `/c5 melee|shoot|wound|test ... odds` and `/c5 odds KIND ...` take exactly
the options of the attack (attacker=, target=, parry, every shooting option) and give the same
exact distribution; the old text form `/c5 odds wound str=7 res=6` keeps working."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.commands.c5 import SPECS
from bot.render import plain
from rules_core.systems.c5.attack import MeleeRequest
from rules_core.systems.c5.models import C5Settings, WoundRequest
from rules_core.systems.c5.models import TestRequest as TReq
from rules_core.systems.c5.odds import melee_odds
from tests.helpers import say

CHAT = "console:c5odds"


async def game(app: App) -> None:
    assert (await say(app, "/game new c5 Odds", user="ann", chat=CHAT)).ok
    add = await say(
        app,
        "/unit add Abel att=5 str=7 def=4 res=6 aim=4 wstr=6 size=2 warrior=1",
        user="ann",
        chat=CHAT,
    )
    assert add.ok, add.error
    add = await say(app, "/unit add Orc att=3 str=6 def=3 res=5 size=2", user="ann", chat=CHAT)
    assert add.ok, add.error


def same(a: dict[str, object] | None, b: dict[str, object] | None) -> None:
    assert a is not None and b is not None
    assert a["distribution"] == b["distribution"]
    assert a["p_hit"] == b["p_hit"] and a["p_stunned"] == b["p_stunned"]


async def test_melee_twin_reads_units_and_parry(app: App) -> None:
    await game(app)
    flag = await say(app, "/c5 melee attacker=Abel target=Orc parry odds", chat=CHAT)
    assert flag.ok, flag.error
    twin = await say(app, "/c5 odds melee attacker=Abel target=Orc parry", chat=CHAT)
    assert twin.ok, twin.error
    same(flag.data, twin.data)
    # the same numbers by hand: ATT 5 vs DEF 3, STR 7 vs RES 5
    by_hand = await say(app, "/c5 odds melee att=5 def=3 str=7 res=5", chat=CHAT)
    same(flag.data, by_hand.data)
    expected = melee_odds(
        MeleeRequest(
            attack=TReq(value=5), defence=TReq(value=3), wound=WoundRequest(str_=7, res=5)
        ),
        C5Settings(),
    )
    assert flag.data is not None
    assert abs(flag.data["p_hit"] - float(expected.p_hit)) < 1e-12
    # without parry no defence test is counted: the attack only fails by the natural-1 rule,
    # a 1 ending the chain (1/6 over 5/6: 1/5) and then a reroll of 5 or 6 (1/3): 1 - 1/15
    free = await say(app, "/c5 odds melee attacker=Abel target=Orc", chat=CHAT)
    assert free.data is not None and free.data["p_hit"] == pytest.approx(14 / 15)


async def test_wounded_attacker_lowers_the_odds(app: App) -> None:
    await game(app)
    before = await say(app, "/c5 odds melee attacker=Abel target=Orc parry", chat=CHAT)
    hit = await say(app, "/c5 wound str=9 res=4 target=Abel apply dice=3,4", chat=CHAT, admin=True)
    assert hit.data is not None and hit.data["outcome"]["wounds"] == 2
    after = await say(app, "/c5 odds melee attacker=Abel target=Orc parry", chat=CHAT)
    assert before.data is not None and after.data is not None
    assert after.data["p_hit"] < before.data["p_hit"]  # ATT 5 - 2 (Ferita Grave)
    same(after.data, (await say(app, "/c5 odds melee att=3 def=3 str=5 res=5")).data)


async def test_shoot_twin_takes_every_shooting_option(app: App) -> None:
    await game(app)
    opts = "attacker=Abel target=Orc range=long altitude=1 diff_mod=1 zone reroll=5 one_ok"
    flag = await say(app, f"/c5 shoot {opts} odds", chat=CHAT)
    twin = await say(app, f"/c5 odds shoot {opts}", chat=CHAT)
    assert flag.ok and twin.ok, (flag.error, twin.error)
    same(flag.data, twin.data)
    assert twin.data is not None
    free = await say(app, "/c5 odds shoot aim=4 str=6 res=5 fire=assault_printed")
    assert free.data is not None
    # printed assault fire: difficulty 4, AIM 4: only a natural 1 (1/5 counting chains of 6s)
    # misses, unless its reroll s leaves 4 - s >= 4 (never): every natural 1 misses
    assert free.data["p_hit"] == pytest.approx(float(1 - Fraction(1, 5)))


async def test_wound_and_test_twins(app: App) -> None:
    await game(app)
    old = await say(app, "/c5 odds wound str=7 res=6")  # the text form people use
    new = await say(app, "/c5 wound str=7 res=6 odds")
    same(old.data, new.data)
    unit = await say(app, "/c5 wound attacker=Abel target=Orc scourge odds", chat=CHAT)
    by_hand = await say(app, "/c5 wound str=7 res=5 scourge odds")
    same(unit.data, by_hand.data)
    test = await say(app, "/c5 test target=Abel stat=att diff=9 odds", chat=CHAT)
    twin = await say(app, "/c5 odds test target=Abel stat=att diff=9", chat=CHAT)
    assert test.data is not None and twin.data is not None
    assert test.data["p_success_exact"] == twin.data["p_success_exact"] == "7/15"


async def test_italian_names_and_errors(app: App) -> None:
    it = await say(app, "/c5 prob mischia att=5 dif=4 for=7 res=6", lang="it")
    assert it.ok, it.error
    same(it.data, (await say(app, "/c5 odds melee att=5 def=4 str=7 res=6")).data)
    dice = await say(app, "/c5 melee att=5 str=7 res=6 odds dice=3,4,5")
    assert dice.error is not None and dice.error.code == "c5.odds_no_roll"
    assert "leave out dice=" in plain.render(dice)
    unknown = await say(app, "/c5 odds melee att=5 str=7 res=6 bogus=3")
    assert unknown.error is not None and unknown.error.code == "cmd.unknown_option"
    kind = await say(app, "/c5 odds parry att=5")
    assert kind.error is not None and kind.error.code == "cmd.bad_choice"
    missing = await say(app, "/c5 odds melee att=5")
    assert missing.error is not None and missing.error.code == "c5.missing_stat"


@pytest.mark.parametrize("kind", ["wound", "test", "melee", "shoot"])
async def test_the_twin_accepts_every_option_of_its_attack(app: App, kind: str) -> None:
    spec = next(s for s in SPECS if s.path == ("c5", kind))
    for opt in spec.options:
        if opt.name in ("dice", "apply", "odds"):
            continue
        token = opt.name if opt.type == "flag" else f"{opt.name}={sample(opt)}"
        reply = await say(app, f"/c5 odds {kind} {token}")
        code = reply.error.code if reply.error is not None else ""
        rejected = ("cmd.unexpected", "cmd.unexpected_flag_like", "cmd.unexpected_option_like")
        assert code not in (*rejected, "cmd.unknown_option", "cmd.unknown_option_like"), (
            kind,
            opt.name,
        )


def sample(opt: object) -> str:
    choices = getattr(opt, "choices", ())
    if choices:
        return str(choices[-1])
    if getattr(opt, "type", "") in ("int", "signed"):
        lo = getattr(opt, "min_value", 0) or 0
        return str(max(lo, min(2, getattr(opt, "max_value", 2) or 2)))
    return "Nobody"


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(["wound", "test", "melee", "shoot", "mischia", "x", ""]),
    rest=st.text(alphabet='abcdefgimnoprstuvwz_=0123456789-+, "', max_size=40),
)
async def test_odds_text_gives_a_result_or_a_sentence(app: App, kind: str, rest: str) -> None:
    reply = await say(app, f"/c5 odds {kind} {rest}")
    assert reply.ok or (
        reply.error is not None and reply.error.code.split(".")[0] in ("cmd", "dice", "c5")
    )


async def test_effects_option_in_rolls_and_odds(app: App) -> None:
    hit = await say(app, "/c5 wound str=10 res=5 effects=sacred,spada_ascia dice=4,4")
    assert hit.data is not None and hit.data["outcome"]["wounds"] == 6  # 3 +2 sacred +1
    assert "effects: sacred, spada_ascia" in plain.render(hit)
    it = await say(app, "/c5 ferire for=10 res=5 effetti=arma_sacra dadi=4,4", lang="it")
    assert it.data is not None and it.data["outcome"]["wounds"] == 5
    twin = await say(app, "/c5 odds melee att=5 str=6 res=7 effects=feroce,vulnerabile")
    flag = await say(app, "/c5 melee att=5 str=6 res=7 effects=feroce,vulnerabile odds")
    same(twin.data, flag.data)
    assert twin.data is not None and twin.data["p_stunned"] == 0  # Feroce: no Stordito left
    bad = await say(app, "/c5 wound str=5 res=5 effects=sacred,holy")
    assert bad.error is not None and bad.error.code == "c5.bad_effect"
    assert "'holy' isn't a wound effect" in plain.render(bad)
    shot = await say(app, "/c5 shoot aim=4 str=5 res=5 effects=feroce")
    assert shot.error is not None and shot.error.code == "c5.feroce_melee"


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=30), melee=st.booleans())
def test_effects_parser_gives_a_set_or_a_sentence(text: str, melee: bool) -> None:
    from rules_core.errors import UserError
    from rules_core.systems.c5.requests import parse_effects
    from rules_core.systems.c5.wound import EFFECTS

    try:
        found = parse_effects(text, melee=melee)
    except UserError as err:
        assert err.key in ("c5.bad_effect", "c5.feroce_melee")
    else:
        assert found <= set(EFFECTS)


async def test_opposed_fear_rally_odds(app: App) -> None:
    opposed = await say(app, "/c5 opposed value=4 vs=3 odds")
    assert opposed.data is not None
    total = opposed.data["p_a"] + opposed.data["p_tie"] + opposed.data["p_b"]
    assert abs(total + opposed.data["tail"] - 1) < 1e-12
    assert opposed.data["p_a"] > opposed.data["p_b"]
    fear = await say(app, "/c5 fear courage=5 fear=9 odds")
    assert fear.data is not None and fear.data["p_success_exact"] == "7/15"
    contact = await say(app, "/c5 rally value=9 contact odds")
    assert contact.data is not None and contact.data["p_success"] == 0
    rolled = await say(app, "/c5 opposed value=4 vs=3 odds dice=3,4")
    assert rolled.error is not None and rolled.error.code == "c5.odds_no_roll"


C5_SPECS = [s for s in SPECS if s.path[1] != "settings"]


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    index=st.integers(0, len(C5_SPECS) - 1),
    picks=st.lists(
        st.tuples(
            st.integers(0, 30),
            st.sampled_from(["", "3", "-2", "40", "5,1,2", "x", "long", "sacred", "Abel"]),
        ),
        max_size=6,
    ),
)
async def test_every_c5_command_gives_a_result_or_a_sentence(
    app: App, index: int, picks: list[tuple[int, str]]
) -> None:
    spec = C5_SPECS[index]
    tokens = []
    for which, value in picks:
        opt = spec.options[which % len(spec.options)]
        tokens.append(opt.name if opt.type == "flag" and not value else f"{opt.name}={value}")
    reply = await say(app, f"/{spec.name} " + " ".join(tokens))
    assert reply.ok or (
        reply.error is not None
        and reply.error.code.split(".")[0] in ("cmd", "dice", "c5", "game", "perm")
    ), (spec.name, tokens, reply.error)
