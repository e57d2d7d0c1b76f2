"""Hand-written lexer and recursive-descent parser for dice commands.

Grammar (case-insensitive, whitespace between tokens)::

    command := segment (";" segment)*
    segment := [INT "#"] compare [label]
    compare := expr [(">=" | ">" | "<=" | "<" | "=" | "==" | "!=") expr]
    expr    := term (("+" | "-") term)*
    term    := unary (("*" | "/") unary)*
    unary   := ("-" | "+") unary | atom
    atom    := "(" compare ")" | dice | INT
    dice    := [INT] "d" (INT | "%") modifier*

The label is whatever follows the longest expression (brackets around it are removed).
A comparison sign written right after a dice term is that term's per-die success condition
(`10d6>=4`); anywhere else it compares totals (`2d6+3>=10`, `(3d6) >= 11`): 1 or 0.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rules_core.dice import limits
from rules_core.dice.ast import (
    BinOp,
    CmpOp,
    Compare,
    Cond,
    Dice,
    DiceSet,
    ExplodeMode,
    Expr,
    Keep,
    KeepMode,
    Neg,
    Num,
    Reroll,
    RollCommand,
    RollSpec,
    TotalOp,
    counts_successes,
    iter_dice,
    render,
    static_dice,
)
from rules_core.errors import UserError

_WS = " \t\r\n\f\v"
_DIGITS = "0123456789"
_CMP_START = "<>="
_KEEP_WORDS = ("k", "kh", "kl", "dh", "dl")
_COUNT_WORDS = ("r", "rr", "f")
# d20's modifiers that don't clash with ours: explode, reroll once, reroll and add, min, max,
# and `p` (drop) with a highest/lowest selector.
_D20_WORDS = ("e", "ro", "ra", "mi", "ma", "ph", "pl", "t", "ie", "ir")
# Dice Maiden's, whose number is a bound, not a face: `t7` successes on 7+, `ie5` explode on 5+,
# `ir2` reroll 2 or less until it stops.
_MAIDEN_BOUND: dict[str, CmpOp] = {"t": ">=", "ie": ">=", "ir": "<="}
_DROP_WORDS: dict[str, KeepMode] = {"ph": "dh", "pl": "dl"}
# d20's l/h selectors on other modifiers (`rol1`: reroll the lowest die once): not ours.
_D20_SELECTOR_WORDS = ("rol", "roh", "ral", "rah", "rrl", "rrh", "el", "eh", "mil", "mih")
_LABEL_FORBIDDEN = "+-*/<>=!#)^%"
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


_MAIDEN_DROP = re.compile(r"d\d+")  # `4d6 d1`: Dice Maiden's drop-lowest, after a space
_DECIMALS = re.compile(r",[0-9]+(?![0-9d])")  # `,5` after a number: a decimal comma
_DICE_WORD = re.compile(r"[0-9]{0,3}d(?:[0-9]{1,4}|%)")  # a dice term written as a word
_MAIDEN_BOTCH = re.compile(r"b\d+")  # `4d10 t7 b1`: Dice Maiden's botches
_DICE_START = re.compile(r"d(?:[0-9%]|f(?![a-z]))")  # a dice term without its count
# What players write around the dice, which a label would silently swallow: a repeat (`x3`,
# `3 volte`; `3x d6` before them), a per-die target (`4+`, `successi su 4+`), a number's
# plural after an operation (`reroll 1s`) and an article (`ritira gli 1`).
_REPEAT_X = re.compile(r"[ \t]*([0-9]{1,3})[ \t]*[x×][ \t]*(?=[0-9(d])")
_LABEL_TIMES = re.compile(r"[x×] ?([0-9]{1,3})|([0-9]{1,3}) (?:volte|times|x)")
_LABEL_TARGET = re.compile(
    r"(?:(successi|successo|successes|success|hits|colpi) )?(?:(su|on|at|a|da) )?"
    r"(?=[0-9])(?:([0-9]{1,3})\+|([0-9]{1,3}))"
)
_LABEL_AT_LEAST = re.compile(
    r"(?:almeno|at least) ([0-9]{1,4})|([0-9]{1,4}) (?:o più|o piu|or more)"
)
_NUMBER_PLURAL = re.compile(r"([0-9]{1,3})(?:s|'s)?")


def _label_sign(s: str, k: int) -> bool:
    """A comparison sign that no number follows ("2d6 <b>x</b>"): it starts a label, it can't
    be a success or reroll condition."""
    if k >= len(s) or s[k] not in "<>=":
        return False
    j = k
    while j < len(s) and s[j] in "<>= ":
        j += 1
    return j < len(s) and s[j] not in _DIGITS  # text follows: a label, not a dangling sign


def _dice_after_sign(s: str, k: int) -> bool:
    """A comparison sign at `k` whose operand is a dice term (`3d6 > 2d6`): it compares two
    totals. Its number starts the other roll, it can't be a per-die target (`3d6>2`)."""
    j = k
    while j < len(s) and s[j] in "<>=":
        j += 1
    while j < len(s) and s[j] in _WS:
        j += 1
    while j < len(s) and s[j] in _DIGITS:
        j += 1
    return s[j : j + 1] == "d" and (_sides_start(s[j + 1 : j + 2]) or _fudge_at(s, j + 1))


