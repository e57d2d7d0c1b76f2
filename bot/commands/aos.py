"""/aos: Age of Sigmar 3rd edition attacks with exact odds, battleshock, magic, prayers,
charge, run, the priority roll, command points and commands, weapons and damage tables.

The rules live in rules_core.systems.aos (rulebook lines cited there). Here: options are
read and validated, the channel's game supplies the attacker's weapon (`attacker=`,
`weapon=`) and the defender's stats (`target=`), `apply` writes the result to the game as
one event that /undo reverts, and every roll goes to the chat's roll log.
"""

from __future__ import annotations

from typing import Any

from bot.commands.context import Context
from bot.commands.game_view import unit_blocks
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data, percent
from bot.commands.spec import (
    APPLY,
    DICE,
    CommandSpec,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    signed_opt,
    unit_opt,
)
from bot.commands.system_kit import SystemGame, SystemSettings, dice_spans, log_roll, resolution
from bot.protocol import Block, Reply, Span, bold, code, plain, pre, strike
from bot.session import (
    apply_change,
    find_player,
    name_of,
    require_player,
    require_unit_rights,
)
from bot.storage.games import StoredGame
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.steps import Step
from rules_core.systems.aos import checks, turns
from rules_core.systems.aos import system as aos_system
from rules_core.systems.aos.attack import resolve_attack
from rules_core.systems.aos.models import (
    MAX_ATTACK_DICE,
    AttackRequest,
    AttackResolution,
    Settings,
)
from rules_core.systems.aos.odds import attack_odds, slain_odds
from rules_core.systems.aos.values import (
    NO_SAVE,
    parse_decimal,
    parse_dice_value,
    parse_on6,
    parse_rend,
    parse_reroll,
    parse_save,
    parse_target,
)

SYSTEM = "aos"

# --- settings ---------------------------------------------------------------------------------


SETTINGS = SystemSettings(
    SYSTEM,
    Settings,
    tuple(Settings.model_fields),
    lambda current, changes: current.model_copy(update=changes),
    "aos.settings_admin",
    per_value=True,
)


# --- reading the game ---------------------------------------------------------------------------

GAME = SystemGame(SYSTEM, "aos.not_aos_game", "aos.apply_needs_target")


def target_unit(state: GameState, name: str) -> Unit:
    unit = tr.find_unit(state, name)
    if unit.destroyed:
        raise UserError("aos.unit_destroyed", unit=unit.name)
    return unit


# --- building an attack -----------------------------------------------------------------------

WEAPON_OPTIONS = ("attacks", "hit", "wound", "rend", "damage")


async def attack_request(
    ctx: Context, settings: Settings
) -> tuple[AttackRequest, StoredGame | None, Unit | None, dict[str, Any]]:
    opts = ctx.opts
    game: StoredGame | None = None
    defender: Unit | None = None
    source: dict[str, Any] = {}
    values: dict[str, str] = {}
    attack_rolls = 1
    if opts["attacker"] or opts["target"]:
        game = await GAME.load(ctx)
    elif opts["weapon"]:
        raise UserError("aos.weapon_needs_attacker")
    if opts["attacker"] and game is not None:
        attacker = target_unit(game.state, opts["attacker"])
        options = aos_system.weapons(attacker)
        if opts["weapon"]:
            weapon = aos_system.find_weapon(attacker, opts["weapon"])
        elif len(options) == 1:
            weapon = options[0]
        else:
            raise UserError(
                "aos.pick_weapon",
                unit=attacker.name,
                valid=", ".join(w.name for w in options) or "-",
            )
        values = aos_system.resolved_weapon(attacker, weapon)
        attack_rolls = attacker.models_left
        source["attacker"] = attacker.name
        source["weapon"] = weapon.name
    for name in WEAPON_OPTIONS:
        if opts[name] is not None:
            values[name] = opts[name]
    for name in ("attacks", "hit", "wound"):
        if name not in values:
            raise UserError("aos.missing_option", option=name)
    attacks = parse_dice_value(values["attacks"], "attacks")
    if attacks.random and settings.random_attacks == "per_unit":
        attack_rolls = 1
    fields: dict[str, Any] = {
        "attacks": attacks,
        "attack_rolls": attack_rolls,
        "hit": parse_target(values["hit"], "hit"),
        "wound": parse_target(values["wound"], "wound"),
        "rend": parse_rend(values.get("rend", "-")),
        "damage": parse_dice_value(values.get("damage", "1"), "damage", max_fixed=20),
        "hit_mod": opts["hit_mod"] or 0,
        "wound_mod": opts["wound_mod"] or 0,
        "save_mod": opts["save_mod"] or 0,
        "reroll_hit": parse_reroll(opts["reroll_hit"], "reroll_hit"),
        "reroll_wound": parse_reroll(opts["reroll_wound"], "reroll_wound"),
        "reroll_save": parse_reroll(opts["reroll_save"], "reroll_save"),
        "on6_hit": parse_on6(opts["on6_hit"], "on6_hit", ("extra_hit", "auto_wound", "mortal")),
        "on6_wound": parse_on6(opts["on6_wound"], "on6_wound", ("mortal", "rend")),
    }
    if opts["target"] and game is not None:
        defender = target_unit(game.state, opts["target"])
        fields["save"] = defender.stats.get("save", NO_SAVE)
        ward = defender.stats.get("ward", 0)
        fields["ward"] = ward if ward >= 2 else None
        fields["models"] = defender.models
        fields["wounds_per_model"] = defender.wounds_per_model
        fields["wounds_taken"] = defender.damage
        source["target"] = defender.name
    if opts["save"] is not None:
        fields["save"] = parse_save(opts["save"])
    if opts["ward"] is not None:
        ward_text = opts["ward"].strip()
        fields["ward"] = None if ward_text in ("-", "0") else parse_target(ward_text, "ward")
    if opts["models"] is not None or opts["wounds_per_model"] is not None:
        if defender is not None:
            fields["wounds_taken"] = 0
        fields["models"] = opts["models"] or fields.get("models") or 1
        fields["wounds_per_model"] = opts["wounds_per_model"] or fields.get("wounds_per_model")
    if attacks.max * attack_rolls > MAX_ATTACK_DICE:
        raise UserError("aos.too_many_attacks", limit=MAX_ATTACK_DICE)
    return AttackRequest.model_validate(fields), game, defender, source


