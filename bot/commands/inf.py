"""/inf: Infinity (N1/N2-era) Normal and Face to Face rolls, attacks with ammunition and
saves and their exact odds, range bands and weapons, orders, initiative, Retreat! and the
per-chat settings.

The rules are in rules_core.systems.inf (pure); this module reads options, the chat's game
(`attacker=UNIT` / `target=UNIT`) and settings, applies results as one game event (`apply`),
logs the dice in the roll log and renders the chain.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any

from bot import session
from bot.commands import game_view, system_kit
from bot.commands.context import Context
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data, percent
from bot.commands.spec import (
    APPLY,
    ATTACKER,
    DICE,
    TARGET,
    CommandSpec,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    signed_opt,
    stat_opt,
    unit_opt,
)
from bot.commands.system_kit import log_roll, resolution, signed
from bot.protocol import Block, Reply, bold, code, plain
from bot.storage import games
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.steps import Step
from rules_core.systems.base import Note
from rules_core.systems.inf import orders as orders_rules
from rules_core.systems.inf import tables
from rules_core.systems.inf.attack import MONO_DAMAGE, resolve_attack
from rules_core.systems.inf.models import (
    SETTING_CHOICES,
    AttackOutcome,
    AttackRequest,
    InfSettings,
    Side,
    ammo_code,
    update_settings,
)
from rules_core.systems.inf.odds import attack_odds, roll_odds
from rules_core.systems.inf.rolls import ftf_distribution, resolve_ftf, resolve_roll
from rules_core.systems.inf.system import (
    DIS,
    GROUP_RESOURCES,
    IMM,
    LT_RESOURCE,
    UNIT_ORDER,
    needs_recount,
    recount,
)

# --- settings, game, units --------------------------------------------------------------------


async def keep_retreat(
    ctx: Context, game: games.StoredGame | None, current: InfSettings, changes: dict[str, str]
) -> None:
    """The turn-start recount (a game hook) reads the Retreat! rule from the game: a change of
    it is copied into the chat's Infinity game."""
    if game is None or game.state.system != "inf" or "retreat" not in changes:
        return
    rule = current.retreat

    def keep(state: GameState) -> GameState:
        new = state.clone()
        new.extra.setdefault("inf", {})["retreat"] = rule
        return new

    await session.apply_change(ctx, keep, "inf_settings")


SETTINGS = system_kit.SystemSettings(
    "inf",
    InfSettings,
    tuple(SETTING_CHOICES),
    update_settings,
    "inf.settings_admin_only",
    per_value=False,
    on_change=keep_retreat,
)
GAME = system_kit.SystemGame("inf", "inf.not_inf_game", "inf.apply_needs_target")


def custom_weapons(game: games.StoredGame | None) -> dict[str, dict[str, Any]]:
    if game is None:
        return {}
    stored = game.state.extra.get("inf", {}).get("weapons", {})
    return dict(stored) if isinstance(stored, dict) else {}


async def weapons_of_chat(ctx: Context) -> dict[str, dict[str, Any]]:
    game = await ctx.active_game()
    if game is None or game.state.system != "inf":
        return {}
    return custom_weapons(game)


# --- rendering ----------------------------------------------------------------------------------


MARK = {"S": "✓", "C": "★", "F": "✗"}


def dice_text(step: Step) -> str:
    marks = step.detail.get("marks")
    if isinstance(marks, list) and len(marks) == len(step.dice):
        return "[" + " ".join(f"{f}{MARK[m]}" for f, m in zip(step.dice, marks, strict=True)) + "]"
    return system_kit.dice_text(step.dice)


def mods_text(ctx: Context, step: Step) -> str:
    return " ".join(f"{signed(m.value)} {ctx.t(f'inf.mod.{m.name}')}" for m in step.modifiers)


def roll_block(ctx: Context, step: Step) -> Block:
    label = bold(ctx.t(f"inf.step.{step.name}") + ": ")
    attr = step.detail.get("attr")
    target = step.target if step.target is not None else 0
    head = f"{attr} {mods_text(ctx, step)}".strip() if step.modifiers else f"{attr}"
    if step.outcome == "auto_fail":
        return [
            label,
            plain(ctx.t("inf.target", target=target, attr=head) + " → "),
            bold(ctx.t("inf.auto_fail")),
        ]
    line = ctx.t("inf.target", target=target, attr=head) + f" {dice_text(step)}"
    if step.detail.get("cf") is not None:  # L392-394: used for scatter (x6 cm) and CC shots
        line += " " + ctx.t("inf.cf", cf=step.detail["cf"])
    if step.name in ("player", "opponent"):
        return [label, plain(line)]
    line += " → "
    crits = step.detail.get("criticals") or 0
    count_key = "inf.successes" if step.name == "roll" else "inf.hits"
    result = ctx.t(count_key, n=step.total)
    if crits:
        result += " " + ctx.t("inf.crits", n=crits)
    return [label, plain(line), bold(result)]