def _fudge_at(s: str, j: int) -> bool:
    """`f` at `j` is a Fudge die's size (`4dF`), not the start of a word (`2d fire`)."""
    return _FUDGE.match(s, j) is not None


_FUDGE = re.compile(r"f(?![a-z])|f(?=(?:k[hl]?|d[hl]|p[hl])[0-9])")


def _sides_start(ch: str) -> bool:
    """Whether `ch` (one character or "") can follow the `d` of a die."""
    return ch != "" and ch in "0123456789%"


class _Parser:
    __slots__ = ("base", "depth", "i", "n", "s", "start")

    def __init__(self, text: str, base: int) -> None:
        self.s = text.translate(_LOWER)  # ASCII-only lowering keeps indices aligned
        self.n = len(text)
        self.i = 0
        self.base = base
        self.depth = 0
        self.start = 0

    # -- helpers -----------------------------------------------------------------------
    def pos(self, i: int | None = None) -> int:
        """1-based column in the whole input."""
        return self.base + (self.i if i is None else i) + 1

    def ws(self) -> None:
        s, i, n = self.s, self.i, self.n
        while i < n and s[i] in _WS:
            i += 1
        self.i = i

    def peek(self, off: int = 0) -> str:
        j = self.i + off
        return self.s[j] if j < self.n else ""

    def unexpected(self) -> UserError:
        if self.i >= self.n:
            return UserError("dice.unexpected_end", position=self.pos())
        return UserError("dice.unexpected", token=self.s[self.i], position=self.pos())

    def number(self) -> int:
        s, i, n = self.s, self.i, self.n
        j = i
        while j < n and s[j] in _DIGITS:
            j += 1
        if j == i:
            raise self.unexpected()
        digits = s[i:j].lstrip("0")
        if len(digits) > 7 or (digits and int(digits) > limits.MAX_LITERAL):
            raise UserError("dice.number_too_large", limit=limits.MAX_LITERAL)
        self.i = j
        return int(digits) if digits else 0

    def cmp(self) -> CmpOp:
        c = self.peek()
        if c == ">":
            self.i += 1
            if self.peek() == "=":
                self.i += 1
                return ">="
            return ">"
        if c == "<":
            self.i += 1
            if self.peek() == "=":
                self.i += 1
                return "<="
            return "<"
        if c == "=":
            self.i += 1
            return "="
        raise self.unexpected()

    def cond(self) -> Cond:
        op = self.cmp()
        self.ws()
        return Cond(op, self.number())

    def enter(self) -> None:
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise UserError("dice.too_deep", limit=limits.MAX_DEPTH)

    def total_op(self) -> TotalOp | None:
        """A comparison of totals at the cursor (consumed), or None: a sign followed by words
        starts a label instead (`2d6 <b>x</b>`)."""
        s, i, n = self.s, self.i, self.n
        c = s[i] if i < n else ""
        if c == "!":
            if s[i + 1 : i + 2] != "=":
                return None
            j, op = i + 2, "!="
        elif c and c in _CMP_START:
            two = s[i : i + 2]
            if two in (">=", "<=", "=="):
                j, op = i + 2, ("=" if two == "==" else two)
            else:
                j, op = i + 1, c
        else:
            return None
        k = j
        while k < n and s[k] in _WS:
            k += 1
        nxt = s[k] if k < n else ""
        operand = nxt in "0123456789(+-." or (nxt == "d" and _sides_start(s[k + 1 : k + 2]))
        if not (nxt and operand):
            return None
        self.i = j
        return op  # type: ignore[return-value]

    # -- grammar -----------------------------------------------------------------------
    def compare(self) -> Expr:
        left = self.expr()
        self.ws()
        op = self.total_op()
        if op is None:
            return left
        return Compare(op, left, self.expr())

    def expr(self) -> Expr:
        left = self.term()
        while True:
            self.ws()
            c = self.peek()
            if c == "+" or c == "-":
                self.i += 1
                left = BinOp(c, left, self.term())  # type: ignore[arg-type]
            else:
                return left

    def term(self) -> Expr:
        left = self.unary()
        while True:
            self.ws()
            c = self.peek()
            if c == "*" or c == "/" or c == "%":
                self.i += 1
                if c == "/" and self.peek() == "/":
                    self.i += 1  # d20's `//`: our `/` already rounds down
                left = BinOp(c, left, self.unary())  # type: ignore[arg-type]
            else:
                return left

    def note(self) -> None:
        """Skip d20's inline annotation after a term (`9[fire] + 3`); a bracket that ends the
        roll is its label instead."""
        s, n = self.s, self.n
        j = self.i
        while j < n and s[j] in _WS:
            j += 1
        if j >= n or s[j] != "[":
            return
        end = s.find("]", j)
        if end < 0:
            return
        k = end + 1
        while k < n and s[k] in _WS:
            k += 1
        if k < n and s[k] in "+-*/%),<>=!":
            self.i = end + 1

    def unary(self) -> Expr:
        self.ws()
        c = self.peek()
        if c == "-" or c == "+":
            self.enter()
            self.i += 1
            operand = self.unary()
            self.depth -= 1
            return Neg(operand) if c == "-" else operand
        node = self.atom()
        self.note()
        return node

    def atom(self) -> Expr:
        c = self.peek()
        if c == "(":
            self.enter()
            open_at = self.i
            self.i += 1
            members = [self.compare()]
            comma = False
            self.ws()
            while self.peek() == ",":  # d20's set: (1d4, 2+2, 3d6kl1)
                comma = True
                self.i += 1
                self.ws()
                if self.peek() == ")":
                    break
                members.append(self.compare())
                self.ws()
            if self.peek() != ")":
                if self.i >= self.n:
                    raise UserError("dice.unclosed_paren", position=self.pos(open_at))
                raise self.unexpected()
            self.i += 1
            self.depth -= 1
            keep = self.set_keep()
            if keep is None and len(members) == 1:
                return members[0]
            if keep is not None and len(members) == 1 and not comma and iter_dice(members[0]):
                # d20 would keep among the dice inside; we keep whole members: say so. Dice
                # that already keep or drop can't take a second keep: no example to offer then.
                inner = render(members[0])
                if re.search(r"[kp][hl]?\d", inner):
                    raise UserError("dice.set_keep_twice", given=inner)
                raise UserError("dice.set_keep_dice", example=f"{inner}{keep.render()}")
            return DiceSet(tuple(members), keep)
        if c == "." and self.peek(1) in _DIGITS and self.peek(1):
            raise UserError("dice.no_decimals")
        if c and c in _DIGITS:
            value = self.number()
            if self.peek() == "." and self.peek(1) and self.peek(1) in _DIGITS:
                raise UserError("dice.no_decimals")
            if self.peek() == "d" and _sides_start(self.peek(1)):
                self.i += 1
                return self.dice(value)
            if self.peek() == "d" and _fudge_at(self.s, self.i + 1):
                self.i += 1
                return self.dice(value)
            if self.peek() == "d":
                self.no_sides(str(value))
            return Num(value)
        if c == "d" and (_sides_start(self.peek(1)) or _fudge_at(self.s, self.i + 1)):
            self.i += 1
            return self.dice(1)
        if c == "d" and self.i > self.start:
            self.no_sides("")
        if self.i == self.start:
            raise UserError("dice.empty")
        if self.i >= self.n:
            raise UserError("dice.expected_term", position=self.pos())
        raise self.unexpected()

    def no_sides(self, count: str) -> None:
        """A `d` at the cursor with no number of sides after it (`2d`, `1d6+1d`, `3d 6`):
        refused with the die to write, unless a word follows (`2 dragons` is a label)."""
        s, j = self.s, self.i + 1
        if j < self.n and s[j].isalpha():
            return
        k = j
        while k < self.n and s[k] in _WS:
            k += 1
        e = k
        while e < self.n and s[e] in _DIGITS:
            e += 1
        sides = s[k:e] if k > j and e > k else "6"  # `3d 6`: the sides set apart
        example = f"{count}d{sides}"
        if _parses(example):  # else (`900d`) the plain "unexpected" says it
            raise UserError("dice.missing_sides", position=self.pos(), example=example)

    def set_keep(self) -> Keep | None:
        """A keep or drop written right after a set's `)`: `kh1`, `kl2`, `k1`, `dh1`, `ph1`..."""
        s, n, k = self.s, self.n, self.i
        e = k
        while e < n and s[e].isalpha():
            e += 1
        word = s[k:e]
        if not word:
            return None
        nxt = s[e] if e < n else ""
        keep: Keep | None = None
        if word in _KEEP_WORDS and nxt and nxt in _DIGITS:
            self.i = e
            mode: KeepMode = "kh" if word == "k" else word  # type: ignore[assignment]
            keep = Keep(mode, self.number())
        elif word in _DROP_WORDS and nxt and nxt in _DIGITS:
            self.i = e
            keep = Keep(_DROP_WORDS[word], self.number())
        if keep is not None:
            j = self.i
            while j < n and s[j].isalpha():
                j += 1
            if s[self.i : j] in (*_KEEP_WORDS, *_DROP_WORDS, "p"):
                raise UserError("dice.keep_twice", example=f"(…){keep.render()}")
            return keep
        if word in ("k", "p") and nxt and nxt in _CMP_START:
            raise UserError("dice.selector_unsupported", selector=f"{word}{nxt}")
        if word == "p" and nxt and nxt in _DIGITS:
            raise UserError("dice.selector_unsupported", selector=f"p{nxt}")
        return None

    def dice(self, count: int) -> Dice:
        if count > limits.MAX_DICE_TERM:
            raise UserError("dice.too_many_dice", limit=limits.MAX_DICE_TERM)
        fudge = False
        if self.peek() == "%":
            self.i += 1
            sides = 100
        elif self.peek() == "f":
            self.i += 1
            sides, fudge = 3, True
        else:
            sides = self.number()
        if not limits.MIN_SIDES <= sides <= limits.MAX_SIDES:
            raise UserError(
                "dice.bad_sides", n=sides, min=limits.MIN_SIDES, max=limits.MAX_SIDES
            )  # counted: "1 faccia", "0 facce"
        reroll: Reroll | None = None
        explode: Cond | None = None
        keep: Keep | None = None
        success: Cond | None = None
        failure: Cond | None = None
        xmode: ExplodeMode = "add"
        floor: int | None = None
        ceiling: int | None = None
        seen: set[str] = set()
        s, n = self.s, self.n

        def once(name: str) -> None:
            if name in seen:
                raise UserError("dice.duplicate_modifier", modifier=name, position=self.pos())
            seen.add(name)

        while True:
            attached = self.i
            self.ws()
            k = self.i
            c = self.peek()
            if c == "!" and k != attached and s[k + 1 : k + 2] == "=":
                self.i = attached  # `2d6 != 7`: a comparison of the total (`d6!=6` explodes)
                break
            if c == "!":
                once("!")
                self.i += 1
                if self.peek() == "!":  # Dice Maiden's compounding `!!`
                    self.i += 1
                    xmode = "compound"
                elif self.peek() == "p":  # penetrating `!p`
                    self.i += 1
                    xmode = "penetrate"
                self.ws()
                if self.peek() and self.peek() in _CMP_START:
                    explode = self.cond()
                else:
                    explode = Cond("=", sides)
            elif (
                c
                and c in _CMP_START
                and not (k != attached and _label_sign(s, k))
                and not _dice_after_sign(s, k)
            ):
                once(">=")
                success = self.cond()
            elif c.isalpha():
                e = k
                while e < n and s[e].isalpha():
                    e += 1
                word = s[k:e]
                nxt = s[e] if e < n else ""
                takes_cmp = word in _COUNT_WORDS
                d20 = word in _D20_WORDS and nxt and (nxt in _DIGITS or nxt in _CMP_START)
                if d20 and (word in ("mi", "ma") and nxt not in _DIGITS):
                    d20 = False
                if d20:
                    self.i = e
                    bound = _MAIDEN_BOUND.get(word, "=")
                    cond = Cond(bound, self.number()) if nxt in _DIGITS else self.cond()
                    if word == "t":  # Dice Maiden's target: count successes
                        once(">=")
                        success = cond
                    elif word == "ir":
                        once("r")
                        reroll = Reroll(cond, True)
                    elif word in ("e", "ie"):  # d20's explode `e6`, `e>4`; Dice Maiden's `ie5`
                        once("!")
                        explode = cond
                    elif word == "ra":  # reroll and add: one extra die at most
                        once("!")
                        explode, xmode = cond, "once"
                    elif word == "ro":
                        once("r")
                        reroll = Reroll(cond, False)
                    elif word == "mi":
                        once("mi")
                        floor = cond.value
                    elif word == "ma":
                        once("ma")
                        ceiling = cond.value
                    elif word in _DROP_WORDS:
                        once("k")
                        keep = Keep(_DROP_WORDS[word], cond.value)
                    continue
                if word in ("e", "ie") and not nxt.isalnum() and not (nxt and nxt in _CMP_START):
                    once("!")  # Dice Maiden's bare `e`/`ie`: explode on the maximum
                    self.i = e
                    explode = Cond("=", sides)
                    continue
                if (
                    k == attached
                    and nxt
                    and (nxt in _DIGITS or nxt in _CMP_START)
                    and (word in _D20_SELECTOR_WORDS or word == "p")
                ):
                    raise UserError("dice.selector_unsupported", selector=s[k : e + 1])
                if (
                    (word in _KEEP_WORDS or takes_cmp)
                    and nxt
                    and (nxt in _DIGITS or (takes_cmp and nxt in _CMP_START))
                ):
                    self.i = e
                    if word in _KEEP_WORDS:
                        once("k")
                        mode: KeepMode = "kh" if word == "k" else word  # type: ignore[assignment]
                        keep = Keep(mode, self.number())
                    else:
                        cond = Cond("<=", self.number()) if nxt in _DIGITS else self.cond()
                        if word == "f":
                            once("f")
                            failure = cond
                        else:
                            once("r")
                            reroll = Reroll(cond, word == "rr")
                elif (word in _KEEP_WORDS or takes_cmp) and k == attached and not nxt.isalpha():
                    raise UserError(
                        "dice.modifier_needs_number", modifier=word, position=self.pos(k)
                    )
                else:
                    self.i = attached
                    break
            else:
                self.i = attached
                break

        if failure is not None and success is None:
            raise UserError("dice.failure_without_success")
        if fudge and (reroll or explode or success or floor is not None or ceiling is not None):
            raise UserError("dice.fudge_modifier")
        if (floor is not None or ceiling is not None) and (explode or success):
            raise UserError("dice.minmax_combo")
        if xmode != "add" and success is not None:
            raise UserError("dice.explode_mode_count")
        if success is not None and success.count(sides) == 0:
            # `3d6>=11` counts dice showing 11 or more: always 0. What was meant is the total.
            bare = Dice(count, sides, reroll, explode, keep, mode=xmode)
            raise UserError(
                "dice.per_die_unreachable",
                condition=success.render(),
                sides=sides,
                total_form=f"({bare.render()}){success.render()}",
            )
        if explode is not None and xmode != "once":
            lo, hi = explode.interval(sides)
            rlo, rhi = (1, 0)
            if reroll is not None and reroll.until:
                rlo, rhi = reroll.cond.interval(sides)
            # Every face that can stand (not rerolled away for good) would explode.
            if all(rlo <= v <= rhi or lo <= v <= hi for v in range(1, sides + 1)):
                raise UserError("dice.explode_always", sides=sides)
        if reroll is not None and reroll.until and reroll.cond.count(sides) >= sides:
            raise UserError("dice.reroll_always", sides=sides)
        if keep is not None and success is not None and explode is not None:
            raise UserError("dice.keep_count_explode")
        return Dice(
            count, sides, reroll, explode, keep, success, failure, xmode, floor, ceiling, fudge
        )


