"""The d20 roll-under core: Normal rolls, critical hits, targets above 20, automatic failure
and Face to Face rolls with bursts (digest §2.2-2.5). Exact per-die distributions for the odds.

Rules applied (lines of ../shared/seeds/003_27b81155ce3a4b9f.txt):
- L362-368: roll 1d20 per die; a result <= the (modified) attribute succeeds.
- L377-382: a result equal to the modified attribute is a critical.
- L383-390: above 20 the target counts as 20 and the excess is added to the die, so with
  target 22 a 18 or 19 become criticals too (compared as a critical of value 20).
- L395-398: negative MODs above the attribute (target <= 0): automatic failure, no roll.
- L414-431: Face to Face: the higher success wins, a critical beats any normal success, the
  higher critical beats a lower one, a tie goes to the higher MODIFIED attribute, and if that
  is equal too both fail.
- L866-871 (example L872-885): against a single ARO die, the reactive success must be higher
  than every active success; every active success higher than the reactive die hits; failed
  dice count for nothing.
- L2653-2674 (Total Reaction, reactive bursts above 1): each side's best success is compared
  and every success that beats the opponent's best success hits. With one reactive die this
  is the rule above, so one rule covers both: a success hits iff it beats the other side's
  best success (or the other side has none). Only one side can ever hit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rules_core.dice import DiceSource
from rules_core.dice.distribution import Distribution
from rules_core.steps import Modifier, Step
from rules_core.systems.inf.models import FtfOutcome, RollOutcome

FACES = range(1, 21)


class Die(NamedTuple):
    face: int
    success: bool
    critical: bool
    value: int  # compared value: the face, plus the excess above 20 (capped at 20)


Key = tuple[bool, int]  # (critical, value): the order of successes in a Face to Face roll


def evaluate(face: int, target: int) -> Die:
    """One d20 against a modified attribute (L377-398)."""
    if target <= 0:  # L395-398 automatic failure
        return Die(face, False, False, face)
    if target <= 20:
        return Die(face, face <= target, face == target, face)
    value = face + (target - 20)  # L383-390
    return Die(face, True, value >= 20, min(value, 20))


def failure_margin(face: int, target: int) -> int | None:
    """Classe di Fallimento (L392-394): how much a failed roll missed by (None: success)."""
    return face - target if face > target else None


def key(die: Die) -> Key:
    return (die.critical, die.value)


def beats(mine: Key | None, my_target: int, theirs: Key | None, their_target: int) -> bool:
    """Does my success `mine` beat the opponent's best success `theirs` (None: no success)?
    L414-431: critical over normal, then the higher value; a tie goes to the higher modified
    attribute, and if that is equal neither wins."""
    if mine is None:
        return False
    if theirs is None:
        return True
    if mine != theirs:
        return mine > theirs
    return my_target > their_target


def best(dice: Iterable[Die]) -> Key | None:
    keys = [key(d) for d in dice if d.success]
    return max(keys) if keys else None


def roll_dice(target: int, burst: int, source: DiceSource) -> list[Die]:
    """`burst` dice against `target`; none are rolled on an automatic failure (L395-398)."""
    if target <= 0:
        return []
    return [evaluate(source.roll(20), target) for _ in range(burst)]


def mods_of(mod: int, name: str = "mod") -> list[Modifier]:
    return [Modifier(name=name, value=mod)] if mod else []


def roll_step(
    name: str, attr: int, mods: list[Modifier], dice: list[Die], hits: int, crits: int
) -> Step:
    """A roll's step; `mods` are shown one by one (MOD, range band, cover)."""
    target = attr + sum(m.value for m in mods)
    outcome = "auto_fail" if target <= 0 else ("hits" if hits else "miss")
    return Step(
        name=name,
        dice=[d.face for d in dice],
        modifiers=[m for m in mods if m.value],
        target=target,
        total=hits,
        outcome=outcome,
        detail={
            "attr": attr,
            "criticals": crits,
            "cf": failure_margin(dice[0].face, target) if len(dice) == 1 and target > 0 else None,
            "marks": [("C" if d.critical else "S") if d.success else "F" for d in dice],
        },
    )


def resolve_roll(
    attr: int, mod: int, burst: int, source: DiceSource
) -> tuple[list[Step], RollOutcome]:
    """A Normal roll (L400-409): every die <= the target succeeds."""
    target = attr + mod
    dice = roll_dice(target, burst, source)
    succ = sum(d.success for d in dice)
    crit = sum(d.critical for d in dice)
    step = roll_step("roll", attr, mods_of(mod), dice, succ, crit)
    return [step], RollOutcome(successes=succ, criticals=crit, target=target)


def ftf_dice(
    active: list[Die],
    a_target: int,
    reactive: list[Die],
    r_target: int,
    ties: tuple[int, int] | None = None,
) -> tuple[list[Die], list[Die]]:
    """The dice of each side that hit (L414-431, L866-871, L2653-2674). `ties`: the values
    that break a tie, when not the modified attributes (setting dodge_tie)."""
    a_tie, r_tie = ties if ties is not None else (a_target, r_target)
    a_best, r_best = best(active), best(reactive)
    a_hits = [d for d in active if d.success and beats(key(d), a_tie, r_best, r_tie)]
    r_hits = [d for d in reactive if d.success and beats(key(d), r_tie, a_best, a_tie)]
    return a_hits, r_hits


