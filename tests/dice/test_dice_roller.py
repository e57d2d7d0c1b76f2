"""Roller: given dice, face flags, breakdown, repeats and dice limits."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core.dice import (
    DiceSource,
    Face,
    odds,
    parse,
    parse_expr,
    roll,
    roll_all,
    roll_command,
    roll_expr,
    roller,
)
from rules_core.dice.ast import iter_dice
from rules_core.dice.models import RawGroup
from rules_core.errors import UserError


def given(text: str, faces: list[int]) -> list[tuple[int, list[tuple[int, str]]]]:
    """Totals and faces (with a compact flag string) of rolling `text` with given dice."""
    src = DiceSource.given(faces)
    out = []
    for result in roll_command(parse(text), src):
        flat = [(f.value, _flags(f)) for g in result.dice for f in g.faces]
        out.append((result.total, flat))
    src.check_exhausted()
    return out


def _flags(f: Face) -> str:
    letters = [
        ("k", f.kept),
        ("r", f.rerolled),
        ("x", f.exploded),
        ("s", f.success),
        ("f", f.failure),
        ("d", f.dropped),
    ]
    return "".join(c for c, on in letters if on)


@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [
        ("2d6+3", [2, 5], (10, [(2, "k"), (5, "k")])),
        ("4d6kh3", [6, 5, 3, 1], (14, [(6, "k"), (5, "k"), (3, "k"), (1, "d")])),
        ("4d6kl1", [6, 5, 3, 4], (3, [(6, "d"), (5, "d"), (3, "k"), (4, "d")])),
        ("4d6dl1", [2, 5, 2, 4], (11, [(2, "k"), (5, "k"), (2, "d"), (4, "k")])),
        ("3d6dh1", [2, 5, 4], (6, [(2, "k"), (5, "d"), (4, "k")])),
        ("2d6kh5", [2, 5], (7, [(2, "k"), (5, "k")])),
        ("2d6dl5", [2, 5], (0, [(2, "d"), (5, "d")])),
        ("d6r1", [1, 1], (1, [(1, "r"), (1, "k")])),
        ("d6r1", [3], (3, [(3, "k")])),
        ("d6rr<=2", [1, 2, 5], (5, [(1, "r"), (2, "r"), (5, "k")])),
        ("d6r>=5", [6, 5], (5, [(6, "r"), (5, "k")])),
        ("d6!", [6, 6, 3], (15, [(6, "kx"), (6, "kx"), (3, "k")])),
        ("d10!>=9", [9, 10, 2], (21, [(9, "kx"), (10, "kx"), (2, "k")])),
        ("d6r1!", [1, 6, 1, 4], (10, [(1, "r"), (6, "kx"), (1, "r"), (4, "k")])),
        ("3d10>=4f=1", [4, 1, 9], (1, [(4, "ks"), (1, "kf"), (9, "ks")])),
        ("3d6>=5f>=5", [5, 6, 1], (2, [(5, "ks"), (6, "ks"), (1, "k")])),
        ("d20<=13", [13], (1, [(13, "ks")])),
        ("2d6!>=6>=4", [6, 3, 4], (2, [(6, "kxs"), (3, "k"), (4, "ks")])),
        ("3d6kh2>=4", [5, 2, 4], (2, [(5, "ks"), (2, "d"), (4, "ks")])),
        ("2d6!kh1", [6, 2, 5], (8, [(6, "kx"), (2, "k"), (5, "d")])),
        ("2d6!kl1", [6, 2, 5], (5, [(6, "xd"), (2, "d"), (5, "k")])),
        ("-7/2", [], (-4, [])),
        ("d6 - 2d4 * 2", [3, 1, 2], (-3, [(3, "k"), (1, "k"), (2, "k")])),
    ],
)
def test_given_rolls(
    text: str, faces: list[int], expected: tuple[int, list[tuple[int, str]]]
) -> None:
    assert given(text, faces) == [expected]


def test_successes_field() -> None:
    (r,) = roll_command(parse("3d10>=4f=1"), DiceSource.given([4, 1, 9]))
    assert r.successes == r.total == 1
    (r,) = roll_command(parse("2d6"), DiceSource.given([4, 1]))
    assert r.successes is None


def test_explosion_chain_is_truncated() -> None:
    (r,) = roll_command(parse("d6!"), DiceSource.given([6] * 20))
    assert r.total == 120
    assert r.truncated
    faces = r.dice[0].faces
    assert len(faces) == 20
    assert all(f.exploded for f in faces[:19]) and not faces[19].exploded
    r = roll_expr(parse_expr("d6!"), DiceSource.given([6, 6, 6]), chain_limit=3)
    assert (r.total, r.truncated) == (18, True)
    r = roll_expr(parse_expr("d6!"), DiceSource.given([6, 6, 5]), chain_limit=3)
    assert (r.total, r.truncated) == (17, False)


def test_breakdown_tokens() -> None:
    (r,) = roll_command(parse("4d6kh3 + 2 str"), DiceSource.given([6, 5, 3, 1]))
    tokens = [(t.kind, t.text) for t in r.breakdown]
    assert tokens == [
        ("text", "4d6kh3 ("),
        ("face", "6"),
        ("text", ", "),
        ("face", "5"),
        ("text", ", "),
        ("face", "3"),
        ("text", ", "),
        ("face", "1"),
        ("text", ") + 2"),
    ]
    assert r.breakdown[7].face == Face(value=1, kept=False, dropped=True)
    assert r.expression == "4d6kh3 + 2"
    assert r.label == "str"
    assert r.plain() == "4d6kh3 (6, 5, 3, 1) + 2 = 16"
    (r,) = roll_command(parse("-(d4 - 1) * 2"), DiceSource.given([3]))
    assert r.plain() == "-(d4 (3) - 1) * 2 = -4"
    dumped = r.model_dump()
    assert dumped["total"] == -4
    assert dumped["dice"] == [
        {
            "sides": 4,
            "faces": [
                {
                    "value": 3,
                    "kept": True,
                    "rerolled": False,
                    "exploded": False,
                    "success": False,
                    "failure": False,
                    "dropped": False,
                }
            ],
        }
    ]


def test_as_data() -> None:
    (r,) = roll_command(parse("2d6r1kh1"), DiceSource.given([1, 4, 2]))
    assert r.total == 4
    assert r.dice[0].as_data() == {"sides": 6, "faces": [1, 4, 2], "kept": [False, True, False]}


def test_repeats_and_labels() -> None:
    src = DiceSource.given([10, 3, 2, 5])
    results = roll_command(parse("2#d20+5 attack; 2d6+3 damage"), src)
    assert [(r.expression, r.label, r.total) for r in results] == [
        ("d20 + 5", "attack", 15),
        ("d20 + 5", "attack", 8),
        ("2d6 + 3", "damage", 10),
    ]
    assert src.consumed == [10, 3, 2, 5]


def test_seeded_is_deterministic() -> None:
    cmd = parse("10d6!>=5>=4; 4d6kh3; 3d8rr1")
    a = roll_command(cmd, DiceSource.seeded(42))
    b = roll_command(cmd, DiceSource.seeded(42))
    assert [r.model_dump() for r in a] == [r.model_dump() for r in b]
    src = DiceSource.random()
    assert src.seed is not None and 0 <= src.seed < 2**63
    again = DiceSource.seeded(src.seed)
    assert [r.total for r in roll_command(cmd, src)] == [r.total for r in roll_command(cmd, again)]
    assert src.consumed == again.consumed
    assert DiceSource.given([1]).seed is None


def test_seeded_faces_cover_all_sides() -> None:
    src = DiceSource.seeded(7)
    seen = {src.roll(6) for _ in range(600)}
    assert seen == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize(
    ("text", "faces", "key", "params"),
    [
        ("3d6", [1, 2], "dice.not_enough_dice", {"given": 2, "needed": 3}),
        ("2#d6; d8", [1, 2], "dice.not_enough_dice", {"given": 2, "needed": 3}),
        ("d6!", [6], "dice.not_enough_dice_at_least", {"given": 1, "needed": 2}),
        ("d6r1", [1], "dice.not_enough_dice_at_least", {"given": 1, "needed": 2}),
        ("d6+d4", [2, 5], "dice.given_out_of_range", {"face": 5, "sides": 4}),
        ("d6", [0], "dice.given_out_of_range", {"face": 0, "sides": 6}),
        ("d6/(d2-1)", [3, 1], "dice.division_by_zero", {}),
        ("d6rr<=5", [1] * 2001 + [6], "dice.too_many_dice_total", {"limit": 2000}),
        ("4#500d6!", [6] * 2001, "dice.too_many_dice_total", {"limit": 2000}),
    ],
)
def test_roll_errors(text: str, faces: list[int], key: str, params: dict[str, int]) -> None:
    with pytest.raises(UserError) as info:
        roll_command(parse(text), DiceSource.given(faces))
    assert info.value.key == key
    assert info.value.params == params


def test_check_exhausted() -> None:
    src = DiceSource.given([3, 4, 5])
    roll_command(parse("2d6"), src)
    with pytest.raises(UserError) as info:
        src.check_exhausted()
    assert (info.value.key, info.value.params) == ("dice.unused_dice", {"given": 3, "used": 2})
    src = DiceSource.given([3, 4])
    roll_command(parse("2d6"), src)
    src.check_exhausted()
    DiceSource.seeded(1).check_exhausted()


@pytest.mark.parametrize(
    "text",
    ["4d6kh3 + 2 str", "2d6r1kh1", "d6!", "6d10>=4f=1", "0d6 + 3", "-(d4 - 1) * 2", "3d6!>=5kh2"],
)
def test_direct_views_match_the_objects(text: str) -> None:
    """as_json / dice_data / marked, built from the raw records, say what the pydantic
    objects say (what /roll stores and shows must not depend on which path built it)."""
    for seed in range(20):
        (r,) = roll_command(parse(text), DiceSource.seeded(seed))
        assert r.as_json() == r.model_dump(mode="json")
        assert r.dice_data() == [g.as_data() for g in r.dice]
        faces = [t.face for t in r.breakdown if t.face is not None]
        marked = r.marked()
        assert "".join(t for t, _ in marked) == "".join(t.text for t in r.breakdown)
        assert [int(t) for t, f in marked if f >= 0] == [f.value for f in faces]


def test_public_roll_str_is_the_breakdown() -> None:
    r = roll("4d6kh3+2", dice=[6, 5, 3, 1])
    assert (r.total, str(r)) == (16, "4d6kh3 (6, 5, 3, ~~1~~) + 2 = 16")
    assert r.plain() == "4d6kh3 (6, 5, 3, 1) + 2 = 16"
    r = roll("3d6!>=5 fire", dice=[6, 2, 5, 1, 3])
    assert str(r) == "3d6!>=5 (6!, 2, 5!, 1, 3) = 17" and r.label == "fire"
    r = roll("6d10>=4f=1", dice=[4, 1, 9, 2, 10, 1])
    assert str(r) == "6d10>=4f1 (**4**, _1_, **9**, 2, **10**, _1_) = 1".replace("f1", "f=1")
    r = roll("2d6r1", dice=[1, 4, 2])
    assert str(r) == "2d6r1 (~~1~~, 4, 2) = 6"
    assert roll("4d6kh3+2", seed=7).total == roll("4d6kh3+2", seed=7).total
    assert str(roll("4d6kh3+2", seed=7)) == str(roll("4d6kh3+2", seed=7))
    assert [r.total for r in roll_all("2#d20; 2", dice=[3, 17])] == [3, 17, 2]
    with pytest.raises(UserError) as err:
        roll("2#d20")
    assert err.value.key == "dice.not_single_expression"
    with pytest.raises(UserError) as err:
        roll("2d6", dice=[1, 2, 3])
    assert err.value.key == "dice.unused_dice"


def test_public_odds() -> None:
    dist = odds("2d6+3")
    assert (dist.min, dist.max) == (5, 15)
    assert dist.probability(10) == Fraction(6, 36)  # 2d6 = 7, exact
    assert sum(dist.as_fractions().values()) == 1


def test_the_readme_example() -> None:
    r = roll("4d6kh3+2", seed=7)
    assert (r.total, str(r)) == (9, "4d6kh3 (2, 1, 4, ~~1~~) + 2 = 9")
    d = odds("2d6+3")
    assert (d.probability(10), d.mean()) == (Fraction(1, 6), 10.0)


@pytest.mark.parametrize(
    "text", ["4d6kh3", "2d20kl1", "8d6kh2", "5d6k2", "4d6dl1", "6d4dh2", "3d6kh0", "3d6kh3"]
)
def test_a_plain_keep_rolls_as_the_general_path_does(text: str) -> None:
    """The plain keep closure (no rerolls, explosions or successes) flags, orders ties and
    totals exactly as the general dice roller, seed for seed."""
    (d,) = iter_dice(parse_expr(text))
    for seed in range(200):
        fast: list[RawGroup] = []
        general: list[RawGroup] = []
        total = roller._compile_dice(d)(DiceSource.seeded(seed), fast, None)
        assert total == roller._roll_dice(d, DiceSource.seeded(seed), general, None)
        assert fast == general
