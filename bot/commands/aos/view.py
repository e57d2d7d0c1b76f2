"""/aos replies: an attack's or a test's steps as blocks, the attack's one-line summary."""

from __future__ import annotations

from typing import Any

from bot.commands.aos.common import SYSTEM, counted
from bot.commands.context import Context
from bot.commands.system_kit import dice_spans, resolution
from bot.protocol import Block, Reply, Span, bold, plain, strike
from rules_core.steps import Step
from rules_core.systems.aos import checks, turns
from rules_core.systems.aos.models import AttackRequest
from rules_core.systems.aos.values import NO_SAVE, d3


def request_summary(ctx: Context, req: AttackRequest) -> str:
    count = req.attacks.text()
    if req.attack_rolls > 1:
        count = f"{req.attack_rolls}×{count}"
    rend = f"-{req.rend}" if req.rend else "-"
    save = "-" if req.save >= NO_SAVE else f"{req.save}+"
    # "1 attack" but "D6 attacks": a dice expression or a multiplied count takes the plural.
    text = ctx.t(
        "aos.attack_summary",
        n=int(count) if count.isdecimal() else 0,
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


def faces(step: Step, sides: int = 6) -> list[Span]:
    """The dice in rolling order: re-rolled ones struck through, then their replacements. A D3
    is a D6 halved: each face shows the D6 and what it counts for (`5→3`)."""

    def face(f: int) -> str:
        return f"{f}→{d3(f)}" if sides == 3 else str(f)

    first = len(step.dice) - len(step.rerolled)
    shown: list[Span] = [
        strike(face(f)) if i in step.rerolled else plain(face(f))
        for i, f in enumerate(step.dice[:first])
    ]
    shown += [bold(face(f)) for f in step.dice[first:]]
    return dice_spans(shown)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def modifier_text(step: Step) -> str:
    if step.modifier_asked == step.modifier:
        return f" ({signed(step.modifier)})" if step.modifier else ""
    return f" ({signed(step.modifier_asked)} → {signed(step.modifier)})"


def step_block(ctx: Context, step: Step, req: AttackRequest) -> Block:
    name = step.name
    if name == "command":
        return [plain(command_text(ctx, step))]
    if name == "attacks":
        return [
            bold(ctx.t("aos.step.attacks", value=req.attacks.text()) + ": "),
            *faces(step, req.attacks.sides),
            plain(" → "),
            bold(str(step.total)),
        ]
    if name in ("hit_mortal", "wound_mortal"):
        return [plain(ctx.t(f"aos.step.{name}", n=step.total))]
    if name == "damage":
        if step.dice:
            return [
                bold(ctx.t("aos.step.damage", value=req.damage.text()) + ": "),
                *faces(step, req.damage.sides),
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
    count = counted(ctx, f"aos.count.{step.outcome}", step.total or 0)
    shown = faces(step) if step.dice else [plain("–")]
    return [bold(label), *shown, plain(" → "), bold(count)]


def command_text(ctx: Context, step: Step) -> str:
    """A command received this phase that modifies the attack (All-out Attack/Defence)."""
    ability = turns.command_abilities()[step.outcome]
    name = ability.it if ctx.lang == "it" else ability.en
    key = f"aos.step.command_{step.detail.get('roll')}"
    return ctx.t(key, command=name, unit=str(step.detail.get("unit")), n=f"{step.total or 0:+d}")


def check_reply(
    ctx: Context, title: str, check: checks.Check, lines: list[Block]
) -> tuple[Reply, dict[str, Any]]:
    data = resolution(SYSTEM, check.steps, check.outcome)
    blocks: list[Block] = []
    for step in check.steps:
        if step.outcome == "out_of_range":
            continue  # nothing was rolled (a charge out of range): the lines say why
        label = ctx.t(f"aos.step.{step.name}", target=f"{step.target}+")
        line: Block = [bold(label + ": "), *faces(step)]
        if step.name == "ward":
            line += [plain(" → "), bold(counted(ctx, "aos.count.negated", step.total or 0))]
            blocks.append(line)
            continue
        if step.modifier:
            line.append(plain(f" {signed(step.modifier)}"))
        line += [plain(" = "), bold(str(step.total))]
        blocks.append(line)
    blocks += lines
    return Reply(title=title, blocks=blocks, data=data), data
