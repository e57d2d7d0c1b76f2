"""Rolling parsed expressions against a `DiceSource`."""

from __future__ import annotations

from collections.abc import Callable

from rules_core.dice import limits
from rules_core.dice.ast import (
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


Evaluator = Callable[[Callable[[int], int], list[RawGroup], "_Ctx"], int]


class _Plan:
    """An expression compiled to closures, with its static facts."""

    __slots__ = ("counts", "evaluate", "expr", "extra", "static", "text")

    def __init__(self, expr: Expr) -> None:
        self.expr = expr  # keeps id(expr) alive while the plan is cached
        self.evaluate = _compile(expr)
        self.static = static_dice(expr)
        self.extra = has_extra_dice(expr)
        self.counts = counts_successes(expr)
        self.text = render(expr)


_PLANS: dict[int, _Plan] = {}
_MAX_PLANS = 1024


def _plan(expr: Expr) -> _Plan:
    plan = _PLANS.get(id(expr))
    if plan is None or plan.expr is not expr:
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        plan = _PLANS[id(expr)] = _Plan(expr)
    return plan


def _compile(node: Expr) -> Evaluator:
    if isinstance(node, Num):
        value = node.value
        return lambda r, g, c: value
    if isinstance(node, Dice):
        return _compile_dice(node)
    if isinstance(node, Neg):
        inner = _compile(node.operand)
        return lambda r, g, c: -inner(r, g, c)
    left = _compile(node.left)
    op = node.op
    if isinstance(node.right, Num) and op != "/":
        k = node.right.value
        if op == "+":
            return lambda r, g, c: left(r, g, c) + k
        if op == "-":
            return lambda r, g, c: left(r, g, c) - k
        return lambda r, g, c: left(r, g, c) * k
    right = _compile(node.right)
    if op == "+":
        return lambda r, g, c: left(r, g, c) + right(r, g, c)
    if op == "-":
        return lambda r, g, c: left(r, g, c) - right(r, g, c)
    if op == "*":
        return lambda r, g, c: left(r, g, c) * right(r, g, c)

    def divide(r: Callable[[int], int], g: list[RawGroup], c: _Ctx) -> int:
        a = left(r, g, c)
        b = right(r, g, c)
        if b == 0:
            raise UserError("dice.division_by_zero")
        return a // b

    return divide


def _compile_dice(d: Dice) -> Evaluator:
    sides = d.sides
    count = d.count
    if d.reroll is None and d.explode is None and d.keep is None and d.success is None:
        if count == 1:

            def one(r: Callable[[int], int], g: list[RawGroup], c: _Ctx) -> int:
                v = r(sides)
                g.append((sides, [v], [KEPT]))
                return v

            return one
        counter = range(count)

        def plain(r: Callable[[int], int], g: list[RawGroup], c: _Ctx) -> int:
            values = [r(sides) for _ in counter]
            g.append((sides, values, [KEPT] * count))
            return sum(values)

        return plain
    return lambda r, g, c: _roll_dice(d, r, g, c)


def roll(cmd: RollCommand, source: DiceSource) -> list[RollResult]:
    """Roll every spec of a command (each `N#` repetition is its own result)."""
    rolls = cmd.rolls
    if len(rolls) == 1 and rolls[0].repeat == 1:
        spec = rolls[0]
        plan = _plan(spec.expr)
        return [_roll(plan, spec.text, spec.label, source, plan.static, limits.MAX_CHAIN)]
    static = 0
    extra = False
    plans = []
    for spec in rolls:
        plan = _plan(spec.expr)
        plans.append(plan)
        static += plan.static * spec.repeat
        extra = extra or plan.extra
    if static > limits.MAX_DICE_COMMAND:
        raise UserError("dice.too_many_dice_total", limit=limits.MAX_DICE_COMMAND)
    if not extra:
        source.require(static)
    ctx = _Ctx(limits.MAX_DICE_COMMAND - static, limits.MAX_CHAIN)
    out: list[RollResult] = []
    for spec, plan in zip(rolls, plans, strict=True):
        for _ in range(spec.repeat):
            out.append(_run(plan, spec.text, spec.label, source, ctx))
    return out


def roll_expr(
    expr: Expr,
    source: DiceSource,
    *,
    label: str | None = None,
    chain_limit: int = limits.MAX_CHAIN,
) -> RollResult:
    """Roll one expression. `chain_limit` exists so tests can use short explosion chains."""
    plan = _plan(expr)
    return _roll(plan, plan.text, label, source, plan.static, chain_limit)


def _roll(
    plan: _Plan, text: str, label: str | None, source: DiceSource, static: int, chain_limit: int
) -> RollResult:
    if static > limits.MAX_DICE_COMMAND:
        raise UserError("dice.too_many_dice_total", limit=limits.MAX_DICE_COMMAND)
    if not plan.extra:
        source.require(static)
    return _run(plan, text, label, source, _Ctx(limits.MAX_DICE_COMMAND - static, chain_limit))


def _run(plan: _Plan, text: str, label: str | None, source: DiceSource, ctx: _Ctx) -> RollResult:
    ctx.truncated = False
    groups: list[RawGroup] = []
    total = plan.evaluate(source.roll, groups, ctx)
    return make_result(
        text, label, total, total if plan.counts else None, ctx.truncated, groups, plan.expr
    )


def _roll_dice(d: Dice, rollf: Callable[[int], int], groups: list[RawGroup], ctx: _Ctx) -> int:
    sides = d.sides
    count = d.count
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
