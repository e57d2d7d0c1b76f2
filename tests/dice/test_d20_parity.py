"""Syntax parity (issue 21 item 8): d20's (Avrae) and Dice Maiden's syntax where it doesn't clash
with ours, each with exact odds; what we refuse is refused with a hint, never misread.

The deterministic expressions below are copied, with their totals, from avrae/d20's own suite,
tests/test_dice.py (test_pemdas, test_chaining_operators, test_literal, test_dice, test_set,
test_unop, test_binop, test_comparison, test_selectors, test_k_op, test_p_op, test_rr_op,
test_ro_op, test_ra_op, test_mi_op, test_ma_op, test_correct_results).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import DiceSource, distribution, parse_expr, render, roll, roll_expr
from rules_core.errors import UserError

# d20's expression -> d20's total; we give the same total.
SAME: dict[str, int] = {
    "1 + 3 * 6": 19,
    "1 + (3 * 6)": 19,
    "(1 + 3) * 6": 24,
    "1 + 2 + 3": 6,
    "(1 + 2) + 3": 6,
    "1 + (2 + 3)": 6,
    "1 + 2 == 2": 0,
    "1 + (2 == 2)": 2,
    "1": 1,
    "10000": 10000,
    "0d6": 0,
    "0d%": 0,
    "(1)": 1,
    "(1,)": 1,
    "(1, 1)": 2,
    "+1": 1,
    "-1": -1,
    "--1": 1,
    "-+-++---+1": -1,
    "2 + 2": 4,
    "2 - 2": 0,
    "2 * 5": 10,
    "15 / 2": 7,
    "15 // 2": 7,
    "13 % 2": 1,
    "1 == 1": 1,
    "1 == 2": 0,
    "1 > 1": 0,
    "2 > 1": 1,
    "1 < 1": 0,
    "1 < 2": 1,
    "1 >= 1": 1,
    "1 >= 2": 0,
    "1 <= 1": 1,
    "2 <= 1": 0,
    "1 != 1": 0,
    "1 != 2": 1,
    "(1, 2, 3, 4, 5)kl2": 3,
    "(1, 2, 3, 4, 5)kh2": 9,
    "(1)k1": 1,
    "1d20rr<20": 20,
    "1d20rr>1": 1,
    "10d6mi6": 60,
    "10d6mi10": 100,
    "10d6ma1": 10,
    "10d6ma0": 0,
    "1+2+3": 6,
}

# Where d20's meaning clashes with a documented one of ours, ours stands (d20's total, ours):
# a bare `kN` keeps the N highest here (Roll20's and Dice Maiden's `k`), in d20 the dice
# showing N.
CLASH: dict[str, tuple[int, int]] = {
    "(1, 2, 3, 4, 5)k3": (3, 12),
    "(1)k2": (0, 1),
}

# Refused, each with a sentence that says what to write instead (d20's total for the record).
REFUSED: dict[str, tuple[int, str]] = {
    "(1, 2, 3)k1k2": (3, "dice.keep_twice"),
    "1.5": (1, "dice.no_decimals"),
    "0.5": (0, "dice.no_decimals"),
    ".5": (0, "dice.no_decimals"),
    "(1, 2, 3, 4, 5)k<3": (3, "dice.selector_unsupported"),
    "(1, 2, 3, 4, 5)k>3": (9, "dice.selector_unsupported"),
    "(1, 2, 3, 4, 5)k1k2": (3, "dice.keep_twice"),
    "(1, 2, 3, 4, 5)kh1kl1": (6, "dice.keep_twice"),
    "(1, 2, 3, 4, 5)p3": (12, "dice.selector_unsupported"),
    "(1, 2, 3, 4, 5)p1p2": (12, "dice.selector_unsupported"),
    "(1, 2, 3, 4, 5)ph1pl1": (9, "dice.keep_twice"),
    "1d1ro1": (1, "dice.bad_sides"),  # a one-sided die: ours start at 2 sides
    "1d1ra1": (2, "dice.bad_sides"),
}


@pytest.mark.parametrize(("text", "total"), sorted(SAME.items()))
def test_d20_expressions_give_d20_totals(text: str, total: int) -> None:
    assert roll(text, seed=1).total == total
    assert distribution(parse_expr(text)).probability(total) == 1


@pytest.mark.parametrize(("text", "totals"), sorted(CLASH.items()))
def test_clashing_expressions_keep_our_documented_meaning(
    text: str, totals: tuple[int, int]
) -> None:
    assert roll(text, seed=1).total == totals[1]


@pytest.mark.parametrize(("text", "expected"), sorted(REFUSED.items()))
def test_what_we_refuse_is_refused_with_a_hint(text: str, expected: tuple[int, str]) -> None:
    with pytest.raises(UserError) as err:
        roll(text, seed=1)
    assert err.value.key == expected[1]


class _Need(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Script(DiceSource):
    """The faces given, then `_Need(sides)` for the next die: a search over every roll."""

    __slots__ = ("faces", "pos", "sides")

    def __init__(self, faces: list[int]) -> None:
        super().__init__()
        self.faces = faces
        self.pos = 0
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        if self.pos >= len(self.faces):
            raise _Need(sides)
        self.sides.append(sides)
        self.pos += 1
        return self.faces[self.pos - 1]

    def many(self, sides: int, n: int) -> list[int]:
        return [self.roll(sides) for _ in range(n)]

    def require(self, needed: int) -> None:
        return None


def enumerate_rolls(text: str, chain_limit: int) -> dict[int, Fraction]:
    """The exact distribution of `text` by rolling it through the roller with every possible
    sequence of faces (an independent check of the odds engine)."""
    expr = parse_expr(text)
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        source = _Script(faces)
        try:
            total = roll_expr(expr, source, chain_limit=chain_limit).total
        except _Need as need:
            stack.extend([*faces, v] for v in range(1, need.sides + 1))
            continue
        p = Fraction(1)
        for sides in source.sides:
            p /= sides
        out[total] += p
    return {v: p for v, p in out.items() if p}


@pytest.mark.parametrize(
    "text",
    [
        "3d4!!",  # Dice Maiden: compounding
        "2d4!p",  # penetrating: every extra die one less
        "3d4!!kh2",
        "2d4!pkl1",
        "4dF",  # Fudge
        "3dFkh2",
        "dF+1",
        "3d6mi3",  # d20: minimum and maximum face
        "3d6ma4",
        "2d6mi2ma5",
        "2d6ro1",  # d20: reroll once
        "2d4ra4",  # d20: reroll and add (one extra die)
        "3d4e4",  # d20: explode
        "2d4e>2",
        "4d4ph1",  # d20: drop highest / lowest
        "4d4pl1",
        "(1d4, 2+2, 2d4kl1)kh1",  # d20: sets
        "(d4, d6, d8)kl2",
        "(2d4, d6)",
        "2d6 % 4",
        "2d4 // 3",
        "d20 adv",  # Avrae: advantage, disadvantage
        "1d20+2 >= 12 dis",
        "d6 != 3",
        "4*(2d4kh1+9[fire]+(2d2e2+3[cold])/2)",  # d20: inline annotations
        "3d4 t3",  # Dice Maiden: target, failures, indefinite explosion, indefinite reroll
        "3d4 t3 f1",
        "2d4 ie3",
        "2d4 ie",
    ],
)
def test_new_syntax_odds_are_exact(text: str) -> None:
    expected = enumerate_rolls(text, chain_limit=3)
    dist = distribution(parse_expr(text), chain_limit=3)
    assert dist.as_fractions() == expected


def test_advantage_keeps_the_better_of_two_d20() -> None:
    adv = roll("1d20+5 adv to hit", seed=4)
    assert adv.expression == "2d20kh1 + 5" and adv.label == "to hit"
    assert len(adv.dice[0].faces) == 2
    assert distribution(parse_expr("d20 adv")).probability(20) == Fraction(39, 400)
    with pytest.raises(UserError) as err:
        parse_expr("2d6 adv")
    assert err.value.key == "dice.advantage_needs_d20"


def test_a_label_in_brackets_at_the_end_is_still_the_label() -> None:
    r = roll("2d6+3 [fire]", seed=1)
    assert r.label == "fire" and r.expression == "2d6 + 3"
    inline = roll("2d6[fire]+3", seed=1)
    assert inline.label is None and inline.total == r.total


def test_a_set_keeping_dice_inside_is_refused_with_the_dice_form() -> None:
    with pytest.raises(UserError) as err:
        parse_expr("(10d6)kh3")
    assert err.value.key == "dice.set_keep_dice" and err.value.params["example"] == "10d6kh3"


@pytest.mark.parametrize(
    "text",
    [
        "3d4!!kh2",
        "2d4!p",
        "4dFkh2",
        "3d6mi2ma5",
        "2d6ro1",
        "2d4ra4",
        "3d4e>3",
        "4d4ph1",
        "(1d4, 2+2, 2d4kl1)kh1",
        "(1,)",
        "2d6 % 4 // 2",
        "(3d6) >= 11",
        "(2 + 3d6) = 10",
        "d20 != 7",
    ],
)
def test_canonical_text_reads_back_as_the_same_tree(text: str) -> None:
    expr = parse_expr(text)
    assert parse_expr(render(expr)) == expr


@pytest.mark.parametrize(
    "text",
    [
        "(d1000*d1000, d1000*d1000)",
        "(d1000, d1000, d1000, d1000)kh2",
        "(d1000*d1000, d6)kh1",
    ],
)
def test_wide_sets_are_refused_by_the_odds_budget_before_any_work(text: str) -> None:
    with pytest.raises(UserError) as err:
        distribution(parse_expr(text))
    assert err.value.key == "dice.odds_too_large"


@pytest.mark.parametrize(
    ("maiden", "ours"),
    [
        ("6d10 t7", "6d10>=7"),
        ("5d10 t8 f1", "5d10>=8f1"),
        ("3d6 ie5", "3d6!>=5"),
        ("3d6 ie", "3d6!"),
        ("4d6 ir2", "4d6rr<=2"),
    ],
)
def test_dice_maiden_forms_read_as_ours(maiden: str, ours: str) -> None:
    assert roll(maiden, seed=5).total == roll(ours, seed=5).total
    assert roll(maiden, seed=5).label is None


def test_words_that_merely_start_like_a_modifier_stay_labels() -> None:
    assert roll("2d6 each", seed=1).label == "each"
    assert roll("2d6 elves", seed=1).label == "elves"
    assert roll("2d6 treasure", seed=1).label == "treasure"


def test_dice_maiden_forms_we_lack_are_refused_with_a_hint_never_read_as_labels() -> None:
    """`4d6 d1` (drop the lowest) and `4d10 b1` (botches) after a space were a parse error and
    a silent label: now each says what to write instead."""
    from rules_core.dice import parse
    from rules_core.errors import UserError

    for text, key in (("4d6 d1", "dice.maiden_drop"), ("4d10 b1", "dice.maiden_botch")):
        try:
            parse(text)
        except UserError as err:
            assert err.key == key, text
        else:
            raise AssertionError(f"{text} was read")
    assert parse("2d6 b").rolls[0].label == "b"  # a one-letter label is still a label
    assert parse("2d6 fire").rolls[0].label == "fire"


def test_every_suggested_expression_is_itself_accepted() -> None:
    """A refusal's example must parse: `((10d6kh5)kl2)kh1` used to suggest `10d6kh5kl2`, which
    is refused in turn (one keep per dice)."""
    from rules_core.dice import parse
    from rules_core.errors import UserError

    for text in ("(10d6)kh3", "(4d6!)kh1", "((10d6kh5)kl2)kh1", "(3d6kh2)kl1"):
        try:
            parse(text)
        except UserError as err:
            example = err.params.get("example")
            if example is not None:
                parse(str(example))  # raises if the hint itself is refused
            else:
                assert err.key == "dice.set_keep_twice", (text, err.key)
        else:
            raise AssertionError(f"{text} was accepted")


def test_a_dice_operation_written_as_words_is_not_a_silent_label() -> None:
    """`/tira 4d6 tieni 3` rolled 4d6 and summed all four under the label "tieni 3" (13 where
    the player meant 11): a label whose first word names a dice operation (keep, drop, reroll,
    explode, in Italian or English), alone or before a number, is refused with what to write."""
    from rules_core.dice import parse
    from rules_core.errors import UserError

    for text, instead in (
        ("4d6 tieni 3", "kh3"),
        ("4d6 keep 3", "kh3"),
        ("4d6 migliori 2", "kh2"),
        ("2d20 peggiore", "kl1"),
        ("4d6 scarta 1", "dl1"),
        ("4d6 drop 1", "dl1"),
        ("3d6 ritira 1", "r1"),
        ("3d6 reroll 2", "r2"),
        ("6d6 esplodi", "!"),
        ("6d6 explode", "!"),
    ):
        try:
            parse(text)
        except UserError as err:
            assert err.key == "dice.label_is_operation", text
            assert err.params["instead"] == instead, (text, err.params)
        else:
            raise AssertionError(f"{text} was read as a label")
    # A label that only begins with such a word, then goes on in words, is still a label.
    assert parse("2d6 tieni la linea").rolls[0].label == "tieni la linea"
    assert parse("2d6 keep calm").rolls[0].label == "keep calm"


def test_advantage_in_italian_and_in_full() -> None:
    """`/tira 1d20 vantaggio` rolled one d20 under the label "vantaggio"; Avrae's `adv`
    worked, the words an Italian (or English) player types did not."""
    from rules_core.dice import parse

    for word, mode in (("vantaggio", "kh"), ("svantaggio", "kl"), ("advantage", "kh")):
        spec = parse(f"1d20+5 {word}").rolls[0]
        assert spec.label is None, word
        assert spec.text.startswith(f"2d20{mode}1"), (word, spec.text)


def test_what_players_write_for_targets_repeats_and_rerolls_is_not_a_silent_label() -> None:
    """`/roll 5d6 4+` (hits on 4+, as every wargame writes it) summed the five dice under the
    label "4+"; `5d6 successi su 4+`, `2d6 x3` (roll it three times), `d6 3 volte` and
    `4d6 reroll 1s` the same: a confident wrong answer. Each is refused with the expression to
    write, built on the player's own dice; the example itself parses."""
    from rules_core.dice import parse
    from rules_core.errors import UserError

    cases = (
        ("5d6 4+", "dice.label_is_operation", "5d6>=4"),
        ("5d6 su 4+", "dice.label_is_operation", "5d6>=4"),
        ("5d6 on 4+", "dice.label_is_operation", "5d6>=4"),
        ("5d6 successi su 4+", "dice.label_is_operation", "5d6>=4"),
        ("5d6 successes on 4", "dice.label_is_operation", "5d6>=4"),
        ("10d6 colpi su 5+", "dice.label_is_operation", "10d6>=5"),
        ("10d6 hits on 5+", "dice.label_is_operation", "10d6>=5"),
        ("2d6 x3", "dice.label_is_repeat", "3#2d6"),
        ("2d6 x 3", "dice.label_is_repeat", "3#2d6"),
        ("2d6 ×3", "dice.label_is_repeat", "3#2d6"),
        ("d6 3 volte", "dice.label_is_repeat", "3#d6"),
        ("d6 3 times", "dice.label_is_repeat", "3#d6"),
        ("3x d6", "dice.repeat_syntax", "3#d6"),
        ("3x2d6+1", "dice.repeat_syntax", "3#2d6+1"),
        ("4d6 reroll 1s", "dice.label_is_operation", "4d6r1"),
        ("3d6 ritira gli 1", "dice.label_is_operation", "3d6r1"),
        ("2 d6", "dice.split_dice", "2d6"),
        ("3 d6+2", "dice.split_dice", "3d6+2"),
        ("2 d6 4+", "dice.label_is_operation", "2d6>=4"),  # the joined text's own trouble
    )
    for text, key, example in cases:
        try:
            parse(text)
        except UserError as err:
            assert err.key == key, (text, err.key, err.params)
            shown = err.params.get("example", err.params.get("instead"))
            assert shown == example, (text, err.params)
            parse(example)  # the suggestion is itself accepted
        else:
            raise AssertionError(f"{text} was read as {parse(text).rolls}")
    # Labels that only look alike stay labels.
    for text, label in (
        ("2d6 colpi", "colpi"),
        ("2d6 x", "x"),
        ("d20 3 goblin", "3 goblin"),
        ("2d6 successi", "successi"),
    ):
        assert parse(text).rolls[0].label == label, text