def _segment(text: str, base: int) -> RollSpec:
    p = _Parser(text, base)
    p.ws()
    repeat = 1
    j = p.i
    while j < p.n and p.s[j] in _DIGITS:
        j += 1
    if j > p.i:
        h = j
        while h < p.n and p.s[h] in _WS:
            h += 1
        if h < p.n and p.s[h] == "#":
            repeat = p.number()
            if not 1 <= repeat <= limits.MAX_REPEAT:
                raise UserError("dice.bad_repeat", value=repeat, limit=limits.MAX_REPEAT)
            p.i = h + 1
            p.ws()
    p.start = p.i
    times = _REPEAT_X.match(text, p.i) if repeat == 1 else None
    if times is not None:  # `3x d6`: a repeat written as a count of times
        example = f"{int(times[1])}#{text[times.end() :].strip()}"
        if _parses(example):  # else the text has other troubles: the parser names them
            raise UserError("dice.repeat_syntax", example=example)
    expr = p.compare()
    p.ws()
    rest = text[p.i :].strip()
    label: str | None = None
    if rest:
        low = rest.translate(_LOWER)
        c = low[0]
        # A label is set apart by a space or brackets: "2d6x" and "2d" are typos, not labels.
        glued = c != "[" and not p.s[p.i - 1].isspace()
        first = low.split()[0]
        if not glued and isinstance(expr, Num) and _DICE_START.match(low):
            # `2 d6`: the count set apart from its die (not Dice Maiden's `4d6 d1`). When the
            # joined text has troubles of its own (`2 d6 4+`), its error says them, on `2d6`.
            joined = f"{expr.value}{rest}"
            parse_full(joined)
            raise UserError("dice.split_dice", given=text.strip(), instead=joined)
        typed = text[p.start : p.i].strip()
        before = text[: p.i].strip()  # with its repeat (`3#d6`)
        if c == "," and glued and _ends_in_number(expr) and _DECIMALS.match(rest):
            raise UserError("dice.no_decimals")  # `2d6+1,5`: a decimal comma
        if c == ",":  # `1d6,1d8`: two rolls (`;`) or a sum (`+`)?
            rolls, total = f"{before}; {rest[1:].strip()}", f"{before}+{rest[1:].strip()}"
            if _parses(rolls) and _parses(total):
                raise UserError("dice.comma_between_rolls", rolls=rolls, sum=total)
        if not glued and _DICE_WORD.fullmatch(first) and not _maiden_drop(expr, first):
            # `2d6 3d6`, `d6 d8`: another roll, not a label
            rolls, total = f"{before}; {first}", f"{before}+{first}"
            if _parses(rolls) and _parses(total):
                raise UserError("dice.label_is_dice", given=first, rolls=rolls, sum=total)
        if not glued and _MAIDEN_DROP.fullmatch(first):
            # Dice Maiden's `4d6 d1` (drop the lowest one): ours is `4d6pl1`, never a new die.
            raise UserError("dice.maiden_drop", given=first, instead=f"pl{first[1:]}")
        if not glued and _MAIDEN_BOTCH.fullmatch(first):
            # Dice Maiden's botches (`b1`): not counted here; never read as a label either.
            raise UserError("dice.maiden_botch", given=first)
        if (
            glued
            or (c in _LABEL_FORBIDDEN and not _label_sign(low, 0))
            or (c == "d" and len(low) > 1 and _sides_start(low[1]))
            or (c == "." and len(low) > 1 and low[1] in _DIGITS)
        ):
            raise p.unexpected()
        if rest[0] == "[" and rest[-1] == "]":
            rest = rest[1:-1].strip()
        label = rest or None
        words = low.split()
        if words and words[0] in _ADVANTAGE:
            # Avrae's `1d20+5 adv`: the d20 is rolled twice, the better (or worse) one kept.
            expr = _advantage(expr, _ADVANTAGE[words[0]], words[0])
            label = rest[len(words[0]) :].strip() or None
        elif (instead := _label_operation(words)) is not None:
            raise _operation_error(expr, rest, instead)
        elif (least := _LABEL_AT_LEAST.fullmatch(" ".join(words))) is not None:
            raise _at_least_error(expr, typed, rest, int(least[1] or least[2]))
        elif repeat == 1 and (n := _label_repeat(words)) is not None:
            raise UserError("dice.label_is_repeat", given=rest, example=f"{n}#{render(expr)}")
        elif isinstance(expr, Dice) and expr.success is None:
            target = _label_target(words)
            if target is not None:
                raise _target_error(expr, rest, target)
    return _spec(expr, render(expr), label, repeat)


