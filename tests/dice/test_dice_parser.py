"""Parser: syntax features, labels, repeats, limits and their error keys."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import BinOp, Cond, Dice, Keep, Neg, Num, Reroll, parse, parser, render
from rules_core.errors import UserError


def one(text: str) -> Dice | Num | Neg | BinOp:
    cmd = parse(text)
    assert len(cmd.rolls) == 1
    return cmd.rolls[0].expr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2d6", Dice(2, 6)),
        ("d20", Dice(1, 20)),
        ("D%", Dice(1, 100)),
        ("d3", Dice(1, 3)),
        ("4d6kh3", Dice(4, 6, keep=Keep("kh", 3))),
        ("4d6K3", Dice(4, 6, keep=Keep("kh", 3))),
        ("2d20kl1", Dice(2, 20, keep=Keep("kl", 1))),
        ("4d6dl1", Dice(4, 6, keep=Keep("dl", 1))),
        ("5d6dh2", Dice(5, 6, keep=Keep("dh", 2))),
        ("d6!", Dice(1, 6, explode=Cond("=", 6))),
        ("d10!>=9", Dice(1, 10, explode=Cond(">=", 9))),
        ("d10!>8", Dice(1, 10, explode=Cond(">", 8))),
        ("d10!=1", Dice(1, 10, explode=Cond("=", 1))),
        ("d6r1", Dice(1, 6, reroll=Reroll(Cond("<=", 1), until=False))),
        ("d6r<=2", Dice(1, 6, reroll=Reroll(Cond("<=", 2), until=False))),
        ("d6r=3", Dice(1, 6, reroll=Reroll(Cond("=", 3), until=False))),
        ("d6r>=5", Dice(1, 6, reroll=Reroll(Cond(">=", 5), until=False))),
        ("d6r<3", Dice(1, 6, reroll=Reroll(Cond("<", 3), until=False))),
        ("d6r>4", Dice(1, 6, reroll=Reroll(Cond(">", 4), until=False))),
        ("d6rr2", Dice(1, 6, reroll=Reroll(Cond("<=", 2), until=True))),
        ("d6rr=1", Dice(1, 6, reroll=Reroll(Cond("=", 1), until=True))),
        ("10d6>=4", Dice(10, 6, success=Cond(">=", 4))),
        ("d20<=13", Dice(1, 20, success=Cond("<=", 13))),
        ("3d10>=4f=1", Dice(3, 10, success=Cond(">=", 4), failure=Cond("=", 1))),
        ("3d10>=4f1", Dice(3, 10, success=Cond(">=", 4), failure=Cond("<=", 1))),
        ("3d10>7f>=9", Dice(3, 10, success=Cond(">", 7), failure=Cond(">=", 9))),
        ("10d6!>=6>=4", Dice(10, 6, explode=Cond(">=", 6), success=Cond(">=", 4))),
        ("4d6kh3>=4", Dice(4, 6, keep=Keep("kh", 3), success=Cond(">=", 4))),
        ("d6r1!", Dice(1, 6, reroll=Reroll(Cond("<=", 1), False), explode=Cond("=", 6))),
        ("4d6 kh3", Dice(4, 6, keep=Keep("kh", 3))),
        ("5", Num(5)),
        ("-d6", Neg(Dice(1, 6))),
        ("2d6+3", BinOp("+", Dice(2, 6), Num(3))),
        ("1 + 2 * 3", BinOp("+", Num(1), BinOp("*", Num(2), Num(3)))),
        ("(1 + 2) * 3", BinOp("*", BinOp("+", Num(1), Num(2)), Num(3))),
        ("8 / 2 / 2", BinOp("/", BinOp("/", Num(8), Num(2)), Num(2))),
        ("8 - 2 - 1", BinOp("-", BinOp("-", Num(8), Num(2)), Num(1))),
        ("--3", Neg(Neg(Num(3)))),
        ("+3", Num(3)),
    ],
)
def test_syntax(text: str, expected: object) -> None:
    assert one(text) == expected


@pytest.mark.parametrize(
    ("text", "rendered", "label"),
    [
        ("2d6+3 fire damage", "2d6 + 3", "fire damage"),
        ("d20 + 5 to hit", "d20 + 5", "to hit"),
        ("d20 dex save", "d20", "dex save"),
        ("1d20+5 [to hit]", "d20 + 5", "to hit"),
        ("1d20+5 [ to hit ]", "d20 + 5", "to hit"),
        ("2d6 Kills", "2d6", "Kills"),
        ("d6 r", "d6", "r"),
        ("4D6KH3 Strength", "4d6kh3", "Strength"),
        ("2d6", "2d6", None),
        ("2d6 []", "2d6", None),
        ("(2d6+1)*2 big hit", "(2d6 + 1) * 2", "big hit"),
        ("d6!=6", "d6!", None),
        ("d6rr<=2", "d6rr2", None),
    ],
)
def test_labels_and_normalised_text(text: str, rendered: str, label: str | None) -> None:
    (spec,) = parse(text).rolls
    assert spec.text == rendered
    assert spec.label == label
    assert spec.repeat == 1


def test_repeat_and_several_rolls() -> None:
    cmd = parse("2#d20+5 attack; 2d6+3 damage")
    assert [(r.text, r.label, r.repeat) for r in cmd.rolls] == [
        ("d20 + 5", "attack", 2),
        ("2d6 + 3", "damage", 1),
    ]
    assert [r.repeat for r in parse(" 3 # d6 ; ;d4;").rolls] == [3, 1]


def test_render_round_trip() -> None:
    for text in ["-(2d6 + 3) * (d4 - 1) / 2", "2 - (3 - 4)", "2 * (3 / 4)", "4d6kh3>=4"]:
        expr = one(text)
        assert one(render(expr)) == expr


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "dice.empty"),
        ("   ", "dice.empty"),
        (" ; ;", "dice.empty"),
        ("hello there", "dice.empty"),
        ("[d6]", "dice.empty"),
        ("2d6 +", "dice.expected_term"),
        ("2d6 * ", "dice.expected_term"),
        ("2d6 + fire", "dice.unexpected"),
        ("2d6)", "dice.unexpected"),
        ("3d6d1", "dice.unexpected"),
        ("2d6 >", "dice.unexpected_end"),
        ("d6>=", "dice.unexpected_end"),
        ("(2d6", "dice.unclosed_paren"),
        ("(2d6 fire", "dice.unexpected"),
        ("d" + "9" * 300, "dice.too_long"),
        ("d20 " + "x" * 297, "dice.too_long"),
        ("501d6", "dice.too_many_dice"),
        ("d1", "dice.bad_sides"),
        ("d0", "dice.bad_sides"),
        ("d1001", "dice.bad_sides"),
        ("0#d6", "dice.bad_repeat"),
        ("21#d6", "dice.bad_repeat"),
        (";".join(["d6"] * 11), "dice.too_many_rolls"),
        ("(" * 51 + "1" + ")" * 51, "dice.too_deep"),
        ("-" * 51 + "1", "dice.too_deep"),
        ("1000001", "dice.number_too_large"),
        ("d6+00000000001000001", "dice.number_too_large"),
        ("d6!>=1", "dice.explode_always"),
        ("d6!<7", "dice.explode_always"),
        ("d6rr<=3!>=4", "dice.explode_always"),
        ("d6rr<=6", "dice.reroll_always"),
        ("d6rr>0", "dice.reroll_always"),
        ("4d6!kh2>=4", "dice.keep_count_explode"),
        ("4d6kh1kl1", "dice.duplicate_modifier"),
        ("4d6r1r2", "dice.duplicate_modifier"),
        ("d6!!!", "dice.duplicate_modifier"),
        ("4d6>=4>=5", "dice.duplicate_modifier"),
        ("2d20kh", "dice.modifier_needs_number"),
        ("2d6r", "dice.modifier_needs_number"),
        ("3d6f1", "dice.failure_without_success"),
        ("5#500d6", "dice.too_many_dice_total"),
        (";".join(["500d6"] * 4) + ";d6", "dice.too_many_dice_total"),
    ],
)
def test_errors(text: str, key: str) -> None:
    with pytest.raises(UserError) as info:
        parse(text)
    assert info.value.key == key


def test_limits_that_are_allowed() -> None:
    assert parse("4#500d6").rolls[0].repeat == 4
    assert parse("20#d6").rolls[0].repeat == 20
    assert len(parse(";".join(["d6"] * 10)).rolls) == 10
    assert one("(" * 50 + "1" + ")" * 50) == Num(1)
    assert one("1000000") == Num(1_000_000)
    assert one("d1000") == Dice(1, 1000)
    assert one("d2") == Dice(1, 2)
    assert one("d6!<6") == Dice(1, 6, explode=Cond("<", 6))
    assert len(parse("d20 " + "x" * 296).rolls) == 1


def test_error_params_name_the_limit() -> None:
    with pytest.raises(UserError) as info:
        parse("501d6")
    assert (info.value.key, info.value.params) == ("dice.too_many_dice", {"limit": 500})
    with pytest.raises(UserError) as info:
        parse("2d6 + 3 )")
    assert (info.value.key, info.value.params) == (
        "dice.unexpected",
        {"token": ")", "position": 9},
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("2d", "dice.missing_sides"),
        ("2d6x", "dice.unexpected"),
        ("d20+5to hit", "dice.unexpected"),
        ("3d6kh", "dice.modifier_needs_number"),
    ],
)
def test_a_label_must_be_set_apart(text: str, key: str) -> None:
    with pytest.raises(UserError) as raised:
        parse(text)
    assert raised.value.key == key


def test_labels_with_a_space_or_brackets_still_work() -> None:
    assert parse("2d6 x").rolls[0].label == "x"
    assert parse("d20+5[to hit]").rolls[0].label == "to hit"


@pytest.mark.parametrize(
    ("text", "expr", "label"),
    [
        ("2d6 <b>x</b> & y", "2d6", "<b>x</b> & y"),
        ("2d6 + 3 > big", "2d6 + 3", "> big"),
        ("10d6 >= 4 hits", "10d6>=4", "hits"),
    ],
)
def test_a_comparison_sign_with_no_number_starts_a_label(text: str, expr: str, label: str) -> None:
    spec = parse(text).rolls[0]
    assert (spec.text, spec.label) == (expr, label)


# Shapes the fast path reads, shapes it must leave to the full parser, and near misses.
SHAPES = (
    "d6|2d6|4d6kh3|4d6k3|2d20kl1|8d6dh2|5d6dl1|10d6>=4|3d20<=13|6d10>5|2d6=6|d%|D8|0d6|01d6|"
    "3|007|999999|1000000|501d6|d1001|d1|4d6kh3>=4|4d6>=4kh3|d6!|d6r1|2d6 kh1|2d6>= 4|"
    "2d6 fire|-d6|(d6)|2*d6|d6f1| ||x|#|;|+|3#d6|d0|d6>=4>=5|2d6 >=4 x|d6kh|d6d6|4d6k1h|d6kl1kh2|"
    "3d6!|d6r1!|2d6r2kh1|4d6!kh3|d6!>=5|d6r1>=4|6d6!>=4|d6!kh1>=4|d6r6|d6r0|d2!|d6!!|d6rr1|d6! |"
    "4d6!kh3>=4|d6!k1|d6 r1|d6r1 !"
)
FAST_SHAPES = st.lists(st.sampled_from(SHAPES.split("|")), min_size=1, max_size=5)


@settings(max_examples=500, deadline=None)
@given(FAST_SHAPES, st.lists(st.sampled_from(["+", "-", " + ", " - ", "+-", "", " "]), max_size=5))
def test_fast_path_reads_what_the_full_parser_reads(terms: list[str], ops: list[str]) -> None:
    """The one-regex reading of plain sums gives the full parser's tree and text, or steps
    aside (None): never a different answer, never an error of its own."""
    text = terms[0] + "".join(op + t for op, t in zip(ops, terms[1:], strict=False))
    fast = parser._fast_sum(text)
    try:
        full = parser.parse_full(text)
    except UserError:
        assert fast is None
        return
    if fast is not None:
        (spec,) = full.rolls
        assert (fast.expr, fast.text, fast.label, fast.repeat) == (
            spec.expr,
            spec.text,
            spec.label,
            spec.repeat,
        )


def test_fast_path_takes_the_common_shapes() -> None:
    for text in ["4d6kh3+2", "d20 + 5", "10d6>=4", "2d6-1-d4", "D%", "3d6+1d8-2", "3d6!", "d6r1"]:
        assert parser._fast_sum(text) is not None, text


@settings(max_examples=300, deadline=None)
@given(FAST_SHAPES, st.lists(st.sampled_from(["+", "-", " + ", " - ", "+-", "", " "]), max_size=5))
def test_parse_expr_reads_what_parse_reads(terms: list[str], ops: list[str]) -> None:
    """`parse_expr` (the dice API's `odds`) takes plain sums straight to their tree: the same
    tree `parse` gives, the same error where `parse` has one or the text is more than one
    expression."""
    text = terms[0] + "".join(op + t for op, t in zip(ops, terms[1:], strict=False))
    parser.clear_caches()
    try:
        cmd = parser.parse(text)
    except UserError as e:
        with pytest.raises(UserError) as got:
            parser.parse_expr(text)
        assert got.value.key == e.key
        return
    single = len(cmd.rolls) == 1 and cmd.rolls[0].label is None and cmd.rolls[0].repeat == 1
    if single:
        assert parser.parse_expr(text) == cmd.rolls[0].expr
    else:
        with pytest.raises(UserError, match="not_single_expression"):
            parser.parse_expr(text)


def test_clear_caches_forgets_both_readings() -> None:
    first = parser.parse_expr("4d6kh3+2")
    assert parser.parse_expr("4d6kh3+2") is first  # cached
    parser.parse("4d6kh3+2")
    parser.clear_caches()
    assert parser.parse_expr.cache_info().currsize == 0
    assert parser._parse_cached.cache_info().currsize == 0
    again = parser.parse_expr("4d6kh3+2")
    assert again == first and again is not first
