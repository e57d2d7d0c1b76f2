"""The generic system: free-form numeric stats, a wound counter (`wounds` per model, default 1),
a fixed turn order, one phase, and free-form resources per player."""

from __future__ import annotations

from rules_core.systems.base import GameSystem, StatSpec

GEN = GameSystem(
    id="gen",
    stats=(StatSpec(name="wounds", min=1, max=999, default=1),),
    free_stats=True,
    order="fixed",
    phases=("play",),
    free_resources=True,
)
