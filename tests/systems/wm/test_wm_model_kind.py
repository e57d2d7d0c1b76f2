"""A unit's model type (L393-396: warcaster, warjack, trooper, solo) and the rules that differ by
it: only two or more troopers of one unit combine their attacks (L3269-3271, L3313), focus is
allocated only to warjacks (L1168), and only a warjack pays focus for a power attack
(L2199-2213). The type is read from the card when the card says it (FOCUS, a damage grid,
several models) and set by the player otherwise (`/unit add|set ... kind=solo`,
`tipo_modello=`)."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.errors import UserError
from rules_core.game import roster
from rules_core.game.models import GameState, Unit
from rules_core.systems.wm import transitions as wt
from rules_core.systems.wm.system import model_kind, parse_model_kind
from tests.helpers import say

GRID = "......|..L..M|...MC.|...MC.|..R..M|......"


def unit(name: str = "Eiryss", **kw: object) -> Unit:
    return Unit.model_validate({"name": name, "owner": "ann", "owner_name": "Ann", **kw})


def test_L393_the_model_type_from_the_card_else_the_players_word() -> None:
    assert model_kind(unit(stats={"focus": 6})) == "warcaster"
    assert model_kind(unit(extra={"grid": {"columns": GRID.split("|")}})) == "warjack"
    assert model_kind(unit(models=5)) == "trooper"
    assert model_kind(unit()) is None  # one model, no grid, no FOCUS: a solo or a gridless jack
    # Scrap Thralls: solos bought three at a time (L1277-1285)
    assert model_kind(unit(models=3, extra={"kind": "solo"})) == "solo"
    words = {"solitario": "solo", "Truppa": "trooper", "membro della truppa": "trooper"}
    for word, kind in {**words, "warjack": "warjack", "caster": "warcaster"}.items():
        assert parse_model_kind(word) == kind
    with pytest.raises(UserError) as err:
        parse_model_kind("banana")
    assert err.value.key == "wm.bad_model_kind"


def test_L3269_a_combined_attack_needs_two_troopers_of_one_unit_in_play() -> None:
    """Before: a unit with neither a grid nor FOCUS was taken at the player's word, so a solo,
    or a unit of one model left, made a combined attack."""
    combined = wt.AttackInput(pow=10, combined=2)
    cases = [
        (unit(stats={"mat": 6}), "wm.combined_models"),  # one model: never two troopers
        (unit(models=3, extra={"kind": "solo"}), "wm.combined_troopers_only"),
        (unit("Grunts", models=5, damage=4), "wm.combined_models"),  # one model left in play
    ]
    for attacker, key in cases:
        with pytest.raises(UserError) as err:
            wt.with_attacker(combined, attacker, None)
        assert err.value.key == key, attacker
    grunts = unit("Grunts", models=5, damage=2)  # three left
    assert wt.with_attacker(wt.AttackInput(pow=10, combined=3), grunts, None).combined == 3
    with pytest.raises(UserError) as err:
        wt.with_attacker(wt.AttackInput(pow=10, combined=4), grunts, None)
    assert err.value.key == "wm.combined_models" and err.value.params["want"] == 4


def test_the_roster_keeps_the_model_type() -> None:
    parsed = roster.parse_text("3x «Scrap Thralls» tipo=solitario mat=6 def=11 arm=12", "wm")
    assert parsed.units[0].options == {"kind": "solo"}  # stored as its code, shown in words
    state = GameState(system="wm", name="g", organiser="ann")
    kept = roster.from_unit(unit("Scrap Thralls", models=3, extra={"kind": "solo"}), state)
    assert kept.options == {"kind": "solo"} and "kind=solo" in roster.to_text(kept)
    boxes = roster.from_unit(unit("Eiryss", stats={"boxes": 5}, extra={"kind": "solo"}), state)
    assert boxes.stats.get("boxes") == 5  # a kind is no grid: the boxes stay


async def game(app: App, chat: str) -> None:
    for text, user in (("/game new wm", "ann"), ("/game join", "bob")):
        assert (await say(app, text, user=user, chat=chat)).ok
    for text, user in (
        ("/unita aggiungi Eiryss mat=6 rat=8 def=15 arm=12 tipo_modello=solitario", "ann"),
        ("/unit add Thralls mat=6 def=11 arm=12 models=3", "ann"),
        ("/unit add Grunts mat=6 def=13 arm=13 models=5", "ann"),
        ("/unit add Stryker mat=6 def=16 arm=15 focus=7", "ann"),
        (f"/unit add Juggernaut mat=7 str=12 def=12 arm=20 base=50 grid={GRID}", "bob"),
    ):
        assert (await say(app, text, user=user, chat=chat)).ok, text


async def test_L3269_a_solo_is_refused_a_combined_attack_in_its_readers_words(app: App) -> None:
    chat = "console:wm-kind-combined"
    await game(app, chat)
    solo = await say(
        app,
        "/wm attacco attaccante=Eiryss pot=10 bersaglio=Juggernaut combinato=2",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert solo.error is not None and solo.error.code == "wm.combined_troopers_only", solo
    assert "Eiryss è un solitario" in plain.render(solo)
    thralls = "/wm attack attacker=Thralls pow=10 target=Juggernaut combined=2 dice=4,4,1,1"
    assert (await say(app, thralls, user="ann", chat=chat)).ok  # three models: troopers
    assert (await say(app, "/unit set Thralls kind=solo", user="ann", chat=chat)).ok
    refused = await say(app, thralls, user="ann", chat=chat)
    assert refused.error is not None and "Thralls is a solo" in plain.render(refused)
    bad = await say(
        app, "/unita imposta Thralls tipo_modello=banana", user="ann", chat=chat, lang="it"
    )
    assert bad.error is not None and bad.error.code == "wm.bad_model_kind"
    assert "solitario, truppa" in plain.render(bad)
    grid = await say(app, f"/unit set Thralls grid={GRID}", user="ann", chat=chat)
    assert grid.error is not None  # a grid comes with the unit, on /unit add
    other = await say(app, "/unit set Eiryss kind=trooper", user="bob", chat=chat)
    assert other.error is not None  # ann's unit: not bob's to change


async def test_L1168_focus_is_allocated_only_to_warjacks(app: App) -> None:
    chat = "console:wm-kind-allocate"
    await game(app, chat)
    assert (await say(app, "/phase next", user="ann", chat=chat)).ok  # ann's Control Phase
    for name, words in (("Grunts", "Grunts is a unit of troopers"), ("Eiryss", "Eiryss is a solo")):
        reply = await say(app, f"/wm allocate {name} 1 caster=Stryker", user="ann", chat=chat)
        assert reply.error is not None and reply.error.code == "wm.allocate_warjacks_only"
        assert words in plain.render(reply)
    italian = await say(app, "/wm alloca Grunts 1 caster=Stryker", user="ann", chat=chat, lang="it")
    assert italian.error is not None and "Grunts è un'unità di truppa" in plain.render(italian)


async def test_L2199_a_power_attack_by_a_model_known_to_be_no_warjack_pays_no_focus(
    app: App,
) -> None:
    chat = "console:wm-kind-power"
    await game(app, chat)
    butt = await say(
        app,
        "/wm power headbutt attacker=Thralls str=6 target=Grunts apply dice=6,6,1,1",
        user="ann",
        chat=chat,
    )
    assert butt.ok and butt.data is not None, plain.render(butt)
    assert butt.data["applied"]["unit"] == "Grunts"


def test_L926_only_a_warcaster_has_a_feat() -> None:
    """A solo with FOCUS (a journeyman) allocates focus but has no feat; before, any model with
    FOCUS could use one, and a model without was told it had 'no focus to allocate'."""
    journeyman = unit("Journeyman", stats={"focus": 3}, extra={"kind": "solo"})
    casters = [journeyman, unit("Stryker", stats={"focus": 6})]
    state = GameState(system="wm", name="g", organiser="ann", units=casters)
    with pytest.raises(UserError) as err:
        wt.use_feat(state, "Journeyman")
    assert err.value.key == "wm.feat_casters_only"
    assert wt.use_feat(state, "Stryker").state.units[1].extra["feat_used"] is True


async def test_L680_a_warjack_passes_command_checks_without_a_roll(app: App) -> None:
    chat = "console:wm-kind-check"
    await game(app, chat)
    for lang, words in (("en", "Juggernaut is a warjack (Construct)"), ("it", "(Costrutto)")):
        said = await say(app, "/wm check target=Juggernaut", chat=chat, lang=lang)
        assert said.ok and said.data is not None, plain.render(said)
        assert said.data["outcome"]["pass"] is True and said.data["steps"] == []
        assert words in plain.render(said)
    rolled = await say(app, "/wm check value=9 target=Juggernaut dice=6,6", chat=chat)
    assert rolled.data is not None and rolled.data["outcome"]["pass"] is False  # a typed value
    grunts = await say(app, "/wm check target=Grunts dice=6,6", chat=chat)  # no CMD: asked
    assert grunts.error is not None and grunts.error.code == "wm.missing_stat"


async def test_L2221_a_headlock_grabs_only_a_warjack(app: App) -> None:
    """A headlock or weapon lock grabs a warjack's (or warbeast's) head or weapon (L2221-2223);
    before, any unit could be locked."""
    chat = "console:wm-kind-headlock"
    await game(app, chat)
    lock = "/wm power headlock mat=7 str=12 target={} dice=6,6"
    for name, words in (
        ("Grunts", "Grunts is a unit of troopers"),
        ("Eiryss", "Eiryss is a solo"),
        ("Stryker", "Stryker is a warcaster"),
    ):
        reply = await say(app, lock.format(name), user="bob", chat=chat)
        assert reply.error is not None and reply.error.code == "wm.headlock_warjacks_only", name
        assert words in plain.render(reply)
    italian = await say(
        app, "/wm forza presa forza=12 bersaglio=Eiryss", user="bob", chat=chat, lang="it"
    )
    assert italian.error is not None and "Eiryss è un solitario" in plain.render(italian)
    butt = await say(app, "/wm power headbutt mat=7 str=12 target=Eiryss", user="bob", chat=chat)
    assert butt.ok, plain.render(butt)  # only a lock needs a warjack
