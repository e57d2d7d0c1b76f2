"""An independent oracle for the Age of Sigmar attack odds: every die of every attack
enumerated with exact Fractions, the rules written out here from the rulebook (lines of
../shared/seeds/001_3302d92f440b0a0b.txt) without calling the resolver or the odds code.

Dice are independent, so an attack's dice can be enumerated in any order: attack by attack,
hit then wound then save then damage, then one ward roll per point of damage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import product

from rules_core.systems.aos.models import AttackRequest, Settings
from rules_core.systems.aos.values import DiceValue

Dist = dict[int, Fraction]
SIXTH = Fraction(1, 6)


def add(out: Dist, value: int, p: Fraction) -> None:
    out[value] = out.get(value, Fraction(0)) + p


def die(reroll: str, fails: Callable[[int], bool]) -> Iterator[tuple[int, Fraction]]:
    """The unmodified face a D6 ends on: "ones" rolls a 1 again, "failed" rolls a failure
    again, once (L155-161), the second face stands."""
    for first in range(1, 7):
        again = (reroll == "ones" and first == 1) or (reroll == "failed" and fails(first))
        if again:
            for second in range(1, 7):
                yield second, SIXTH * SIXTH
        else:
            yield first, SIXTH


def value_faces(v: DiceValue) -> Iterator[tuple[int, Fraction]]:
    """A characteristic such as D3 or 2D6+1: every D6 roll (a D3 is a D6 halved up, L149)."""
    for faces in product(range(1, 7), repeat=v.count):
        halved = [(f + 1) // 2 if v.sides == 3 else f for f in faces]
        yield sum(halved) + v.plus, SIXTH**v.count


def capped(mod: int) -> int:
    """L131: hit and wound rolls are modified by -1 to +1 at most."""
    return max(-1, min(1, mod))


def one_attack(r: AttackRequest, s: Settings) -> Dist:
    """Points of damage of one attack, before wards (mortal wounds included)."""
    hit_mod, wound_mod = capped(r.hit_mod), capped(r.wound_mod)

    def hit_fails(f: int) -> bool:  # L537: an unmodified 1 fails, an unmodified 6 hits
        return f == 1 or (f != 6 and f + hit_mod < r.hit)

    def wound_fails(f: int) -> bool:  # L543: likewise
        return f == 1 or (f != 6 and f + wound_mod < r.wound)

    def unsaved(rend: int) -> Dist:
        """A wound's damage after its save (L547/L549): Rend worsens the save; the total
        modifier is never above +1 (Rend counted in that or not: the save_cap setting); an
        unmodified 1 fails, a 6 is no automatic save; a save that cannot reach its number is
        not rolled (L964). Unsaved, the Damage characteristic is rolled (L553)."""
        with_rend = s.save_cap == "with_rend"
        mod = min(1, r.save_mod - rend) if with_rend else min(1, r.save_mod) - rend

        def fails(f: int) -> bool:
            return f == 1 or f + mod < r.save

        p_fail = Fraction(1)
        if 6 + mod >= r.save:
            p_fail = sum((p for f, p in die(r.reroll_save, fails) if fails(f)), Fraction(0))
        out: Dist = {0: 1 - p_fail}
        for dmg, w in value_faces(r.damage):
            add(out, dmg, p_fail * w)
        return out

    def wound_roll() -> Dist:
        """A hit's wound roll and what follows; an unmodified 6 may bring mortal wounds (that
        end the sequence) or a better Rend (L189-191)."""
        out: Dist = {}
        for f, p in die(r.reroll_wound, wound_fails):
            if wound_fails(f):
                then: Dist = {0: Fraction(1)}
            elif f == 6 and r.on6_wound.kind == "mortal":
                then = {r.on6_wound.amount: Fraction(1)}
            elif f == 6 and r.on6_wound.kind == "rend":
                then = unsaved(r.on6_wound.amount)
            else:
                then = unsaved(r.rend)
            for v, q in then.items():
                add(out, v, p * q)
        return out

    one_hit = wound_roll()
    out: Dist = {}
    for f, p in die(r.reroll_hit, hit_fails):
        if hit_fails(f):
            then: Dist = {0: Fraction(1)}
        elif f == 6 and r.on6_hit.kind == "mortal":
            then = {r.on6_hit.amount: Fraction(1)}  # the sequence ends (14.5)
        elif f == 6 and r.on6_hit.kind == "auto_wound":
            then = unsaved(r.rend)
        elif f == 6 and r.on6_hit.kind == "extra_hit":  # two hits, two wound rolls
            then = {}
            for a, pa in one_hit.items():
                for b, pb in one_hit.items():
                    add(then, a + b, pa * pb)
        else:
            then = one_hit
        for v, q in then.items():
            add(out, v, p * q)
    return out


def warded(points: int, ward: int | None) -> Dist:
    """One ward roll per point (L591): each is negated on `ward`+."""
    if ward is None:
        return {points: Fraction(1)}
    out: Dist = {}
    for faces in product(range(1, 7), repeat=points):
        add(out, sum(1 for f in faces if f < ward), SIXTH**points)
    return out


def attack_damage(r: AttackRequest, s: Settings | None = None) -> Dist:
    """Total damage after wards of the whole attack."""
    s = s or Settings()
    per_attack: Dist = {}
    for points, p in one_attack(r, s).items():
        for kept, q in warded(points, r.ward).items():
            add(per_attack, kept, p * q)
    counts: Dist = {}
    for rolls in product(list(value_faces(r.attacks)), repeat=r.attack_rolls):
        n = sum(v for v, _ in rolls)
        p = Fraction(1)
        for _, q in rolls:
            p *= q
        add(counts, n, p)
    out: Dist = {}
    for n, p in counts.items():
        for combo in product(list(per_attack.items()), repeat=n):
            q = p
            for _, w in combo:
                q *= w
            add(out, sum(v for v, _ in combo), q)
    return {v: p for v, p in sorted(out.items()) if p}


def slain(r: AttackRequest, damage: Dist) -> Dist:
    """Models slain, wounds allocated model by model with carry-over (L557, L579), the
    damage already taken counted first."""
    assert r.wounds_per_model is not None
    models, per = r.models or 1, r.wounds_per_model
    out: Dist = {}
    for dmg, p in damage.items():
        health = [per] * models
        taken = r.wounds_taken
        for i in range(models):  # earlier damage
            cut = min(health[i], taken)
            health[i] -= cut
            taken -= cut
        alive_before = sum(1 for h in health if h > 0)
        left = dmg
        for i in range(models):
            cut = min(health[i], left)
            health[i] -= cut
            left -= cut
        add(out, alive_before - sum(1 for h in health if h > 0), p)
    return out
