"""Rolling parsed expressions against a `DiceSource`."""

from __future__ import annotations

from collections.abc import Callable

from rules_core.dice import limits
from rules_core.dice.ast import (
    TOTAL_OPS,
    Compare,
    Dice,
    DiceSet,
    Expr,
    Neg,
    Num,
    RollCommand,
    render,
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
    template_of,
)
from rules_core.dice.source import DiceSource
from rules_core.errors import UserError


class _Ctx:
    """Per-command rolling state: dice budget and explosion chain limit (only expressions
    that may roll extra dice, rerolls or explosions, need one)."""

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


Evaluator = Callable[[DiceSource, list[RawGroup], "_Ctx | None"], int]


class _Plan:
    """An expression compiled to closures, with its static facts and breakdown template."""

    __slots__ = ("counts", "evaluate", "expr", "extra", "static", "template", "text")

    def __init__(self, expr: Expr, text: str) -> None:
        self.expr = expr  # keeps id(expr) alive while the plan is cached
        dice: list[Dice] = []
        self.evaluate = _compile(expr, dice)
        static = 0
        extra = counts = False
        for d in dice:
            static += d.count
            extra = extra or d.reroll is not None or d.explode is not None
            counts = counts or d.success is not None
        self.static = static
        self.extra = extra
        # A comparison of totals reads as a success or a failure (1 or 0).
        self.counts = counts or isinstance(expr, Compare)
        self.text = text
        self.template = template_of(text, len(dice))


_PLANS: dict[int, _Plan] = {}
_MAX_PLANS = 1024


def _plan(expr: Expr, text: str | None = None) -> _Plan:
    """The compiled plan of `expr`; `text` is its canonical text when the caller has it."""
    plan = _PLANS.get(id(expr))
    if plan is None or plan.expr is not expr:
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        plan = _PLANS[id(expr)] = _Plan(expr, render(expr) if text is None else text)
    return plan


def clear_cache() -> None:
    """Forget every compiled expression (benchmarks time cold rolls with it)."""
    _PLANS.clear()


def _compile(node: Expr, dice: list[Dice]) -> Evaluator:
    """`node` as a closure; its dice terms are appended to `dice`, left to right."""
    if isinstance(node, Dice):
        dice.append(node)
        return _compile_dice(node)
    if isinstance(node, Num):
        value = node.value
        return lambda s, g, c: value
    if isinstance(node, Neg):
        inner = _compile(node.operand, dice)
        return lambda s, g, c: -inner(s, g, c)
    if isinstance(node, DiceSet):
        return _compile_set(node, dice)
    if isinstance(node, Compare):
        a = _compile(node.left, dice)
        b = _compile(node.right, dice)
        test = TOTAL_OPS[node.op]
        return lambda s, g, c: int(test(a(s, g, c), b(s, g, c)))
    left = _compile(node.left, dice)
    op = node.op
    if isinstance(node.right, Num) and op in "+-*":
        k = node.right.value
        if op == "+":
            return lambda s, g, c: left(s, g, c) + k
        if op == "-":
            return lambda s, g, c: left(s, g, c) - k
        return lambda s, g, c: left(s, g, c) * k
    right = _compile(node.right, dice)
    if op == "+":
        return lambda s, g, c: left(s, g, c) + right(s, g, c)
    if op == "-":
        return lambda s, g, c: left(s, g, c) - right(s, g, c)
    if op == "*":
        return lambda s, g, c: left(s, g, c) * right(s, g, c)

    modulo = op == "%"

    def divide(s: DiceSource, g: list[RawGroup], c: _Ctx | None) -> int:
        a = left(s, g, c)
        b = right(s, g, c)
        if b == 0:
            raise UserError("dice.division_by_zero")
        return a % b if modulo else a // b

    return divide


def _compile_set(node: DiceSet, dice: list[Dice]) -> Evaluator:
    """A set's members rolled left to right; the kept ones (by total, ties to the earlier
    member) summed."""
    members = [_compile(m, dice) for m in node.members]
    keep = node.keep
    if keep is None:
        return lambda s, g, c: sum(m(s, g, c) for m in members)
    highest, k = keep.resolve(len(members))

    def kept(s: DiceSource, g: list[RawGroup], c: _Ctx | None) -> int:
        totals = [m(s, g, c) for m in members]
        order = sorted(range(len(totals)), key=lambda i: -totals[i] if highest else totals[i])
        return sum(totals[i] for i in order[:k])

    return kept