def test_at_least_in_words_asks_for_the_comparison() -> None:
    """`/prob 5d6>=4 almeno 3` (the chance of three hits or more) answered the whole table
    under the label "almeno 3", never leading with the chance asked; `/roll 3d6 at least 10`
    summed under a label. "almeno N", "at least N", "N o più", "N or more" are refused with
    the comparison to write, which parses (and is a total's, not a per-die target)."""
    from rules_core.dice import odds, parse
    from rules_core.errors import UserError

    for text, example in (
        ("5d6>=4 almeno 3", "(5d6>=4)>=3"),
        ("3d6 at least 10", "(3d6)>=10"),
        ("2d6+3 almeno 10", "2d6+3>=10"),
        ("2d6 10 o più", "(2d6)>=10"),
        ("2d6 10 or more", "(2d6)>=10"),
    ):
        try:
            parse(text)
        except UserError as err:
            assert err.key == "dice.label_is_comparison", (text, err.key)
            assert err.params["example"] == example, (text, err.params)
            assert set(odds(example).outcomes()) <= {0, 1}
        else:
            raise AssertionError(f"{text} was read as {parse(text).rolls}")
    assert parse("2d6 almeno").rolls[0].label == "almeno"


# What players write after the dice, mixed at random below.
WORDS = [
    "x3",
    "x",
    "3",
    "volte",
    "times",
    "almeno",
    "at",
    "least",
    "4+",
    "su",
    "on",
    "successi",
    "hits",
    "reroll",
    "1s",
    "gli",
    "ritira",
    "tieni",
    "esplodi",
    "2d6",
    "d6",
    "più",
    "or",
    "more",
    "il",
    "migliori",
    "peggiore",
    "scarta",
    "drop",
    "lowest",
    "keep",
    "e",
    "esplodono",
    "3d6",
    "d8",
    ",1d8",
    "d",
    "o",
]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["2d6", "d20", "3#d6", "5d6>=4", "2", "(3d6)", "2d6+3", "3x d6", "2 d6"]),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
)
def test_every_refusal_of_words_suggests_what_parses(head: str, words: list[str]) -> None:
    """Whatever a player writes after the dice, a refusal's suggestion is itself accepted
    (`2 x 4+` once suggested `2#4+`, `2 d6 x3` suggested `2d6 x3`, refused in turn)."""
    from rules_core.dice import parse
    from rules_core.errors import UserError

    try:
        parse(head + " " + " ".join(words))
    except UserError as err:
        offered = [err.params[k] for k in ("example", "rolls", "sum") if k in err.params]
        if err.key == "dice.split_dice":
            offered.append(err.params["instead"])
        for shown in offered:
            parse(str(shown))


