"""Warjack and warcaster damage grids (digest §3.9; L3644-3668, L3702-3766).

A grid is six columns, each read top to bottom: `.` a hull box, a letter a system box
(C cortex, L/S left arm, R/D right arm, H/T head, M movement, A arc node, G field generator;
the Italian book prints S/D/T for the English L/R/H, L3702-3711), `_` no box at that height.
Damage starts in a column (a d6 unless a rule names one), fills the topmost unmarked box
downward, continues in the next column to the right and wraps from 6 to 1 (L3648-3661).
A system is crippled when all its boxes are marked (L3712-3719); the model is disabled when
every box is (L3759-3766), and it never takes more damage than it has boxes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel, Field

from rules_core.errors import UserError

COLUMNS = 6
MAX_ROWS = 12
_COLUMN = re.compile(r"^[._A-Za-z]{1,12}$")
# Italian letters -> the English ones used as system keys (L3702-3711; digest §8.5).
SYSTEM_KEYS = {"S": "L", "D": "R", "T": "H"}


class Grid(BaseModel):
    columns: list[str]  # six strings of cells: ".", "_" or an upper-case system letter
    marks: list[tuple[int, int]] = Field(default_factory=list)  # (column, row), marking order

    @property
    def boxes(self) -> int:
        return sum(1 for col in self.columns for cell in col if cell != "_")

    @property
    def marked(self) -> set[tuple[int, int]]:
        return set(self.marks)

    def systems(self) -> dict[str, list[tuple[int, int]]]:
        out: dict[str, list[tuple[int, int]]] = {}
        for c, col in enumerate(self.columns):
            for r, cell in enumerate(col):
                if cell not in "._":
                    out.setdefault(SYSTEM_KEYS.get(cell, cell), []).append((c, r))
        return out

    def crippled(self) -> list[str]:
        marked = self.marked
        return sorted(k for k, cells in self.systems().items() if all(x in marked for x in cells))

    @property
    def destroyed(self) -> bool:
        return len(self.marks) >= self.boxes


def parse_grid(text: str) -> Grid:
    cols = [c.strip() for c in text.strip().split("|")]
    if len(cols) != COLUMNS or not all(_COLUMN.match(c) for c in cols):
        raise UserError("wm.bad_grid", rows=MAX_ROWS)
    grid = Grid(columns=[c.upper() for c in cols])
    if grid.boxes == 0:
        raise UserError("wm.bad_grid", rows=MAX_ROWS)
    return grid


def apply_damage(grid: Grid, amount: int, column: int) -> tuple[Grid, list[tuple[int, int]]]:
    """Mark `amount` boxes starting in `column` (1-6); returns the new grid and the boxes
    marked, in order. Damage beyond the last box is lost (L3765-3766)."""
    if not 1 <= column <= COLUMNS:
        raise UserError("wm.bad_column")
    marks = list(grid.marks)
    taken = set(marks)
    new: list[tuple[int, int]] = []
    col = column - 1
    tried = 0
    while len(new) < amount and tried < COLUMNS:
        free = [
            r for r, cell in enumerate(grid.columns[col]) if cell != "_" and (col, r) not in taken
        ]
        if not free:
            col = (col + 1) % COLUMNS  # next column to the right, 6 wraps to 1 (L3655-3659)
            tried += 1
            continue
        tried = 0
        box = (col, free[0])  # the topmost unmarked box of this column
        taken.add(box)
        marks.append(box)
        new.append(box)
    return Grid(columns=grid.columns, marks=marks), new


def heal(
    grid: Grid, amount: int, column: int | None = None, system: str | None = None
) -> tuple[Grid, int]:
    """Unmark boxes: in one column from the bottom up, or the boxes of one system (latest
    marked first), or else the latest marked first. Healing may come from anywhere on the
    grid (L3859-3866); 1 box healed on a crippled system restores it (L3757-3758)."""
    marks = list(grid.marks)
    if system is not None:
        key = SYSTEM_KEYS.get(system.upper(), system.upper())
        cells = set(grid.systems().get(key, []))
        if not cells:
            raise UserError("wm.no_such_system", system=system[:3])
    healed = 0
    while healed < amount and marks:
        if column is not None:
            in_col = [m for m in marks if m[0] == column - 1]
            if not in_col:
                break
            marks.remove(max(in_col, key=lambda m: m[1]))
        elif system is not None:
            in_system = [m for m in marks if m in cells]
            if not in_system:
                break
            marks.remove(in_system[-1])
        else:
            marks.pop()
        healed += 1
    return Grid(columns=grid.columns, marks=marks), healed


def draw(grid: Grid, letter: Callable[[str], str] = str) -> str:
    """Monospace drawing: column numbers, then rows; `x` marked, `.` a free hull box, a
    letter a free system box (`letter(key)`: the reader's letter for the system key, S for L
    on an Italian screen), blank no box."""
    marked = grid.marked
    rows = max(len(c) for c in grid.columns)
    lines = [" ".join(str(i + 1) for i in range(COLUMNS))]
    for r in range(rows):
        cells = []
        for c, col in enumerate(grid.columns):
            cell = col[r] if r < len(col) else "_"
            if cell == "_":
                cells.append(" ")
            elif (c, r) in marked:
                cells.append("x")
            else:
                cells.append(letter(SYSTEM_KEYS.get(cell, cell)))
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines)
