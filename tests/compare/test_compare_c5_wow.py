"""/c5 compare and /wow compare: Confrontation's wounds per blow or shot and WoW's damage,
checked against independent enumerations written in the tests (every face by itertools, the
rules spelled out: never the odds code under test), fighters and characters removed, points
(WoW's Honor), both languages, the chart's numbers, and the wording of the best profile."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from types import SimpleNamespace

import pytest

from bot.app import App
from bot.render.plain import render
from rules_core import compare as cmp
from rules_core.systems.c5.models import C5Settings
from tests.helpers import say
from tests.i18n_check import foreign_words
from tests.systems.c5.test_c5_odds_oracle import oracle_melee, oracle_shot

CLOSED = C5Settings(open_ended="no")  # finite chains: the oracle is exact


def c5_expected(
    p_hit: Fraction, dist: dict[tuple[int, bool, bool, bool], Fraction], left: int
) -> tuple[Fraction, Fraction]:
    """Expected wounds and the chance they reach `left` (the fighter dies, @5779)."""
    wounds = {0: 1 - p_hit}
    for (w, _, _, _), p in dist.items():
        wounds[w] = wounds.get(w, Fraction(0)) + p
    mean = sum((w * p for w, p in wounds.items()), Fraction(0))
    removed = sum((p for w, p in wounds.items() if w >= left), Fraction(0))
    return mean, removed


def wow_pool(size: int, rerolls: int) -> dict[tuple[int, bool], Fraction]:
    """(successes, a crit shows) of `size` d10 (4+ succeeds, 10 is also a crit, 105.1), the
    roller rerolling up to `rerolls` failed dice once each (105.3), every face enumerated."""
    out: dict[tuple[int, bool], Fraction] = {}
    for first in product(range(1, 11), repeat=size):
        failed = [i for i, f in enumerate(first) if f < 4][:rerolls]
        for again in product(range(1, 11), repeat=len(failed)):
            final = list(first)
            for i, f in zip(failed, again, strict=True):
                final[i] = f
            key = (sum(f >= 4 for f in final), 10 in final)
            p = Fraction(1, 10 ** (size + len(failed)))
            out[key] = out.get(key, Fraction(0)) + p
    return out


def wow_damage(
    power: int, defense: int, crit_damage: int = 0, rerolls: int = 0
) -> dict[int, Fraction]:
    """Damage = hits (+N on a crit, before the defence) - blocks, never below 0 (601-602)."""
    damage: dict[int, Fraction] = {}
    for (hits, crit), p in wow_pool(power, rerolls).items():
        for (blocks, _), q in wow_pool(defense, 0).items():
            d = max(0, hits + (crit_damage if crit else 0) - blocks)
            damage[d] = damage.get(d, Fraction(0)) + p * q
    return damage


def mean_and_reach(damage: dict[int, Fraction], left: int) -> tuple[Fraction, Fraction]:
    mean = sum((d * p for d, p in damage.items()), Fraction(0))
    return mean, sum((p for d, p in damage.items() if d >= left), Fraction(0))


async def closed_chat(app: App, chat: str) -> None:
    ok = await say(app, "/c5 settings open_ended=no", chat=chat, admin=True)
    assert ok.ok, render(ok)


async def test_c5_blow_and_shot_agree_with_the_oracle(app: App) -> None:
    chat = "console:c5cmp"
    await closed_chat(app, chat)
    reply = await say(
        app,
        '/c5 compare "att=4 def=3 str=6 points=30" "shoot aim=4 range=medium str=8 points=40" '
        'vs="res=5 wounds=2"',
        chat=chat,
    )
    assert reply.ok, render(reply)
    blow = c5_expected(*oracle_melee(4, 3, 6, 5, CLOSED), left=2)
    shot = c5_expected(*oracle_shot(4, 0, 8, 5, CLOSED, band="medium"), left=2)
    profiles = reply.data["profiles"]  # type: ignore[index]
    for profile, (mean, removed), points in zip(profiles, (blow, shot), (30, 40), strict=True):
        assert profile["damage_mean"] == pytest.approx(float(mean), abs=1e-12)
        assert profile["models_removed_mean"] == pytest.approx(float(removed), abs=1e-12)
        assert profile["points"] == points
        assert profile["damage_per_100"] == pytest.approx(float(mean) * 100 / points, abs=1e-12)
        dist = dict(profile["damage_distribution"])
        assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
    text = render(reply)
    assert "wounds" in text and "Most wounds per 100 points" in text


async def test_c5_a_profile_with_aim_is_a_shot_and_a_first_word_names_the_kind(app: App) -> None:
    chat = "console:c5kind"
    await closed_chat(app, chat)
    inferred = await say(app, '/c5 compare "aim=4 str=8" "att=4 str=8" vs="res=5"', chat=chat)
    named = await say(
        app,
        '/c5 confronta "tiro tir=4 for=8" "mischia att=4 for=8" contro="res=5"',
        chat=chat,
        lang="it",
    )
    assert inferred.ok and named.ok, (render(inferred), render(named))
    shot = c5_expected(*oracle_shot(4, 0, 8, 5, CLOSED), left=1)
    blow = c5_expected(*oracle_melee(4, None, 8, 5, CLOSED), left=1)
    for reply in (inferred, named):
        a, b = reply.data["profiles"]  # type: ignore[index]
        assert a["damage_mean"] == pytest.approx(float(shot[0]), abs=1e-12)
        assert b["damage_mean"] == pytest.approx(float(blow[0]), abs=1e-12)
        assert a["models_removed_mean"] is None  # no wounds left given, no target unit


async def test_c5_stored_fighters_and_a_hurt_target(app: App) -> None:
    chat = "console:c5units"
    await closed_chat(app, chat)
    assert (await say(app, "/game new c5", chat=chat)).ok
    for line in (
        "/unit add Abel att=5 str=7 def=4 res=6 aim=4 wstr=6 size=2 warrior=1",
        "/unit add Wolfen att=6 str=9 def=3 res=7 size=3",
        "/unit add Orc att=3 str=6 def=3 res=5 size=2",
        "/unit damage Orc 1",
    ):
        assert (await say(app, line, chat=chat)).ok, line
    reply = await say(app, "/c5 compare attacker=Abel attacker=Wolfen vs=Orc", chat=chat)
    assert reply.ok, render(reply)
    # Orc: size 2 has 4 wounds (@1361), one taken: the blow must deal 3 to kill it
    for profile, (att, strength) in zip(reply.data["profiles"], ((5, 7), (6, 9)), strict=True):  # type: ignore[index]
        mean, removed = c5_expected(*oracle_melee(att, None, strength, 5, CLOSED), left=3)
        assert profile["damage_mean"] == pytest.approx(float(mean), abs=1e-12)
        assert profile["models_removed_mean"] == pytest.approx(float(removed), abs=1e-12)
    here = await say(app, "/compare attacker=Abel attacker=Wolfen vs=Orc", chat=chat)
    assert here.data == reply.data  # the chat's game


async def test_wow_agrees_with_the_enumeration(app: App) -> None:
    reply = await say(
        app,
        '/wow compare "power=3 crit=damage:1 points=20" "power=2 elevation points=12" '
        '"power=3 type=magical" vs="defense=2 health=2"',
    )
    assert reply.ok, render(reply)
    cases = (wow_damage(3, 2, crit_damage=1), wow_damage(2, 2, rerolls=1), wow_damage(3, 2))
    for profile, damage, points in zip(reply.data["profiles"], cases, (20, 12, None), strict=True):  # type: ignore[index]
        mean, removed = mean_and_reach(damage, 2)
        assert profile["damage_mean"] == pytest.approx(float(mean), abs=1e-12)
        assert profile["models_removed_mean"] == pytest.approx(float(removed), abs=1e-12)
        assert dict(profile["damage_distribution"]) == pytest.approx(
            {d: float(p) for d, p in damage.items() if p}, abs=1e-12
        )
        assert profile["points"] == points
    text = render(reply)
    assert "Most damage: A." in text or "Most damage: B." in text or "Most damage: C." in text


async def test_wow_stored_characters_honor_is_their_points(app: App) -> None:
    chat = "console:wowcmp"
    assert (await say(app, "/game new wow", chat=chat)).ok
    for line in (
        "/unit add Jaina health=8 resist=1 armor=1 attack=4 magical=1 honor=25",
        "/unit add Thrall health=10 armor=2 resist=1 attack=5 honor=30",
        "/unit add Gnoll health=4 armor=2 resist=0 honor=10",
        "/unit damage Gnoll 1",
    ):
        assert (await say(app, line, chat=chat)).ok, line
    reply = await say(app, "/wow compare attacker=Jaina attacker=Thrall vs=Gnoll", chat=chat)
    assert reply.ok, render(reply)
    jaina, thrall = reply.data["profiles"]  # type: ignore[index]
    # magical against Resist 0, physical against Armor 2; Health 4, one taken: 3 to destroy it
    for profile, damage, points in (
        (jaina, wow_damage(4, 0), 25),
        (thrall, wow_damage(5, 2), 30),
    ):
        mean, removed = mean_and_reach(damage, 3)
        assert profile["damage_mean"] == pytest.approx(float(mean), abs=1e-12)
        assert profile["models_removed_mean"] == pytest.approx(float(removed), abs=1e-12)
        assert profile["points"] == points
        assert profile["damage_per_100"] == pytest.approx(float(mean) * 100 / points)


@pytest.mark.parametrize(
    "text",
    [
        '/c5 confronta "att=5 for=7 punti=30" "tiro tir=4 gittata=media for=8 punti=35" '
        'contro="res=6 ferite=3"',
        '/wow confronta "potere=4 punti=20" "potere=3 critico=danno:2 punti=15" '
        'contro="difesa=2 salute=5"',
    ],
)
async def test_italian_screens_have_no_english_word(app: App, text: str) -> None:
    reply = await say(app, text, lang="it")
    assert reply.ok, render(reply)
    shown = render(reply.model_copy(update={"attachments": []}))  # the console names files
    assert "Profili a confronto" in shown and "punti" in shown
    # FOR (Forza) is the book's characteristic code, on both languages' screens
    assert not foreign_words("it", shown, allow=["FOR"]), foreign_words("it", shown)


async def test_c5_chart_names_wounds_and_shows_the_tables_numbers(app: App) -> None:
    reply = await say(
        app, '/c5 confronta "att=5 for=7" "att=4 for=9" contro="res=6 ferite=2"', lang="it"
    )
    assert reply.ok and reply.data is not None
    assert "ferite" in render(reply.model_copy(update={"attachments": []}))
    for attachment in reply.attachments:  # drawn unless the worker pool was too slow
        assert attachment.mime == "image/png" and attachment.content.startswith(b"\x89PNG")
    from bot.commands import compare

    profiles = reply.data["profiles"]
    built = [compare.Built(None, "", None, None) for _ in profiles]  # type: ignore[arg-type]
    rows = [
        cmp.Row(p["damage_mean"], p["models_removed_mean"], p["points"], p["damage_per_100"])
        for p in profiles
    ]

    ctx = SimpleNamespace(lang="it")  # the chart's facts read only the language
    facts = compare.chart(ctx, "c5", [("A", ""), ("B", "")], built, rows)  # type: ignore[arg-type]
    assert [s.label for s in facts.series] == ["ferite attese", "modelli rimossi"]
    assert facts.series[0].values == [p["damage_mean"] for p in profiles]


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_bad_c5_and_wow_profiles_are_one_sentence(app: App, lang: str) -> None:
    bad = await say(app, '/c5 compare "att=5 str=7" "aim=4 str=6" vs="def=4 res=5"', lang=lang)
    no_power = await say(app, '/wow compare "power=3" "defense=2"', lang=lang)
    for reply in (bad, no_power):
        assert reply.error is not None and reply.error.code == "compare.bad_profile"
        assert ("Profile B" if lang == "en" else "Profilo B") in reply.error.message
        assert "Traceback" not in render(reply)
