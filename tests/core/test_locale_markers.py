"""No developer notes on a player's screen: every catalogue string, in both languages, is free of
the markers we use in code comments (rule-source tags, transcript line numbers, digest sections)."""

from __future__ import annotations

import re

import pytest

from bot import i18n

# [AMBIG]/[BG]/[SEED] tags, transcript lines (L1452, L737-777), byte offsets (@7110), digest
# sections (§8.2-14), and TODO-like notes.
MARKERS = re.compile(r"\[(?:AMBIG|BG|SEED)\]|\bL\d{3,}\b|@\d{4,}|§\s*\d|\b(?:TODO|FIXME|XXX)\b")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_catalogue_string_carries_a_developer_marker(lang: i18n.Lang) -> None:
    found = {key: text for key, text in i18n.catalogue(lang).items() if MARKERS.search(text)}
    assert found == {}