def request_summary(ctx: Context, req: AttackRequest) -> str:
    count = req.attacks.text()
    if req.attack_rolls > 1:
        count = f"{req.attack_rolls}×{count}"
    rend = f"-{req.rend}" if req.rend else "-"
    save = "-" if req.save >= NO_SAVE else f"{req.save}+"
    text = ctx.t(
        "aos.attack_summary",
        attacks=count,
        hit=req.hit,
        wound=req.wound,
        rend=rend,
        damage=req.damage.text(),
        save=save,
    )
    if req.ward is not None:
        text += " " + ctx.t("aos.ward_short", ward=req.ward)
    return text


# --- rendering steps ------------------------------------------------------------------------


def faces(step: Step) -> list[Span]:
    """The dice in rolling order: re-rolled ones struck through, then their replacements."""
    first = len(step.dice) - len(step.rerolled)
    shown: list[Span] = [
        strike(str(f)) if i in step.rerolled else plain(str(f))
        for i, f in enumerate(step.dice[:first])
    ]
    shown += [bold(str(f)) for f in step.dice[first:]]
    return dice_spans(shown)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def modifier_text(step: Step) -> str:
    if step.modifier_asked == step.modifier:
        return f" ({signed(step.modifier)})" if step.modifier else ""
    return f" ({signed(step.modifier_asked)} → {signed(step.modifier)})"


def step_block(ctx: Context, step: Step, req: AttackRequest) -> Block:
    name = step.name
    if name == "attacks":
        return [
            bold(ctx.t("aos.step.attacks", value=req.attacks.text()) + ": "),
            *faces(step),
            plain(" → "),
            bold(str(step.total)),
        ]
    if name in ("hit_mortal", "wound_mortal"):
        return [plain(ctx.t(f"aos.step.{name}", n=step.total))]
    if name == "damage":
        if step.dice:
            return [
                bold(ctx.t("aos.step.damage", value=req.damage.text()) + ": "),
                *faces(step),
                plain(" → "),
                bold(str(step.total)),
            ]
        unsaved = (step.total or 0) // max(1, req.damage.plus)
        return [
            bold(ctx.t("aos.step.damage", value=req.damage.text()) + ": "),
            plain(f"{unsaved} × {req.damage.plus} = "),
            bold(str(step.total)),
        ]
    if name == "allocate":
        return [plain(ctx.t("aos.step.allocate", n=step.total, slain=step.outcome))]
    target = "-" if (step.target or 0) >= NO_SAVE else f"{step.target}+"
    label = ctx.t(f"aos.step.{name}", target=target) + modifier_text(step) + ": "
    if step.outcome == "no_save":
        return [bold(label), plain(ctx.t("aos.no_save_roll", n=step.total))]
    one = "_one" if step.total == 1 else ""
    count = ctx.t(f"aos.count.{step.outcome}{one}", n=step.total)
    shown = faces(step) if step.dice else [plain("–")]
    return [bold(label), *shown, plain(" → "), bold(count)]


def roll_expression(ctx: Context) -> str:
    """What the roll log names an AoS roll by: the command's first 300 characters."""
    return (ctx.request.text or "/" + ctx.spec.name)[:300]


def dice_for(ctx: Context) -> DiceSource:
    return ctx.dice(ctx.opts.get("dice"))


def finish_dice(ctx: Context, source: DiceSource) -> None:
    """Faces the players gave must all be used: a left-over die means a mistake."""
    if ctx.opts.get("dice"):
        source.check_exhausted()


