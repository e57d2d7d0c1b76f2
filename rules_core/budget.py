"""What one message may cost, all its parts together.

A limit per expression is not enough: `/odds d1000*d1000; d999*d999; …` is ten expressions
each within its own limit, and together they took 9 s, 1 GB and an 80 MB reply. So the command
layer makes ONE `Budget` per message and every part of it (each `;` roll, each `N#` repeat,
each line of a multi-line message) is charged to it from an estimate made before any work; the
first charge that goes over refuses the whole message, naming the limit it broke, before
anything is computed.

Three quantities, one per way the 80 MB message hurt:

* `operations`: estimated elementary operations (time: about a second at the limit);
* `result`: estimated bytes of the exact results while they are computed (memory);
* `reply`: values the reply lists, one `[value, probability]` row each in its data (what the
  event loop receives from the worker and sends on).

Pure and synchronous like the rest of rules_core: the caller decides where the work then runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules_core.errors import UserError

Quantity = Literal["operations", "result", "reply"]
MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    operations: int = 2_000_000
    """Estimated elementary operations (the heaviest accepted take about 1 s)."""
    result: int = 32 * MB
    """Estimated bytes of the exact results (`d1000*d1000`'s would take about 49 MB)."""
    reply: int = 10_000
    """Values listed by the reply (`100d100` lists 9,901). Each is a `[value, probability]`
    row built on the event loop: 50,000 of them stalled it for 5 to 35 ms."""


MESSAGE = Limits()


class Budget:
    """The running total of one message against its `Limits`."""

    __slots__ = ("limits", "spent")

    def __init__(self, limits: Limits = MESSAGE) -> None:
        self.limits = limits
        self.spent: dict[Quantity, int] = {"operations": 0, "result": 0, "reply": 0}

    def charge(self, *, operations: int = 0, result: int = 0, reply: int = 0) -> None:
        """Add one part's cost; `budget.<quantity>` naming the limit if the message goes over.
        A refused charge adds nothing."""
        wanted: dict[Quantity, int] = {
            "operations": self.spent["operations"] + operations,
            "result": self.spent["result"] + result,
            "reply": self.spent["reply"] + reply,
        }
        for quantity, total in wanted.items():
            limit: int = getattr(self.limits, quantity)
            if total > limit:
                if quantity == "result":  # said in MB
                    total, limit = -(-total // MB), limit // MB
                raise UserError(f"budget.{quantity}", limit=limit, needed=total)
        self.spent = wanted
