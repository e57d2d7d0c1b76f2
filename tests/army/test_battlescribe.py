"""BattleScribe rosters: read (bot.roster_import, defusedxml and zip limits) and mapped onto
each game's units (rules_core.game.battlescribe), on roster files written for these tests."""

from __future__ import annotations

import time

import pytest

from bot.roster_import import read_roster
from rules_core.errors import UserError
from rules_core.game import roster as rs
from rules_core.game.battlescribe import (
    BsCategory,
    BsProfile,
    BsSelection,
    Imported,
    detect_system,
    to_roster,
    unit_kind,
)
from rules_core.game.models import GameState, Player
from rules_core.systems.aos import battlefield
from rules_core.systems.wm import transitions as wt
from rules_core.systems.wm.system import model_kind
from tests.army.battlescribe_files import GAMES, malformed, ros, rosz


def imported(game: str) -> Imported:
    return to_roster(read_roster(ros(game), f"{game}.ros"), game)


def by_name(result: Imported) -> dict[str, object]:
    return {u.name: u for u in result.roster.units}


def test_warmachine_stats_models_weapons_and_kept_fields() -> None:
    result = imported("wm")
    units = by_name(result)
    assert list(units) == ["Commander Coleman Stryker", "Ironclad", "Stormblade Infantry"]
    stryker = result.roster.units[0]
    assert stryker.stats == {
        "spd": 6,
        "str": 6,
        "mat": 7,
        "rat": 6,
        "def": 16,
        "arm": 15,
        "cmd": 9,
        "focus": 6,
        "boxes": 17,
        "base": 30,  # BattleScribe's "Base: Small" (L1017-1020)
    }
    assert [w.name for w in stryker.weapons] == ["Quicksilver", "Disruptor Pistol"]  # no spell
    assert stryker.weapons[0].values == {"rng": "1", "pow": "7", "p+s": "13"}
    assert stryker.kept == {"FA": "C"}
    blades = result.roster.units[2]
    assert blades.models == 6 and blades.stats["mat"] == 6  # the profile named like the unit
    jack = result.reports[1]
    assert jack.unit == "Ironclad" and jack.missing == ["cmd"]
    assert result.roster.units[1].weapons[0].values["loc"] == "R"  # read by locks (#22)


def in_a_game(result: Imported, system: str) -> GameState:
    ann = Player(user_id="1", name="Ann")
    game = GameState(system=system, name="t", organiser="1", players=[ann], order=["1"])
    return rs.add_roster(game, result.roster, ann)[0]


def test_warmachine_model_types_come_from_the_rosters_categories() -> None:
    """A WARMACHINE Mk II roster as BattleScribe exports it from the BSData warmahordes data:
    each model in one of the categories Warcaster, Warjack, Solo, Unit (p. 31, L393-396), the
    stat profile typed Warcaster, Warjack or Trooper. The category is the model type, the
    profile's type when there is none (the Stormwall); a Journeyman Warcaster is a solo with
    FOCUS, so its FOCUS does not make it a warcaster."""
    result = to_roster(read_roster(ros("wm_mk2"), "wm_mk2.ros"), "wm")
    kinds = {u.name: u.options.get("kind") for u in result.roster.units}
    assert kinds == {
        "Captain Victoria Haley": "warcaster",
        "Lancer": "warjack",
        "Trencher Infantry": "trooper",
        "Journeyman Warcaster": "solo",
        "Stormwall": "warjack",
    }
    lancer = result.roster.units[1]
    assert lancer.weapons[0].values["loc"] == "L"  # the data's `L/R/H` column
    # In a game the rules read them: a warjack passes command checks by itself (L680-681),
    # a solo has no feat (L926-927), though it has FOCUS (before: a warcaster, with a feat).
    state = in_a_game(result, "wm")
    units = {u.name: u for u in state.units}
    assert [model_kind(u) for u in state.units] == list(kinds.values())
    assert wt.passes_command_checks(units["Lancer"]) and wt.passes_command_checks(
        units["Stormwall"]
    )
    with pytest.raises(UserError) as err:
        wt.use_feat(state, "Journeyman Warcaster")
    assert err.value.key == "wm.feat_casters_only"
    assert wt.use_feat(state, "Captain Victoria Haley").notes


@pytest.mark.parametrize(
    ("categories", "kind"),
    [
        ([("Warjack", True)], "warjack"),
        ([("Unit", True)], "trooper"),
        ([("Solo", True)], "solo"),
        ([("Warjack/Warbeast", True)], "warjack"),  # the Mk III data's shared categories
        ([("Warlock/Warcaster", True)], "warcaster"),
        ([("Character", False), ("Solo", True), ("Warcaster", False)], "solo"),  # primary first
        ([("Battle Engine", True)], None),
        ([("Warbeast", True)], None),  # HORDES: no model type of this game
        ([], None),
    ],
)
def test_which_category_is_the_warmachine_model_type(
    categories: list[tuple[str, bool]], kind: str | None
) -> None:
    unit = BsSelection(
        name="X", type="model", categories=[BsCategory(name=n, primary=p) for n, p in categories]
    )
    assert unit_kind(unit, BsProfile(name="X", type_name="Trooper")) == kind