def save_block(ctx: Context, step: Step) -> Block:
    who = ctx.t(f"inf.side.{step.detail.get('side', 'target')}")
    label = bold(ctx.t(f"inf.step.{step.name}") + f" ({who}): ")
    if step.name == "critical":
        return [label, bold(ctx.t(f"inf.effect.{step.outcome}"))]
    verdict = (
        ctx.t("inf.effect.pass") if step.outcome == "pass" else ctx.t(f"inf.effect.{step.outcome}")
    )
    if step.name == "adh_roll":
        line = f"{dice_text(step)} " + ctx.t("inf.vs_target", target=step.target) + " → "
        return [label, plain(line), bold(verdict)]
    line = (
        f"{dice_text(step)} {mods_text(ctx, step)} = {step.total} "
        + ctx.t("inf.vs_damage", dam=step.target)
        + " → "
    )
    return [label, plain(line), bold(verdict)]


def step_block(ctx: Context, step: Step) -> Block:
    if step.name in ("active", "reactive", "roll", "player", "opponent"):
        return roll_block(ctx, step)
    return save_block(ctx, step)


def state_text(ctx: Context, state: str) -> str:
    return ctx.t(f"inf.state.{state}")


def side_verdict(
    ctx: Context,
    key: str,
    hits: int,
    wounds: int,
    state: str,
    flags: tuple[bool, bool, bool, bool],
) -> Block:
    """One side's result line: hits, wounds, state, then its disabled / immobilised / Guts /
    cancelled marks."""
    line = ctx.t(key, hits=hits, wounds=wounds, state=state_text(ctx, state))
    names = ("inf.effect.disable", "inf.effect.immobilize", "inf.guts", "inf.cancelled")
    extra = [ctx.t(name) for name, on in zip(names, flags, strict=True) if on]
    return [bold(line + (" · " + " · ".join(extra) if extra else ""))]


def attack_verdict(ctx: Context, out: AttackOutcome, vs_wounds: bool) -> list[Block]:
    blocks = [
        side_verdict(
            ctx,
            "inf.verdict.target",
            out.active_hits,
            out.target_wounds,
            out.target_state,
            (out.target_disabled, out.target_immobilized, out.guts_roll, False),
        )
    ]
    if out.reactive_hits:
        blocks.append(
            side_verdict(
                ctx,
                "inf.verdict.active",
                out.reactive_hits,
                out.active_wounds,
                out.active_state,
                (out.active_disabled, out.active_immobilized, out.active_guts_roll, not vs_wounds),
            )
        )
    return blocks


# --- /inf roll, ftf ----------------------------------------------------------------------------

STATS = ("cc", "bs", "ph", "wip", "arm", "bts")


async def roll_cmd(ctx: Context) -> Reply:
    _, _, unit = await GAME.units(ctx)
    attr = ctx.opts.get("attr")
    if attr is None and unit is not None:
        stat = ctx.opts.get("stat") or "bs"
        attr = unit.stats.get(stat)
    if attr is None:
        raise UserError("inf.missing_stat", option="attr")
    source = ctx.dice(ctx.opts["dice"])
    steps, out = resolve_roll(attr, ctx.opts.get("mod") or 0, ctx.opts.get("burst") or 1, source)
    source.check_exhausted()
    data = resolution("inf", steps, out.model_dump())
    await log_roll(ctx, source, out.successes, data)
    blocks: list[Block] = [roll_block(ctx, steps[0])]
    return Reply(title=ctx.t("inf.title_roll", target=out.target), blocks=blocks, data=data)


async def ftf_cmd(ctx: Context) -> Reply:
    source = ctx.dice(ctx.opts["dice"])
    steps, out, _, _ = resolve_ftf(
        ctx.opts["attr"],
        ctx.opts.get("mod") or 0,
        ctx.opts.get("burst") or 1,
        ctx.opts["vs"],
        ctx.opts.get("vs_mod") or 0,
        ctx.opts.get("vs_burst") or 1,
        source,
    )
    source.check_exhausted()
    data = resolution("inf", steps, out.model_dump())
    await log_roll(ctx, source, out.active_hits, data)
    if out.active_hits:
        verdict = ctx.t("inf.winner.active", n=out.active_hits)
    elif out.reactive_hits:
        verdict = ctx.t("inf.winner.reactive", n=out.reactive_hits)
    else:
        verdict = ctx.t("inf.winner.none")
    blocks = [step_block(ctx, s) for s in steps] + [[bold(verdict)]]
    title = ctx.t("inf.title_ftf", a=steps[0].target, b=steps[1].target)
    return Reply(title=title, blocks=blocks, data=data)


# --- attack requests ---------------------------------------------------------------------------


def stat(ctx: Context, option: str, unit: Unit | None, name: str) -> int | None:
    """The option, else the unit's stat; BTS is taken as its absolute value (L1344-1348)."""
    value = system_kit.option_or_stat(ctx, option, unit, name)
    return abs(value) if value is not None and name == "bts" else value


def heavy(unit: Unit | None) -> bool:
    return unit is not None and unit.stats.get("type") in tables.HEAVY


def profile(ctx: Context, unit: Unit | None, prefix: str) -> dict[str, Any]:
    """The profile a side saves with: ARM, BTS, W and cover from its options (`my_…` for the
    attacker, plain for the target), else from its unit, and the unit's wounds, PH and type."""
    return {
        "arm": stat(ctx, prefix + "arm", unit, "arm") or 0,
        "bts": stat(ctx, prefix + "bts", unit, "bts") or 0,
        "w": stat(ctx, prefix + "w", unit, "w") or 1,
        "wounds": unit.damage if unit is not None else 0,
        "ph": unit.stats.get("ph") if unit is not None else None,
        "structure": bool(unit.stats.get("structure")) if unit is not None else False,
        "heavy": heavy(unit),
        "cover": bool(ctx.opts.get(prefix + "cover")),
    }


