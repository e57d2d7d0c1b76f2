"""The attack sequence (13.3, L531-553), wound allocation (13.3.1 and 14.x, L555-601).

Rulebook lines refer to ../shared/seeds/001_3302d92f440b0a0b.txt.

Order of the dice (the order `dice=` faces are consumed in, and the breakdown shows):
1. random Attacks (22.2.4, L989/L1001), one roll per attacking model unless set otherwise;
2. all hit rolls together (combined attacks, L525), then the re-rolls of the dice allowed one;
3. all wound rolls for the hits, in hit order, then their re-rolls;
4. save rolls for the wounds (the defender's), then their re-rolls; wounds whose Rend was
   changed by an unmodified 6 to wound are saved in a second group after the others;
5. random Damage, one roll per unsaved attack (L1001);
6. one ward roll per wound and mortal wound (14.3, L589-591);
then the damage is summed for the target and allocated model by model with carry-over
(L557, L579): a model takes wounds until slain, extra damage goes to the next, and whatever is
left once the whole unit is slain is lost.

Rules applied by the engine itself:
- a die is re-rolled at most once, before modifiers (1.5.4-1.5.5, L155-161); "failed" means
  the roll would fail with its modifiers;
- hit and wound modifiers are summed and clamped to -1..+1 (L131, L537, L543); an unmodified 1
  always fails and an unmodified 6 always succeeds (L537, L543);
- save rolls: an unmodified 1 always fails, a 6 is not an automatic success, the total
  modifier can't exceed +1 and has no lower limit (L547, L549); whether Rend counts towards
  that +1 is the `save_cap` setting; a save that can't reach its target is not rolled (L964);
- effects of an unmodified 6 apply right after that roll, one per die (L189-191): `extra_hit`
  scores 2 hits, `auto_wound` skips the wound roll, `mortal:N` on a hit or wound roll inflicts
  N mortal wounds and ends that attack's sequence, `rend:N` gives that attack Rend -N;
- mortal wounds skip hit, wound and save rolls, join the attack's damage pool and can be
  warded (14.5, L597-601).
"""

from __future__ import annotations

from collections.abc import Callable

from rules_core.dice import DiceSource
from rules_core.steps import Modifier, Step, net_modifiers
from rules_core.systems.aos.models import (
    AttackOutcome,
    AttackRequest,
    AttackResolution,
    Settings,
)
from rules_core.systems.aos.values import Reroll


def clamp_roll_mod(mod: int) -> int:
    """L131, L537, L543: hit and wound rolls can't be modified by more than +1 or less than -1."""
    return max(-1, min(1, mod))


def save_modifier(save_mod: int, rend: int, settings: Settings) -> int:
    """L547: Rend modifies the save roll; the total can't be above +1 (no lower limit)."""
    if settings.save_cap == "with_rend":
        return min(1, save_mod - rend)
    return min(1, save_mod) - rend


def hit_passes(face: int, target: int, mod: int) -> bool:
    """L537/L543: unmodified 1 fails, unmodified 6 succeeds, else face + mod >= target."""
    if face == 1:
        return False
    if face == 6:
        return True
    return face + mod >= target


def save_passes(face: int, target: int, mod: int) -> bool:
    """L547/L549: unmodified 1 fails; no automatic success on a 6."""
    return face != 1 and face + mod >= target


def save_possible(target: int, mod: int) -> bool:
    """L964: a save that can't reach its target (e.g. Save "-" needs 7+) isn't rolled."""
    return 6 + mod >= target


def needs_reroll(face: int, policy: Reroll, passes: Callable[[int], bool]) -> bool:
    if policy == "ones":
        return face == 1
    if policy == "failed":
        return not passes(face)
    return False


