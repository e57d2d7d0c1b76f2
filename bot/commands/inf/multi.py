"""/inf template, /inf split and /inf heal: rolls on several models (templates and automatic
hits, a Burst split between targets) and bringing a model back (Doctor, MediKit, AutoMediKit,
Regeneration). Each rolls (or, with `odds`, gives the exact odds) and, with `apply`, marks the
result on the chat's game as one event. The rules are in rules_core.systems.inf."""

from __future__ import annotations

from typing import Any

from bot import session
from bot.commands import game_view
from bot.commands.context import Context
from bot.commands.inf.args import HealArgs, SplitArgs, TemplateArgs
from bot.commands.inf.common import GAME, SETTINGS, weapons_of_chat
from bot.commands.inf.view import ammo_label, dice_text, mods_text, step_block
from bot.commands.odds_view import percent
from bot.commands.system_kit import log_roll, resolution
from bot.i18n import tn
from bot.protocol import Block, Reply, bold, plain
from bot.storage import games
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.steps import Step
from rules_core.systems.base import Note
from rules_core.systems.inf import tables
from rules_core.systems.inf import transitions as inf_tr
from rules_core.systems.inf.models import AttackOutcome, Side, State, ammo_code
from rules_core.systems.inf.recovery import (
    HealRequest,
    Patient,
    heal_odds,
    resolve_heal,
)
from rules_core.systems.inf.request import (
    AttackOptions,
    must_be_able,
    profile,
    stat_of,
    weapon_damage,
    weapon_name,
)
from rules_core.systems.inf.split import SplitPart, SplitRequest, resolve_split, split_odds
from rules_core.systems.inf.template import (
    MAX_TARGETS,
    TemplateRequest,
    TemplateTarget,
    resolve_template,
    template_odds,
)

EVERY = {"all", "tutti"}  # dodge=all: every model under the template dodges


