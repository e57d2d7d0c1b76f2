"""/<game> compare and /compare: exact expected values from the games' own odds (checked
against the odds commands and against hand-computed fractions), stored units' weapons and
points, both languages, bad input as one sentence."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.app import App
from bot.render.plain import render
from rules_core import compare as cmp
from rules_core.dice.distribution import Distribution
from rules_core.systems.aos.models import AttackRequest as AosRequest
from rules_core.systems.aos.models import Settings as AosSettings
from rules_core.systems.aos.values import DiceValue
from tests.helpers import say
from tests.i18n_check import foreign_words

AOS_A = "attacks=2 hit=3+ wound=3+ rend=1 damage=1 points=110"
AOS_B = "attacks=3 hit=4+ wound=3+ damage=2 points=140"
AOS_VS = "save=4+ wounds=1 models=10"


def test_expected_values_are_exact() -> None:
    # One attack, 4+ to hit, 4+ to wound, damage 2, no save: E = 2 * 1/2 * 1/2 = 1/2.
    req = AosRequest(attacks=DiceValue(plus=1), hit=4, wound=4, damage=DiceValue(plus=2), save=7)
    (odds,) = cmp.compute([cmp.AosJob(req, AosSettings())])
    row = cmp.row(odds, 80)
    assert row.damage == Fraction(1, 2) and row.per_100 == Fraction(5, 8)
    assert row.removed is None  # no wounds per model given


def test_warmachine_removes_a_model_when_damage_reaches_its_boxes() -> None:
    damage = Distribution.uniform([0, 1, 2, 3])
    assert cmp.removed_by_one_attack(damage, 1).probability(1) == Fraction(3, 4)
    assert cmp.removed_by_one_attack(damage, 3).probability(1) == Fraction(1, 4)
    assert cmp.removed_by_one_attack(damage, 0).probability(1) == Fraction(3, 4)  # no boxes: 1


def test_best_is_per_100_points_when_all_have_points_else_damage() -> None:
    rows = [
        cmp.Row(Fraction(3), None, 100, Fraction(3)),
        cmp.Row(Fraction(4), None, 200, Fraction(2)),
    ]
    assert cmp.best(rows) == 0
    rows[1] = cmp.Row(Fraction(4), None, None, None)
    assert cmp.best(rows) == 1


async def test_aos_compare_agrees_with_aos_odds(app: App) -> None:
    reply = await say(app, f'/aos compare "{AOS_A}" "{AOS_B}" vs="{AOS_VS}"')
    assert reply.ok, render(reply)
    profiles = reply.data["profiles"]  # type: ignore[index]
    for profile, text in zip(profiles, (AOS_A, AOS_B), strict=True):
        odds_text = text.rsplit(" points=", 1)[0]
        odds = await say(app, f"/aos odds {odds_text} {AOS_VS}")
        assert profile["damage_mean"] == pytest.approx(odds.data["mean"], abs=1e-12)  # type: ignore[index]
        assert profile["models_removed_mean"] == pytest.approx(
            odds.data["models_slain_mean"],
            abs=1e-12,  # type: ignore[index]
        )
        assert profile["damage_distribution"] == odds.data["distribution"]  # type: ignore[index]
    assert profiles[0]["points"] == 110
    assert profiles[0]["damage_per_100"] == pytest.approx(profiles[0]["damage_mean"] / 1.1)
    text = render(reply)
    assert "Most damage per 100 points: B" in text and "110 points" in text


async def test_best_says_per_100_points_only_when_it_ranked_by_them(app: App) -> None:
    # A has points, B none: the ranking is by damage and the sentence must say so
    reply = await say(app, f'/aos compare "{AOS_B}" "attacks=1 hit=4+ wound=4+" vs="{AOS_VS}"')
    assert reply.ok and reply.data is not None, render(reply)
    assert reply.data["best"] == "A"
    text = render(reply)
    assert "Most damage: A." in text and "per 100 points: A" not in text


async def test_wm_compare_agrees_with_wm_odds(app: App) -> None:
    a, b, vs = "mat=7 pow=12 str=10", "mat=6 pow=14 str=10", "def=13 arm=17"
    reply = await say(app, f'/wm compare "{a}" "{b}" vs="{vs}"')
    assert reply.ok, render(reply)
    for profile, text in zip(reply.data["profiles"], (a, b), strict=True):  # type: ignore[index]
        odds = await say(app, f"/wm odds {text} {vs}")
        assert profile["damage_mean"] == pytest.approx(odds.data["mean"], abs=1e-12)  # type: ignore[index]
        # a trooper without damage boxes: removed whenever the attack deals damage
        assert profile["models_removed_mean"] == pytest.approx(odds.data["p_damage"], abs=1e-12)  # type: ignore[index]
        assert profile["points"] is None and profile["damage_per_100"] is None


async def test_stored_units_weapons_against_a_stored_target(app: App) -> None:
    await say(app, "/game new aos")
    army = (
        "/army add\n"
        "5x Liberators save=4 wounds=2 | Warhammer: attacks=2 hit=3+ wound=3+ damage=1\n"
        "3x Judicators save=4 wounds=2 | Bow: attacks=2 hit=3+ wound=3+ rend=1 damage=1\n"
        "10x Orcs save=5 wounds=1"
    )
    assert (await say(app, army)).ok
    reply = await say(app, "/aos compare Liberators/Warhammer Judicators/Bow vs=Orcs")
    assert reply.ok, render(reply)
    names = [p["name"] for p in reply.data["profiles"]]  # type: ignore[index]
    assert names == ["Liberators · Warhammer", "Judicators · Bow"]
    odds = await say(app, "/aos odds attacker=Judicators weapon=Bow target=Orcs")
    second = reply.data["profiles"][1]  # type: ignore[index]
    assert second["damage_mean"] == pytest.approx(odds.data["mean"], abs=1e-12)  # type: ignore[index]
    assert second["models_removed_mean"] is not None
    here = await say(app, "/compare Liberators/Warhammer Judicators/Bow vs=Orcs")
    assert here.data == reply.data  # the chat's game


async def test_italian_screen_has_no_english_word(app: App) -> None:
    reply = await say(
        app,
        '/aos confronta "attacchi=2 colpire=3+ ferire=3+ impatto=1 danni=1 punti=100" '
        '"attacchi=3 colpire=4+ ferire=3+ danni=2 punti=140" contro="salvezza=4+"',
        lang="it",
    )
    assert reply.ok, render(reply)
    text = render(reply.model_copy(update={"attachments": []}))  # the console names files
    assert "Profili a confronto" in text and "100 punti" in text and "0,59" in text
    assert not foreign_words("it", text)


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_bad_input_is_one_sentence_with_the_syntax(app: App, lang: str) -> None:
    one = await say(app, '/aos compare "attacks=2"', lang=lang)
    bad = await say(app, '/aos compare "attacks=2 hit=9" "attacks=3"', lang=lang)
    nowhere = await say(app, '/compare "a=1" "b=2"', lang=lang)
    for reply in (one, bad, nowhere):
        assert not reply.ok and reply.error is not None
        assert "Traceback" not in render(reply)
    assert bad.error is not None and bad.error.code == "compare.bad_profile"
    assert ("Profile A" if lang == "en" else "Profilo A") in bad.error.message
    named = "/aos compare" if lang == "en" else "/aos confronta"  # the reader's command
    assert nowhere.error is not None and named in nowhere.error.message


async def test_the_chart_shows_the_tables_numbers(app: App) -> None:
    from bot.images import compare_chart as cc

    reply = await say(app, f'/aos compare "{AOS_A}" "{AOS_B}" vs="{AOS_VS}"', lang="it")
    assert reply.ok and reply.data is not None
    for attachment in reply.attachments:  # drawn unless the worker pool was too slow
        assert attachment.mime == "image/png" and attachment.content.startswith(b"\x89PNG")
    profiles = reply.data["profiles"]
    facts = cc.compare_facts(
        "it",
        [p["label"] for p in profiles],
        [
            ("compare.chart.damage", [p["damage_mean"] for p in profiles]),
            ("compare.chart.removed", [p["models_removed_mean"] for p in profiles]),
            ("compare.chart.damage_per_100", [p["damage_per_100"] for p in profiles]),
        ],
    )
    assert [s.label for s in facts.series] == [
        "danni attesi",
        "modelli rimossi",
        "danni per 100 punti",
    ]
    fig = cc.figure(facts, "it")
    (ax,) = fig.axes
    heights = [round(bar.get_height(), 12) for bar in ax.patches]
    want = [round(v, 12) for s in facts.series for v in s.values]  # type: ignore[arg-type]
    assert heights == want
    assert ax.get_legend() is not None
    png = cc.render_compare_chart(facts, "it")
    import io

    from PIL import Image

    assert Image.open(io.BytesIO(png)).size == cc.size()


def test_a_series_without_values_is_left_out() -> None:
    from bot.images import compare_chart as cc

    facts = cc.compare_facts(
        "en",
        ["A", "B"],
        [("compare.chart.damage", [1.0, 2.0]), ("compare.chart.damage_per_100", [None, None])],
    )
    assert [s.label for s in facts.series] == ["expected damage"]


async def test_infinity_uses_the_stored_points_and_agrees_with_inf_odds(app: App) -> None:
    await say(app, "/game new inf")
    army = (
        "/army add\n"
        "Fusilier cd=12 arm=1 w=1 pts=10\n"
        "Sniper cd=13 arm=1 w=1 pts=28\n"
        "Zhanshi cd=11 arm=1 w=1 pts=9"
    )
    assert (await say(app, army)).ok
    a, b = "attacker=Fusilier dam=13 burst=3 ammo=N", "attacker=Sniper dam=15 burst=2 ammo=DA"
    reply = await say(app, f'/inf compare "{a}" "{b}" vs=Zhanshi')
    assert reply.ok, render(reply)
    profiles = reply.data["profiles"]  # type: ignore[index]
    assert [p["points"] for p in profiles] == [10, 28]
    for profile, text in zip(profiles, (a, b), strict=True):
        odds = await say(app, f"/inf odds {text} target=Zhanshi")
        assert profile["damage_mean"] == pytest.approx(odds.data["mean"], abs=1e-12)  # type: ignore[index]
        assert profile["models_removed_mean"] == pytest.approx(
            odds.data["p_target_dead"], abs=1e-12
        )  # type: ignore[index]
        assert profile["damage_per_100"] == pytest.approx(
            profile["damage_mean"] * 100 / profile["points"]
        )
    no_damage = await say(app, '/inf compare "attr=12 burst=3" "attr=11 burst=2"')
    assert no_damage.error is not None and no_damage.error.code == "compare.bad_profile"


@pytest.mark.parametrize(
    ("lang", "command", "named"),
    [("it", "/confronta", "/aos confronta"), ("en", "/compare", "/aos compare")],
)
async def test_compare_outside_a_game_names_the_games_commands_in_the_readers_words(
    app: App, lang: str, command: str, named: str
) -> None:
    text = render(await say(app, f'{command} "attacks=2 hit=3+" "attacks=3 hit=4+"', lang=lang))
    first = text.splitlines()[0]
    assert named in first, first
    assert foreign_words(lang, first) == [], first