def attack_request(
    ctx: Context,
    game: games.StoredGame | None,
    attacker: Unit | None,
    target: Unit | None,
    weapons: dict[str, dict[str, Any]],
) -> tuple[AttackRequest, list[str]]:
    """The request, and notes on what was read or overridden (weapon, range, Mono damage)."""
    notes: list[str] = []
    cc = bool(ctx.opts.get("cc"))
    attr = stat(ctx, "attr", attacker, "cc" if cc else "bs")
    if attr is None:
        raise UserError("inf.missing_stat", option="attr")
    mod = ctx.opts.get("mod") or 0
    dam, burst, ammo = ctx.opts.get("dam"), ctx.opts.get("burst"), ctx.opts.get("ammo")
    weapon_name = ctx.opts.get("weapon")
    if weapon_name is None and attacker is not None and dam is None:
        loadout = attacker.extra.get("weapons") or []
        if loadout:
            weapon_name = str(loadout[0])
    range_mod = 0
    if weapon_name is not None:
        weapon = tables.find_weapon(weapon_name, weapons)
        dam = weapon.dam if dam is None else dam
        burst = weapon.burst if burst is None else burst
        ammo = weapon.ammo if ammo is None else ammo
        notes.append(ctx.t("inf.note_weapon", weapon=weapon.name, dam=dam, burst=burst))
        if ctx.opts.get("distance") is not None:
            range_mod = tables.range_mod(weapon, ctx.opts["distance"])
            notes.append(
                ctx.t("inf.note_range", distance=ctx.opts["distance"], mod=signed(range_mod))
            )
    elif ctx.opts.get("distance") is not None:
        raise UserError("inf.distance_needs_weapon")
    code_ = ammo_code(ammo)
    if code_ == "MONO" and dam != MONO_DAMAGE:
        notes.append(ctx.t("inf.note_mono"))  # L3058-3060: Damage 12 whatever the weapon
        dam = MONO_DAMAGE
    if dam is None and code_ != "ADH":
        raise UserError("inf.missing_dam")
    vs = ctx.opts.get("vs")
    vs_ammo = ammo_code(ctx.opts.get("vs_ammo"))
    vs_dam = ctx.opts.get("vs_dam")
    if vs_ammo == "MONO":
        vs_dam = MONO_DAMAGE
    if (vs_dam is not None or ctx.opts.get("vs_ammo")) and vs is None:
        raise UserError("inf.vs_dam_needs_vs")
    if ctx.opts.get("vs_ammo") and vs_dam is None and vs_ammo != "ADH":
        raise UserError("inf.missing_vs_dam")
    active = Side(
        attr=attr,
        mod=mod,
        range=range_mod,
        burst=burst or 1,
        dam=dam,
        ammo=code_,
        **profile(ctx, attacker, "my_"),
    )
    defender = Side(
        attr=vs or 0,
        mod=ctx.opts.get("vs_mod") or 0,
        burst=ctx.opts.get("vs_burst") or 1,
        dam=vs_dam,
        ammo=vs_ammo,
        **profile(ctx, target, ""),
    )
    if code_ == "ADH" and defender.ph is None:
        raise UserError("inf.adh_needs_ph")
    if vs_ammo == "ADH" and active.ph is None:
        raise UserError("inf.adh_needs_attacker")
    return AttackRequest(active=active, target=defender, opposed=vs is not None, cc=cc), notes


def mark(
    state: GameState,
    unit: Unit,
    wounds: int,
    killed_state: str,
    imm: bool,
    dis: bool,
    notes: list[Note],
) -> GameState:
    """Wounds on `unit`; a Shock/Mono kill is applied as W+1 wounds; IMM and DIS markers."""
    current = tr.find_unit(state, unit.name)
    amount = wounds
    if killed_state == "dead":
        amount = max(amount, current.max_wounds - current.damage)
    new = tr.damage(state, unit.name, amount, notes=notes) if amount else state
    if tr.find_unit(new, unit.name).destroyed:
        return new
    have = {fold(c.name) for c in tr.find_unit(new, unit.name).conditions}
    if imm and IMM not in have:
        new = tr.add_condition(new, unit.name, IMM, None)
    if dis and DIS not in have:
        new = tr.add_condition(new, unit.name, DIS, None)
    return new