_ADVANTAGE: dict[str, KeepMode] = {
    "adv": "kh",
    "dis": "kl",
    "advantage": "kh",
    "disadvantage": "kl",
    "vantaggio": "kh",
    "svantaggio": "kl",
}

# What a label says the dice should do, in Italian or English: `4d6 tieni 3` and `4d6 tieni i 3
# migliori` summed all four dice under that label. Read as a short phrase (a verb, an article, a
# number, which dice) it is refused with the modifier to write; a label that goes on in other
# words (`tieni la linea`, `keep calm`) stays a label.
_KEEP_VERBS = {"keep": "k", "tieni": "k", "mantieni": "k", "drop": "d", "scarta": "d"}
_BEST = frozenset(("migliori", "migliore", "best", "highest", "più alti", "più alto"))
_WORST = frozenset(("peggiori", "peggiore", "worst", "lowest", "più bassi", "più basso"))
_REROLL_VERBS = frozenset(("reroll", "ritira", "rilancia"))
_EXPLODE_WORDS = frozenset(("explode", "exploding", "esplodi", "esplode", "esplodono", "esplosivi"))
_ARTICLES = frozenset(("il", "i", "la", "le", "lo", "gli", "the"))
_AND = frozenset(("e", "and", ",", "o", "or"))


def _label_operation(words: list[str]) -> str | None:
    """The modifier a label's words ask for (`kh3`, `dl1`, `r2`, `!`), else None."""
    if len(words) == 1 and words[0] in _EXPLODE_WORDS:
        return "!"
    if words and words[0] in _REROLL_VERBS:
        return _reroll_phrase(words[1:])
    return _keep_phrase(words)


