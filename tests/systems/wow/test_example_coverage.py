"""Every worked example id of the WoW digest's section 6 is either a golden test named with
its id (tests/systems/wow) or listed in uncomputable_examples.py with its reason, never both.
The digests are read from $WARGAME_DIGESTS (CI: ../shared/rules-digests); unset, this skips."""

from __future__ import annotations

import re
from pathlib import Path

from tests.digests import golden_names_in, read_digest
from tests.systems.wow.uncomputable_examples import UNCOMPUTABLE

DIGEST = "wow-minis.md"
HERE = Path(__file__).resolve().parent
ROW = re.compile(r"^\|\s*([ED]\d+[a-z]?)\s*\|", re.MULTILINE)


def digest_ids() -> list[str]:
    text = read_digest(DIGEST)
    start, end = text.index("## 6."), text.index("## 7.")
    return ROW.findall(text[start:end])


def named_with(example: str, names: list[str]) -> list[str]:
    """The test names with the id as one of their `_`-separated words (D1 is not D14)."""
    return [n for n in names if example.lower() in n.lower().split("_")]


def test_every_section_6_example_is_golden_or_listed_uncomputable() -> None:
    ids = digest_ids()
    assert len(ids) == len(set(ids)) and len(ids) >= 50  # the table was read whole
    names = golden_names_in(HERE)
    neither = [i for i in ids if not named_with(i, names) and i not in UNCOMPUTABLE]
    both = [i for i in ids if named_with(i, names) and i in UNCOMPUTABLE]
    assert neither == [] and both == []
    assert set(UNCOMPUTABLE) <= set(ids)  # no stale entries
    assert all(reason.strip() for reason in UNCOMPUTABLE.values())


def test_ids_are_whole_words_of_test_names() -> None:
    assert named_with("D1", ["test_d14_x", "test_d1c_y"]) == []
    assert named_with("D14b", ["test_d14_d14b_d14c_z"]) == ["test_d14_d14b_d14c_z"]
