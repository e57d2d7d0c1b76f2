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


async def test_heal_apply_reports_the_health_restored(app: App) -> None:
    """402.2 (E6): a heal of 3 on a character missing 2 Health reports 2."""
    await say(app, "/game new wow")
    await say(app, "/unit add Jaina health=8")
    await say(app, "/unit damage Jaina 2")
    reply = await say(app, "/wow heal power=3 target=Jaina apply dice=5,6,7")
    assert reply.ok, reply.error
    assert reply.data is not None and reply.data["outcome"]["healed"] == 2
    assert "Healed: 2" in plain.render(reply) and "8/8" in plain.render(reply)


async def test_health_decrease_to_zero_scores_and_vp_locations_win(app: App) -> None:
    """402.3a + 403.2c: a Health decrease that destroys scores the kill; 502.1 + 102.1: VP
    locations named at the end of tick 5 score and the win is announced."""
    await say(app, "/game new wow", user="A", name="Ann")
    await say(app, "/game join", user="B", name="Bob")
    await say(app, "/wow settings battleground=no", user="A", name="Ann")
    await say(app, "/unit add Jaina health=8 honor=5", user="A", name="Ann")
    await say(app, "/unit add Thrall health=3 honor=5", user="B", name="Bob")
    down = await say(app, "/wow health Thrall change=-3", user="A", name="Ann")
    assert down.ok, down.error
    text = plain.render(down)
    assert "402.3a" in text and "4 VP to Ann" in text
    for _ in range(4):
        await say(app, "/wow moved Jaina", user="A", name="Ann")
        assert (await say(app, "/wow tick", user="A", name="Ann")).ok
    late = await say(app, "/wow tick vp=Jaina", user="A", name="Ann")
    assert late.error is not None and late.error.code == "wow.still_ready"
    await say(app, "/wow moved Jaina", user="A", name="Ann")
    won = await say(app, "/wow tick vp=Jaina", user="A", name="Ann")
    assert won.ok, won.error
    assert "1 VP to Ann" in plain.render(won) and "Ann wins (rule 102.1)" in plain.render(won)
    ally = await say(app, "/wow attack attacker=Jaina power=2 target=Jaina", user="A", name="Ann")
    assert ally.error is not None and ally.error.code == "wow.target_ally"


async def test_attack_takes_the_stored_profiles_and_options_override(app: App) -> None:
    """Issue 25 item 6: `unit=` `weapon=` `target=` read the attacker's primary attack or
    Action Card and the target's Armor/Resist (601.2) from the game; options override."""
    await say(app, "/game new wow", user="A", name="Ann")
    await say(app, "/game join", user="B", name="Bob")
    await say(
        app, "/unit add Jaina health=6 attack=2 magical=1 armor=1 resist=1", user="A", name="Ann"
    )
    await say(app, "/unit add Thrall health=6 attack=3 armor=2 resist=1", user="B", name="Bob")
    await say(
        app, "/wow card add Jaina card=Fireball cost=3 power=4 type=magical", user="A", name="Ann"
    )
    primary = await say(app, "/wow attack unit=Thrall target=Jaina dice=5,6,7,1", user="B")
    assert primary.ok, primary.error
    assert primary.data is not None
    assert primary.data["outcome"] == {
        "hits": 3, "criticals": 0, "blocks": 0, "damage": 3, "crit_effect": False,
    }  # fmt: skip
    assert "Physical attack, power 3 vs 1 defence die" in plain.render(primary)
    # Jaina's primary attack is magical: Thrall defends with Resist 1.
    magic = await say(app, "/wow attack unit=Jaina target=Thrall dice=5,6,9", user="A")
    assert magic.ok and "Magical attack, power 2 vs 1 defence die" in plain.render(magic)
    card = await say(app, "/wow attack unit=Jaina weapon=Fireball target=Thrall dice=5,5,5,5,1")
    assert card.ok and "power 4 vs 1" in plain.render(card)
    over = await say(
        app, "/wow attack unit=Jaina weapon=Fire power=1 defense=0 target=Thrall dice=5"
    )
    assert over.ok and "power 1 vs 0" in plain.render(over)
    it = await say(
        app, "/wow attacco unita=Jaina arma=Fireball bersaglio=Thrall dadi=5,5,5,5,1", lang="it"
    )
    assert it.ok and it.data is not None and it.data["outcome"]["damage"] == 4


