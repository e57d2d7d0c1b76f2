"""/wow commands through the registry and a real SQLite file."""

from __future__ import annotations

from bot.app import App
from bot.render import plain
from tests.helpers import say


async def test_attack_with_the_players_dice(app: App) -> None:
    reply = await say(app, "/wow attack power=4 defense=2 dice=2,5,10,7,4,1")
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["system"] == "wow"
    assert reply.data["outcome"] == {
        "hits": 3,
        "criticals": 1,
        "blocks": 1,
        "damage": 2,
        "crit_effect": False,
    }
    assert [s["name"] for s in reply.data["steps"]] == ["attack", "defense", "damage"]
    text = plain.render(reply)
    assert "[2, 5, 10, 7] → 3 hits (critical!)" in text and "Armor: [4, 1] → 1 block" in text
    history = await say(app, "/roll history 1")
    assert history.data is not None and history.data["rolls"][0]["expression"].startswith("/wow")


async def test_italian_magical_attack_with_crit_damage_and_elevation(app: App) -> None:
    reply = await say(
        app,
        "/wow attacco potere=3 difesa=2 tipo=magical critico=danno:2 altura dadi=1,10,4,3,5,1",
        lang="it",
    )
    assert reply.ok, reply.error
    assert reply.data is not None
    assert reply.data["outcome"]["hits"] == 4 and reply.data["outcome"]["damage"] == 3
    text = plain.render(reply)
    assert "Resistenza: [5, 1] → 1 parato" in text and "Attacco magico" in text


async def test_odds_shape(app: App) -> None:
    reply = await say(app, "/wow odds power=4 defense=2")
    assert reply.ok and reply.data is not None
    probs = dict((v, p) for v, p in reply.data["distribution"])
    assert abs(sum(probs.values()) - 1) < 1e-12
    assert abs(reply.data["p_critical"] - (1 - 0.9**4)) < 1e-12
    assert abs(reply.data["p_damage"] - (1 - probs[0])) < 1e-12


async def test_heal_and_bad_input(app: App) -> None:
    healed = await say(app, "/wow heal power=3 crit=heal:1 dice=10,2,6")
    assert healed.data is not None and healed.data["outcome"]["healed"] == 3
    bad = await say(app, "/wow attack power=3 crit=fly:2")
    assert bad.error is not None and bad.error.code == "wow.bad_crit"
    assert "Syntax: /wow attack [power=N]" in plain.render(bad)
    few = await say(app, "/wow attack power=3 defense=1 dice=4,5")
    assert few.error is not None and few.error.code.startswith("dice.not_enough")
    huge = await say(app, "/wow attack power=99")
    assert huge.error is not None and huge.error.code == "cmd.int_range"


def test_wow_stays_one_discord_command_with_subcommands() -> None:
    """Within Discord's 8,000-character budget the group is one top-level command, not ten."""
    from bot.adapters.discord_commands import build
    from bot.commands import build_registry

    published = [c for c in build(build_registry()) if c["name"].startswith("wow")]
    assert [c["name"] for c in published] == ["wow"]
    subs = {o["name"] for o in published[0]["options"]}
    assert {"card", "standings", "settings", "act", "attack"} <= subs
