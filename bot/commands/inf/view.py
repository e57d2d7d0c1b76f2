"""How /inf results read: roll and save lines, verdicts, Order pools, weapons."""

from __future__ import annotations

from typing import Any

from bot import session
from bot.commands.context import Context
from bot.commands.system_kit import dice_text as plain_dice
from bot.commands.system_kit import signed
from bot.i18n import tn
from bot.protocol import Block, bold, plain
from rules_core.game.models import GameState
from rules_core.steps import Step
from rules_core.systems.base import Note
from rules_core.systems.inf import tables
from rules_core.systems.inf.models import AttackOutcome
from rules_core.systems.inf.system import GROUP_RESOURCES, in_loss_of_lieutenant
from rules_core.systems.inf.transitions import Pools, pools_of

MARK = {"S": "✓", "C": "★", "F": "✗"}


def weapon_label(ctx: Context, w: tables.Weapon) -> str:
    """A book weapon by its name in the reader's language (Fucile, Rifle); the players' own
    weapons by the name they gave."""
    return ctx.t(f"inf.weapon_names.{w.key}") if w.key else w.name


def ammo_label(ctx: Context, code: str) -> str:
    """An ammunition code with its name in the reader's language: DA (Doppia Azione)."""
    key = code.lower().replace("+", "_")
    return ctx.t(f"inf.ammo_name.{key}")


def _note_param(ctx: Context, name: str, value: Any) -> Any:
    if name == "mod":
        return signed(value)
    if name == "attr":  # the attribute a MOD applies to (bs, ph)
        return ctx.t(f"inf.mod.{value}")
    if name == "weapon" and isinstance(value, str) and value.startswith("@"):
        return ctx.t(f"inf.weapon_names.{value[1:]}")  # a book weapon (request.weapon_ref)
    return value


def note_lines(ctx: Context, notes: list[Note]) -> list[Block]:
    """Notes of a request or a transition, one line each (a `mod` is printed signed, a book
    weapon by its name in the reader's language)."""
    return [
        [plain(ctx.t(key, **{k: _note_param(ctx, k, v) for k, v in params.items()}))]
        for key, params in notes
    ]


def dice_text(step: Step) -> str:
    marks = step.detail.get("marks")
    if isinstance(marks, list) and len(marks) == len(step.dice):
        return "[" + " ".join(f"{f}{MARK[m]}" for f, m in zip(step.dice, marks, strict=True)) + "]"
    return plain_dice(step.dice)


def mods_text(ctx: Context, step: Step) -> str:
    return " ".join(f"{signed(m.value)} {ctx.t(f'inf.mod.{m.name}')}" for m in step.modifiers)


def roll_block(ctx: Context, step: Step, dodge: bool = False) -> Block:
    """A roll's line; `dodge`: the reactive roll is a Dodge (no shot back), its dice successes."""
    label = bold(ctx.t("inf.step.dodge" if dodge else f"inf.step.{step.name}") + ": ")
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
    if step.detail.get("cf") is not None:  # the failure margin (scatter, shots into CC)
        line += " " + ctx.t("inf.cf", cf=step.detail["cf"])
    if step.name in ("player", "opponent"):
        return [label, plain(line)]
    line += " → "
    crits = step.detail.get("criticals") or 0
    count_key = "inf.count.successes" if step.name == "roll" or dodge else "inf.count.hits"
    result = tn(ctx.lang, count_key, step.total or 0)
    if isinstance(crits, int) and crits:
        result += " " + tn(ctx.lang, "inf.count.crits", crits)
    return [label, plain(line), bold(result)]


def save_block(ctx: Context, step: Step) -> Block:
    side = str(step.detail.get("side") or "target")
    # a model of a template or a split Burst is named; one attack's two sides by their role
    who = ctx.t(f"inf.side.{side}") if side in ("target", "active") else side
    label = bold(ctx.t(f"inf.step.{step.name}") + f" ({who}): ")
    if step.name in ("critical", "coup_de_grace"):
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
    if step.name in ("active", "reactive", "roll", "player", "opponent", "attack"):
        return roll_block(ctx, step)
    return save_block(ctx, step)


def side_verdict(
    ctx: Context,
    key: str,
    hits: int,
    wounds: int,
    state: str,
    flags: tuple[bool, bool, bool],
) -> Block:
    """One side's result line: hits, wounds, state, then its disabled / immobilised / Guts
    marks."""
    line = ctx.t(
        key,
        hits=tn(ctx.lang, "inf.count.hits", hits),
        hits_back=tn(ctx.lang, "inf.count.hits_back", hits),
        wounds=tn(ctx.lang, "inf.count.wounds", wounds),
        state=ctx.t(f"inf.state.{state}"),
    )
    names = ("inf.effect.disable", "inf.effect.immobilize", "inf.guts")
    extra = [ctx.t(name) for name, on in zip(names, flags, strict=True) if on]
    return [bold(line + (" · " + " · ".join(extra) if extra else ""))]


def attack_verdict(
    ctx: Context, out: AttackOutcome, vs_wounds: bool, target: str | None = None
) -> list[Block]:
    """The target's line, then the active model's when it was hit back. A reaction that deals
    no wounds (no vs_dam=/vs_ammo=) is a Dodge: when it wins, the target has dodged."""
    if out.reactive_hits and not vs_wounds:
        name = target or ctx.t("inf.side.target")
        return [[bold(ctx.t("inf.verdict.dodged", name=name[:1].upper() + name[1:]))]]
    blocks = [
        side_verdict(
            ctx,
            "inf.verdict.target",
            out.active_hits,
            out.target_wounds,
            out.target_state,
            (out.target_disabled, out.target_immobilized, out.guts_roll),
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
                (out.active_disabled, out.active_immobilized, out.active_guts_roll),
            )
        )
    return blocks


def pools_blocks(
    ctx: Context, state: GameState, user_id: str
) -> tuple[list[Block], dict[str, Any]]:
    pools: Pools = pools_of(state, user_id)
    shown = [
        ctx.t("inf.pool_group", group=g, orders=pools.groups[name])
        for g, name in GROUP_RESOURCES.items()
        if g == 1 or pools.groups[name]
    ]
    if in_loss_of_lieutenant(state, user_id):  # the reserve is any model's, not group 1's
        shown = [ctx.t("inf.pool_reserve", orders=pools.groups[GROUP_RESOURCES[1]])]
    line = ctx.t(
        "inf.pool_line",
        player=session.name_of(state, user_id),
        groups=" · ".join(shown),
        lt=pools.lt,
    )
    blocks: list[Block] = [[bold(line)]]
    if pools.irregular:
        units = ", ".join(f"{k} {v}" for k, v in pools.irregular.items())
        blocks.append([plain(ctx.t("inf.pool_irregular", units=units))])
    return blocks, {"groups": pools.groups, "lt": pools.lt, "irregular": pools.irregular}


def weapon_line(ctx: Context, w: tables.Weapon) -> str:
    if w.template != "none":
        bands = ctx.t(f"inf.template_kind.{'thrown' if w.thrown else w.template}")
    elif w.close_combat:
        bands = ctx.t("inf.cc_only")
    else:
        bands = tables.bands_text(w)
    return ctx.t(
        "inf.weapon_line",
        name=weapon_label(ctx, w),
        dam=w.damage_text().replace("PH", ctx.t("inf.mod.ph")),
        burst=w.burst,
        ammo=ammo_label(ctx, w.ammo),
        bands=bands,
    )