async def test_cleave_one_roll_against_two_targets_applied(app: App) -> None:
    """601.1b / 407.2b: `targets=A,B`, one attack roll, each defends with its own Armor."""
    await say(app, "/game new wow", user="A", name="Ann")
    await say(app, "/game join", user="B", name="Bob")
    await say(app, "/unit add Garrosh health=8 attack=3", user="A", name="Ann")
    await say(app, "/unit add Jaina health=6 armor=1", user="B", name="Bob")
    await say(app, "/unit add Anduin health=2", user="B", name="Bob")
    text = "/wow attack attacker=Garrosh targets=Jaina,Anduin apply dice=5,6,1,4"
    reply = await say(app, text, user="A", name="Ann")
    assert reply.ok, reply.error
    assert reply.data is not None
    assert [(o["unit"], o["damage"]) for o in reply.data["outcomes"]] == [
        ("Jaina", 1),
        ("Anduin", 2),
    ]
    shown = plain.render(reply)
    assert "one roll against 2 targets" in shown and "Armor (Jaina): [4] → 1 block" in shown
    assert "4 VP to Ann" in shown
    twice = await say(app, "/wow attack power=2 targets=Jaina,jaina", user="A", name="Ann")
    assert twice.error is not None and twice.error.code == "wow.target_twice"


async def test_effect_until_a_tick_shows_and_expires(app: App) -> None:
    """301.2c: `/wow effect NAME effect=X tick=N` lasts until /wow tick ends tick N."""
    await say(app, "/game new wow")
    await say(app, "/unit add Thrall health=5")
    added = await say(app, "/wow effect Thrall effect=Bloodlust tick=1")
    assert added.ok, added.error
    assert "until the end of tick 1" in plain.render(added)
    await say(app, "/wow moved Thrall")
    tick = await say(app, "/wow tick")
    assert tick.ok and "Bloodlust leaves Thrall" in plain.render(tick)
    shown = await say(app, "/unit show Thrall")
    assert "Bloodlust" not in plain.render(shown)
    it = await say(app, "/wow effetto Thrall effetto=Furtività scatto=3", lang="it")
    assert it.ok and "fino alla fine dello scatto 3" in plain.render(it)


async def test_forced_reroll_of_a_success_and_its_setting(app: App) -> None:
    """105.3: `force_reroll_attack=1` rerolls a success with the chosen rerolls; the
    `forced_reroll` setting decides whether the crit goes first."""
    kept = await say(app, "/wow attack power=2 force_reroll_attack=1 dice=10,6,2")
    assert kept.ok and kept.data is not None
    assert kept.data["outcome"]["hits"] == 1 and kept.data["outcome"]["criticals"] == 1
    await say(app, "/wow settings forced_reroll=crits_first", admin=True)
    taken = await say(app, "/wow attack power=2 force_reroll_attack=1 dice=10,6,2")
    assert taken.data is not None and taken.data["outcome"]["criticals"] == 0
    it = await say(app, "/wow impostazioni", lang="it")
    assert "ritiro_forzato=critici_prima" in plain.render(it)


async def test_italian_type_values_are_taken(app: App) -> None:
    """Issue 24: `tipo=magico` is the book's word (600.1); a wrong one names the Italian ones."""
    reply = await say(app, "/wow attacco potere=1 difesa=1 tipo=magico dadi=5,1", lang="it")
    assert reply.ok and "Resistenza" in plain.render(reply)
    bad = await say(app, "/wow attacco potere=1 tipo=volante", lang="it")
    assert bad.error is not None and bad.error.code == "wow.bad_attack_type"
    assert "usa fisico o magico" in plain.render(bad)
