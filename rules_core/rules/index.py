"""Search over rule entries: exact and alias names first, then rule numbers, then fuzzy names
(typos), then BM25 over stemmed summaries (SQLite FTS5 in memory).

Each stage gives a score in its own band, so an exact name always outranks a typo match,
which always outranks a match found only in the text of a summary.
"""

from __future__ import annotations

import math
import re
import sqlite3
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz, process

from rules_core.rules.models import RULE_NUMBER, RuleEntry
from rules_core.rules.text import name_key, stem, stems, words

How = Literal["name", "number", "prefix", "phrase", "fuzzy", "text"]
# Each pass scores in its own band: name 1000, number 850-900, prefix 720-800, a name inside a
# longer query 600-700 (by the share of the query it covers), fuzzy 400-600, text 100-199.
BAND: dict[How, float] = {
    "name": 1000,
    "number": 900,
    "prefix": 800,
    "phrase": 600,
    "fuzzy": 500,
    "text": 100,
}
MAX_PHRASE = 6  # the longest name, in words, looked for inside a query
Offer = Callable[[str, float, How, tuple[int, int]], None]
FUZZY_CUTOFF = 80.0
PARTIAL_CUTOFF = 88.0
PARTIAL_MIN = 6
MAX_QUERY = 200
_TOKEN = re.compile(r"\w+")  # what FTS5's unicode61 tokenizer keeps, near enough
DICE_OR_NUMBER = re.compile(r"\d*d?\d+\+?")

# Words people wrap a question in ("come funziona il fuoco?", "what does stealth do", "how far
# can I charge"): they say nothing about which rule is meant.
_QUESTION_WORDS = """
    a ad al all alla alle allo agli ai anche che chi ci col come con cos cosa cose d da dal dalla
    dalle dei degli del dell della delle dello di dove e ed fa fanno fare faccio funziona
    funzionano gli ha hai ho i il in io l la le lo ma mi mia mie miei mio ne nei nel nell nella
    nelle non o per perche piu posso puo puoi qual quale quali quando quanto quanta quanti quante
    regola regole se si sono spiegami su sul sull sulla sulle succede tu un una uno vs
    an and are be can could do does doing explain far happen happens how i if is it its me my
    of on or rule rules should the to what whats when where which why with work works you your
"""
STOPWORDS = frozenset(_QUESTION_WORDS.split())


@dataclass(frozen=True)
class Hit:
    entry: RuleEntry
    score: float
    how: How
    span: tuple[int, int] = (0, 0)  # for a "phrase" hit: the query words its name covers


def query_key(query: str) -> str:
    kept = [w for w in words(query) if w not in STOPWORDS]
    return " ".join(kept) if kept else name_key(query)


def fts_match(terms: list[str], prefix: bool) -> str | None:
    """An FTS5 MATCH expression for any of `terms`, each as the phrase of its tokens ("p+s" is
    "p" then "s"); as a prefix only where the last token has 3 characters or more, since a
    one- or two-letter prefix matches a large part of a rulebook."""
    phrases = []
    for term in terms:
        tokens = _TOKEN.findall(term)
        if tokens:
            star = "*" if prefix and len(tokens[-1]) >= 3 else ""
            phrases.append('"' + " ".join(tokens) + '"' + star)
    return " OR ".join(dict.fromkeys(phrases)) or None


def search_terms(query: str) -> list[str]:
    """The distinct stems a full-text search looks for: question words and articles dropped
    ("di" alone, as a prefix, would match half of an Italian rulebook), at most 12."""
    return list(dict.fromkeys(s for s in stems(query_key(query)) if s and s not in STOPWORDS))[:12]