async def apply_damage(
    ctx: Context,
    game: StoredGame | None,
    unit: Unit | None,
    amount: int,
    kind: str,
    by: Unit | None = None,
) -> list[Block]:
    """Write `amount` wounds to the unit as one game event (/undo reverts it). Besides the
    game's usual rights (owner, organiser, admin, the player whose turn it is), a player may
    apply what their own attacking unit `by` inflicted: in AoS both players fight in every
    combat phase (12.0, L445-467), not only on their own turn."""
    if game is None or unit is None:
        raise UserError("aos.apply_needs_target")
    own_attacker = (
        by is not None
        and by.owner == ctx.request.user_id
        and game.state.player(ctx.request.user_id) is not None
    )
    if not own_attacker:
        require_unit_rights(ctx, game.state, unit, attack=True)
    name = unit.name
    change = await apply_change(ctx, lambda st: tr.damage(st, name, amount), kind, game=game)
    after = tr.find_unit(change.after, name)
    return [
        [plain(ctx.t("aos.applied", n=amount) + " ")],
        *unit_blocks(ctx, after, change.after.system),
    ]


# --- /aos attack and /aos odds ----------------------------------------------------------------


async def attack(ctx: Context) -> Reply:
    settings = await SETTINGS.load(ctx)
    req, game, defender, source_info = await attack_request(ctx, settings)
    if ctx.opts["apply"] and defender is None:
        raise UserError("aos.apply_needs_target")
    source = dice_for(ctx)
    res: AttackResolution = resolve_attack(req, source, settings)
    finish_dice(ctx, source)
    out = res.outcome
    data = {**resolution(SYSTEM, res.steps, out.model_dump()), **source_info}
    await log_roll(ctx, source, out.damage, data, expression=roll_expression(ctx))
    blocks = [step_block(ctx, s, req) for s in res.steps]
    result: Block = [bold(ctx.t("aos.result_damage", n=out.damage))]
    if out.models_slain is not None:
        result.append(plain(" · "))
        result.append(bold(ctx.t("aos.result_slain", n=out.models_slain)))
    if out.damage_lost:
        result.append(plain(" · " + ctx.t("aos.result_lost", n=out.damage_lost)))
    blocks.append(result)
    data["applied"] = False
    if ctx.opts["apply"]:
        by = (
            tr.find_unit(game.state, source_info["attacker"])
            if "attacker" in source_info and game
            else None
        )
        blocks += await apply_damage(ctx, game, defender, out.damage, "aos_attack", by)
        data["applied"] = True
    title = ctx.t("aos.attack_title") + ": " + request_summary(ctx, req)
    return Reply(title=title, blocks=blocks, data=data)


async def odds(ctx: Context) -> Reply:
    settings = await SETTINGS.load(ctx)
    req, _, _, source_info = await attack_request(ctx, settings)
    weights = await ctx.offload(attack_odds, req, settings)  # off the event loop
    dist = as_distribution(weights)
    heading: Block = [code(request_summary(ctx, req))]
    blocks = distribution_blocks(ctx, dist, heading)
    data: dict[str, Any] = {"system": SYSTEM, **distribution_data(dist), **source_info}
    slain = slain_odds(req, weights)
    if slain is not None:
        slain_dist = as_distribution(slain)
        rows = [f"{'k':>4}  {'P(≥k)':>7}"]
        rows += [f"{k:>4}  {percent(slain_dist.p_at_least(k)):>7}" for k, _ in slain_dist.items()]
        blocks.append([plain(ctx.t("aos.slain_odds", mean=f"{slain_dist.mean():.2f}"))])
        blocks.append([pre("\n".join(rows))])
        data["models_slain_distribution"] = [[k, p] for k, p in slain_dist.items()]
        data["models_slain_mean"] = slain_dist.mean()
    else:
        data["models_slain_distribution"] = None
    return Reply(title=ctx.t("aos.odds_title"), blocks=blocks, data=data)


# --- tests: battleshock, cast, unbind, pray, charge, run ------------------------------------


def check_reply(
    ctx: Context, title: str, check: checks.Check, lines: list[Block]
) -> tuple[Reply, dict[str, Any]]:
    data = resolution(SYSTEM, check.steps, check.outcome)
    blocks: list[Block] = []
    for step in check.steps:
        label = ctx.t(f"aos.step.{step.name}", target=f"{step.target}+")
        line: Block = [bold(label + ": "), *faces(step)]
        if step.name == "ward":
            one = "_one" if step.total == 1 else ""
            line += [plain(" → "), bold(ctx.t(f"aos.count.negated{one}", n=step.total))]
            blocks.append(line)
            continue
        if step.modifier:
            line.append(plain(f" {signed(step.modifier)}"))
        line += [plain(" = "), bold(str(step.total))]
        blocks.append(line)
    blocks += lines
    return Reply(title=title, blocks=blocks, data=data), data


async def optional_unit(ctx: Context) -> tuple[StoredGame | None, Unit | None]:
    """The game and its `target=` unit (not a destroyed one), or (None, None)."""
    found = await GAME.target(ctx, find=target_unit)
    return found if found is not None else (None, None)


