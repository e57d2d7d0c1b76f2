"""Functions the worker-pool tests run in worker processes (they must be importable there, so
they live in a module, not in a test file)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any


def pid() -> int:
    return os.getpid()


def gated(fifo: str, fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` once the test opens `fifo` for writing and closes it: a worker that stays busy
    exactly as long as the test wants, with no clock involved (never opened: busy forever)."""
    with open(fifo, encoding="utf-8") as gate:
        gate.read()
    return fn(*args)


def allocate(megabytes: int) -> int:
    """Hold `megabytes` of memory at once (past the worker's cap: MemoryError)."""
    block = bytearray(megabytes * 1024 * 1024)
    return len(block)