async def apply_attack(
    ctx: Context, game: games.StoredGame, attacker: Unit | None, target: Unit, out: AttackOutcome
) -> list[Block]:
    """The attack's result on target= (and on attacker= if it was hit back) as ONE event."""
    touched = (
        out.target_wounds
        or out.target_state == "dead"
        or out.target_disabled
        or out.target_immobilized
    )
    back = attacker is not None and (
        out.active_wounds
        or out.active_state == "dead"
        or out.active_disabled
        or out.active_immobilized
    )
    if not touched and not back:
        return [[plain(ctx.t("inf.nothing_applied", unit=target.name))]]
    if attacker is not None:
        session.require_unit_rights(ctx, game.state, attacker, attack=True)
    notes: list[Note] = []

    def hit(state: GameState) -> GameState:
        notes.clear()
        new = state
        if touched:
            new = mark(
                new,
                target,
                out.target_wounds,
                out.target_state,
                out.target_immobilized,
                out.target_disabled,
                notes,
            )
        if back and attacker is not None:
            new = mark(
                new,
                attacker,
                out.active_wounds,
                out.active_state,
                out.active_immobilized,
                out.active_disabled,
                notes,
            )
        return new

    change = await session.apply_change(ctx, hit, "inf_attack", unit=target.name, attack=True)
    blocks = game_view.notes_blocks(ctx, notes)
    if change.unit is not None:
        blocks += game_view.unit_blocks(ctx, change.unit, change.after.system)
    if back and attacker is not None:
        after = next((u for u in change.after.units if u.name == attacker.name), None)
        if after is not None:
            blocks += game_view.unit_blocks(ctx, after, change.after.system)
    return blocks


async def attack_cmd(ctx: Context) -> Reply:
    game, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    weapons = custom_weapons(game) if game is not None else await weapons_of_chat(ctx)
    req, notes = attack_request(ctx, game, attacker, target, weapons)
    source = ctx.dice(ctx.opts["dice"])
    steps, out = resolve_attack(req, source, settings)
    blocks: list[Block] = [[plain(n)] for n in notes]
    blocks += [step_block(ctx, s) for s in steps]
    blocks += attack_verdict(ctx, out, req.target.dam is not None or req.target.ammo == "ADH")
    data = resolution("inf", steps, out.model_dump())
    source.check_exhausted()
    if game is not None and target is not None and ctx.opts.get("apply"):
        blocks += await apply_attack(ctx, game, attacker, target, out)
        data["applied"] = {"unit": target.name, "wounds": out.target_wounds}
    await log_roll(ctx, source, out.target_wounds, data)
    title = ctx.t(
        "inf.title_attack",
        target=req.active.target_vs(req.target),
        burst=req.active.burst,
        dam=req.active.dam if req.active.dam is not None else "-",
        ammo=req.active.ammo,
    )
    return Reply(title=title, blocks=blocks, data=data)


# --- odds ---------------------------------------------------------------------------------------


def _f(p: Fraction) -> float:
    return float(p)


async def odds_cmd(ctx: Context) -> Reply:
    game, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    weapons = custom_weapons(game) if game is not None else await weapons_of_chat(ctx)
    if (
        ctx.opts.get("dam") is None
        and not ctx.opts.get("weapon")
        and not ctx.opts.get("ammo")
        and (attacker is None or not attacker.extra.get("weapons"))
    ):
        return await hits_odds(ctx, attacker)
    req, notes = attack_request(ctx, game, attacker, target, weapons)
    odds = await ctx.offload(attack_odds, req, settings)  # off the event loop
    dist = as_distribution(odds.target.wounds)
    title = ctx.t(
        "inf.title_attack",
        target=req.active.target_vs(req.target),
        burst=req.active.burst,
        dam=req.active.dam if req.active.dam is not None else "-",
        ammo=req.active.ammo,
    )
    blocks: list[Block] = [[plain(n)] for n in notes]
    blocks += distribution_blocks(ctx, dist, [code(title + " · " + ctx.t("inf.odds_wounds"))])
    t, a = odds.target, odds.active
    blocks.append(
        [
            plain(
                ctx.t(
                    "inf.p_line",
                    hit=percent(_f(t.p_hit)),
                    back=percent(_f(a.p_hit)),
                    unconscious=percent(_f(t.p_unconscious)),
                    dead=percent(_f(t.p_dead)),
                    guts=percent(_f(t.p_guts)),
                )
            )
        ]
    )
    if a.p_dead or a.p_unconscious or any(k for k in a.wounds if k):
        blocks.append(
            [
                plain(
                    ctx.t(
                        "inf.p_back",
                        unconscious=percent(_f(a.p_unconscious)),
                        dead=percent(_f(a.p_dead)),
                    )
                )
            ]
        )
    active_dist = as_distribution(a.wounds)
    data = {
        "system": "inf",
        **distribution_data(dist),
        "p_target_hit": _f(t.p_hit),
        "p_active_hit": _f(a.p_hit),
        "p_target_unconscious": _f(t.p_unconscious),
        "p_target_dead": _f(t.p_dead),
        "p_guts_roll": _f(t.p_guts),
        "p_target_disabled": _f(t.p_disabled),
        "p_target_immobilized": _f(t.p_immobilized),
        "p_active_unconscious": _f(a.p_unconscious),
        "p_active_dead": _f(a.p_dead),
        "active_wounds": [[v, p] for v, p in active_dist.items()],
    }
    return Reply(title=ctx.t("inf.odds_title"), blocks=blocks, data=data)