def warded(ctx: Context, check: checks.Check, unit: Unit | None, source: DiceSource) -> None:
    """Mortal wounds applied to a unit with a ward get one ward roll each (L591, L601)."""
    mortal = check.outcome["mortal_wounds"]
    value = unit.stats.get("ward", 0) if unit is not None else 0
    if not (ctx.opts["apply"] and mortal and value >= 2):
        return
    step = checks.ward(mortal, value, source)
    check.steps.append(step)
    check.outcome["ward_saved"] = step.total
    check.outcome["damage"] = mortal - step.total


async def battleshock(ctx: Context) -> Reply:
    game, unit = await optional_unit(ctx)
    bravery = ctx.opts["bravery"]
    if bravery is None and unit is not None:
        bravery = unit.stats.get("bravery")
    if bravery is None:
        raise UserError("aos.missing_option", option="bravery")
    source = dice_for(ctx)
    check = checks.battleshock(bravery, ctx.opts["slain"], source, ctx.opts["mod"] or 0)
    finish_dice(ctx, source)
    fled = check.outcome["fled"]
    if unit is not None:
        fled = min(fled, unit.models_left)
        check.outcome["fled"] = fled
    key = "aos.fled" if fled else "aos.passed"
    title = ctx.t("aos.battleshock_title", bravery=bravery)
    reply, data = check_reply(
        ctx, title, check, [[bold(ctx.t(key, n=fled, roll=check.outcome["roll"], bravery=bravery))]]
    )
    await log_roll(ctx, source, fled, data, expression=roll_expression(ctx))
    if ctx.opts["apply"] and fled and unit is not None and game is not None:
        # Fleeing models are removed whole (15.1, L613): as many models' worth of wounds.
        amount = min(unit.wounds_left, fled * unit.wounds_per_model)
        reply.blocks += await apply_damage(ctx, game, unit, amount, "aos_battleshock")
    return reply


async def cast(ctx: Context) -> Reply:
    game, unit = await optional_unit(ctx)
    source = dice_for(ctx)
    check = checks.cast(ctx.opts["value"], source, ctx.opts["mod"] or 0)
    warded(ctx, check, unit, source)
    finish_dice(ctx, source)
    out = check.outcome
    key = "aos.miscast" if out["miscast"] else ("aos.cast_ok" if out["cast"] else "aos.cast_no")
    lines = [[bold(ctx.t(key, n=out["mortal_wounds"], total=out["total"]))]]
    if out["cast"]:
        lines.append([plain(ctx.t("aos.unbind_hint", roll=out["total"]))])
    reply, data = check_reply(ctx, ctx.t("aos.cast_title", value=ctx.opts["value"]), check, lines)
    await log_roll(ctx, source, out["total"], data, expression=roll_expression(ctx))
    if ctx.opts["apply"] and out["mortal_wounds"]:
        amount = out.get("damage", out["mortal_wounds"])
        reply.blocks += await apply_damage(ctx, game, unit, amount, "aos_miscast")
    return reply


async def unbind(ctx: Context) -> Reply:
    source = dice_for(ctx)
    check = checks.unbind(ctx.opts["roll"], source, ctx.opts["mod"] or 0)
    finish_dice(ctx, source)
    key = "aos.unbound" if check.outcome["unbound"] else "aos.not_unbound"
    lines = [[bold(ctx.t(key, roll=ctx.opts["roll"]))]]
    reply, data = check_reply(ctx, ctx.t("aos.unbind_title", roll=ctx.opts["roll"]), check, lines)
    await log_roll(ctx, source, check.outcome["total"], data, expression=roll_expression(ctx))
    return reply


async def pray(ctx: Context) -> Reply:
    game, unit = await optional_unit(ctx)
    source = dice_for(ctx)
    check = checks.pray(ctx.opts["value"], source, ctx.opts["mod"] or 0)
    warded(ctx, check, unit, source)
    finish_dice(ctx, source)
    out = check.outcome
    key = "aos.wrath" if out["wrath"] else ("aos.answered" if out["answered"] else "aos.unanswered")
    reply, data = check_reply(
        ctx, ctx.t("aos.pray_title", value=ctx.opts["value"]), check, [[bold(ctx.t(key))]]
    )
    await log_roll(ctx, source, out["total"], data, expression=roll_expression(ctx))
    if ctx.opts["apply"] and out["mortal_wounds"]:
        amount = out.get("damage", out["mortal_wounds"])
        reply.blocks += await apply_damage(ctx, game, unit, amount, "aos_wrath")
    return reply


async def charge(ctx: Context) -> Reply:
    distance = parse_decimal(ctx.opts["distance"], "distance") if ctx.opts["distance"] else None
    source = dice_for(ctx)
    check = checks.charge(source, ctx.opts["mod"] or 0, distance)
    finish_dice(ctx, source)
    out = check.outcome
    lines: list[Block] = [[bold(ctx.t("aos.charge_inches", n=out["total"]))]]
    if distance is not None:
        key = "aos.charge_reaches" if out["reaches"] else "aos.charge_short"
        lines.append([plain(ctx.t(key, distance=f"{distance:g}"))])
    reply, data = check_reply(ctx, ctx.t("aos.charge_title"), check, lines)
    await log_roll(ctx, source, out["total"], data, expression=roll_expression(ctx))
    return reply