def _keep_phrase(words: list[str]) -> str | None:
    """`tieni i 3 migliori`, `keep highest 3`, `scarta il peggiore`, `il migliore`, `best`."""
    tokens: list[str] = []
    for w in words:  # `più alti` is one word here
        if tokens and tokens[-1] in ("più", "piu"):
            tokens[-1] = "più " + w
        else:
            tokens.append(w)
    verb = which = None
    n: int | None = None
    for i, t in enumerate(tokens):
        if i == 0 and t in _KEEP_VERBS:
            verb = _KEEP_VERBS[t]
        elif t in _ARTICLES and which is None and n is None:
            continue
        elif t.isdigit() and len(t) <= 3 and n is None:
            n = int(t)
        elif (t in _BEST or t in _WORST) and which is None:
            which = "best" if t in _BEST else "worst"
        else:
            return None
    if verb is None and which is None:
        return None
    if verb == "d":
        return ("dh" if which == "best" else "dl") + str(n or 1)
    return ("kl" if which == "worst" else "kh") + str(n or 1)


def _reroll_phrase(words: list[str]) -> str | None:
    """`ritira`, `ritira 1`, `ritira gli 1`, `reroll 1s and 2s`: faces up to N, as `rN`."""
    faces: set[int] = set()
    for w in words:
        m = _NUMBER_PLURAL.fullmatch(w)
        if m is not None:
            faces.add(int(m[1]))
        elif w not in _ARTICLES and w not in _AND:
            return None
    if not faces:
        return "r1"
    # one number N is rN (N or less, as `ritira 1` always read); several must be 1 to N
    top = max(faces)
    return f"r{top}" if len(faces) == 1 or faces == set(range(1, top + 1)) else None


