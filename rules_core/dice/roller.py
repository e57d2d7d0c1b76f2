"""Rolling parsed expressions against a `DiceSource`."""

from __future__ import annotations

from rules_core.dice import limits
from rules_core.dice.ast import (
    BinOp,
    Dice,
    Expr,
    Neg,
    Num,
    RollCommand,
    counts_successes,
    has_extra_dice,
    render,
    static_dice,
)
from rules_core.dice.models import (
    DROPPED,
    EXPLODED,
    FAILURE,
    KEPT,
    REROLLED,
    SUCCESS,
    RawGroup,
    RollResult,
    make_result,
)
from rules_core.dice.source import DiceSource
from rules_core.errors import UserError


class _Ctx:
    """Per-command rolling state: dice budget and explosion chain limit."""

    __slots__ = ("chain_limit", "left", "truncated")

    def __init__(self, left: int, chain_limit: int) -> None:
        self.left = left
        self.chain_limit = chain_limit
        self.truncated = False

    def extra(self) -> None:
        """Account for one die beyond the static count (reroll or explosion)."""
        self.left -= 1
        if self.left < 0:
            raise UserError("dice.too_many_dice_total", limit=limits.MAX_DICE_COMMAND)


def roll(cmd: RollCommand, source: DiceSource) -> list[RollResult]:
    """Roll every spec of a command (each `N#` repetition is its own result)."""
    static = 0
    extra = False
    for spec in cmd.rolls:
        static += static_dice(spec.expr) * spec.repeat
        extra = extra or has_extra_dice(spec.expr)
    if static > limits.MAX_DICE_COMMAND:
        raise UserError("dice.too_many_dice_total", limit=limits.MAX_DICE_COMMAND)
    if not extra:
        source.require(static)
    ctx = _Ctx(limits.MAX_DICE_COMMAND - static, limits.MAX_CHAIN)
    out: list[RollResult] = []
    for spec in cmd.rolls:
        for _ in range(spec.repeat):
            out.append(_roll(spec.expr, spec.text, spec.label, source, ctx))
    return out


def roll_expr(
    expr: Expr,
    source: DiceSource,
    *,
    label: str | None = None,
    chain_limit: int = limits.MAX_CHAIN,
) -> RollResult:
    """Roll one expression. `chain_limit` exists so tests can use short explosion chains."""
    static = static_dice(expr)
    if static > limits.MAX_DICE_COMMAND:
        raise UserError("dice.too_many_dice_total", limit=limits.MAX_DICE_COMMAND)
    if not has_extra_dice(expr):
        source.require(static)
    return _roll(
        expr, render(expr), label, source, _Ctx(limits.MAX_DICE_COMMAND - static, chain_limit)
    )


def _roll(expr: Expr, text: str, label: str | None, source: DiceSource, ctx: _Ctx) -> RollResult:
    ctx.truncated = False
    groups: list[RawGroup] = []
    total = _eval(expr, source, groups, ctx)
    successes = total if counts_successes(expr) else None
    return make_result(text, label, total, successes, ctx.truncated, groups, expr)


def _eval(node: Expr, source: DiceSource, groups: list[RawGroup], ctx: _Ctx) -> int:
    t = type(node)
    if t is Dice:
        return _roll_dice(node, source, groups, ctx)  # type: ignore[arg-type]
    if t is Num:
        return node.value  # type: ignore[union-attr]
    if t is BinOp:
        assert isinstance(node, BinOp)
        a = _eval(node.left, source, groups, ctx)
        b = _eval(node.right, source, groups, ctx)
        op = node.op
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if b == 0:
            raise UserError("dice.division_by_zero")
        return a // b
    assert isinstance(node, Neg)
    return -_eval(node.operand, source, groups, ctx)


def _roll_dice(d: Dice, source: DiceSource, groups: list[RawGroup], ctx: _Ctx) -> int:
    sides = d.sides
    count = d.count
    rollf = source.roll
    rr = d.reroll
    ex = d.explode
    if rr is None and ex is None:
        # Fast path: one face per die, no chains.
        values = [rollf(sides) for _ in range(count)]
        if d.keep is None and d.success is None:
            groups.append((sides, values, [KEPT] * count))
            return sum(values)
        flags = [0] * count
        chains = [(i, i + 1, v) for i, v in enumerate(values)]
    else:
        values = []
        flags = []
        chains = []
        rlo, rhi = rr.cond.interval(sides) if rr is not None else (1, 0)
        until = rr is not None and rr.until
        elo, ehi = ex.interval(sides) if ex is not None else (1, 0)
        limit = ctx.chain_limit
        for _ in range(count):
            start = len(values)
            length = 0
            chain_total = 0
            while True:
                if length:
                    ctx.extra()
                v = rollf(sides)
                if rlo <= v <= rhi:
                    values.append(v)
                    flags.append(REROLLED)
                    ctx.extra()
                    v = rollf(sides)
                    while until and rlo <= v <= rhi:
                        values.append(v)
                        flags.append(REROLLED)
                        ctx.extra()
                        v = rollf(sides)
                length += 1
                chain_total += v
                values.append(v)
                if elo <= v <= ehi:
                    if length < limit:
                        flags.append(EXPLODED)
                        continue
                    ctx.truncated = True
                flags.append(0)
                break
            chains.append((start, len(values), chain_total))

    keep = d.keep
    if keep is not None:
        highest, k = keep.resolve(len(chains))
        order = sorted(
            range(len(chains)),
            key=(lambda i: -chains[i][2]) if highest else (lambda i: chains[i][2]),
        )
        for i in order[k:]:
            start, end, _ = chains[i]
            for j in range(start, end):
                flags[j] |= DROPPED
        kept_chains = [chains[i] for i in sorted(order[:k])]
    else:
        kept_chains = chains

    succ = d.success
    total = 0
    if succ is None:
        for start, end, chain_total in kept_chains:
            for j in range(start, end):
                if not flags[j] & REROLLED:
                    flags[j] |= KEPT
            total += chain_total
    else:
        slo, shi = succ.interval(sides)
        flo, fhi = d.failure.interval(sides) if d.failure is not None else (1, 0)
        for start, end, _ in kept_chains:
            for j in range(start, end):
                f = flags[j]
                if f & REROLLED:
                    continue
                v = values[j]
                if slo <= v <= shi:
                    flags[j] = f | KEPT | SUCCESS
                    total += 1
                elif flo <= v <= fhi:
                    flags[j] = f | KEPT | FAILURE
                    total -= 1
                else:
                    flags[j] = f | KEPT
    groups.append((sides, values, flags))
    return total