def _compile_dice(d: Dice) -> Evaluator:
    sides = d.sides
    count = d.count
    if (
        d.reroll is None
        and d.explode is None
        and d.keep is None
        and d.success is None
        and not d.fudge
        and d.floor is None
        and d.ceiling is None
    ):
        # Plain NdX: faces straight from the source, no flags (every face kept).
        if count == 1:

            def one(s: DiceSource, g: list[RawGroup], c: _Ctx | None) -> int:
                v = s.roll(sides)
                g.append((sides, [v], None))
                return v

            return one

        def plain(s: DiceSource, g: list[RawGroup], c: _Ctx | None) -> int:
            values = s.many(sides, count)
            g.append((sides, values, None))
            return sum(values)

        return plain
    keep = d.keep
    if (
        keep is not None
        and d.reroll is None
        and d.explode is None
        and d.success is None
        and not d.fudge
        and d.floor is None
        and d.ceiling is None
    ):
        # Plain keep/drop (`4d6kh3`, `2d20kl1`): what `_roll_dice` does for it, without its
        # chains. Python's sort is stable with `reverse` too: ties keep the earlier die first.
        highest, k = keep.resolve(count)

        def kept(s: DiceSource, g: list[RawGroup], c: _Ctx | None) -> int:
            values = s.many(sides, count)
            order = sorted(range(count), key=values.__getitem__, reverse=highest)
            flags = [DROPPED] * count
            total = 0
            for i in order[:k]:
                flags[i] = KEPT
                total += values[i]
            g.append((sides, values, flags))
            return total

        return kept
    return lambda s, g, c: _roll_dice(d, s, g, c)


def roll_command(cmd: RollCommand, source: DiceSource) -> list[RollResult]:
    """Roll every spec of a command (each `N#` repetition is its own result)."""
    rolls = cmd.rolls
    if len(rolls) == 1 and rolls[0].repeat == 1:
        spec = rolls[0]
        plan = _plan(spec.expr, spec.text)
        return [_roll(plan, spec.text, spec.label, source, limits.MAX_CHAIN)]
    static = 0
    extra = False
    plans = []
    for spec in rolls:
        plan = _plan(spec.expr, spec.text)
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
    return _roll(plan, plan.text, label, source, chain_limit)


def _roll(
    plan: _Plan, text: str, label: str | None, source: DiceSource, chain_limit: int
) -> RollResult:
    static = plan.static
    if static > limits.MAX_DICE_COMMAND:
        raise UserError("dice.too_many_dice_total", limit=limits.MAX_DICE_COMMAND)
    if plan.extra:
        return _run(plan, text, label, source, _Ctx(limits.MAX_DICE_COMMAND - static, chain_limit))
    source.require(static)
    groups: list[RawGroup] = []
    total = plan.evaluate(source, groups, None)
    return make_result(
        text, label, total, total if plan.counts else None, False, groups, plan.template
    )


def _run(plan: _Plan, text: str, label: str | None, source: DiceSource, ctx: _Ctx) -> RollResult:
    ctx.truncated = False
    groups: list[RawGroup] = []
    total = plan.evaluate(source, groups, ctx)
    return make_result(
        text, label, total, total if plan.counts else None, ctx.truncated, groups, plan.template
    )


def _roll_dice(d: Dice, source: DiceSource, groups: list[RawGroup], ctx: _Ctx | None) -> int:
    rollf = source.roll
    sides = d.sides
    count = d.count
    rr = d.reroll
    ex = d.explode
    if rr is None and ex is None:
        # Fast path: one face per die, no chains.
        values = source.many(sides, count)
        if d.fudge:
            values = [v - 2 for v in values]  # a Fudge die's three faces: -1, 0, +1
        if d.floor is not None or d.ceiling is not None:
            values = [_clamp(v, d.floor, d.ceiling) for v in values]
        flags = [0] * count
        chains = [(i, i + 1, v) for i, v in enumerate(values)]
    else:
        assert ctx is not None  # a plan with rerolls or explosions always gets one
        values = []
        flags = []
        chains = []
        rlo, rhi = rr.cond.interval(sides) if rr is not None else (1, 0)
        until = rr is not None and rr.until
        elo, ehi = ex.interval(sides) if ex is not None else (1, 0)
        mode = d.mode
        once = mode == "once"
        limit = min(ctx.chain_limit, 2) if once else ctx.chain_limit
        penetrate = 1 if mode == "penetrate" else 0
        lo_clamp, hi_clamp = d.floor, d.ceiling
        clamps = lo_clamp is not None or hi_clamp is not None
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
                if clamps:
                    v = _clamp(v, lo_clamp, hi_clamp)
                length += 1
                chain_total += v - penetrate if length > 1 else v  # `!p`: each extra die -1
                values.append(v)
                if elo <= v <= ehi:
                    if length < limit:
                        flags.append(EXPLODED)
                        continue
                    ctx.truncated = ctx.truncated or not once
                flags.append(0)
                break
            if mode == "compound":  # `!!`: the chain is one die showing its total
                del values[start:], flags[start:]
                values.append(chain_total)
                flags.append(EXPLODED if length > 1 else 0)
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


def _clamp(v: int, lo: int | None, hi: int | None) -> int:
    """d20's `mi`/`ma`: a face below `lo` counts as `lo`, above `hi` as `hi`."""
    if lo is not None and v < lo:
        v = lo
    if hi is not None and v > hi:
        v = hi
    return v