async def hits_odds(ctx: Context, attacker: Unit | None) -> Reply:
    """With no weapon: the twin of /inf roll (no vs=) or /inf ftf: the hits of the active side."""
    attr = stat(ctx, "attr", attacker, "cc" if ctx.opts.get("cc") else "bs")
    if attr is None:
        raise UserError("inf.missing_stat", option="attr")
    mod = ctx.opts.get("mod") or 0
    burst = ctx.opts.get("burst") or 1
    vs = ctx.opts.get("vs")
    cover = 3 if ctx.opts.get("cover") else 0
    a_target = attr + mod - cover
    if vs is None:
        successes, p_crit = await ctx.offload(roll_odds, attr, mod - cover, burst)
        weights = successes.as_fractions()
        p_active = 1 - weights.get(0, Fraction(0))
        p_back = Fraction(0)
    else:
        r_target = vs + (ctx.opts.get("vs_mod") or 0) - (3 if ctx.opts.get("my_cover") else 0)
        vs_burst = ctx.opts.get("vs_burst") or 1
        ftf = await ctx.offload(ftf_distribution, a_target, burst, r_target, vs_burst)
        weights = {}
        p_back = Fraction(0)
        p_crit = Fraction(0)
        for (who, c, n), p in ftf.as_fractions().items():
            k = c + n if who == "active" else 0
            weights[k] = weights.get(k, Fraction(0)) + p
            if who == "reactive":
                p_back += p
            if who == "active" and c:
                p_crit += p
        p_active = 1 - weights.get(0, Fraction(0))
    dist = as_distribution(weights)
    if vs is None:
        title = ctx.t("inf.title_roll", target=a_target)
    else:
        title = ctx.t("inf.title_ftf", a=a_target, b=r_target)
    title += " · " + ctx.t("inf.odds_hits")
    blocks = distribution_blocks(ctx, dist, [code(title)])
    blocks.append(
        [
            plain(
                ctx.t(
                    "inf.p_hits_line",
                    hit=percent(_f(p_active)),
                    crit=percent(_f(p_crit)),
                    back=percent(_f(p_back)),
                )
            )
        ]
    )
    data = {
        "system": "inf",
        **distribution_data(dist),
        "p_target_hit": _f(p_active),
        "p_active_hit": _f(p_back),
        "p_critical": _f(p_crit),
        "kind": "hits",
    }
    return Reply(title=ctx.t("inf.odds_title"), blocks=blocks, data=data)


# --- range, weapons, loadout --------------------------------------------------------------------


async def range_cmd(ctx: Context) -> Reply:
    weapons = await weapons_of_chat(ctx)
    weapon = tables.find_weapon(ctx.opts["weapon"], weapons)
    mod = tables.range_mod(weapon, ctx.opts["distance"])
    text = ctx.t(
        "inf.range_mod", weapon=weapon.name, distance=ctx.opts["distance"], mod=signed(mod)
    )
    return Reply(
        blocks=[[bold(text)], [plain(tables.bands_text(weapon))]],
        data={"system": "inf", "weapon": weapon.name, "distance": ctx.opts["distance"], "mod": mod},
    )


def weapon_line(w: tables.Weapon) -> str:
    return f"{w.name}: DAM {w.dam} B{w.burst} {w.ammo} · {tables.bands_text(w)}"


async def weapon_cmd(ctx: Context) -> Reply:
    action = ctx.opts.get("action") or "list"
    if action == "list":
        custom = await weapons_of_chat(ctx)
        shown = [tables.RIFLE] + [tables.Weapon.model_validate(v) for v in custom.values()]
        return Reply(
            title=ctx.t("inf.weapons_title"),
            blocks=[[plain(weapon_line(w))] for w in shown],
            data={"system": "inf", "weapons": [w.model_dump() for w in shown]},
        )
    name = ctx.opts.get("name")
    if not name:
        raise UserError("inf.weapon_needs_name")
    game = await GAME.load(ctx)
    session.require_player(ctx, game.state)
    key = name.strip().lower()
    if action == "remove":
        if key not in custom_weapons(game):
            raise UserError(
                "inf.unknown_weapon", name=name[:30], valid=", ".join(custom_weapons(game)) or "-"
            )

        def drop(state: GameState) -> GameState:
            new = state.clone()
            new.extra.setdefault("inf", {}).setdefault("weapons", {}).pop(key, None)
            return new

        await session.apply_change(ctx, drop, "inf_weapon")
        return Reply(blocks=[[plain(ctx.t("inf.weapon_removed", name=name))]])
    if key in tables.BUILTIN:
        raise UserError("inf.builtin_weapon", name=name[:30])
    for option in ("bands", "dam", "burst"):
        if ctx.opts.get(option) is None:
            raise UserError("inf.weapon_missing", option=option)
    weapon = tables.make_weapon(
        name, ctx.opts["bands"], ctx.opts["dam"], ctx.opts["burst"], ctx.opts.get("ammo")
    )

    def add(state: GameState) -> GameState:
        new = state.clone()
        stored = new.extra.setdefault("inf", {}).setdefault("weapons", {})
        if key not in stored and len(stored) >= tables.MAX_WEAPONS:
            raise UserError("inf.too_many_weapons", limit=tables.MAX_WEAPONS)
        stored[key] = weapon.model_dump()
        return new

    await session.apply_change(ctx, add, "inf_weapon")
    return Reply(
        blocks=[[plain(ctx.t("inf.weapon_added")), bold(" " + weapon_line(weapon))]],
        data={"system": "inf", "weapon": weapon.model_dump()},
    )


