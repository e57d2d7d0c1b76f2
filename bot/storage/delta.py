"""Compact, exact diffs of JSON documents (a game state dumped with `model_dump(mode="json")`),
so the event log stores what a change did instead of two whole copies of the game.

A delta is a list of operations, each a JSON array whose path is a list of keys and indices:

- `["=", path, value]`   set `path` to `value` (the empty path replaces the whole document);
- `["-", path]`          delete the key at `path` from its object;
- `["~", path, i, j, v]` replace items `i:j` of the list at `path` with the list `v`.

`diff(a, b)` returns operations that `apply(a, ops)` turns into a document equal to `b` in value
AND type (`True` is not `1`, `1.0` is not `1`, `-0.0` is not `0.0`: JSON tells them apart, so
must we). Operations never depend on each other's effects (each list is either diffed index by
index, when its length is unchanged, or spliced once), so their order does not matter. `apply`
copies only the containers along each operation's path and never changes its input: documents
replayed from one snapshot may share their unchanged parts safely.

Why not jsonpatch/jsondiff: their list diffs either rewrite every later index after an
insertion or emit moves whose exact replay has known edge cases; this is 80 lines with a
property test (tests/core/test_delta.py) that `apply(a, diff(a, b)) == b` for arbitrary JSON.
"""

from __future__ import annotations

import math
from typing import Any

Json = Any
Path = list[str | int]
Op = list[Any]


def same(a: Json, b: Json) -> bool:
    """Equal as JSON: the same value and the same types all the way down."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if kind is list:
        return len(a) == len(b) and all(map(same, a, b))
    if kind is float:  # -0.0 == 0.0 in Python, not in JSON text
        return bool(a == b) and math.copysign(1.0, a) == math.copysign(1.0, b)
    return bool(a == b)


def diff(a: Json, b: Json) -> list[Op]:
    """The operations that turn `a` into `b` (empty when they are the same)."""
    ops: list[Op] = []
    _diff(a, b, [], ops)
    return ops


def _diff(a: Json, b: Json, path: Path, ops: list[Op]) -> None:
    if type(a) is dict and type(b) is dict:
        ops.extend(["-", [*path, key]] for key in a if key not in b)
        for key, value in b.items():
            if key in a:
                _diff(a[key], value, [*path, key], ops)
            else:
                ops.append(["=", [*path, key], value])
    elif type(a) is list and type(b) is list:
        if len(a) == len(b):  # e.g. one unit damaged: only what changed inside it
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                _diff(x, y, [*path, i], ops)
            return
        # A different length (a unit added or removed): splice what lies between the equal
        # head and the equal tail, so one insertion costs one item whatever its position.
        lo, end_a, end_b = 0, len(a), len(b)
        while lo < end_a and lo < end_b and same(a[lo], b[lo]):
            lo += 1
        while end_a > lo and end_b > lo and same(a[end_a - 1], b[end_b - 1]):
            end_a, end_b = end_a - 1, end_b - 1
        ops.append(["~", path, lo, end_a, b[lo:end_b]])
    elif not same(a, b):
        ops.append(["=", path, b])


def apply(doc: Json, ops: list[Op]) -> Json:
    """`doc` with the operations applied, as a new document; `doc` itself is left unchanged."""
    for op in ops:
        doc = _apply_one(doc, op)
    return doc


def _copy(node: Json) -> Json:
    if type(node) is dict:
        return dict(node)
    if type(node) is list:
        return list(node)
    raise ValueError(f"a delta path goes through a {type(node).__name__}, not a container")


def _apply_one(doc: Json, op: Op) -> Json:
    kind, path = op[0], op[1]
    if kind == "=" and not path:
        return op[2]
    # The container the operation changes: the parent of `path` for "=" and "-", the list at
    # `path` itself for "~". Every container on the way is copied, never changed in place.
    steps = path if kind == "~" else path[:-1]
    root = _copy(doc)
    node = root
    for key in steps:
        child = _copy(node[key])
        node[key] = child
        node = child
    if kind == "=":
        if type(node) is list and not 0 <= path[-1] < len(node):
            raise ValueError(f"a delta sets item {path[-1]} of a list of {len(node)}")
        node[path[-1]] = op[2]
    elif kind == "-":
        del node[path[-1]]
    elif kind == "~":
        node[op[2] : op[3]] = op[4]
    else:
        raise ValueError(f"unknown delta operation {kind!r}")
    return root