def _label_repeat(words: list[str]) -> int | None:
    """How many times a label asks to roll (`x3`, `x 3`, `×3`, `3 volte`, `3 times`), else None."""
    text = " ".join(words)
    m = _LABEL_TIMES.fullmatch(text)
    if m is None:
        return None
    n = int(m[1] or m[2])
    return n if 1 < n <= limits.MAX_REPEAT else None


def _label_target(words: list[str]) -> int | None:
    """The per-die target a label names (`4+`, `su 4+`, `successi su 4+`, `hits on 5`), else
    None: the wargames' way to say "count the dice showing N or more"."""
    m = _LABEL_TARGET.fullmatch(" ".join(words))
    if m is None or (m[3] is None and m[1] is None and m[2] is None):
        return None  # a bare number with no plus sign and no word is a label (`d20 3`)
    return int(m[3] or m[4])


def _ends_in_number(expr: Expr) -> bool:
    """Whether the text of `expr` ends with a plain number (`2d6+1`, not `2d6`)."""
    while isinstance(expr, BinOp | Compare):
        expr = expr.right
    return isinstance(expr, Num)


def _maiden_drop(expr: Expr, word: str) -> bool:
    """`4d6 d1`: Dice Maiden's drop of the lowest N, which needs more than N dice before it
    (`d6 d8` and `2d6 d6` are another die)."""
    m = _MAIDEN_DROP.fullmatch(word)
    return m is not None and isinstance(expr, Dice) and int(word[1:]) < expr.count