async def loadout_cmd(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, ctx.opts["unit"])
    names = [n.strip() for n in ctx.opts["weapons"].split(",") if n.strip()]
    if not names or len(names) > 6:
        raise UserError("inf.bad_loadout")
    weapons = custom_weapons(game)
    found = [tables.find_weapon(n, weapons).name for n in names]

    def equip(state: GameState) -> GameState:
        new = state.clone()
        tr.find_unit(new, unit.name).extra["weapons"] = found
        return new

    change = await session.apply_change(ctx, equip, "inf_loadout", unit=unit.name)
    after = change.unit or unit
    return Reply(
        blocks=game_view.unit_blocks(ctx, after, "inf"),
        data={"system": "inf", "unit": after.name, "weapons": found},
    )


# --- orders, initiative, retreat ----------------------------------------------------------------


def pools_blocks(
    ctx: Context, state: GameState, user_id: str
) -> tuple[list[Block], dict[str, Any]]:
    pools = state.resources.get(f"player:{user_id}", {})
    groups = {name: pools.get(name, 0) for name in GROUP_RESOURCES.values()}
    irregular = {
        u.name: state.resources.get(f"unit:{fold(u.name)}", {}).get(UNIT_ORDER, 0)
        for u in state.units
        if u.owner == user_id and u.stats.get("irr")
    }
    shown = [
        ctx.t("inf.pool_group", group=g, orders=groups[name])
        for g, name in GROUP_RESOURCES.items()
        if g == 1 or groups[name]
    ]
    line = ctx.t(
        "inf.pool_line",
        player=session.name_of(state, user_id),
        groups=" · ".join(shown),
        lt=pools.get(LT_RESOURCE, 0),
    )
    blocks: list[Block] = [[bold(line)]]
    if irregular:
        blocks.append(
            [
                plain(
                    ctx.t(
                        "inf.pool_irregular",
                        units=", ".join(f"{k} {v}" for k, v in irregular.items()),
                    )
                )
            ]
        )
    return blocks, {"groups": groups, "lt": pools.get(LT_RESOURCE, 0), "irregular": irregular}


async def orders_cmd(ctx: Context) -> Reply:
    """Show the Order pools; `recount` counts them now (done by itself at each turn start);
    `spend` spends one (or n) for unit=: its own Irregular Order first, else its group's pool,
    or the Lieutenant's Special Order with `lt`."""
    game = await GAME.load(ctx)
    action = ctx.opts.get("action") or "show"
    state = game.state
    notes: list[Note] = []
    me = ctx.request.user_id
    if action == "recount":
        player = session.require_player(ctx, state)
        who = player.user_id if state.player(me) else (state.current or me)

        def count(st: GameState) -> GameState:
            notes.clear()
            new = st.clone()
            notes.extend(recount(new, who))
            return new

        change = await session.apply_change(ctx, count, "inf_orders")
        blocks, data = pools_blocks(ctx, change.after, who)
        return Reply(
            title=ctx.t("inf.orders_title"),
            blocks=game_view.notes_blocks(ctx, notes) + blocks,
            data={"system": "inf", **data},
        )
    if action == "show" and needs_recount(state) and state.current:
        # The first turn has no turn start: count the current player's Orders now.
        current = state.current

        def first_count(st: GameState) -> GameState:
            notes.clear()
            new = st.clone()
            notes.extend(recount(new, current))
            return new

        state = (await session.apply_change(ctx, first_count, "inf_orders", game=game)).after
    if action == "spend":
        n = ctx.opts.get("n") or 1
        unit_name = ctx.opts.get("unit")
        if not unit_name:
            raise UserError("inf.spend_needs_unit")
        unit = tr.find_unit(state, unit_name)
        spent: list[str] = []

        def spend(st: GameState) -> GameState:
            spent.clear()
            notes.clear()
            new = st
            if needs_recount(st) and st.current:  # the first turn has no turn start
                new = st.clone()
                notes.extend(recount(new, st.current))
            owner = f"player:{unit.owner}"
            if ctx.opts.get("lt"):
                if not unit.stats.get("lt"):
                    raise UserError("inf.not_lieutenant", unit=unit.name)
                new, _ = tr.change_resource(new, owner, LT_RESOURCE, "spend", n)
                spent.append(LT_RESOURCE)
                return new
            left = n
            ukey = f"unit:{fold(unit.name)}"
            own = new.resources.get(ukey, {}).get(UNIT_ORDER, 0) if unit.stats.get("irr") else 0
            if own:
                use = min(own, left)
                new, _ = tr.change_resource(new, ukey, UNIT_ORDER, "spend", use)
                spent.append(UNIT_ORDER)
                left -= use
            if left:
                pool = GROUP_RESOURCES.get(unit.stats.get("group", 1), "orders")
                new, _ = tr.change_resource(new, owner, pool, "spend", left)
                spent.append(pool)
            return new

        change = await session.apply_change(ctx, spend, "inf_order", unit=unit.name)
        blocks, data = pools_blocks(ctx, change.after, unit.owner)
        pools = ", ".join(ctx.t(f"inf.pool_name.{p}") for p in spent)
        head = [plain(ctx.t("inf.spent", n=n, unit=unit.name, pools=pools))]
        return Reply(
            title=ctx.t("inf.orders_title"),
            blocks=[*game_view.notes_blocks(ctx, notes), head, *blocks],
            data={"system": "inf", "spent": n, "from": spent, **data},
        )
    blocks = game_view.notes_blocks(ctx, notes)
    data_all: dict[str, Any] = {}
    for player in state.players:
        b, d = pools_blocks(ctx, state, player.user_id)
        blocks += b
        data_all[player.user_id] = d
    if not blocks:
        blocks = [[plain(ctx.t("inf.no_players"))]]
    return Reply(
        title=ctx.t("inf.orders_title"), blocks=blocks, data={"system": "inf", "players": data_all}
    )


