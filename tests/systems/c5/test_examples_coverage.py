"""Every worked example of the Confrontation digest's section 6 is either in the name of a
golden test here (test_G12_..., test_t05_to_t10_...) or listed with its reason in
uncomputable_examples.py, never both. The digest is read from $WARGAME_DIGESTS (CI sets it
to ../shared/rules-digests); unset, this test skips."""

from __future__ import annotations

import re
from pathlib import Path

from tests.digests import golden_names_in, read_digest
from tests.systems.c5.uncomputable_examples import UNCOMPUTABLE

DIGEST = "confrontation.md"
HERE = Path(__file__).parent
ID = re.compile(r"^\|\s*([TCWRHG]\d+)\s*\|", re.MULTILINE)
FORM = r"[TCWRHG]\d{2}"


def digest_ids(text: str) -> list[str]:
    """The ids of the section 6 tables (rows starting `| T01 |`, `| G35 |`)."""
    start = text.index("## 6.")
    end = text.index("\n## 7.", start)
    return ID.findall(text[start:end])


def named_ids(name: str) -> set[str]:
    """The ids in a test's name: `_`-separated parts like `t01` or `G12`, and ranges written
    `t05_to_t10` (the digest writes ids with two digits)."""
    parts = name.upper().split("_")
    found = {p for p in parts if re.fullmatch(FORM, p)}
    for i in range(1, len(parts) - 1):
        low, high = parts[i - 1], parts[i + 1]
        if parts[i] == "TO" and re.fullmatch(FORM, low) and high[:1] == low[:1]:
            found |= {f"{low[0]}{n:02d}" for n in range(int(low[1:]), int(high[1:]) + 1)}
    return found


def _tested_ids() -> set[str]:
    """Ids named by the test functions of this folder."""
    return {i for name in golden_names_in(HERE) for i in named_ids(name)}


def test_ids_are_read_from_test_names() -> None:
    assert named_ids("test_t05_to_t10") == {f"T{n:02d}" for n in range(5, 11)}
    assert named_ids("test_G12_deviation") == {"G12"}
    assert named_ids("test_h07_h08_posseduto") == {"H07", "H08"}
    assert named_ids("test_printed_above_fifteen") == set()


def test_every_digest_example_is_tested_or_explained() -> None:
    text = read_digest(DIGEST)
    ids = digest_ids(text)
    assert len(ids) == len(set(ids)) == 109
    tested = _tested_ids()
    missing = [i for i in ids if i not in tested and i not in UNCOMPUTABLE]
    both = sorted(set(UNCOMPUTABLE) & tested)
    unknown = sorted((set(UNCOMPUTABLE) | tested) - set(ids))
    assert not missing, f"no golden test and no reason for {missing}"
    assert not both, f"both tested and listed as uncomputable: {both}"
    assert not unknown, f"not ids of the digest's section 6: {unknown}"
    assert all(reason.strip() for reason in UNCOMPUTABLE.values())