async def run(ctx: Context) -> Reply:
    _, unit = await optional_unit(ctx)
    move = ctx.opts["move"]
    if move is None and unit is not None:
        move = unit.stats.get("move")
    source = dice_for(ctx)
    check = checks.run(source, move, ctx.opts["mod"] or 0)
    finish_dice(ctx, source)
    out = check.outcome
    lines: list[Block] = []
    if move is not None:
        lines.append([bold(ctx.t("aos.run_move", move=out["move"], base=move, n=out["roll"]))])
    lines.append([plain(ctx.t("aos.run_note"))])
    reply, data = check_reply(ctx, ctx.t("aos.run_title"), check, lines)
    await log_roll(ctx, source, out["roll"], data, expression=roll_expression(ctx))
    return reply


CHECK_KINDS = {
    "rally": "rally",
    "raccolta": "rally",
    "recovery": "recovery",
    "recupero": "recovery",
    "leadership": "leadership",
    "disciplina": "leadership",
    "dispel": "dispel",
    "disperdere": "dispel",
    "banish": "banish",
    "esiliare": "banish",
}


def need(ctx: Context, name: str, fallback: int | None = None) -> int:
    value = ctx.opts[name] if ctx.opts[name] is not None else fallback
    if value is None:
        raise UserError("aos.missing_option", option=name)
    return int(value)


async def check(ctx: Context) -> Reply:
    """Rally, Heroic Recovery, Heroic Leadership, dispelling and banishing."""
    kind = CHECK_KINDS.get(ctx.opts["kind"].strip().lower())
    if kind is None:
        raise UserError(
            "aos.bad_check",
            value=ctx.opts["kind"][:20],
            valid=", ".join(sorted(set(CHECK_KINDS.values()))),
        )
    game, unit = await optional_unit(ctx)
    if ctx.opts["apply"] and kind not in ("rally", "recovery"):
        raise UserError("aos.apply_not_here", kind=kind)
    source = dice_for(ctx)
    mod = ctx.opts["mod"] or 0
    heal = 0
    if kind == "rally":
        slain_now = unit.models - unit.models_left if unit is not None else None
        result = checks.rally(min(need(ctx, "slain", slain_now), 100), source)
        returned = result.outcome["returned"]
        if unit is not None and slain_now is not None:
            returned = min(returned, slain_now)  # only slain models return (14.2.1, L587)
            result.outcome["returned"] = returned
            heal = returned * unit.wounds_per_model
        line = ctx.t("aos.rally_result", n=returned)
    elif kind == "recovery":
        bravery = need(ctx, "bravery", unit.stats.get("bravery") if unit is not None else None)
        result = checks.recovery(bravery, source)
        heal = result.outcome["healed"]
        if unit is not None:
            # Slain models can't be healed (14.4, L595): only the wounded model's wounds.
            heal = min(heal, aos_system.wounds_on_current_model(unit))
        line = ctx.t("aos.recovery_result", n=result.outcome["healed"], bravery=bravery)
    elif kind == "leadership":
        result = checks.leadership(source, bool(ctx.opts["general_slain"]))
        line = ctx.t("aos.leadership_yes" if result.outcome["cp"] else "aos.leadership_no")
    elif kind == "dispel":
        value = need(ctx, "value")
        result = checks.dispel(value, source, mod)
        done = result.outcome["dispelled"]
        line = ctx.t("aos.dispelled" if done else "aos.not_dispelled", value=value)
    else:
        value = need(ctx, "value")
        result = checks.banish(value, source, mod)
        done = result.outcome["banished"]
        line = ctx.t("aos.banished" if done else "aos.not_banished", value=value)
    finish_dice(ctx, source)
    reply, data = check_reply(ctx, ctx.t(f"aos.check_title.{kind}"), result, [[bold(line)]])
    data["kind"] = kind
    first = next(iter(result.outcome.values()))
    await log_roll(ctx, source, int(first), data, expression=roll_expression(ctx))
    if ctx.opts["apply"] and heal and unit is not None and game is not None:
        require_unit_rights(ctx, game.state, unit, attack=False)
        new = tr.heal(game.state, unit.name, heal)
        await apply_change(ctx, new, f"aos_{kind}", game=game)
        after = tr.find_unit(new, unit.name)
        reply.blocks += [
            [plain(ctx.t("aos.healed_applied", n=heal) + " ")],
            *unit_blocks(ctx, after, new.system),
        ]
    return reply


# --- the battle round: priority, hero-phase command points, commands --------------------------


