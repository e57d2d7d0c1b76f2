"""Files a reply carries (a campaign export, ...) written to a folder on this computer, for the
console and `ask`: never overwriting, never outside the folder."""

from __future__ import annotations

from pathlib import Path

from bot.protocol import Attachment


def free_path(folder: Path, filename: str) -> Path:
    """`folder/filename`, or `name-2.ext`, `name-3.ext`... when taken: never overwrite."""
    name = Path(filename).name or "file"  # a name, never a path out of the folder
    candidate = folder / name
    stem, suffix = Path(name).stem, Path(name).suffix
    n = 2
    while candidate.exists():
        candidate = folder / f"{stem}-{n}{suffix}"
        n += 1
    return candidate


def write(folder: Path, item: Attachment) -> Path:
    """Write one attachment into `folder` (created if missing); its path. Raises OSError."""
    folder.mkdir(parents=True, exist_ok=True)
    path = free_path(folder, item.filename)
    with path.open("xb") as fh:  # exclusive: a file that appeared meanwhile is never replaced
        fh.write(item.content)
    return path