async def initiative_cmd(ctx: Context) -> Reply:
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(ctx.opts["dice"])
    steps, out = orders_rules.resolve_initiative(
        ctx.opts["wip"],
        ctx.opts.get("mod") or 0,
        ctx.opts["vs"],
        ctx.opts.get("vs_mod") or 0,
        source,
        settings.initiative,
    )
    source.check_exhausted()
    data = resolution("inf", steps, out.model_dump())
    await log_roll(ctx, source, 1 if out.winner == "player" else 0, data)
    if out.method == "ftf":
        blocks = [roll_block(ctx, s) for s in steps]
    else:
        blocks = [
            [
                bold(ctx.t(f"inf.step.{s.name}") + ": "),
                plain(f"[{s.dice[0]}] {signed(s.modifiers[0].value)} = {s.total}"),
            ]
            for s in steps
        ]
    blocks.append([bold(ctx.t(f"inf.initiative.{out.winner}"))])
    title = ctx.t("inf.title_initiative", a=ctx.opts["wip"], b=ctx.opts["vs"])
    return Reply(title=title, blocks=blocks, data=data)


async def retreat_cmd(ctx: Context) -> Reply:
    settings = await SETTINGS.load(ctx)
    lost, total = ctx.opts.get("lost"), ctx.opts.get("total")
    morat = bool(ctx.opts.get("morat"))
    rows: list[dict[str, Any]] = []
    if lost is not None or total is not None:
        if lost is None or total is None or total == 0:
            raise UserError("inf.retreat_needs_both")
        rows.append({"player": None, "lost": lost, "total": total, "morat": morat})
    else:
        game = await GAME.load(ctx)
        for player in game.state.players:
            mine = [u for u in game.state.units if u.owner == player.user_id]
            t = sum(u.stats.get("pts", 0) for u in mine)
            lo = sum(u.stats.get("pts", 0) for u in mine if orders_rules.unit_state(u) != "ok")
            m = morat or any(u.stats.get("morat") for u in mine)
            rows.append({"player": player.name, "lost": lo, "total": t, "morat": m})
        if not rows:
            raise UserError("inf.no_players")
    blocks: list[Block] = []
    for row in rows:
        row["retreat"] = orders_rules.in_retreat(
            row["lost"], row["total"], morat=row["morat"], rule=settings.retreat
        )
        share = row["lost"] / row["total"] if row["total"] else 0.0
        row["share"] = share
        limit = 75 if row["morat"] else 60
        sign = "≥" if settings.retreat == "ge" else ">"
        text = ctx.t(
            "inf.retreat_line",
            who=row["player"] or "-",
            lost=row["lost"],
            total=row["total"],
            share=f"{share * 100:.0f}",
            rule=f"{sign} {limit}%",
        )
        verdict = ctx.t("inf.retreat_yes" if row["retreat"] else "inf.retreat_no")
        blocks.append([plain(text + " → "), bold(verdict)])
    return Reply(
        title=ctx.t("inf.retreat_title"), blocks=blocks, data={"system": "inf", "players": rows}
    )


# --- declarations -------------------------------------------------------------------------------


# Infinity's values and modifiers run to 30 (d20 rolls), past the builders' default 20.
num = partial(int_opt, hi=30)
sig = partial(signed_opt, limit=30)
# Free text, not `choices`: ammo_code also takes the Italian names (FUOCO, MONOFILARE...).
AMMO_OPT = OptionSpec("ammo", max_length=12, aliases=("munizione", "mun"))
VS_AMMO = OptionSpec("vs_ammo", max_length=12, aliases=("mun_contro",))
# The attack's numbers become fields of the rules' `Side`: their bounds come from there.
side = partial(stat_opt, Side)
ROLL_OPTS = (
    side("attr", "attr", "attributo", "val"),
    side("mod", "mod"),
    side("burst", "burst", "b", "raffica", "r"),
)
VS_OPTS = (
    side("attr", "vs", "contro"),
    side("mod", "vs_mod", "mod_contro"),
    side("burst", "vs_burst", "raffica_contro"),
)
ATTACK_OPTS = (
    *ROLL_OPTS,
    *VS_OPTS,
    side("dam", "dam", "danno", "d"),
    AMMO_OPT,
    side("arm", "arm"),
    side("bts", "bts", "pb"),
    flag_opt("cover", "copertura"),
    side("w", "w", "f"),
    flag_opt("my_cover", "mia_copertura"),
    side("dam", "vs_dam", "danno_contro"),
    VS_AMMO,
    side("arm", "my_arm", "mia_arm"),
    side("bts", "my_bts", "mia_pb"),
    side("w", "my_w", "mia_f"),
    OptionSpec("weapon", max_length=30, aliases=("arma",)),
    num("distance", "distanza", hi=500),
    flag_opt("cc", "corpo_a_corpo"),
    ATTACKER,
    TARGET,
)

