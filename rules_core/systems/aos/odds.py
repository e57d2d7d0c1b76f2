"""Exact odds of an attack: the full distribution of damage (after wards) and of models
slain, as expressions over the one distribution type (no simulation).

One attack's damage is a mixture over its hit die (with the re-roll policy), the wound die or
dice of its hits, their saves and the Damage characteristic; every point is then kept when
its ward roll fails (one ward roll per wound, L591). Attacks are independent, so the total is
the sum of as many copies of one attack as there are attacks, that number itself a
distribution when it is random. Models slain is a function of the total (carry-over
allocation, L579), so its distribution is the image of the damage one.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rules_core.dice.distribution import Distribution
from rules_core.errors import UserError
from rules_core.systems.aos.attack import (
    allocate,
    clamp_roll_mod,
    hit_passes,
    needs_reroll,
    save_modifier,
    save_passes,
    save_possible,
)
from rules_core.systems.aos.models import AttackRequest, Settings
from rules_core.systems.aos.values import D6, DiceValue, Reroll

MAX_STATES = 200_000  # attack count x damage support, to keep odds fast


def face_distribution(policy: Reroll, passes: Callable[[int], bool]) -> Distribution:
    """The final unmodified face, with at most one re-roll of the faces the policy allows."""
    return D6.reroll(lambda f: needs_reroll(f, policy, passes))


def one_attack(req: AttackRequest, settings: Settings) -> Distribution:
    """Damage (before wards) of one attack."""
    damage = req.damage.distribution()

    def saved_damage(rend: int) -> Distribution:
        mod = save_modifier(req.save_mod, rend, settings)
        if not save_possible(req.save, mod):
            return damage

        def saves(f: int) -> bool:
            return save_passes(f, req.save, mod)

        return face_distribution(req.reroll_save, saves).map(lambda f: 0 if saves(f) else damage)

    normal = saved_damage(req.rend)
    wound_mod = clamp_roll_mod(req.wound_mod)

    def wounds(f: int) -> bool:
        return hit_passes(f, req.wound, wound_mod)

    def after_wound_roll(f: int) -> Distribution | int:
        if not wounds(f):
            return 0
        if f == 6 and req.on6_wound.kind == "mortal":
            return req.on6_wound.amount
        if f == 6 and req.on6_wound.kind == "rend":
            return saved_damage(req.on6_wound.amount)
        return normal

    per_hit = face_distribution(req.reroll_wound, wounds).map(after_wound_roll)
    hit_mod = clamp_roll_mod(req.hit_mod)

    def hits(f: int) -> bool:
        return hit_passes(f, req.hit, hit_mod)

    def after_hit_roll(f: int) -> Distribution | int:
        if not hits(f):
            return 0
        if f == 6 and req.on6_hit.kind == "extra_hit":
            return 2 @ per_hit
        if f == 6 and req.on6_hit.kind == "auto_wound":
            return normal
        if f == 6 and req.on6_hit.kind == "mortal":
            return req.on6_hit.amount
        return per_hit

    return face_distribution(req.reroll_hit, hits).map(after_hit_roll)


def attack_count(req: AttackRequest) -> Distribution:
    if not req.attacks.random:
        return Distribution.constant(req.attacks.plus * req.attack_rolls)
    return req.attack_rolls @ req.attacks.distribution()


def attack_odds(req: AttackRequest, settings: Settings | None = None) -> Distribution:
    """The exact distribution of the damage the attack inflicts after wards."""
    settings = settings or Settings()
    per_attack = one_attack(req, settings)
    if req.ward is not None:
        kept = Distribution.bernoulli(Fraction(req.ward - 1, 6))  # its ward roll fails
        per_attack = per_attack.map(lambda points: points @ kept)
    counts = attack_count(req)
    if counts.max * per_attack.max > MAX_STATES // 10 or counts.max > 2000:
        raise UserError("aos.odds_too_big")
    # `counts @ per_attack`, computed faster: the Attacks value is rolled once per model and
    # is a sum of dice and a constant, so the attacks split into independent groups: one per
    # model (`rolls @`: a power), within it one per die (`die @ per_attack`) and the constant.
    value, rolls = req.attacks, req.attack_rolls
    if not value.random:
        return (value.plus * rolls) @ per_attack
    per_model = value.count @ (value.die() @ per_attack) + value.plus @ per_attack
    return rolls @ per_model


def slain_odds(req: AttackRequest, damage: Distribution) -> Distribution | None:
    if req.wounds_per_model is None:
        return None
    models, per = req.models or 1, req.wounds_per_model
    return damage.map(lambda v: allocate(v, models, per, req.wounds_taken)[0])


__all__ = ["DiceValue", "attack_odds", "one_attack", "slain_odds"]