def test_age_of_sigmar_monster_keyword_comes_from_the_rosters_categories() -> None:
    """BattleScribe files Age of Sigmar's keywords as categories (HERO, MONSTER, ORDER...):
    the MONSTER category makes the unit a MONSTER (21.0), which counts as 5 models contesting
    an objective (18.1.2, L745); a unit without it stays a unit."""
    result = to_roster(read_roster(ros("aos_monster"), "aos_monster.ros"), "aos")
    drake, liberators = result.roster.units
    assert drake.stats.get("monster") == 1 and "monster" not in liberators.stats
    state = in_a_game(result, "aos")
    contenders = [battlefield.contender(u, None) for u in state.units]
    assert [c.counted for c in contenders] == [5, 5]  # 1 MONSTER as 5; 5 Liberators as 5


def test_age_of_sigmar_models_weapons_unreadable_missing_and_skipped() -> None:
    result = imported("aos")
    lord, liberators, incantor = result.roster.units
    assert lord.stats == {"move": 5, "wounds": 6, "bravery": 9, "save": 3}
    assert liberators.models == 5 and liberators.kept == {"Control": "1"}
    assert liberators.weapons[0].values == {
        "range": '1"',
        "attacks": "2",
        "hit": "4+",
        "wound": "3+",
        "rend": "-",
        "damage": "1",
    }
    report = result.reports[2]
    assert report.unit == "Knight-Incantor"
    assert report.unreadable == {"Move": "*"} and report.missing == ["move", "save"]
    assert incantor.weapons[0].values["damage"] == "D3"
    assert result.skipped == ["Celestian Vortex"]  # an endless spell: no stat line


def test_world_of_warcraft_characters_and_attacks() -> None:
    thrall, grunt = imported("wow").roster.units
    assert thrall.stats["health"] == 12 and thrall.stats["legendary"] == 1
    # Cost is a roster weapon field (the Action Card's tick cost, 202): read, not kept
    assert thrall.weapons[0].values == {"power": "4", "range": "4", "type": "magical", "cost": "2"}
    assert thrall.weapons[0].kept == {} and thrall.kept == {"Class": "Shaman"}
    assert grunt.stats["resist"] == 1


def test_infinity_move_pair_points_and_weapon_traits() -> None:
    result = imported("inf")
    fusilier, bolt = result.roster.units
    assert fusilier.stats["mov1"] == 4 and fusilier.stats["mov2"] == 4
    assert fusilier.stats["pts"] == 10 and bolt.stats["pts"] == 48  # from the selection's cost
    rifle = fusilier.weapons[0]
    assert rifle.values == {"dam": "13", "burst": "3", "ammo": "N"}
    assert rifle.kept["Traits"] == "Suppressive Fire"
    assert result.reports[0].kept == {"AVA": "Total"}


def test_confrontation_italian_characteristic_names() -> None:
    result = imported("c5")
    guerriero, cacciatore = result.roster.units
    assert guerriero.stats["str"] == 7 and guerriero.stats["def"] == 3
    assert guerriero.stats["cou"] == 5 and guerriero.stats["size"] == 3
    assert result.reports[0].unreadable == {"MOV": "12,5"}
    assert result.reports[0].kept == {"Valore": "34"}
    assert cacciatore.stats["aim"] == 4
    assert cacciatore.weapons[0].values == {"str": "6", "range": "20/40/60"}


@pytest.mark.parametrize("game", GAMES)
def test_a_rosz_reads_like_its_ros(game: str) -> None:
    zipped = to_roster(read_roster(rosz((f"{game}.ros", ros(game))), "army.rosz"), game)
    assert zipped == imported(game)


def test_the_game_is_recognised_from_the_roster() -> None:
    for game in GAMES:
        assert detect_system(read_roster(ros(game), "x.ros").game_system) == game
    assert detect_system("Warhammer 40,000 10th Edition") is None


@pytest.mark.parametrize("case", list(malformed()))
def test_malformed_rosters_are_refused_quickly(case: str) -> None:
    filename, content, key = malformed()[case]
    started = time.monotonic()
    with pytest.raises(UserError) as caught:
        to_roster(read_roster(content, filename), "aos")
    assert caught.value.key == key
    assert time.monotonic() - started < 30  # refused, not expanded (a generous bound)


def test_a_zip_compressed_beyond_any_roster_is_refused() -> None:
    packed = rosz(("army.ros", b"<roster>" + b" " * (8 * 1024 * 1024) + b"</roster>"))
    assert len(packed) < 100_000
    with pytest.raises(UserError, match=r"army.zip_bomb"):
        read_roster(packed, "army.rosz")


def test_a_file_over_the_size_limit_is_refused_before_reading() -> None:
    with pytest.raises(UserError, match=r"army.file_too_big"):
        read_roster(b"<" + b"x" * (5 * 1024 * 1024), "big.ros")


def test_age_of_sigmar_hero_keyword_comes_from_the_rosters_categories() -> None:
    """The HERO category was not read (only MONSTER was), so an imported HERO was refused its
    heroic actions and its commands' 12" range (7.1, L283; 6.1, L263-267) until typed by hand."""
    result = to_roster(read_roster(ros("aos_monster"), "aos_monster.ros"), "aos")
    drake, liberators = result.roster.units
    assert drake.stats.get("hero") == 1 and "hero" not in liberators.stats