async def priority(ctx: Context) -> Reply:
    game = await ctx.active_game()
    in_game = game is not None and game.state.system == SYSTEM and len(game.state.order) == 2
    if ctx.opts["apply"] and not in_game:
        if game is None:
            raise UserError("game.none")
        if game.state.system != SYSTEM:
            raise UserError("aos.not_aos_game", system=game.state.system)
        raise UserError("aos.two_players", n=len(game.state.order))
    state = game.state if (in_game and game is not None) else None
    names = ["1", "2"]
    tie_index: int | None = None
    if state is not None:
        players = turns.two_players(state)
        names = [name_of(state, u) for u in players]
        aos = turns.aos_state(state)
        if ctx.opts["deployed"]:
            if state.round > 1:
                raise UserError("aos.deployed_round_one")
            aos.deployed_first = find_player(state, ctx.opts["deployed"]).user_id
            state = turns.with_aos(state, aos)
        known = turns.tie_winner(state, aos)
        if ctx.opts["tie"]:
            known = find_player(state, ctx.opts["tie"]).user_id
        tie_index = players.index(known) if known in players else None
    elif ctx.opts["tie"]:
        tie_index = {"1": 0, "2": 1}.get(ctx.opts["tie"].strip())
        if tie_index is None:
            raise UserError("aos.bad_tie")
    source = dice_for(ctx)
    first_round = state.round <= 1 if state is not None else True
    check = checks.priority(source, tie_index, first_round)
    finish_dice(ctx, source)
    out = check.outcome
    rolls = out["rolls"]
    blocks: list[Block] = [
        [bold(names[0]), plain(f": [{rolls[0]}]  "), bold(names[1]), plain(f": [{rolls[1]}]")]
    ]
    winner = out["winner"]
    if out["tie"]:
        rule = "aos.tie_deployed" if first_round else "aos.tie_previous"
        blocks.append([plain(ctx.t(rule))])
    if winner is None:
        blocks.append([bold(ctx.t("aos.tie_unknown"))])
    else:
        blocks.append([bold(ctx.t("aos.priority_to", name=names[winner]))])
    winner_name = names[winner] if winner is not None else None
    data = resolution(SYSTEM, check.steps, {**out, "winner_name": winner_name})
    await log_roll(ctx, source, rolls[0], data, expression=roll_expression(ctx))
    if ctx.opts["apply"] and state is not None and game is not None:
        if winner is None:
            raise UserError("aos.tie_unknown")
        require_player(ctx, game.state)
        goes_first = ctx.opts["goes"] != "second"
        new = turns.apply_priority(state, turns.two_players(state)[winner], goes_first)
        await apply_change(ctx, new, "aos_priority", game=game)
        first, second = new.order
        blocks.append(
            [
                plain(
                    ctx.t(
                        "aos.round_order",
                        round=new.round,
                        first=name_of(new, first),
                        second=name_of(new, second),
                    )
                )
            ]
        )
        blocks.append(
            [plain(ctx.t("aos.round_cp", first=name_of(new, first), second=name_of(new, second)))]
        )
        data["order"] = new.order
        data["cp"] = {u: new.resources.get(f"player:{u}", {}).get("cp", 0) for u in new.order}
    return Reply(title=ctx.t("aos.priority_title"), blocks=blocks, data=data)