def names_of(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def numbers_of(text: str | None, option: str, n: int, lo: int, hi: int) -> list[int | None]:
    """A comma list of whole numbers, one per target (`-` or nothing: not given)."""
    parts = [p.strip() for p in (text or "").split(",")] if text else []
    if len(parts) > n:
        raise UserError("inf.list_too_long", option=option, n=n)
    out: list[int | None] = []
    for part in parts + [""] * (n - len(parts)):
        if part in ("", "-"):
            out.append(None)
            continue
        try:
            value = int(part)
        except ValueError:
            raise UserError("inf.bad_list", option=option) from None
        if not lo <= value <= hi:
            raise UserError("inf.bad_list", option=option)
        out.append(value)
    return out


def picked(text: str | None, names: list[str]) -> set[int]:
    """Which targets a list names: by name, or by position (1, 2, ...); `all` for every one."""
    chosen = names_of(text)
    if any(fold(c) in EVERY for c in chosen):
        return set(range(len(names)))
    keys = [fold(n) for n in names]
    out = set()
    for c in chosen:
        if c.isdecimal() and 1 <= int(c) <= len(names):
            out.add(int(c) - 1)
        elif fold(c) in keys:
            out.add(keys.index(fold(c)))
        else:
            raise UserError("inf.not_a_target", name=c[:40])
    return out


async def game_units(
    ctx: Context, names: list[str], apply: bool
) -> tuple[games.StoredGame | None, list[Unit]]:
    if not names:
        if apply:
            raise UserError("inf.apply_needs_targets")
        return None, []
    if len(names) > MAX_TARGETS:
        raise UserError("inf.too_many_targets", most=MAX_TARGETS)
    game = await GAME.load(ctx)
    units = [tr.find_unit(game.state, n) for n in names]
    if len({fold(u.name) for u in units}) != len(units):
        raise UserError("inf.target_twice")
    return game, units


def save_lines(ctx: Context, steps: list[Step]) -> list[Block]:
    return [step_block(ctx, s) for s in steps]


async def apply_each(
    ctx: Context,
    game: games.StoredGame,
    kind: str,
    marks: list[tuple[Unit, AttackOutcome]],
) -> list[Block]:
    """The results on every unit, as ONE event (/undo takes it back whole)."""
    touched = [(u, o) for u, o in marks if inf_tr.touches_target(o)]
    if not touched:
        return [[plain(ctx.t("inf.nothing_applied", unit=", ".join(u.name for u, _ in marks)))]]
    for unit, _ in touched:
        session.require_unit_rights(ctx, game.state, unit, attack=True)
    notes: list[Note] = []

    def mark(state: GameState) -> GameState:
        said: list[Note] = []
        for unit, out in touched:
            state, more = inf_tr.apply_attack(state, None, unit.name, out)
            said += more
        notes[:] = said
        return state

    change = await session.apply_change(ctx, mark, kind, attack=True)
    blocks = game_view.notes_blocks(ctx, notes)
    for unit, _ in touched:
        after = next((u for u in change.after.units if u.name == unit.name), None)
        if after is not None:
            blocks += game_view.unit_blocks(ctx, after, change.after.system)
    return blocks


def as_outcome(wounds: int, state: State, disabled: bool, immobilized: bool) -> AttackOutcome:
    """A target's result in the shape `transitions.apply_attack` marks."""
    return AttackOutcome(
        active_hits=0,
        active_criticals=0,
        reactive_hits=0,
        reactive_criticals=0,
        target_wounds=wounds,
        active_wounds=0,
        target_state=state,
        active_state="ok",
        guts_roll=False,
        active_guts_roll=False,
        target_disabled=disabled,
        target_immobilized=immobilized,
        active_disabled=False,
        active_immobilized=False,
    )


def odds_line(ctx: Context, name: str, p: Any, extra: str = "") -> Block:
    line = ctx.t(
        "inf.odds_model",
        name=name,
        hit=percent(float(p.p_hit), ctx.lang),
        unconscious=percent(float(p.p_unconscious), ctx.lang),
        dead=percent(float(p.p_dead), ctx.lang),
        guts=percent(float(p.p_guts), ctx.lang),
    )
    return [bold(name + ": "), plain(line + extra)]


def odds_data(p: Any) -> dict[str, Any]:
    return {
        "wounds": [[k, float(v)] for k, v in sorted(p.wounds.as_fractions().items())],
        "p_hit": float(p.p_hit),
        "p_unconscious": float(p.p_unconscious),
        "p_dead": float(p.p_dead),
        "p_guts_roll": float(p.p_guts),
    }


# --- /inf template --------------------------------------------------------------------------------


async def template_cmd(ctx: Context) -> Reply:
    a = ctx.args(TemplateArgs)
    names = names_of(a.targets)
    game, units = await game_units(ctx, names, a.apply)
    shooter: Unit | None = None  # hit when the aimed model's shot back wins
    if a.attacker:
        game = game or await GAME.load(ctx)
        shooter = tr.find_unit(game.state, a.attacker)
        must_be_able(shooter, "inf.cannot_act", moving=True)
        if any(fold(u.name) == fold(shooter.name) for u in units):
            raise UserError("inf.target_twice")
    weapons = inf_tr.custom_weapons(game.state) if game else await weapons_of_chat(ctx)
    weapon = tables.find_weapon(a.weapon, weapons) if a.weapon else None
    if weapon is not None and weapon.template == "none":
        raise UserError("inf.not_a_template", **tables.named(weapon))
    dam, ammo = a.dam, a.ammo
    range_mod = 0
    if weapon is not None:
        dam = weapon.dam if dam is None else dam
        ammo = weapon.ammo if ammo is None else ammo
        if a.distance is not None:
            range_mod = tables.range_mod(weapon, a.distance)
    elif a.distance is not None:
        raise UserError("inf.distance_needs_weapon")
    if dam is None:  # /inf template has no attacker=: the Damage is given or the weapon's
        raise UserError("inf.template_missing_dam")
    anonymous = ctx.t("inf.side.target")
    labels = [u.name for u in units] or [anonymous[:1].upper() + anonymous[1:]]
    dodging = picked(a.dodge, labels)
    # cover= may name the shooter too (attacker=): in partial cover against the shot back
    in_cover = names_of(a.cover)
    me = fold(shooter.name) if shooter is not None else None
    shooter_cover = me in {fold(c) for c in in_cover}
    covered = picked(",".join(c for c in in_cover if fold(c) != me), labels)
    double = picked(a.double, labels)
    critical = picked(a.critical, labels)
    # an area template: the weapon says so, or an attack roll is given here or was rolled
    # (critico=); a direct one has neither
    area = weapon.template == "area" if weapon is not None else bool(a.attr is not None or critical)
    if len(critical) > 1:
        raise UserError("inf.one_critical")
    targets = []
    for i, label in enumerate(labels):
        unit = units[i] if units else None
        if unit is not None and i in dodging:
            must_be_able(unit, "inf.cannot_dodge", moving=True)  # no Dodge: Unconscious, IMM
        if unit is not None and i == 0 and a.vs is not None:
            must_be_able(unit, "inf.cannot_react", moving=True)
        side = Side(attr=0, **profile(unit, a.arm, a.bts, a.w, i in covered))
        if a.ph is not None or unit is None:
            side = side.model_copy(update={"ph": stat_of(a.ph, unit, "ph")})
        targets.append(
            TemplateTarget(
                name=label if unit is not None else "",
                profile=side,
                dodge=i in dodging,
                dodge_mod=a.dodge_mod or 0,
                hits=2 if i in double else 1,
                critical=i in critical,
            )
        )
    req = TemplateRequest(
        dam=dam,
        ammo=ammo_code(ammo),
        targets=targets,
        area=area,
        attr=a.attr,
        mod=a.mod or 0,
        range=range_mod,
        vs=a.vs,
        vs_dam=a.vs_dam,
        vs_ammo=ammo_code(a.vs_ammo) if a.vs_ammo else None,
        shooter=Side(attr=0, **profile(shooter, a.my_arm, None, a.my_w, shooter_cover)),
        shooter_name=shooter.name if shooter is not None else "",
    )
    req.check()
    settings = await SETTINGS.load(ctx)
    title = ctx.t(
        "inf.title_template" if req.attr is None else "inf.title_area_template",
        dam=dam,
        ammo=ammo_label(ctx, req.ammo),
        target=req.attack_target(),
    )
    if a.odds:
        odds = await ctx.offload(template_odds, req, settings)
        blocks: list[Block] = []
        data_targets = []
        for label, o in zip(labels, odds, strict=True):
            extra = (
                (" · " + ctx.t("inf.p_dodge", p=percent(float(o.p_dodge), ctx.lang)))
                if o.p_dodge
                else ""
            )
            if req.vs is not None and o is odds[0]:  # the aimed model's shot back
                extra += " · " + ctx.t("inf.p_shot_back", p=percent(float(o.p_back), ctx.lang))
            blocks.append(odds_line(ctx, label, o.odds, extra))
            data_targets.append(
                {
                    "name": label,
                    "p_dodge": float(o.p_dodge),
                    "p_shot_back": float(o.p_back),
                    **odds_data(o.odds),
                }
            )
        odds_reply: dict[str, Any] = {"system": "inf", "targets": data_targets}
        back_odds = odds[0].back
        if back_odds is not None:  # what the shot back does to the shooter
            who = shooter_label(ctx, req)
            blocks.append(odds_line(ctx, who, back_odds))
            odds_reply["shooter"] = {"name": who, **odds_data(back_odds)}
        return Reply(title=title, blocks=blocks, data=odds_reply)
    source = ctx.dice(a.dice)
    steps, outs = resolve_template(req, source, settings)
    source.check_exhausted()
    blocks = [dodge_block(ctx, s) if s.name == "dodge" else step_block(ctx, s) for s in steps]
    scatter = steps[0].detail.get("scatter_cm") if steps and steps[0].name == "attack" else None
    if scatter:  # the attack missed: the template lands elsewhere, on the table
        blocks.append([plain(ctx.t("inf.scatter", cm=scatter))])
    hit_back = outs[0].shot_back
    if hit_back is not None:  # the aimed model's shot back won the Face to Face
        hits = tn(ctx.lang, "inf.count.hits", hit_back.hits)
        key = "inf.template_shot_back" if req.shot_back() else "inf.template_shot_back_no_dam"
        blocks.append([bold(ctx.t(key, unit=labels[0], hits=hits))])
    for label, out in zip(labels, outs, strict=True):
        blocks.append(
            target_verdict(ctx, label, out.hits, out.wounds, out.state, out.dodged, out.guts_roll)
        )
    if hit_back is not None and req.shot_back():
        who, out = shooter_label(ctx, req), hit_back
        blocks.append(target_verdict(ctx, who, 1, out.wounds, out.state, False, out.guts_roll))
    data = resolution("inf", steps, {"targets": [o.model_dump() for o in outs]})
    if game is not None and a.apply:
        marks = [
            (u, as_outcome(o.wounds, o.state, o.disabled, o.immobilized))
            for u, o in zip(units, outs, strict=True)
        ]
        if shooter is not None and hit_back is not None:  # in the same event
            hb = hit_back
            marks.append((shooter, as_outcome(hb.wounds, hb.state, hb.disabled, hb.immobilized)))
        blocks += await apply_each(ctx, game, "inf_template", marks)
        data["applied"] = [u.name for u, _ in marks]
    await log_roll(ctx, source, sum(o.wounds for o in outs), data)
    return Reply(title=title, blocks=blocks, data=data)


def shooter_label(ctx: Context, req: TemplateRequest) -> str:
    """The template's shooter: its unit's name, else "Active model"."""
    active = ctx.t("inf.side.active")
    return req.shooter_name or active[:1].upper() + active[1:]


def dodge_block(ctx: Context, step: Step) -> Block:
    who = str(step.detail.get("side") or "")
    label = bold(ctx.t("inf.step.dodge") + (f" ({who})" if who else "") + ": ")
    attr = f"{step.detail.get('attr')} {mods_text(ctx, step)}".strip()
    head = ctx.t("inf.target", target=step.target, attr=attr)
    if step.outcome == "auto_fail":
        return [label, plain(head + " → "), bold(ctx.t("inf.auto_fail_dodge"))]
    return [label, plain(f"{head} {dice_text(step)} → "), bold(ctx.t(f"inf.dodge.{step.outcome}"))]


def target_verdict(
    ctx: Context, name: str, hits: int, wounds: int, state: str, dodged: bool, guts: bool
) -> Block:
    if dodged:
        return [bold(ctx.t("inf.verdict.dodged", name=name))]
    line = ctx.t(
        "inf.verdict.model",
        name=name,
        hits=tn(ctx.lang, "inf.count.hits", hits),
        wounds=tn(ctx.lang, "inf.count.wounds", wounds),
        state=ctx.t(f"inf.state.{state}"),
    )
    return [bold(line + (" · " + ctx.t("inf.guts") if guts else ""))]


# --- /inf split -----------------------------------------------------------------------------------


async def split_cmd(ctx: Context) -> Reply:
    a = ctx.args(SplitArgs)
    names = names_of(a.targets)
    shots = [s for s in numbers_of(a.shots, "shots", 6, 1, 6) if s is not None]
    if not shots:
        raise UserError("inf.split_needs_shots")
    if names and len(names) != len(shots):
        raise UserError("inf.split_lengths", targets=len(names), shots=len(shots))
    n = len(shots)
    game, units = await game_units(ctx, names, a.apply)
    attacker: Unit | None = None
    if a.attacker:
        game = game or await GAME.load(ctx)
        attacker = tr.find_unit(game.state, a.attacker)
        must_be_able(attacker, "inf.cannot_act", moving=True)
    weapons = inf_tr.custom_weapons(game.state if game is not None else None)
    # weapon=, else (with no Damage given) the first of the attacker's loadout, as /inf attack
    name = weapon_name(AttackOptions(weapon=a.weapon, dam=a.dam), attacker)
    weapon = tables.find_weapon(name, weapons) if name else None
    if weapon is not None and (weapon.template != "none" or weapon.close_combat):
        raise UserError("inf.split_ranged_only")
    attr = stat_of(a.attr, attacker, "bs")
    if attr is None:
        raise UserError("inf.missing_stat", option="attr")
    dam, burst, ammo = a.dam, a.burst, a.ammo
    if weapon is not None:
        dam = weapon_damage(weapon, attacker) if dam is None else dam
        burst = weapon.burst if burst is None else burst
        ammo = weapon.ammo if ammo is None else ammo
    if dam is None:
        raise UserError("inf.missing_dam")
    vs = numbers_of(a.vs, "vs", n, 0, 30)
    vs_mod = numbers_of(a.vs_mod, "vs_mod", n, -30, 30)
    vs_dam = numbers_of(a.vs_dam, "vs_dam", n, 0, 30)
    mods = numbers_of(a.mods, "mods", n, -30, 30)
    arms = numbers_of(a.arm, "arm", n, 0, 20)
    w_list = numbers_of(a.w, "w", n, 1, 9)
    labels = [u.name for u in units] or [str(i + 1) for i in range(n)]
    covered = picked(a.cover, labels)
    active = Side(
        attr=attr,
        mod=a.mod or 0,
        burst=burst or sum(shots),
        dam=dam,
        ammo=ammo_code(ammo),
        **profile(attacker, a.my_arm, None, a.my_w, False),
    )
    parts = []
    for i in range(n):
        unit = units[i] if units else None
        if unit is not None and vs[i] is not None:
            must_be_able(unit, "inf.cannot_react", moving=True)
        target = Side(
            attr=vs[i] or 0,
            mod=vs_mod[i] or 0,
            dam=vs_dam[i],
            **profile(unit, arms[i], None, w_list[i], i in covered),
        )
        parts.append(
            SplitPart(
                name=labels[i],
                shots=shots[i],
                target=target,
                opposed=vs[i] is not None,
                mod=mods[i] or 0,
            )
        )
    req = SplitRequest(active=active, parts=parts)
    settings = await SETTINGS.load(ctx)
    title = ctx.t(
        "inf.title_split",
        target=attr + active.mod,
        burst=sum(shots),
        dam=dam,
        ammo=ammo_label(ctx, active.ammo),
    )
    if a.odds:
        odds = await ctx.offload(split_odds, req, settings)
        blocks: list[Block] = [odds_line(ctx, label, o) for label, o in odds.targets]
        me = ctx.t("inf.side.active")
        blocks.append(odds_line(ctx, me[:1].upper() + me[1:], odds.active))
        data = {
            "system": "inf",
            "targets": [{"name": label, **odds_data(o)} for label, o in odds.targets],
            "active": odds_data(odds.active),
        }
        return Reply(title=title, blocks=blocks, data=data)
    source = ctx.dice(a.dice)
    steps, out = resolve_split(req, source, settings)
    source.check_exhausted()
    blocks = []
    for s in steps:
        block = step_block(ctx, s)
        if s.detail.get("vs"):
            block.insert(1, plain(ctx.t("inf.against", name=s.detail["vs"]) + " "))
        blocks.append(block)
    for t in out.targets:
        blocks.append(target_verdict(ctx, t.name, t.hits, t.wounds, t.state, False, t.guts_roll))
    if out.active_hits_taken:
        blocks.append(
            target_verdict(
                ctx,
                attacker.name if attacker else ctx.t("inf.side.active"),
                out.active_hits_taken,
                out.active_wounds,
                out.active_state,
                False,
                out.active_guts_roll,
            )
        )
    data = resolution("inf", steps, out.model_dump())
    if game is not None and a.apply:
        marks = [
            (u, as_outcome(t.wounds, t.state, t.disabled, t.immobilized))
            for u, t in zip(units, out.targets, strict=True)
        ]
        if attacker is not None:
            marks.append(
                (
                    attacker,
                    as_outcome(
                        out.active_wounds,
                        out.active_state,
                        out.active_disabled,
                        out.active_immobilized,
                    ),
                )
            )
        blocks += await apply_each(ctx, game, "inf_split", marks)
        data["applied"] = [u.name for u, _ in marks]
    await log_roll(ctx, source, sum(t.wounds for t in out.targets), data)
    return Reply(title=title, blocks=blocks, data=data)


# --- /inf heal ------------------------------------------------------------------------------------


async def heal_cmd(ctx: Context) -> Reply:
    a = ctx.args(HealArgs)
    method = a.method
    patient_name, doctor_name = a.unit, a.doctor
    game = await GAME.load(ctx) if patient_name or doctor_name else None
    unit = tr.find_unit(game.state, patient_name) if game and patient_name else None
    doctor = tr.find_unit(game.state, doctor_name) if game and doctor_name else None
    if doctor is not None:
        must_be_able(doctor, "inf.cannot_act")
    if a.apply and unit is None:
        raise UserError("inf.heal_apply_needs_unit")
    w = stat_of(a.w, unit, "w") or 1
    wounds = a.wounds
    if wounds is None:
        wounds = unit.damage if unit is not None else w  # an Unconscious model by default
    patient = Patient(w=w, wounds=wounds, ph=stat_of(a.ph, unit, "ph"))
    req = HealRequest(
        method=method,
        patient=patient,
        wip=stat_of(a.wip, doctor, "wip"),
        mod=a.mod or 0,
        coordinated=a.coordinated,
    )
    who = unit.name if unit is not None else ctx.t("inf.patient")
    title = ctx.t("inf.title_heal", method=ctx.t(f"inf.heal_method.{method}"), unit=who)
    if a.odds:
        odds = heal_odds(req)  # one or two d20: no pool needed
        parts = [
            ctx.t(f"inf.heal_result.{r}", unit=who) + f" {percent(float(p), ctx.lang)}"
            for r, p in sorted(odds.items())
        ]
        return Reply(
            title=title,
            blocks=[[plain(" · ".join(parts))]],
            data={"system": "inf", "odds": {r: float(p) for r, p in odds.items()}},
        )
    source = ctx.dice(a.dice)
    steps, out = resolve_heal(req, source)
    source.check_exhausted()
    step = steps[0]
    attr = ctx.t(f"inf.mod.{step.detail['attr_name']}") + f" {step.detail['attr']}"
    head = ctx.t("inf.target", target=step.target, attr=f"{attr} {mods_text(ctx, step)}".strip())
    line = f"{head} {dice_text(step)} → " if step.dice else head + " → "
    blocks: list[Block] = [
        [
            bold(ctx.t(f"inf.heal_method.{method}") + ": "),
            plain(line),
            bold(ctx.t(f"inf.heal_result.{out.result}", unit=who)),
        ]
    ]
    data = resolution("inf", steps, out.model_dump())
    if game is not None and unit is not None and a.apply and out.result != "unchanged":
        session.require_unit_rights(ctx, game.state, unit, attack=False)
        notes: list[Note] = []

        def heal(state: GameState) -> GameState:
            new, said = inf_tr.apply_heal(state, unit.name, out)
            notes[:] = said
            return new

        change = await session.apply_change(ctx, heal, "inf_heal", unit=unit.name)
        blocks += game_view.notes_blocks(ctx, notes)
        if change.unit is not None:
            blocks += game_view.unit_blocks(ctx, change.unit, change.after.system)
        data["applied"] = {"unit": unit.name}
    await log_roll(ctx, source, out.passed, data)
    return Reply(title=title, blocks=blocks, data=data)
