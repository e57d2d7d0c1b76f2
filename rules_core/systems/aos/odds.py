"""Exact odds of an attack: the full distribution of damage (after wards) and of models
slain, computed from per-die probabilities (no simulation).

One attack's damage is a mixture over its hit die (with the re-roll policy), the wound die or
dice of its hits, their saves and the Damage characteristic; every point is then kept with
the probability that its ward roll fails (one ward roll per wound, L591). Attacks are
independent, so the total is the n-fold convolution of one attack's distribution, mixed over
the distribution of the number of attacks when it is random. Models slain is a function of
the total (carry-over allocation, L579), so its distribution is the image of the damage one.
"""

from __future__ import annotations

from collections.abc import Callable

from rules_core.errors import UserError
from rules_core.systems.aos.attack import (
    allocate,
    clamp_roll_mod,
    hit_passes,
    save_modifier,
    save_passes,
    save_possible,
)
from rules_core.systems.aos.models import AttackRequest, Settings
from rules_core.systems.aos.values import DiceValue, Reroll

Dist = dict[int, float]
MAX_STATES = 200_000  # attack count x damage support, to keep odds fast
# Probabilities below this are dropped between convolutions: they are beneath what a double
# can add to a total of 1 (machine epsilon 2.2e-16), so no reported figure changes.
NEGLIGIBLE = 1e-18


def face_distribution(policy: Reroll, passes: Callable[[int], bool]) -> dict[int, float]:
    """P(final unmodified face = v) with at most one re-roll of the faces the policy allows."""
    again = [f for f in range(1, 7) if _rerolled(f, policy, passes)]
    return {v: (0.0 if v in again else 1 / 6) + len(again) / 36 for v in range(1, 7)}


def _rerolled(face: int, policy: Reroll, passes: Callable[[int], bool]) -> bool:
    if policy == "ones":
        return face == 1
    if policy == "failed":
        return not passes(face)
    return False


def add(a: Dist, b: Dist, weight: float, out: Dist) -> None:
    """out += weight * (a convolved with b)."""
    b_items = list(b.items())
    get = out.get
    for va, pa in a.items():
        wpa = weight * pa  # (weight * pa) * pb: the same products, in the same order
        for vb, pb in b_items:
            v = va + vb
            out[v] = get(v, 0.0) + wpa * pb


def convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    add(a, b, 1.0, out)
    return out


def mix(parts: list[tuple[float, Dist]]) -> Dist:
    out: Dist = {}
    for weight, dist in parts:
        for v, p in dist.items():
            out[v] = out.get(v, 0.0) + weight * p
    return out


def point(value: int) -> Dist:
    return {value: 1.0}


def _binomial_thin(dist: Dist, keep: float) -> Dist:
    """Each point survives independently with probability `keep` (a failed ward roll)."""
    if keep >= 1.0:
        return dict(dist)
    out: Dist = {}
    for total, p in dist.items():
        coeff = 1.0
        for k in range(total + 1):
            # C(total, k) keep^k (1-keep)^(total-k), built incrementally
            if k:
                coeff = coeff * (total - k + 1) / k
            q = coeff * keep**k * (1 - keep) ** (total - k)
            out[k] = out.get(k, 0.0) + p * q
    return out


def one_attack(req: AttackRequest, settings: Settings) -> Dist:
    """Damage (before wards) of one attack, as a distribution."""
    damage = req.damage.distribution()

    def saved_damage(rend: int) -> Dist:
        mod = save_modifier(req.save_mod, rend, settings)
        if not save_possible(req.save, mod):
            return damage
        faces = face_distribution(req.reroll_save, lambda f: save_passes(f, req.save, mod))
        p_unsaved = sum(p for f, p in faces.items() if not save_passes(f, req.save, mod))
        return mix([(p_unsaved, damage), (1 - p_unsaved, point(0))])

    normal = saved_damage(req.rend)
    wound_mod = clamp_roll_mod(req.wound_mod)
    wfaces = face_distribution(req.reroll_wound, lambda f: hit_passes(f, req.wound, wound_mod))
    parts: list[tuple[float, Dist]] = []
    for f, p in wfaces.items():
        if not hit_passes(f, req.wound, wound_mod):
            parts.append((p, point(0)))
        elif f == 6 and req.on6_wound.kind == "mortal":
            parts.append((p, point(req.on6_wound.amount)))
        elif f == 6 and req.on6_wound.kind == "rend":
            parts.append((p, saved_damage(req.on6_wound.amount)))
        else:
            parts.append((p, normal))
    per_hit = mix(parts)

    hit_mod = clamp_roll_mod(req.hit_mod)
    hfaces = face_distribution(req.reroll_hit, lambda f: hit_passes(f, req.hit, hit_mod))
    parts = []
    for f, p in hfaces.items():
        if not hit_passes(f, req.hit, hit_mod):
            parts.append((p, point(0)))
        elif f == 6 and req.on6_hit.kind == "extra_hit":
            parts.append((p, convolve(per_hit, per_hit)))
        elif f == 6 and req.on6_hit.kind == "auto_wound":
            parts.append((p, normal))
        elif f == 6 and req.on6_hit.kind == "mortal":
            parts.append((p, point(req.on6_hit.amount)))
        else:
            parts.append((p, per_hit))
    return mix(parts)


def attack_count(req: AttackRequest) -> Dist:
    if not req.attacks.random:
        return point(req.attacks.plus * req.attack_rolls)
    dist = point(0)
    one = req.attacks.distribution()
    for _ in range(req.attack_rolls):
        dist = convolve(dist, one)
    return dist


def ward_keep(req: AttackRequest) -> float:
    return 1.0 if req.ward is None else (req.ward - 1) / 6


def attack_odds(req: AttackRequest, settings: Settings | None = None) -> Dist:
    """The exact distribution of the damage the attack inflicts after wards."""
    settings = settings or Settings()
    per_attack = _binomial_thin(one_attack(req, settings), ward_keep(req))
    counts = attack_count(req)
    top = max(counts)
    if top * max(per_attack) > MAX_STATES // 10 or top > 2000:
        raise UserError("aos.odds_too_big")
    out: Dist = {}
    current = point(0)
    for n in range(top + 1):
        weight = counts.get(n, 0.0)
        if weight:
            for v, p in current.items():
                out[v] = out.get(v, 0.0) + weight * p
        if n < top:
            current = {v: p for v, p in convolve(current, per_attack).items() if p > NEGLIGIBLE}
    return {v: p for v, p in sorted(out.items()) if p > 0.0}


def slain_odds(req: AttackRequest, damage: Dist) -> Dist | None:
    if req.wounds_per_model is None:
        return None
    out: Dist = {}
    for v, p in damage.items():
        slain, _, _ = allocate(v, req.models or 1, req.wounds_per_model, req.wounds_taken)
        out[slain] = out.get(slain, 0.0) + p
    return dict(sorted(out.items()))


__all__ = ["DiceValue", "attack_odds", "one_attack", "slain_odds"]
