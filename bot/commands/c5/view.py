"""How C5 results look: steps, verdicts and odds as reply blocks (no rule decided here)."""

from __future__ import annotations

from typing import SupportsFloat

from bot.commands.context import Context
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.system_kit import dice_text, signed
from bot.i18n import fmt_pct, tn
from bot.images.cards.odds import attach as odds_picture
from bot.protocol import Block, Reply, bold, code, plain
from rules_core.steps import Step
from rules_core.systems.c5 import tables
from rules_core.systems.c5.attack import AttackOutcome
from rules_core.systems.c5.odds import OpposedOdds, TestOdds, WoundOdds


def mods_text(ctx: Context, step: Step) -> str:
    return " ".join(f"{signed(m.value)} {ctx.t(f'c5.mod.{m.name}')}" for m in step.modifiers)


def test_title(ctx: Context, value: int, stat: str | None) -> str:
    """`Test: COR 4` when the characteristic is known, else `Test: valore 4`."""
    if stat is None:
        return ctx.t("c5.title_test", value=value)
    return ctx.t("c5.title_test_stat", stat=ctx.t(f"c5.mod.{stat}"), value=value)


def test_block(ctx: Context, step: Step) -> Block:
    label = bold(ctx.t(f"c5.step.{step.name}") + ": ")
    line = f"{dice_text(step.dice)} {mods_text(ctx, step)}"
    if step.detail.get("natural_one"):
        line += " " + ctx.t("c5.natural_one", reroll=step.detail.get("reroll"))
    line += f" = {step.total}"
    if step.target is not None:
        line += " " + ctx.t("c5.vs", target=step.target)
    return [label, plain(line + " → "), bold(ctx.t(f"c5.result.{step.outcome}"))]


def wound_block(ctx: Context, step: Step) -> Block:
    d = step.detail
    row = step.detail_int("row")
    where = ctx.t("c5.row_head") if row == tables.HEAD_ROW else ctx.t("c5.row", row=row)
    column = tables.BAND_LABELS[step.detail_int("column")]
    line = (
        f"{dice_text(step.dice)} → {where} · "
        + ctx.t("c5.higher_die", die=max(step.dice))
        + f" {mods_text(ctx, step)} = {step.total} → "
        + ctx.t("c5.column", column=column)
    )
    if d.get("shift"):
        line += " " + ctx.t("c5.shifted", n=signed(step.detail_int("shift")))
    if d.get("exceptional"):
        line += " · " + ctx.t("c5.exceptional")
    if d.get("effects"):
        line += " · " + ctx.t("c5.effects", effects=str(d["effects"]).replace(",", ", "))
    result = step.outcome
    verdict = (
        tn(ctx.lang, "c5.wounds", step.detail_int("wounds"))
        if result == "wounds"
        else ctx.t(f"c5.result.{result}")
    )
    return [bold(ctx.t("c5.step.wound") + ": "), plain(line + " → "), bold(verdict)]


def step_block(ctx: Context, step: Step) -> Block:
    return wound_block(ctx, step) if step.name == "wound" else test_block(ctx, step)


def attack_verdict(ctx: Context, out: AttackOutcome) -> str:
    if out.parried:
        return ctx.t("c5.verdict.parried")
    if not out.hit:
        return ctx.t("c5.verdict.miss")
    if out.stunned:
        return ctx.t("c5.verdict.stunned")
    return tn(ctx.lang, "c5.verdict.wounds", out.wounds)


def pct(ctx: Context, p: SupportsFloat) -> str:
    """A chance the language's way (`12,5%` in Italian)."""
    return fmt_pct(ctx.lang, float(p))


def gems(ctx: Context, n: int) -> str:
    return tn(ctx.lang, "c5.gems", n)


def mana_line(ctx: Context, step: Step, power: int, total: int, rank_name: str) -> str:
    return f"{dice_text(step.dice)} {signed(power)} {ctx.t('c5.mod.pow')} = {total} → " + ctx.t(
        "c5.mana_column", rank=rank_name, column=step.detail["column"]
    )


# --- odds -------------------------------------------------------------------------------------


async def wound_odds_reply(ctx: Context, odds: WoundOdds, title: str) -> Reply:
    dist = as_distribution(odds.wounds)
    blocks = distribution_blocks(ctx, dist, [code(title)])
    line = ctx.t(
        "c5.p_line",
        hit=pct(ctx, odds.p_hit),
        stunned=pct(ctx, odds.p_stunned),
        exceptional=pct(ctx, odds.p_exceptional),
    )
    blocks.append([plain(line)])
    if odds.tail:
        blocks.append([plain(ctx.t("c5.tail", tail=f"{odds.tail:.1e}"))])
    data = {
        "system": "c5",
        **distribution_data(dist),
        "p_stunned": float(odds.p_stunned),
        "p_hit": float(odds.p_hit),
        "p_exceptional": float(odds.p_exceptional),
        "p_no_effect": float(odds.p_no_effect),
        "tail": odds.tail,
    }
    reply = Reply(title=ctx.t("c5.odds_title"), blocks=blocks, data=data)
    return await odds_picture(ctx, reply, [(dist, title, "wounds")])


def test_odds_reply(ctx: Context, odds: TestOdds, title: str) -> Reply:
    dist = as_distribution(odds.distribution)
    blocks = distribution_blocks(ctx, dist, [code(title)])
    p = float(odds.p_success)
    blocks.append(
        [
            bold(ctx.t("c5.p_success", p=pct(ctx, p))),
            plain(" · " + ctx.t("c5.p_one_fail", p=pct(ctx, odds.p_natural_one_fail))),
        ]
    )
    blocks.append([plain(ctx.t("c5.tail", tail=f"{odds.tail:.1e}"))])
    data = {
        "system": "c5",
        **distribution_data(dist),
        "p_success": p,
        "p_success_exact": str(odds.p_success),
        "p_natural_one_fail": odds.p_natural_one_fail,
        "tail": odds.tail,
    }
    return Reply(title=ctx.t("c5.odds_title"), blocks=blocks, data=data)


def opposed_odds_reply(ctx: Context, odds: OpposedOdds, title: str) -> Reply:
    """The winner's distribution: 1 = A, 0 = tie, -1 = B (the mean is P(A) - P(B))."""
    dist = as_distribution(odds.winner)
    blocks = distribution_blocks(ctx, dist, [code(title)])
    blocks.append(
        [
            bold(
                ctx.t(
                    "c5.p_opposed",
                    a=pct(ctx, odds.p_a),
                    tie=pct(ctx, odds.p_tie),
                    b=pct(ctx, odds.p_b),
                )
            )
        ]
    )
    blocks.append([plain(ctx.t("c5.tail", tail=f"{odds.tail:.1e}"))])
    data = {
        "system": "c5",
        **distribution_data(dist),
        "p_a": odds.p_a,
        "p_tie": odds.p_tie,
        "p_b": odds.p_b,
        "tail": odds.tail,
    }
    return Reply(title=ctx.t("c5.odds_title"), blocks=blocks, data=data)


def rally_contact_odds(ctx: Context, title: str) -> Reply:
    """The odds of a rally that fails without a roll (checks.rally_contact_outcome)."""
    never = {"system": "c5", "mean": 0.0, "distribution": [], "p_success": 0.0}
    lines: list[Block] = [[code(title)], [bold(ctx.t("c5.rally_contact"))]]
    return Reply(title=ctx.t("c5.odds_title"), blocks=lines, data=never)