def _parses(text: str) -> bool:
    try:
        parse_full(text)
    except UserError:
        return False
    return True


def _at_least_error(expr: Expr, typed: str, given: str, n: int) -> UserError:
    """`3d6 almeno 10`: the comparison of the total to write, on the expression as typed. A
    dice term goes in brackets (`(3d6)>=10`), else its `>=` would be a per-die target."""
    left = typed
    if isinstance(expr, Dice):
        left = f"({left})"
    return UserError("dice.label_is_comparison", given=given, example=f"{left}>={n}")


def _target_error(expr: Dice, given: str, target: int) -> UserError:
    per_die = expr._replace(success=Cond(">=", target))
    if Cond(">=", target).count(expr.sides) == 0:  # no face reaches it: the total's
        example = f"({render(expr)})>={target}"
    else:
        example = render(per_die)
    return UserError("dice.label_is_operation", given=given, instead=f">={target}", example=example)


def _operation_error(expr: Expr, given: str, instead: str) -> UserError:
    plain = isinstance(expr, Dice) and expr == Dice(expr.count, expr.sides)
    dice = render(expr) if plain else "4d6"
    return UserError(
        "dice.label_is_operation", given=given, instead=instead, example=dice + instead
    )


def _advantage(node: Expr, mode: KeepMode, word: str) -> Expr:
    """`node` with its one single d20 rolled twice and `mode`-kept; an error without one
    (naming the `word` typed: `adv`, `vantaggio`...)."""
    found: list[Dice] = []

    def walk(n: Expr) -> Expr:
        if isinstance(n, Dice):
            if n.count == 1 and n.sides == 20 and n.keep is None and n.success is None:
                found.append(n)
                return n._replace(count=2, keep=Keep(mode, 1))
            return n
        if isinstance(n, Neg):
            return Neg(walk(n.operand))
        if isinstance(n, BinOp):
            return BinOp(n.op, walk(n.left), walk(n.right))
        if isinstance(n, Compare):
            return Compare(n.op, walk(n.left), walk(n.right))
        if isinstance(n, DiceSet):
            return DiceSet(tuple(walk(m) for m in n.members), n.keep)
        return n

    out = walk(node)
    if len(found) != 1:
        raise UserError("dice.advantage_needs_d20", word=word)
    return out


@lru_cache(maxsize=512)
def _parse_cached(text: str) -> RollCommand:
    if len(text) > limits.MAX_TEXT:
        raise UserError("dice.too_long", limit=limits.MAX_TEXT)
    fast = _fast_sum(text)
    return _command([fast]) if fast is not None else parse_full(text)


def parse_full(text: str) -> RollCommand:
    """The character-by-character parser alone (every syntax; no cache, no fast path)."""
    if len(text) > limits.MAX_TEXT:
        raise UserError("dice.too_long", limit=limits.MAX_TEXT)
    segments: list[tuple[str, int]] = []
    base = 0
    for part in text.split(";"):
        if part.strip():
            segments.append((part, base))
        base += len(part) + 1
    if not segments:
        raise UserError("dice.empty")
    if len(segments) > limits.MAX_ROLLS:
        raise UserError("dice.too_many_rolls", limit=limits.MAX_ROLLS)
    specs = [_segment(part, off) for part, off in segments]
    check_static_total(specs)
    return _command(specs)


# The shape of most rolls typed in a chat, `4d6kh3 + 2`, `d20+5`, `10d6>=4`, `3d6!`: a sum of
# numbers and dice with at most a reroll-once `rN`, a bare `!`, a keep and a success condition
# written right after them, in that order. Such
# text is read by one regular expression per term instead of the character-by-character parser
# (the cost of a new expression, half of a cold roll). Anything else, and anything near a limit,
# goes to the full parser, which gives the same tree (tests/dice/test_dice_parser.py checks).
_FAST_TERM = re.compile(
    r"[ \t\r\n\f\v]*([+-]?)[ \t\r\n\f\v]*"
    r"(?:([0-9]{0,3})d([0-9]{1,4}|%)(?:r([0-9]{1,4}))?(!)?(?:(k[hl]?|d[hl])([0-9]{1,4}))?"
    r"(?:([<>]=?|=)([0-9]{1,4}))?"
    r"|([0-9]{1,6}))"
    r"[ \t\r\n\f\v]*(?=[+-]|\Z)"
)


def _fast_sum(text: str) -> RollSpec | None:
    """`text` as a RollSpec when it is a plain sum of dice and numbers, else None."""
    pieces: list[str] = []
    expr = _fast_terms(text, pieces)
    return None if expr is None else _spec(expr, "".join(pieces), None, 1)


