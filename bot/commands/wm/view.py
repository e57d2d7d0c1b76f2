"""How a WARMACHINE resolution reads: each step's chain of dice and named modifiers, the title
of an attack and its verdict."""

from __future__ import annotations

from typing import Any, SupportsFloat

from bot import i18n
from bot.commands.context import Context
from bot.commands.game_view import Reader
from bot.commands.local_names import value_word
from bot.commands.system_kit import dice_text, signed
from bot.protocol import Block, bold, plain
from rules_core.game.models import Unit
from rules_core.steps import Step
from rules_core.systems.wm.attack import armor, effective_defense
from rules_core.systems.wm.models import AttackOutcome, AttackRequest
from rules_core.systems.wm.system import model_kind


def tn(ctx: Context, key: str, n: int, **params: Any) -> str:
    """A counted message in the reader's language (its plural form)."""
    return i18n.tn(ctx.lang, key, n, **params)


def inches(ctx: Context, x: float) -> str:
    """A distance in inches the language's way: `2,75` in Italian, `2.75` in English."""
    return i18n.fmt_num(ctx.lang, x)


def chance(ctx: Context, p: SupportsFloat) -> str:
    """A probability the language's way: `12,5%` in Italian."""
    return i18n.fmt_pct(ctx.lang, float(p))


def mod_label(ctx: Context, name: str, kind: str) -> str:
    if name == "skill":
        return ctx.t(f"wm.skill.{kind}")
    return ctx.t(f"wm.mod.{name}")


def chain(ctx: Context, step: Step, kind: str) -> str:
    """`[3, 5] +7 MAT +2 back strike = 17`"""
    parts = [dice_text(step.dice)] if step.dice else []
    for m in step.modifiers:
        parts.append(f"{signed(m.value)} {mod_label(ctx, m.name, kind)}")
    return " ".join(parts)


def step_block(ctx: Context, step: Step, kind: str) -> Block | None:
    label = bold(ctx.t(f"wm.step.{step.name}") + ": ")
    if step.name == "defense":
        if len(step.modifiers) <= 1:
            return None
        first, *rest = step.modifiers
        text = f"{first.value} " + " ".join(
            f"{signed(m.value)} {mod_label(ctx, m.name, kind)}" for m in rest
        )
        return [label, plain(f"{text} = {step.total}")]
    if step.name == "armor":
        first, *rest = step.modifiers
        text = f"{first.value} " + " ".join(
            f"{signed(m.value)} {mod_label(ctx, m.name, kind)}" for m in rest
        )
        return [label, plain(f"{text} = {step.total}")]
    if step.name == "attack" and step.outcome == "auto_hit":
        return [label, plain(ctx.t("wm.auto_hit"))]
    if step.name == "attack" and step.outcome == "auto_miss":
        return [label, plain(ctx.t("wm.result.auto_miss"))]
    if step.name == "attack":
        return [
            label,
            plain(
                f"{chain(ctx, step, kind)} = {step.total} "
                + ctx.t("wm.vs_def", defense=step.target)
                + " → "
                + ctx.t(f"wm.result.{step.outcome}")
            ),
        ]
    if step.name in ("damage", "blast", "fall", "collateral"):
        line: Block = [label, plain(f"{chain(ctx, step, kind)} = {step.total}")]
        if step.target is not None:
            dmg = max(0, (step.total or 0) - step.target)
            line.append(
                plain(" " + ctx.t("wm.vs_arm", arm=step.target) + " → " + tn(ctx, "wm.points", dmg))
            )
        return line
    if step.name in ("strength", "break_free") and len(step.dice) >= 2:
        # Nd6 + STR against the other model's d6 + STR (the last die is theirs)
        mine, theirs = step.dice[:-1], step.dice[-1:]
        ours, their = step.modifiers[0].value, step.modifiers[1].value
        strength = ctx.t("wm.mod.str")
        return [
            label,
            plain(
                f"{dice_text(mine)} {signed(ours)} {strength} = {step.total} "
                + ctx.t(
                    "wm.vs_roll",
                    value=f"{dice_text(theirs)} {signed(their)} {strength} = {step.target}",
                )
                + " → "
                + ctx.t(f"wm.result.{step.outcome}")
            ),
        ]
    return [label, plain(f"{dice_text(step.dice)} → {step.total}")]


def steps_blocks(ctx: Context, steps: list[Step], kind: str) -> list[Block]:
    return [b for s in steps if (b := step_block(ctx, s, kind))]


def attack_title(ctx: Context, req: AttackRequest) -> str:
    """The attack in one line, with the DEF the roll is against (base-setting states, cover,
    the floor of 5 included: the defense step shows how) and the ARM to beat (Power Field,
    shields included)."""
    arm = armor(req)[0]
    if req.blast:
        return ctx.t("wm.title_blast", pow=req.pow, arm=arm)
    power = req.pow + req.str_
    defense = effective_defense(req)[0]
    return ctx.t(f"wm.title_{req.type}", skill=req.skill, defense=defense, pow=power, arm=arm)


def dice_notes(ctx: Context, req: AttackRequest) -> list[Block]:
    """Why a roll has fewer dice than the player may expect: a weapon in a crippled location
    (the modifiers' list explains every other change)."""
    if "crippled" not in req.mods:
        return []
    key = "wm.crippled_die_blast" if req.blast else "wm.crippled_die"
    return [[plain(ctx.t(key))]]


def verdict(ctx: Context, req: AttackRequest, out: AttackOutcome) -> str:
    if not out.hit:
        return ctx.t("wm.verdict.miss")
    if req.blast:
        return tn(ctx, "wm.verdict.blast", out.damage)
    key = "critical" if out.critical else "hit"
    return tn(ctx, f"wm.verdict.{key}", out.damage)


def unit_facts(ctx: Reader, unit: Unit) -> list[Block]:
    """/unit show: the model type, set or read from the card (`model_kind`), as the reader's
    book names it (`values.kind`: truppa, solitario); none when the card doesn't say."""
    kind = model_kind(unit)
    if kind is None:
        return []
    return [[plain(ctx.t("wm.model_kind_line", kind=value_word("values.kind", kind, ctx.lang)))]]
