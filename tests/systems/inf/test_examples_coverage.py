"""Every worked example id of section 6 of the Infinity digest is either in the name of a golden
test here (`test_G12_…`: the id without its hyphen, a whole word of the name) or listed, with a
reason, in uncomputable_examples.UNCOMPUTABLE, never both. The digest is read from the folder
$WARGAME_DIGESTS names (../shared/rules-digests beside the clone); unset, the test skips."""

from __future__ import annotations

import re
from pathlib import Path

from tests.digests import golden_names_in, read_digest
from tests.systems.inf.uncomputable_examples import UNCOMPUTABLE

HERE = Path(__file__).parent


def digest_ids(text: str) -> list[str]:
    """The ids of section 6: bold bullets (**G-01**, **I-2**) and the C-table's first cells."""
    section = text.split("## 6.", 1)[1].split("\n## 7.", 1)[0]
    bullets = re.findall(r"^\* \*\*([A-Z]-\d+)\*\*", section, flags=re.M)
    rows = re.findall(r"^\| (C\d+) \|", section, flags=re.M)
    return bullets + rows


def named_by(example: str, names: set[str]) -> list[str]:
    word = example.lower().replace("-", "")
    return sorted(n for n in names if word in n.lower().split("_"))


def test_every_example_is_a_golden_test_or_listed_uncomputable() -> None:
    ids = digest_ids(read_digest("infinity.md"))
    assert len(ids) == len(set(ids)) and len(ids) >= 40, ids
    names = set(golden_names_in(HERE))
    tested = {i: named_by(i, names) for i in ids}
    missing = [i for i in ids if not tested[i] and i not in UNCOMPUTABLE]
    both = [i for i in ids if tested[i] and i in UNCOMPUTABLE]
    assert missing == [] and both == [], (missing, both)
    assert set(UNCOMPUTABLE) <= set(ids), set(UNCOMPUTABLE) - set(ids)
    assert all(len(reason) > 30 for reason in UNCOMPUTABLE.values())


def test_the_parser_finds_both_kinds_of_id() -> None:
    sample = "## 6. Worked\n* **G-01** (L1): x\n* **I-2** y\n| C1 | a | b |\n## 7. Next\n* **G-99**"
    assert digest_ids(sample) == ["G-01", "I-2", "C1"]
    assert named_by("G-01", {"test_g01_x", "test_g010"}) == ["test_g01_x"]
    assert named_by("C1", {"test_c1_to_c3", "test_c11"}) == ["test_c1_to_c3"]