def roll_tests(
    n: int, source: DiceSource, passes: Callable[[int], bool], policy: Reroll
) -> tuple[list[int], list[int], list[int]]:
    """Roll n dice together, then re-roll (once) those the policy allows, in order."""
    source.require(n)
    first = [source.roll(6) for _ in range(n)]
    again = [i for i, f in enumerate(first) if needs_reroll(f, policy, passes)]
    source.require(len(again))
    final = list(first)
    for i in again:
        final[i] = source.roll(6)
    return first, again, final


def allocate(damage: int, models: int, wounds_per_model: int, taken: int) -> tuple[int, int, int]:
    """L579/L583: wounds go model by model with carry-over; returns (slain, lost, taken after)."""
    total = models * wounds_per_model
    taken = min(taken, total)
    left_before = -(-(total - taken) // wounds_per_model)
    after = min(total, taken + damage)
    left_after = -(-(total - after) // wounds_per_model)
    return left_before - left_after, taken + damage - after, after


def _dice_step(
    name: str,
    rolled: tuple[list[int], list[int], list[int]],
    *,
    target: int | None,
    modifiers: list[Modifier],
    total: int,
    outcome: str,
) -> Step:
    first, again, final = rolled
    return Step(
        name=name,
        dice=first + [final[i] for i in again],
        rerolled=again,
        final=final,
        modifiers=modifiers,
        target=target,
        total=total,
        outcome=outcome,
    )


def resolve_attack(
    req: AttackRequest, source: DiceSource, settings: Settings | None = None
) -> AttackResolution:
    settings = settings or Settings()
    steps: list[Step] = []

    # 1. Attacks: fixed, or rolled once per model (L989) and summed.
    if req.attacks.random:
        faces: list[int] = []
        attacks = 0
        for _ in range(req.attack_rolls):
            value, got = req.attacks.roll(source)
            attacks += value
            faces += got
        steps.append(
            Step(name="attacks", dice=faces, final=faces, total=attacks, outcome="attacks")
        )
    else:
        attacks = req.attacks.plus * req.attack_rolls

    # 2. Hit rolls (L537).
    hit_mod = clamp_roll_mod(req.hit_mod)

    def hit_ok(face: int) -> bool:
        return hit_passes(face, req.hit, hit_mod)

    rolled = roll_tests(attacks, source, hit_ok, req.reroll_hit)
    # Each hit is "roll" (needs a wound roll) or "auto" (wounds automatically), in hit order.
    hits: list[str] = []
    mortal = 0
    for face in rolled[2]:
        if not hit_ok(face):
            continue
        six = face == 6 and req.on6_hit.kind != "none"  # L189-191: right after the roll
        if six and req.on6_hit.kind == "extra_hit":
            hits += ["roll", "roll"]
        elif six and req.on6_hit.kind == "auto_wound":
            hits.append("auto")
        elif six and req.on6_hit.kind == "mortal":
            mortal += req.on6_hit.amount  # the attack's sequence ends (14.5)
        else:
            hits.append("roll")
    on6_mortal_hits = mortal
    hit_total = len(hits) + sum(1 for f in rolled[2] if f == 6 and req.on6_hit.kind == "mortal")
    steps.append(
        _dice_step(
            "hit",
            rolled,
            target=req.hit,
            modifiers=net_modifiers(hit_mod, asked=req.hit_mod),
            total=hit_total,
            outcome="hits",
        )
    )
    if on6_mortal_hits:
        steps.append(Step(name="hit_mortal", total=on6_mortal_hits, outcome="mortal_wounds"))

    # 3. Wound rolls (L543) for the hits that need one.
    wound_mod = clamp_roll_mod(req.wound_mod)

    def wound_ok(face: int) -> bool:
        return hit_passes(face, req.wound, wound_mod)

    rolled = roll_tests(hits.count("roll"), source, wound_ok, req.reroll_wound)
    wound_faces = iter(rolled[2])
    normal: int = 0  # wounds saved against the weapon's Rend
    special: int = 0  # wounds whose Rend an unmodified 6 changed
    wound_mortal = 0
    auto = 0
    for kind in hits:
        if kind == "auto":
            normal += 1
            auto += 1
            continue
        face = next(wound_faces)
        if not wound_ok(face):
            continue
        six = face == 6 and req.on6_wound.kind != "none"
        if six and req.on6_wound.kind == "mortal":
            wound_mortal += req.on6_wound.amount
        elif six and req.on6_wound.kind == "rend":
            special += 1
        else:
            normal += 1
    wounded_by_roll = (
        normal
        - auto
        + special
        + sum(1 for f in rolled[2] if f == 6 and req.on6_wound.kind == "mortal")
    )
    steps.append(
        _dice_step(
            "wound",
            rolled,
            target=req.wound,
            modifiers=net_modifiers(wound_mod, asked=req.wound_mod),
            total=wounded_by_roll + auto,
            outcome="wounds",
        )
    )
    if wound_mortal:
        steps.append(Step(name="wound_mortal", total=wound_mortal, outcome="mortal_wounds"))
    mortal += wound_mortal

    # 4. Save rolls (L547), one group per Rend value.
    unsaved = 0
    for count, rend, name in (
        (normal, req.rend, "save"),
        (special, req.on6_wound.amount, "save_rend"),
    ):
        if not count:
            continue
        mod = save_modifier(req.save_mod, rend, settings)
        if not save_possible(req.save, mod):
            unsaved += count
            steps.append(
                Step(
                    name=name,
                    target=req.save,
                    modifiers=net_modifiers(mod, asked=req.save_mod - rend),
                    total=count,
                    outcome="no_save",
                )
            )
            continue

        def save_ok(face: int, mod: int = mod) -> bool:
            return save_passes(face, req.save, mod)

        rolled = roll_tests(count, source, save_ok, req.reroll_save)
        failed = sum(1 for f in rolled[2] if not save_ok(f))
        unsaved += failed
        steps.append(
            _dice_step(
                name,
                rolled,
                target=req.save,
                modifiers=net_modifiers(mod, asked=req.save_mod - rend),
                total=failed,
                outcome="unsaved",
            )
        )

    # 5. Damage (L553), random Damage rolled per successful attack (L1001).
    damage = 0
    if req.damage.random:
        faces = []
        for _ in range(unsaved):
            value, rolled_faces = req.damage.roll(source)
            damage += value
            faces += rolled_faces
        if unsaved:
            steps.append(
                Step(name="damage", dice=faces, final=faces, total=damage, outcome="damage")
            )
    else:
        damage = unsaved * req.damage.plus
        if unsaved:
            steps.append(Step(name="damage", total=damage, outcome="damage"))
    pool = damage + mortal

    # 6. Wards: one roll per wound or mortal wound (L591).
    ward_saved = 0
    if req.ward is not None and pool:
        ward = req.ward

        def ward_ok(face: int) -> bool:
            return face >= ward

        rolled = roll_tests(pool, source, ward_ok, "none")
        ward_saved = sum(1 for f in rolled[2] if ward_ok(f))
        steps.append(
            _dice_step(
                "ward",
                rolled,
                target=ward,
                modifiers=[],
                total=ward_saved,
                outcome="negated",
            )
        )
    final_damage = pool - ward_saved

    # Allocation (L557, L579, L583).
    slain: int | None = None
    lost = 0
    if req.wounds_per_model is not None:
        slain, lost, _ = allocate(
            final_damage, req.models or 1, req.wounds_per_model, req.wounds_taken
        )
        steps.append(Step(name="allocate", total=final_damage, outcome=str(slain)))
    outcome = AttackOutcome(
        attacks=attacks,
        hits=hit_total,
        wounds=wounded_by_roll + auto,
        unsaved=unsaved,
        mortal_wounds=mortal,
        ward_saved=ward_saved,
        damage=final_damage,
        models_slain=slain,
        damage_lost=lost,
    )
    return AttackResolution(steps=steps, outcome=outcome)
