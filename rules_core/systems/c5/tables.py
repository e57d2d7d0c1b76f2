"""The numbers C5 prints (wound table, mana recovery, wounds by size) and the C3 background
values the seed relies on without restating them (range bands). Offsets: see __init__."""

from __future__ import annotations

import math

CAP = 15  # @2104: STR and RES in a wound roll never count above 15
HEAD_ROW = 5  # the "5&6" row, printed as "Testa" in the seed (@2104, @130057)
DOUBLE_SIX_MIN = 3  # @2104: a natural double 6 inflicts at least three wounds
MAX_WOUNDS = 8  # @1361: never more than 8 wounds
RALLY_DIFFICULTY = 8  # @15362
NULLA = -1  # table cell: nothing
STORDITO = 0  # table cell: stunned, no wound

# C5 wound table (@130057, digest §3.5.2): rows 1, 2, 3, 4, 5&6 (the lower die); columns are
# the bands of R = higher die + STR - RES: <=-3, -2/-1, 0/1, 2/3, ... 16/17, >=18.
# Row 3, band 4/5 is split (footnote @130057): R 4 -> 1 wound, R 5 -> 2 wounds; SPLIT marks it.
SPLIT = 99
_N, _S = NULLA, STORDITO
WOUND_TABLE: tuple[tuple[int, ...], ...] = (
    (_N, _S, _S, _S, 1, 1, 1, 1, 2, 2, 2, 3),
    (_S, _S, _S, 1, 1, 1, 2, 2, 2, 3, 3, 4),
    (_S, _S, 1, 1, SPLIT, 2, 2, 3, 3, 4, 4, 5),
    (1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6),
    (1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 6, 6),
)
BANDS = 12
BAND_LABELS = (
    "≤-3", "-2/-1", "0/1", "2/3", "4/5", "6/7", "8/9", "10/11", "12/13", "14/15", "16/17", "≥18"
)  # fmt: skip


def band_of(r: int, *, minus_three: str = "first") -> int:
    """The column of R. The first header reads "<-3" and the next "-1/-2", so -3 falls in the
    first column unless the `minus_three` setting says "second" (digest §8.1-5)."""
    if r <= -4 or (r == -3 and minus_three == "first"):
        return 0
    if r <= -1:
        return 1
    return min(BANDS - 1, r // 2 + 2)


def cell(row: int, band: int, r: int) -> int:
    """Wounds (or NULLA/STORDITO) at `row` (1..5) and `band`; `r` picks the split cell's half."""
    value = WOUND_TABLE[row - 1][band]
    if value == SPLIT:
        return 1 if r <= 4 else 2
    return value


# Mana recovery (@130449, digest §3.3.1): POT + 1d6 by the mage's rank; a natural 1 gives 0.
MANA_COLUMNS = ("1", "≤0", "1-3", "4-6", "7-9", "10-12", "13-15", "16-18", "19-21", "≥22")
RANK_NAMES_MAGE = {1: "Iniziato", 2: "Adepto", 3: "Maestro", 4: "Virtuoso"}
RANK_NAMES_FAITHFUL = {1: "Devoto", 2: "Zelota", 3: "Decano", 4: "Avatar"}


def mana_band(total: int) -> int:
    """Column index after the natural-1 column: 0 for <=0, then one per three points, max 8."""
    return 0 if total <= 0 else min(8, math.ceil(total / 3))


def mana_gems(rank: int, total: int, natural_one: bool) -> int:
    """@130449: Iniziato 1..9, Adepto 2..10, Maestro 3..11, Virtuoso 4..12; 0 on a natural 1."""
    return 0 if natural_one else rank + mana_band(total)


# Wounds by size (@1361, @69364 Enorme, @60864 Colossale, @78068 Gigantesco) and Sangue Divino
# (@50842): +1 for warrior Characters (pure warriors, warrior-mages, warrior-monks); max 8.
SIZES = {1: "small", 2: "medium", 3: "large", 4: "enorme", 5: "colossale", 6: "gigantesco"}
SIZE_WOUNDS = {1: 4, 2: 4, 3: 5, 4: 6, 5: 7, 6: 8}


def wounds_for(size: int, warrior: bool) -> int:
    return min(MAX_WOUNDS, SIZE_WOUNDS[size] + (1 if warrior else 0))


def penalty(
    wounds: int, stunned: bool, *, posseduto: bool = False, robustezza: bool = False
) -> int:
    """@10224, @11808: -1/-2/-3 by wounds suffered (3 or more: -3); Stordito is -1 and does not
    add to the wound penalty (the worse one counts). Returned as a positive number.
    Posseduto (@96501) reads the wound penalty one level lighter (not Stordito's); Robustezza
    ignores the penalty of the one-wound state and of Stordito (digest §3.6, H07, H08)."""
    from_wounds = min(wounds, 3)
    if robustezza and wounds == 1:
        from_wounds = 0
    if posseduto:
        from_wounds = max(0, from_wounds - 1)
    from_stun = 1 if stunned and not robustezza else 0
    return max(from_wounds, from_stun)


def state_key(wounds: int, max_wounds: int) -> str:
    """@5779: Indenne, Leggera (1), Grave (2), Critica (3+), Ucciso (no wound left)."""
    if max_wounds and wounds >= max_wounds:
        return "killed"
    return ("unhurt", "light", "serious", "critical")[min(wounds, 3)]


PENALISED = ("ini", "att", "def", "aim")  # @10224: INI, ATT, DIF and TIR final results

# Free shooting fire (@105867 Tiro in Assalto, @108535 Tiro di Reazione): fixed difficulty 7,
# 4 when the ability is printed on the card; no other modifier applies.
FIXED_FIRE = {"assault": (7, 4), "reaction": (7, 4)}
ALTITUDE_STEP = 2  # @20741: +2 difficulty per altitude level between shooter and target


def faith_from_followers(rank: int, followers: int) -> int:
    """@21515: Devoti 1 FT per (incomplete) group of 3 followers, Zeloti per group of 2,
    Decani and Avatar 1 per follower."""
    if rank == 1:
        return math.ceil(followers / 3)
    if rank == 2:
        return math.ceil(followers / 2)
    return followers