class RuleIndex:
    def __init__(self, entries: Iterable[RuleEntry]) -> None:
        self.entries: dict[str, RuleEntry] = {}
        self._by_name: dict[str, set[str]] = {}
        self._by_stems: dict[str, set[str]] = {}  # "esaust": "esausta", "esauste", "esausti"
        self._primary: set[tuple[str, str]] = set()  # (entry id, name key) of each title name
        self._by_number: dict[str, set[str]] = {}
        # Name lists per system (and for all systems, under None) for prefix and fuzzy passes.
        self._names: dict[str | None, tuple[list[str], list[str]]] = {None: ([], [])}
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE fts USING fts5(id UNINDEXED, system UNINDEXED, names, body, "
            "tokenize='unicode61 remove_diacritics 2')"
        )
        rows = []
        for entry in entries:
            self.entries[entry.id] = entry
            self._primary |= {(entry.id, name_key(entry.names.it[0]))}
            self._primary |= {(entry.id, name_key(entry.names.en[0]))}
            for name in entry.names.all():
                key = name_key(name)
                if key:
                    self._by_name.setdefault(key, set()).add(entry.id)
                    self._by_stems.setdefault(" ".join(stems(key)), set()).add(entry.id)
                    for bucket in (None, entry.system):
                        names, ids = self._names.setdefault(bucket, ([], []))
                        names.append(key)
                        ids.append(entry.id)
            for number in entry.numbers:
                self._by_number.setdefault(number, set()).add(entry.id)
            body = " ".join(
                [
                    entry.summary.it,
                    entry.summary.en,
                    entry.details.it if entry.details else "",
                    entry.details.en if entry.details else "",
                    " ".join(entry.tags),
                ]
            )
            rows.append(
                (
                    entry.id,
                    entry.system,
                    " ".join(stems(" ".join(entry.names.all()))),
                    " ".join(stems(body)),
                )
            )
        self._db.executemany("INSERT INTO fts VALUES (?, ?, ?, ?)", rows)
        # How telling each word is: rare across entries (names and summaries) weighs more, a
        # word no entry uses weighs most ("building" in "garrison a building" is not covered).
        seen: dict[str, int] = {}
        for _, _, name_stems, body_stems in rows:
            for word in set(name_stems.split()) | set(body_stems.split()):
                seen[word] = seen.get(word, 0) + 1
        self._df = seen
        # Which games use each word (names and summaries, as written): "dice" all five, "ARO"
        # only Infinity.
        self._games_of: dict[str, set[str]] = {}
        for entry in self.entries.values():
            text = " ".join(
                [
                    *entry.names.all(),
                    entry.summary.it,
                    entry.summary.en,
                    entry.details.it if entry.details else "",
                    entry.details.en if entry.details else "",
                ]
            )
            for word in set(words(text)):
                self._games_of.setdefault(word, set()).add(entry.system)
        # The same names sorted, so the names starting with a prefix are one contiguous run.
        self._sorted: dict[str | None, list[tuple[str, str]]] = {
            bucket: sorted(zip(names, ids, strict=True))
            for bucket, (names, ids) in self._names.items()
        }

    def __len__(self) -> int:
        return len(self.entries)

    def names(self, system: str | None = None) -> list[str]:
        """Every Italian and English name and alias, for autocomplete."""
        out = []
        for entry in self.entries.values():
            if system is None or entry.system == system:
                out += [*entry.names.en, *entry.names.it]
        return sorted(set(out), key=str.casefold)

    def search(self, query: str, system: str | None = None, limit: int = 4) -> list[Hit]:
        query = query[:MAX_QUERY]
        key = query_key(query)
        if not key:
            return []
        best: dict[str, Hit] = {}

        def offer(entry_id: str, score: float, how: How, span: tuple[int, int] = (0, 0)) -> None:
            entry = self.entries[entry_id]
            if system is not None and entry.system != system:
                return
            if entry_id not in best or best[entry_id].score < score:
                best[entry_id] = Hit(entry, score, how, span)

        # The whole phrase first ("in gioco" is a name), then without question words. An
        # entry's title name ranks above another entry's alias that reads the same.
        for candidate in dict.fromkeys((name_key(query), key)):
            for entry_id in self._by_name.get(candidate, ()):
                offer(entry_id, BAND["name"] + 2 * ((entry_id, candidate) in self._primary), "name")
        for number in RULE_NUMBER.findall(key) or ([key] if key.isdecimal() else []):
            for known, ids in self._by_number.items():
                if known == number:
                    for entry_id in ids:
                        offer(entry_id, BAND["number"], "number")
                elif known.startswith(number + ".") or (
                    known.startswith(number) and known[len(number) :].isalpha()
                ):
                    for entry_id in ids:
                        offer(entry_id, BAND["number"] - 50 - len(known), "number")

        def settled(ceiling: float) -> bool:
            """The top `limit` already outrank anything a later pass can offer (the bands
            do not overlap), so that pass cannot change the answer."""
            if len(best) < limit:
                return False
            return sorted((h.score for h in best.values()), reverse=True)[limit - 1] > ceiling

        self._phrases(query, offer)
        names, name_ids = self._names.get(system, ([], []))
        if len(key) >= 3:
            ordered = self._sorted.get(system, [])
            at = bisect_right(ordered, (key, "\uffff"))  # past the exact name itself
            while at < len(ordered) and ordered[at][0].startswith(key):
                name, entry_id = ordered[at]
                offer(entry_id, BAND["prefix"] - (len(name) - len(key)), "prefix")
                at += 1
            if not settled(BAND["fuzzy"] + 100):
                for _name, score, pos in process.extract(
                    key, names, scorer=fuzz.ratio, limit=12, score_cutoff=FUZZY_CUTOFF
                ):
                    offer(name_ids[pos], BAND["fuzzy"] + score, "fuzzy")
        if len(key) >= PARTIAL_MIN and not settled(BAND["fuzzy"]):
            # A typo inside a longer name ("battleshok" in "battleshock test"): ranked below
            # whole-name matches, and only for queries long enough not to match by chance.
            # Only names at least as long as the query: a short one ("N", "B") fits inside any
            # query and says nothing.
            longer = [i for i, name in enumerate(names) if len(name) >= len(key)]
            for _name, score, pos in process.extract(
                key,
                [names[i] for i in longer],
                scorer=fuzz.partial_ratio,
                limit=12,
                score_cutoff=PARTIAL_CUTOFF,
            ):
                offer(name_ids[longer[pos]], BAND["fuzzy"] + score - 100, "fuzzy")
        self._text_search(query, system, offer, settled)
        ranked = sorted(best.values(), key=lambda h: (-h.score, h.entry.id))
        return ranked[:limit]

    def spread(self, query: str) -> int:
        """In how many games the query's most telling word is used: a question whose every
        word all games use ("dice", "how do I win") is about a game, not a rule of one."""
        counts = []
        for word in words(query):
            if word in STOPWORDS or DICE_OR_NUMBER.fullmatch(word):
                continue
            forms = (word, word + "s", word.removesuffix("s"))
            counts.append(len(set().union(*(self._games_of.get(f, set()) for f in forms))))
        return min(counts, default=0)

    def weight(self, word: str) -> float:
        """A query word's weight in coverage: rare words count more than common ones; numbers
        ("5+", "2d6", "10") are a rule's parameters, not its subject."""
        if word in STOPWORDS:
            return 0.0
        if DICE_OR_NUMBER.fullmatch(word):
            return 0.3
        return math.log((len(self.entries) + 1) / (self._df.get(stem(word), 0) + 1)) + 0.5

    def _phrases(self, query: str, offer: Offer) -> None:
        """Names inside a longer query ("what happens when a warjack is knocked down"), word
        for word or stem for stem ("carte esauste" holds "esausta"), scored by the share of
        the query's weight (see `weight`) they cover."""
        folded = words(query)[:40]
        weights = [self.weight(w) for w in folded]
        total = sum(weights) or 1.0
        stemmed = [stem(w) for w in folded]
        for size in range(min(MAX_PHRASE, len(folded)), 0, -1):
            for at in range(len(folded) - size + 1):
                gram = folded[at : at + size]
                covered = sum(weights[at : at + size])
                if not covered:
                    continue
                coverage = min(1.0, covered / total)
                span = (at, at + size)
                for entry_id in self._by_name.get(" ".join(gram), ()):
                    offer(entry_id, BAND["phrase"] + 100 * coverage, "phrase", span)
                for entry_id in self._by_stems.get(" ".join(stemmed[at : at + size]), ()):
                    offer(entry_id, BAND["phrase"] + 95 * coverage, "phrase", span)

    def _text_search(
        self,
        query: str,
        system: str | None,
        offer: Callable[[str, float, How], None],
        settled: Callable[[float], bool],
    ) -> None:
        terms = search_terms(query)
        if not terms:
            return
        # Exact stems first (the index holds stems: "ferisce" and "ferire" both give "fer"),
        # then the same stems as prefixes for partial words, ranked below them: an exact hit
        # scores at least text+50, a prefix hit at most text+49.
        exact, prefix = fts_match(terms, prefix=False), fts_match(terms, prefix=True)
        for expression, bonus in ((exact, 50.0), (prefix, 0.0)):
            if expression is None or settled(BAND["text"] + bonus + 49):
                return
            rows = self._db.execute(
                "SELECT id, bm25(fts, 0.0, 0.0, 8.0, 1.0) FROM fts WHERE fts MATCH ? "
                "AND (? IS NULL OR system = ?) ORDER BY bm25(fts, 0.0, 0.0, 8.0, 1.0) LIMIT 20",
                (expression, system, system),
            ).fetchall()
            for entry_id, rank in rows:
                # bm25 is negative, better when lower; squash into the text band.
                offer(entry_id, BAND["text"] + bonus + min(49.0, -float(rank) * 5), "text")