async def hero(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    require_player(ctx, game.state)
    settings = await SETTINGS.load(ctx)
    new, granted = turns.grant_hero_cp(game.state, settings.hero_cp)
    await apply_change(ctx, new, "aos_hero_cp", game=game)
    blocks: list[Block] = []
    for user, amount in granted.items():
        have = new.resources.get(f"player:{user}", {}).get("cp", 0)
        key = "aos.hero_cp_gained" if amount else "aos.hero_cp_no_general"
        blocks.append([bold(name_of(new, user)), plain(": " + ctx.t(key, n=amount, total=have))])
    return Reply(
        title=ctx.t("aos.hero_title"),
        blocks=blocks,
        data={"system": SYSTEM, "granted": granted, "mode": settings.hero_cp},
    )


def command_list(ctx: Context) -> Reply:
    blocks: list[Block] = []
    for ability in turns.command_abilities().values():
        name = ability.it if ctx.lang == "it" else ability.en
        phases = ", ".join(ctx.t(f"aos.phase.{p}") for p in ability.phases)
        blocks.append(
            [
                bold(name),
                plain(f" ({ability.id}) · {ability.cost} {ctx.t('aos.cp_short')} · {phases} · "),
                plain(ctx.t(f"aos.cmd_effect.{ability.id}")),
            ]
        )
    return Reply(
        title=ctx.t("aos.commands_title"),
        blocks=blocks,
        data={
            "system": SYSTEM,
            "commands": [a.model_dump() for a in turns.command_abilities().values()],
        },
    )


async def command(ctx: Context) -> Reply:
    if not ctx.opts["name"]:
        return command_list(ctx)
    ability = turns.find_command(ctx.opts["name"])
    game = await GAME.load(ctx)
    state = game.state
    require_player(ctx, state)
    unit_name: str | None = None
    if ctx.opts["unit"]:
        unit = target_unit(state, ctx.opts["unit"])
        require_unit_rights(ctx, state, unit, attack=False)
        unit_name = unit.name
    settings = await SETTINGS.load(ctx)
    new, left = turns.use_command(
        state, ctx.request.user_id, ability, unit_name, settings.command_limit
    )
    await apply_change(ctx, new, "aos_command", game=game)
    name = ability.it if ctx.lang == "it" else ability.en
    line: Block = [
        bold(name),
        plain(" · " + ctx.t("aos.command_spent", cost=ability.cost, left=left)),
    ]
    if unit_name:
        line.append(plain(" · " + ctx.t("aos.command_unit", unit=unit_name)))
    return Reply(
        blocks=[line, [plain(ctx.t(f"aos.cmd_effect.{ability.id}"))]],
        data={"system": SYSTEM, "command": ability.id, "cost": ability.cost, "cp": left},
    )


# --- weapons and damage tables on the unit card -------------------------------------------------


async def weapon(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = game.state
    unit = tr.find_unit(state, ctx.opts["unit"])
    require_unit_rights(ctx, state, unit, attack=False)
    new = state.clone()
    target = tr.find_unit(new, unit.name)
    if ctx.opts["remove"]:
        aos_system.set_weapon(target, None, ctx.opts["name"])
    else:
        values = {f: ctx.opts[f] for f in ("range", *WEAPON_OPTIONS) if ctx.opts.get(f) is not None}
        made = aos_system.make_weapon(ctx.opts["name"], values)
        aos_system.set_weapon(target, made, made.name)
    await apply_change(ctx, new, "aos_weapon", game=game)
    return Reply(
        blocks=unit_blocks(ctx, target, new.system),
        data={"system": SYSTEM, "unit": target.model_dump()},
    )


async def damage_table(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = game.state
    unit = tr.find_unit(state, ctx.opts["unit"])
    require_unit_rights(ctx, state, unit, attack=False)
    new = state.clone()
    target = tr.find_unit(new, unit.name)
    text = ctx.opts["rows"].strip()
    rows = (
        None if text.lower() in ("clear", "none", "-", "cancella") else aos_system.parse_table(text)
    )
    aos_system.set_table(target, rows)
    await apply_change(ctx, new, "aos_table", game=game)
    row = aos_system.current_row(target)
    blocks = unit_blocks(ctx, target, new.system)
    if row is not None:
        blocks.append(
            [plain(ctx.t("aos.table_row", wounds=aos_system.wounds_on_current_model(target)))]
        )
    return Reply(
        blocks=blocks,
        data={
            "system": SYSTEM,
            "unit": target.model_dump(),
            "row": row.model_dump() if row else None,
        },
    )


# --- declarations ------------------------------------------------------------------------------


def text_opt(name: str, *aliases: str, required: bool = False) -> OptionSpec:
    return OptionSpec(name, max_length=40, aliases=aliases, required=required)


ATTACK_OPTIONS = (
    text_opt("attacks", "attacchi", "a"),
    text_opt("hit", "colpire", "per_colpire"),
    text_opt("wound", "ferire", "per_ferire"),
    text_opt("rend", "impatto"),
    text_opt("damage", "danni", "d"),
    text_opt("save", "salvezza", "sv"),
    text_opt("ward", "protezione"),
    signed_opt("hit_mod", "mod_colpire", limit=9),
    signed_opt("wound_mod", "mod_ferire", limit=9),
    signed_opt("save_mod", "mod_salvezza", limit=9),
    text_opt("reroll_hit", "ripeti_colpire"),
    text_opt("reroll_wound", "ripeti_ferire"),
    text_opt("reroll_save", "ripeti_salvezza"),
    text_opt("on6_hit", "sei_colpire"),
    text_opt("on6_wound", "sei_ferire"),
    int_opt("models", "modelli", lo=1, hi=100),
    int_opt("wounds_per_model", "ferite", "wounds", lo=1, hi=99),
    unit_opt("target", "bersaglio"),
    unit_opt("attacker", "attaccante"),
    text_opt("weapon", "arma"),
)
MOD = signed_opt("mod", limit=9)
TARGET = unit_opt("target", "bersaglio", "unit", "unita", "caster", "priest")

SETTING_OPTIONS = tuple(
    OptionSpec(name, choices=choices)
    for name, choices in (
        ("save_cap", ("with_rend", "bonus_only")),
        ("hero_cp", ("each", "own")),
        ("random_attacks", ("per_model", "per_unit")),
        ("command_limit", ("per_player", "shared")),
    )
)

SPECS = [
    CommandSpec(
        path=("aos", "attack"),
        handler=attack,
        aliases=("attacco",),
        options=(*ATTACK_OPTIONS, APPLY, DICE),
        examples=(
            "/aos attack attacks=10 hit=3 wound=3 rend=-1 damage=1 save=4",
            "/aos attack attacks=D6 hit=4 wound=3 damage=D3 save=- ward=6 reroll_hit=ones",
            "/aos attack attacker=Vindictors weapon=Stormspear target=Gutrippaz apply",
        ),
    ),
    odds_spec(
        "aos",
        odds,
        ATTACK_OPTIONS,
        "/aos odds attacks=10 hit=3 wound=3 rend=-1 save=4 models=5 wounds_per_model=1",
        "/aos odds attacks=2D6 hit=3 wound=4 on6_hit=mortal:2 save=5 ward=5",
    ),
    CommandSpec(
        path=("aos", "battleshock"),
        handler=battleshock,
        aliases=("shock",),
        options=(
            int_opt("bravery", "coraggio", lo=1, hi=20),
            int_opt("slain", "uccisi", hi=100, required=True),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=(
            "/aos battleshock bravery=6 slain=3",
            "/aos battleshock target=Gutrippaz slain=2 apply",
        ),
    ),
    CommandSpec(
        path=("aos", "cast"),
        handler=cast,
        aliases=("lancia",),
        options=(
            int_opt("value", "valore", lo=2, hi=20, required=True),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/aos cast value=7", "/aos cast value=5 mod=+1 target=Knight-Arcanum apply"),
    ),
    CommandSpec(
        path=("aos", "unbind"),
        handler=unbind,
        aliases=("dissipa",),
        options=(
            int_opt("roll", "tiro", lo=2, hi=30, required=True),
            MOD,
            DICE,
        ),
        examples=("/aos unbind roll=8",),
    ),
    CommandSpec(
        path=("aos", "pray"),
        handler=pray,
        aliases=("prega", "intona"),
        options=(
            int_opt("value", "valore", lo=1, hi=7, required=True),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/aos pray value=4",),
    ),
    CommandSpec(
        path=("aos", "charge"),
        handler=charge,
        aliases=("carica",),
        options=(
            MOD,
            OptionSpec("distance", max_length=8, aliases=("distanza",)),
            DICE,
        ),
        examples=("/aos charge", "/aos charge distance=7.5"),
    ),
    CommandSpec(
        path=("aos", "run"),
        handler=run,
        aliases=("corri",),
        options=(
            int_opt("move", "movimento", hi=40),
            MOD,
            TARGET,
            DICE,
        ),
        examples=("/aos run move=5",),
    ),
    CommandSpec(
        path=("aos", "check"),
        handler=check,
        aliases=("prova",),
        options=(
            OptionSpec("kind", positional=True, required=True, max_length=20, aliases=("tipo",)),
            int_opt("slain", "uccisi", hi=100),
            int_opt("bravery", "coraggio", lo=1, hi=20),
            int_opt("value", "valore", lo=1, hi=20),
            flag_opt("general_slain", "generale_ucciso"),
            MOD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=(
            "/aos check rally slain=4",
            "/aos check recovery target=Lord apply",
            "/aos check dispel value=6",
        ),
    ),
    CommandSpec(
        path=("aos", "priority"),
        handler=priority,
        aliases=("priorita",),
        options=(
            OptionSpec("tie", max_length=40, aliases=("pareggio",)),
            OptionSpec("deployed", max_length=40, aliases=("schierato",)),
            OptionSpec("goes", choices=("first", "second"), default="first", aliases=("va",)),
            APPLY,
            DICE,
        ),
        examples=(
            "/aos priority",
            "/aos priority apply",
            "/aos priority deployed=@Ann apply goes=second",
        ),
    ),
    CommandSpec(path=("aos", "hero"), handler=hero, aliases=("eroi",), examples=("/aos hero",)),
    CommandSpec(
        path=("aos", "command"),
        handler=command,
        aliases=("comando",),
        options=(
            OptionSpec("name", type="text", positional=True, max_length=40, aliases=("nome",)),
            unit_opt("unit", "unita"),
        ),
        examples=("/aos command", "/aos command all-out attack unit=Vindictors"),
    ),
    CommandSpec(
        path=("aos", "weapon"),
        handler=weapon,
        aliases=("arma",),
        options=(
            unit_opt("unit", "unita", positional=True, required=True),
            OptionSpec("name", positional=True, required=True, max_length=30, aliases=("nome",)),
            text_opt("range", "gittata"),
            *(o for o in ATTACK_OPTIONS if o.name in WEAPON_OPTIONS),
            flag_opt("remove", "rimuovi"),
        ),
        examples=(
            "/aos weapon Vindictors Stormspear range=2 attacks=2 hit=3 wound=3 rend=-1 damage=1",
        ),
    ),
    CommandSpec(
        path=("aos", "table"),
        handler=damage_table,
        aliases=("tabella",),
        options=(
            unit_opt("unit", "unita", positional=True, required=True),
            OptionSpec(
                "rows",
                type="text",
                positional=True,
                required=True,
                max_length=300,
                aliases=("righe",),
            ),
        ),
        examples=('/aos table Drake "0:move=12,claws=6 5:move=11,claws=5 9:move=10,claws=4"',),
    ),
    CommandSpec(
        path=("aos", "settings"),
        handler=SETTINGS.command,
        aliases=("impostazioni",),
        options=SETTING_OPTIONS,
        examples=("/aos settings", "/aos settings save_cap=bonus_only hero_cp=own"),
    ),
]