def _fast_terms(text: str, pieces: list[str] | None) -> Expr | None:
    """The tree of a plain sum of dice and numbers, else None; with `pieces`, the shown text
    (`Dice.render()`'s) term by term too (a roll shows it, the odds of one expression don't)."""
    if not text.isascii():
        return None  # the terms are ASCII: the full parser explains anything else
    s = text.lower()  # ASCII: the same as the full parser's _LOWER, in C
    n = len(s)
    pos = 0
    expr: Expr | None = None
    static = 0
    match = _FAST_TERM.match
    while pos < n:
        m = match(s, pos)
        if m is None:
            return None
        sign, count_s, sides_s, reroll_n, bang, keep_s, keep_n, cmp_s, cmp_n, num_s = m.groups()
        if bool(sign) == (expr is None):  # a leading sign, or two terms with no sign between
            return None
        term: Expr
        if num_s is not None:
            term = Num(int(num_s))
            piece = str(term.value) if pieces is not None else ""
        else:
            count = int(count_s) if count_s else 1
            sides = 100 if sides_s == "%" else int(sides_s)
            if count > limits.MAX_DICE_TERM or not limits.MIN_SIDES <= sides <= limits.MAX_SIDES:
                return None
            if bang and cmp_s is not None:
                return None  # `!>=5` is the explosion's condition: the full parser reads it
            static += count
            reroll = Reroll(Cond("<=", int(reroll_n)), False) if reroll_n is not None else None
            explode = Cond("=", sides) if bang else None
            keep = None
            if keep_s is not None:
                keep = Keep("kh" if keep_s == "k" else keep_s, int(keep_n))  # type: ignore[arg-type]
            success = Cond(cmp_s, int(cmp_n)) if cmp_s is not None else None  # type: ignore[arg-type]
            if success is not None and success.count(sides) == 0:
                return None  # the full parser explains it
            term = Dice(count, sides, reroll, explode, keep, success, None)
            if pieces is None:
                piece = ""
            elif reroll is None and explode is None and success is None:
                # Dice.render()'s text for a count, sides and a keep, written out directly
                piece = f"{count}d{sides}" if count != 1 else f"d{sides}"
                if keep is not None:
                    piece += f"{keep.mode}{keep.n}"
            else:
                piece = term.render()
        if expr is None:
            expr = term
            if pieces is not None:
                pieces.append(piece)
        else:
            expr = BinOp(sign, expr, term)  # type: ignore[arg-type]
            if pieces is not None:
                pieces.append(f" {sign} {piece}")
        pos = m.end()
    if expr is None or static > limits.MAX_DICE_COMMAND:
        return None
    return expr


_new = object.__new__
_set = object.__setattr__


def _spec(expr: Expr, text: str, label: str | None, repeat: int) -> RollSpec:
    """A RollSpec without validation (the parser built it right), as `model_construct` but
    cheaper: a new expression is parsed on every cold roll."""
    m = _new(RollSpec)
    _set(m, "__dict__", {"expr": expr, "text": text, "label": label, "repeat": repeat})
    _set(m, "__pydantic_fields_set__", _SPEC_FIELDS)
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", None)
    return m


def _command(specs: list[RollSpec]) -> RollCommand:
    m = _new(RollCommand)
    _set(m, "__dict__", {"rolls": specs})
    _set(m, "__pydantic_fields_set__", _COMMAND_FIELDS)
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", None)
    return m


_SPEC_FIELDS = {"expr", "text", "label", "repeat"}
_COMMAND_FIELDS = {"rolls"}


def check_static_total(specs: list[RollSpec]) -> None:
    """Refuse a command whose dice, before any reroll or explosion, exceed the limit."""
    total = sum(static_dice(spec.expr) * spec.repeat for spec in specs)
    if total > limits.MAX_DICE_COMMAND:
        raise UserError("dice.too_many_dice_total", limit=limits.MAX_DICE_COMMAND)


def parse(text: str) -> RollCommand:
    """Parse a dice command; bad input raises `UserError("dice.…")`.

    Commands are immutable, so parsing the same text twice returns the same object.
    """
    return _parse_cached(text)


@lru_cache(maxsize=512)
def parse_expr(text: str) -> Expr:
    """Parse a single expression without label or repeat (`odds(text)` of the dice API)."""
    # A plain sum straight to its tree: no RollCommand, nor the text a roll shows (a fifth of
    # the work of a new `odds("10d6kh3")`); anything else as `parse` reads it.
    fast = _fast_terms(text, None) if len(text) <= limits.MAX_TEXT else None
    if fast is not None:
        return fast
    cmd = parse(text)
    if len(cmd.rolls) != 1 or cmd.rolls[0].label is not None or cmd.rolls[0].repeat != 1:
        raise UserError("dice.not_single_expression")
    return cmd.rolls[0].expr


def clear_caches() -> None:
    """Forget every parsed text (a benchmark's cold start)."""
    _parse_cached.cache_clear()
    parse_expr.cache_clear()


__all__ = ["check_static_total", "counts_successes", "parse", "parse_expr"]
