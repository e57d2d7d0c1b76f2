"""Units in telling states for the cards' golden images (tests/images/golden.py cases) and
their tests: a warjack with a crippled arm, one with a hostile name, and a unit of each other
game with its wounds, states and conditions."""

from __future__ import annotations

from typing import Any

from bot.i18n import Lang
from bot.images import odds_chart
from bot.images.cards import odds as game_odds
from bot.images.cards.facts import grid_card, unit_card
from bot.images.cards.grid import render_grid
from bot.images.cards.unit import render_unit_card
from rules_core.dice import odds
from rules_core.game.models import Condition, Unit
from rules_core.systems.wm import grid as grids
from rules_core.systems.wow.cards import Card, set_cards

JACK = "......|..L..M|...MC.|...MC.|..R..M|......"


def jack(damage: int = 0, column: int = 2, name: str = "Ironclad") -> Unit:
    grid = grids.parse_grid(JACK)
    if damage:
        grid, _ = grids.apply_damage(grid, damage, column)
    return Unit(
        name=name, owner="u1", owner_name="Ada", extra={"grid": grid.model_dump(mode="json")}
    )


def units() -> dict[str, Unit]:
    jaina = Unit(name="Jaina", owner="u1", owner_name="Ada", stats={"health": 8}, damage=3,
                 wounds_per_model=8)  # fmt: skip
    set_cards(jaina, [Card(name="Fireball", cost=3, power=4, type="magical"),
                      Card(name="Blink", cost=1, type="other", exhausted=True)])  # fmt: skip
    return {
        "aos": Unit(
            name="Liberators", owner="u1", owner_name="Ada", models=5, wounds_per_model=2,
            damage=3, stats={"save": 4, "bravery": 6, "wounds": 2},
            conditions=[Condition(name="charged", until="end-of-turn")],
        ),
        "inf": Unit(
            name="Fusilier", owner="u1", owner_name="Ada", damage=1,
            stats={"cc": 13, "bs": 12, "ph": 10, "arm": 1, "bts": 0, "w": 1},
            conditions=[Condition(name="imm")],
        ),
        "c5": Unit(
            name="Abel", owner="u1", owner_name="Ada", wounds_per_model=5, damage=2,
            stats={"att": 5, "str": 7, "def": 4, "res": 6, "wounds": 5},
            conditions=[Condition(name="stunned", until="end-of-round")],
        ),
        "wow": jaina,
    }  # fmt: skip


def cases() -> list[tuple[str, Any, Any, Lang]]:
    """(file under tests/images/golden, renderer, facts, language) for golden.cases()."""
    hostile = jack(5, 6, name="<b>@everyone</b> Ironclad")
    out: list[tuple[str, Any, Any, Lang]] = [
        ("cards/wm_grid_it.png", render_grid, grid_card(jack(8, 2), "it"), "it"),
        ("cards/wm_grid_hostile_en.png", render_grid, grid_card(hostile, "en"), "en"),
    ]
    for system, unit in units().items():
        lang: Lang = "it" if system in ("aos", "c5") else "en"
        card = unit_card(unit, system, lang)
        out.append((f"cards/unit_{system}_{lang}.png", render_unit_card, card, lang))
    parts = [(odds("2d6+4"), "POT 12 vs ARM 18", "damage"), (odds("d3"), "POT 12", "slain")]
    out.append(("cards/odds_game_it.png", odds_chart.render, game_odds.chart(parts, "it"), "it"))
    return out