def test_keep_drop_and_reroll_said_in_a_phrase_are_not_silent_labels() -> None:
    """`/tira 4d6 tieni i 3 migliori` summed all four dice under that label (the short form
    `tieni 3` was refused with kh3, the phrase every Italian says was not); so were
    `scarta il peggiore`, `keep highest 3`, `drop the lowest`, `2d20 il migliore`,
    `ritira 1 e 2` and `esplodono`."""
    from rules_core.dice import parse
    from rules_core.errors import UserError

    for text, instead in (
        ("4d6 tieni i 3 migliori", "kh3"),
        ("4d6 tieni 3 migliori", "kh3"),
        ("4d6 i 3 migliori", "kh3"),
        ("4d6 keep highest 3", "kh3"),
        ("4d6 keep best 3", "kh3"),
        ("2d20 tieni il migliore", "kh1"),
        ("2d20 il migliore", "kh1"),
        ("2d20 il peggiore", "kl1"),
        ("4d6 tieni i 2 più bassi", "kl2"),
        ("4d6 scarta il peggiore", "dl1"),
        ("4d6 scarta il più basso", "dl1"),
        ("4d6 drop lowest", "dl1"),
        ("4d6 drop the lowest", "dl1"),
        ("4d6 scarta il migliore", "dh1"),
        ("3d6 ritira 1 e 2", "r2"),
        ("3d6 reroll 1s and 2s", "r2"),
        ("6d6 esplodono", "!"),
    ):
        try:
            parse(text)
        except UserError as err:
            assert err.key == "dice.label_is_operation", (text, err.key)
            assert err.params["instead"] == instead, (text, err.params)
            parse(str(err.params["example"]))
        else:
            raise AssertionError(f"{text} was read as a label")
    for text in ("2d6 tieni la linea", "2d6 keep calm", "3d6 ritira 2 e 4", "d20 i migliori amici"):
        assert parse(text).rolls[0].label == text.split(" ", 1)[1], text