SPECS = [
    CommandSpec(
        path=("inf", "roll"),
        handler=roll_cmd,
        aliases=("tiro", "lancio"),
        options=(
            *ROLL_OPTS,
            OptionSpec("stat", choices=STATS, aliases=("attributo_unita",)),
            TARGET,
            DICE,
        ),
        examples=("/inf roll attr=12 mod=-3", "/inf roll attr=11 mod=3 burst=3 dice=4,11,16"),
    ),
    CommandSpec(
        path=("inf", "ftf"),
        handler=ftf_cmd,
        aliases=("confronto",),
        options=(
            num("attr", "attributo", "val", required=True),
            sig("mod"),
            num("burst", "b", "raffica", "r", lo=1, hi=6),
            num("vs", "contro", required=True),
            sig("vs_mod", "mod_contro"),
            num("vs_burst", "raffica_contro", lo=1, hi=6),
            DICE,
        ),
        examples=("/inf ftf attr=11 burst=4 vs=12 vs_mod=3", "/inf ftf attr=11 vs=10 dice=3,8"),
    ),
    CommandSpec(
        path=("inf", "attack"),
        handler=attack_cmd,
        aliases=("attacco", "spara"),
        options=(*ATTACK_OPTS, APPLY, DICE),
        examples=(
            "/inf attack attr=12 mod=3 burst=3 dam=13 vs=11 vs_dam=13 arm=1 my_arm=1",
            "/inf attack attacker=Angus target=WenLiu weapon=Rifle distance=30 vs=11 apply",
            "/inf attack attr=16 dam=14 ammo=SHOCK vs=13 arm=1 cc",
        ),
    ),
    odds_spec(
        "inf",
        odds_cmd,
        ATTACK_OPTS,
        "/inf odds attr=12 burst=3 dam=13 ammo=DA arm=1 w=1",
        "/inf odds attr=11 burst=4 vs=15",
    ),
    CommandSpec(
        path=("inf", "range"),
        handler=range_cmd,
        readonly=True,
        aliases=("distanza", "gittata"),
        options=(
            OptionSpec("weapon", required=True, max_length=30, aliases=("arma",)),
            num("distance", "distanza", "cm", hi=500, required=True),
        ),
        examples=("/inf range weapon=Rifle distance=35",),
    ),
    CommandSpec(
        path=("inf", "weapon"),
        handler=weapon_cmd,
        aliases=("arma",),
        options=(
            OptionSpec(
                "action", positional=True, choices=("list", "add", "remove"), aliases=("azione",)
            ),
            OptionSpec("name", max_length=30, aliases=("nome",)),
            OptionSpec("bands", max_length=80, aliases=("fasce",)),
            num("dam", "danno"),
            num("burst", "raffica", "b", lo=1, hi=6),
            AMMO_OPT,
        ),
        examples=(
            "/inf weapon list",
            "/inf weapon add name=HMG bands=20:0,40:+3,60:-3,120:-6 dam=15 burst=4",
        ),
    ),
    CommandSpec(
        path=("inf", "loadout"),
        handler=loadout_cmd,
        aliases=("equipaggia",),
        options=(
            unit_opt("unit", "unita", positional=True, required=True),
            OptionSpec("weapons", required=True, max_length=120, aliases=("armi",)),
        ),
        examples=("/inf loadout Angus weapons=Rifle",),
    ),
    CommandSpec(
        path=("inf", "orders"),
        handler=orders_cmd,
        aliases=("ordini",),
        options=(
            OptionSpec(
                "action", positional=True, choices=("show", "spend", "recount"), aliases=("azione",)
            ),
            unit_opt("unit", "unita"),
            num("n", lo=1, hi=30),
            flag_opt("lt", "tenente"),
        ),
        examples=("/inf orders", "/inf orders spend unit=Angus", "/inf orders recount"),
    ),
    CommandSpec(
        path=("inf", "initiative"),
        handler=initiative_cmd,
        aliases=("iniziativa",),
        options=(
            num("wip", "vol", required=True),
            sig("mod"),
            num("vs", "contro", required=True),
            sig("vs_mod", "mod_contro"),
            DICE,
        ),
        examples=("/inf initiative wip=12 vs=13", "/inf initiative wip=12 vs=13 dice=7,11"),
    ),
    CommandSpec(
        path=("inf", "retreat"),
        handler=retreat_cmd,
        readonly=True,
        aliases=("ritirata",),
        options=(
            num("lost", "persi", hi=10000),
            num("total", "totale", hi=10000),
            flag_opt("morat"),
        ),
        examples=("/inf retreat", "/inf retreat lost=180 total=300"),
    ),
    CommandSpec(
        path=("inf", "settings"),
        handler=SETTINGS.command,
        aliases=("impostazioni",),
        options=tuple(
            OptionSpec(name, choices=choices) for name, choices in SETTING_CHOICES.items()
        ),
        examples=("/inf settings", "/inf settings retreat=gt"),
    ),
]
