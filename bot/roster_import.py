"""Read a BattleScribe / New Recruit roster file: `.ros` (XML) or `.rosz` (a zip holding one
`.ros`), into rules_core.game.battlescribe's models. Hostile files are refused, never expanded:

- the file: at most MAX_FILE bytes (known before anything is unpacked);
- a zip: exactly one member, declaring at most MAX_XML bytes and a compression ratio of at
  most MAX_RATIO, and never read past MAX_XML whatever it declares (a zip bomb lies);
- the XML: defusedxml with DTDs forbidden (no entity can expand: billion laughs, external
  entities), its root must be BattleScribe's `roster`, at most MAX_SELECTIONS selections.

The content decides what the file is (a zip starts with `PK\\x03\\x04`); a `.rosz` that isn't a
zip is refused as such."""

from __future__ import annotations

import asyncio
import io
import zipfile
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from rules_core.errors import UserError
from rules_core.game.battlescribe import BsCategory, BsProfile, BsRoster, BsSelection

MAX_FILE = 4 * 1024 * 1024
MAX_XML = 16 * 1024 * 1024
MAX_RATIO = 100
MAX_SELECTIONS = 3000
MAX_DEPTH = 30  # selections inside selections (real rosters nest a handful)
ZIP_MAGIC = b"PK\x03\x04"


def _local(tag: object) -> str:
    """An element's name without its namespace (`{…rosterSchema}roster` -> `roster`)."""
    return str(tag).rsplit("}", 1)[-1]


def _children(element: Element, wrapper: str, item: str) -> list[Element]:
    return [
        child
        for box in element
        if _local(box.tag) == wrapper
        for child in box
        if _local(child.tag) == item
    ]


def _number(text: str | None, default: int = 1) -> int:
    try:
        return max(0, min(10_000, int(float(text or default))))
    except ValueError:
        return default


def _profile(element: Element) -> BsProfile:
    return BsProfile(
        name=element.get("name", ""),
        type_name=element.get("typeName", ""),
        characteristics=[
            (c.get("name", ""), "".join(c.itertext()))
            for c in _children(element, "characteristics", "characteristic")
        ],
    )


def _costs(element: Element) -> dict[str, float]:
    out: dict[str, float] = {}
    for cost in _children(element, "costs", "cost"):
        try:
            out[cost.get("name", "")] = float(cost.get("value", "0"))
        except ValueError:
            continue
    return out


def _selection(element: Element, depth: int = 0) -> BsSelection:
    if depth > MAX_DEPTH:
        raise UserError("army.too_deep", limit=MAX_DEPTH)
    return BsSelection(
        name=element.get("customName") or element.get("name", ""),
        type=element.get("type", ""),
        number=_number(element.get("number")),
        profiles=[_profile(p) for p in _children(element, "profiles", "profile")],
        costs=_costs(element),
        categories=[
            BsCategory(name=c.get("name", ""), primary=c.get("primary") == "true")
            for c in _children(element, "categories", "category")
        ],
        selections=[
            _selection(s, depth + 1) for s in _children(element, "selections", "selection")
        ],
    )


def _force_selections(force: Element, depth: int = 0) -> list[BsSelection]:
    if depth > MAX_DEPTH:
        raise UserError("army.too_deep", limit=MAX_DEPTH)
    out = [_selection(s) for s in _children(force, "selections", "selection")]
    for inner in _children(force, "forces", "force"):
        out += _force_selections(inner, depth + 1)
    return out


def parse_xml(xml: bytes) -> BsRoster:
    try:
        root = fromstring(xml, forbid_dtd=True)
    except (ParseError, DefusedXmlException, ValueError):
        raise UserError("army.bad_xml") from None
    if _local(root.tag) != "roster":
        raise UserError("army.not_roster", root=_local(root.tag)[:30])
    if sum(1 for e in root.iter() if _local(e.tag) == "selection") > MAX_SELECTIONS:
        raise UserError("army.too_many_selections", limit=MAX_SELECTIONS)
    selections: list[BsSelection] = []
    for force in _children(root, "forces", "force"):
        selections += _force_selections(force)
    return BsRoster(
        name=root.get("name", ""),
        game_system=root.get("gameSystemName", ""),
        selections=selections,
    )


def unzip(data: bytes) -> bytes:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [i for i in archive.infolist() if not i.is_dir()]
        if len(members) != 1:
            raise UserError("army.zip_members", n=len(members))
        info = members[0]
        ratio = info.file_size / max(1, info.compress_size)
        if info.file_size > MAX_XML or ratio > MAX_RATIO:
            raise UserError("army.zip_bomb", limit_mb=MAX_XML // (1024 * 1024))
        with archive.open(info) as fh:
            content = fh.read(MAX_XML + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError, OSError):
        raise UserError("army.not_zip") from None
    except EOFError:
        raise UserError("army.not_zip") from None
    if len(content) > MAX_XML:
        raise UserError("army.zip_bomb", limit_mb=MAX_XML // (1024 * 1024))
    return content


def read_roster(data: bytes, filename: str) -> BsRoster:
    """A roster file's content as a BsRoster (raises UserError for anything else)."""
    if len(data) > MAX_FILE:
        raise UserError("army.file_too_big", limit_mb=MAX_FILE // (1024 * 1024))
    if not data.strip():
        raise UserError("army.empty_file")
    if data[:4] == ZIP_MAGIC:
        return parse_xml(unzip(data))
    if filename.lower().endswith(".rosz"):
        raise UserError("army.not_zip")
    return parse_xml(data)


async def read_roster_async(data: bytes, filename: str) -> BsRoster:
    """`read_roster` off the event loop (a large roster takes a moment to parse)."""
    return await asyncio.to_thread(read_roster, data, filename)


def read_local(path: Path) -> bytes:
    """A roster file on this computer (console `file=` and `import-roster`), refused from its
    size before it is read."""
    try:
        if not path.is_file():
            raise UserError("army.file_missing", path=str(path)[:80])
        if path.stat().st_size > MAX_FILE:
            raise UserError("army.file_too_big", limit_mb=MAX_FILE // (1024 * 1024))
        with path.open("rb") as fh:
            data = fh.read(MAX_FILE + 1)
    except OSError:
        raise UserError("army.file_unreadable", path=str(path)[:80]) from None
    if len(data) > MAX_FILE:
        raise UserError("army.file_too_big", limit_mb=MAX_FILE // (1024 * 1024))
    return data