def test_a_second_roll_or_a_missing_side_count_gets_the_text_to_write() -> None:
    """`/roll 2d6 3d6` rolled only 2d6, under the label "3d6"; `d6 d8` was answered with Dice
    Maiden's drop-lowest (there is no eighth die to drop); `1d6,1d8`, `2d` and `3d 6` said only
    "unexpected" at a position. Each now says what to write, and what it offers parses."""
    from rules_core.dice import parse
    from rules_core.errors import UserError

    cases = (
        ("2d6 3d6", "dice.label_is_dice", {"rolls": "2d6; 3d6", "sum": "2d6+3d6"}),
        ("d6 d8", "dice.label_is_dice", {"rolls": "d6; d8", "sum": "d6+d8"}),
        ("2d6 d6", "dice.label_is_dice", {"rolls": "2d6; d6", "sum": "2d6+d6"}),
        ("1d6,1d8", "dice.comma_between_rolls", {"rolls": "1d6; 1d8", "sum": "1d6+1d8"}),
        ("2d", "dice.missing_sides", {"example": "2d6"}),
        ("1d6+1d", "dice.missing_sides", {"example": "1d6"}),
        ("3d 6", "dice.missing_sides", {"example": "3d6"}),
        ("2d6 + d", "dice.missing_sides", {"example": "d6"}),
    )
    for text, key, shown in cases:
        try:
            parse(text)
        except UserError as err:
            assert err.key == key, (text, err.key, err.params)
            for name, value in shown.items():
                assert err.params[name] == value, (text, err.params)
                parse(value)
        else:
            raise AssertionError(f"{text} was read as {parse(text).rolls}")
    with pytest.raises(UserError) as drop:  # Dice Maiden's drop-lowest keeps its own hint
        parse("4d6 d1")
    assert drop.value.key == "dice.maiden_drop"


def test_a_decimal_comma_is_refused_as_a_decimal() -> None:
    """`/tira 2d6+1,5` (an Italian decimal) was offered '2d6+1; 5' and '2d6+1+5' as two rolls
    by my comma hint: a comma between two digits is a decimal, refused as `2d6+1.5` is."""
    from rules_core.dice import parse
    from rules_core.errors import UserError

    for text in ("2d6+1,5", "2d6*1,5", "1,5"):
        with pytest.raises(UserError) as err:
            parse(text)
        assert err.value.key == "dice.no_decimals", text
