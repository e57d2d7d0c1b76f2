"""Every worked example id of the WARMACHINE digest's section 6 is either a golden test named
with it (test_G12_..., test_g14_g41_...) or listed with its reason in uncomputable_examples.py,
never both and never neither. The digest is read from $WARGAME_DIGESTS (CI sets it to
../shared/rules-digests); unset, the test skips."""

from __future__ import annotations

import re
from pathlib import Path

from tests.digests import golden_names_in, read_digest
from tests.systems.wm.uncomputable_examples import UNCOMPUTABLE

HERE = Path(__file__).parent
ID = re.compile(r"(?<![A-Za-z0-9])[Gg](\d+)(?!\d)")


def digest_ids(text: str) -> list[str]:
    """The ids of the section-6 table: rows `| G12 | ...` between its heading and the next."""
    section = text.split("## 6.", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\|\s*(G\d+)\s*\|", section, flags=re.MULTILINE)


def ids_in_test_names() -> set[str]:
    """Ids named in the test functions of this folder."""
    return {f"G{n}" for name in golden_names_in(HERE) for n in ID.findall(name)}


def test_id_pattern_does_not_confuse_g1_with_g14() -> None:
    assert {f"G{n}" for n in ID.findall("test_g14_g41_checks")} == {"G14", "G41"}
    assert ID.findall("test_G1_x") == ["1"]


def test_every_worked_example_is_tested_or_explained() -> None:
    ids = digest_ids(read_digest("warmachine.md"))
    assert len(ids) >= 49 and len(set(ids)) == len(ids)
    tested = ids_in_test_names()
    both = sorted(set(UNCOMPUTABLE) & tested, key=lambda i: int(i[1:]))
    neither = [i for i in ids if i not in tested and i not in UNCOMPUTABLE]
    unknown = sorted((set(UNCOMPUTABLE) | tested) - set(ids))
    assert (both, neither, unknown) == ([], [], [])
    assert all(reason.strip() for reason in UNCOMPUTABLE.values())