def resolve_ftf(
    attr: int,
    mod: int,
    burst: int,
    vs: int,
    vs_mod: int,
    vs_burst: int,
    source: DiceSource,
) -> tuple[list[Step], FtfOutcome, list[Die], list[Die]]:
    """A Face to Face roll: the active model's dice first, then the reactive model's."""
    a_target, r_target = attr + mod, vs + vs_mod
    active = roll_dice(a_target, burst, source)
    reactive = roll_dice(r_target, vs_burst, source)
    a_hits, r_hits = ftf_dice(active, a_target, reactive, r_target)
    out = FtfOutcome(
        active_hits=len(a_hits),
        active_criticals=sum(d.critical for d in a_hits),
        reactive_hits=len(r_hits),
        reactive_criticals=sum(d.critical for d in r_hits),
    )
    steps = [
        roll_step("active", attr, mods_of(mod), active, out.active_hits, out.active_criticals),
        roll_step(
            "reactive", vs, mods_of(vs_mod), reactive, out.reactive_hits, out.reactive_criticals
        ),
    ]
    return steps, out, a_hits, r_hits


# --- exact distributions ------------------------------------------------------------------

Outcome = Key | None  # a die's result for the comparison: its key, or None for a failure
FtfKey = tuple[str, int, int]  # ("active"|"reactive"|"none", critical hits, normal hits)
NO_HIT: FtfKey = ("none", 0, 0)
D20 = Distribution.die(20)
MISS, NORMAL, CRITICAL = 0, 1, 2


def die_distribution(target: int) -> Distribution[Outcome]:
    """The outcome of one die against `target`: None (failure) or its (critical, value)."""

    def outcome(face: int) -> Outcome:
        die = evaluate(face, target)
        return key(die) if die.success else None

    return D20.map(outcome)


def rank(k: Outcome) -> tuple[int, bool, int]:
    """The Face to Face order of a die's outcome: a failure, then successes by `key`."""
    return (0, False, 0) if k is None else (1, k[0], k[1])


def best_distribution(target: int, burst: int) -> Distribution[Outcome]:
    """The best success of `burst` dice (None: no success)."""
    return die_distribution(target).max_of(burst, key=rank)


def hit_counts(
    target: int,
    burst: int,
    other_best: Outcome,
    other_target: int,
    ties: tuple[int, int] | None = None,
) -> Distribution[tuple[int, int]]:
    """(critical hits, normal hits) of `burst` independent dice that beat `other_best`;
    `ties` (mine, theirs) break ties when not the two targets."""
    mine, theirs = ties if ties is not None else (target, other_target)
    return _hit_counts(die_distribution(target), mine, burst, other_best, theirs)


def _hit_counts(
    die: Distribution[Outcome], target: int, burst: int, other_best: Outcome, other_target: int
) -> Distribution[tuple[int, int]]:
    def kind(k: Outcome) -> int:
        if not beats(k, target, other_best, other_target):
            return MISS
        return CRITICAL if k is not None and k[0] else NORMAL

    return die.map(kind).pool(burst).map(lambda kinds: (kinds.count(CRITICAL), kinds.count(NORMAL)))


def ftf_distribution(
    a_target: int,
    burst: int,
    r_target: int | None,
    vs_burst: int,
    ties: tuple[int, int] | None = None,
) -> Distribution[FtfKey]:
    """Exact joint distribution of who hits and with how many criticals / normal hits.
    `r_target` None: Normal rolls (nobody opposes). Given the other side's best success, each
    side's dice are independent; only one side can hit, so the two sides' hits are disjoint
    events and whatever is left is nobody hitting."""
    auto_a = a_target <= 0
    a_die = die_distribution(a_target)
    a_tie, r_tie = ties if ties is not None else (a_target, r_target or 0)
    if r_target is None:
        if auto_a:
            return Distribution.constant(NO_HIT)
        counts = _hit_counts(a_die, a_target, burst, None, 0)
        return counts.map(lambda cn: ("active", *cn) if sum(cn) else NO_HIT)
    r_die = die_distribution(r_target)
    parts: list[Distribution[FtfKey]] = []
    if not auto_a:
        r_best = r_die.max_of(vs_burst, key=rank) if r_target > 0 else Distribution.constant(None)
        parts.append(
            r_best.map(
                lambda rb: _hit_counts(a_die, a_tie, burst, rb, r_tie).map(
                    lambda cn: ("active", *cn)
                )
            )
        )
    if r_target > 0:
        a_best = Distribution.constant(None) if auto_a else a_die.max_of(burst, key=rank)
        parts.append(
            a_best.map(
                lambda ab: _hit_counts(r_die, r_tie, vs_burst, ab, a_tie).map(
                    lambda cn: ("reactive", *cn)
                )
            )
        )
    if not parts:
        return Distribution.constant(NO_HIT)
    hits = [part.where(lambda k: k[1] + k[2] > 0) for part in parts]
    return Distribution.union(hits).fill(NO_HIT)
