"""What /rule answers: the game to search, the best entries and how sure the answer is.

A search always ranks something first; this module decides whether that first entry is an
answer or only a guess. An exact name or rule number is an answer; a typo close to one name, a
name covering most of a longer question, a prefix of one name only are answers too. Everything
else (a word found only in summaries, two names read the same, a near tie) is "not sure": the
reply offers the best few entries instead of presenting one of them as the rule. With no game
chosen and the same kind of match in several games, the answer is one line per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_core.rules.games import split_game
from rules_core.rules.index import BAND, Hit, RuleIndex, query_key

THRESHOLD = 0.75  # tuned on tests/rules/evaluation/tuning.toml
CANDIDATES = 5  # entries offered when not sure
RIVAL = 0.3  # a second rule's name covering this share of the query makes the first a guess
GENERIC = 3  # a query whose every word is used by this many games names no game's rule
DEPTH = 40  # hits ranked before choosing: enough for each game's best to be among them


@dataclass(frozen=True)
class Answer:
    query: str  # what was looked up: the query without a game's name
    system: str | None  # the game searched: asked, named in the query or the chat's; None = all
    hits: list[Hit]  # best first, at most CANDIDATES
    confidence: float  # 0-1: how sure the first hit is the rule meant
    games: list[Hit] = field(default_factory=list)  # several games answer alike: one per game

    @property
    def best(self) -> Hit | None:
        return self.hits[0] if self.hits else None

    @property
    def confident(self) -> bool:
        return bool(self.hits) and not self.games and self.confidence >= THRESHOLD


def confidence(hits: list[Hit], query_key: str) -> float:
    """How sure the first hit is the rule meant, from how it matched and how far it stands
    above the next one (each pass scores in its own band, see index.BAND)."""
    if not hits:
        return 0.0
    top = hits[0]
    rival = hits[1] if len(hits) > 1 else None
    gap = top.score - rival.score if rival is not None else 1000.0
    if top.how == "name":
        # Two entries answering to the same name are a coin toss, even when it is one's title
        # and the other's alias (someone gave the alias to that entry for a reason).
        return 0.97 if rival is None or rival.how != "name" else 0.6
    if top.how == "number":
        exact = top.score >= BAND["number"]
        return 0.95 if exact and (rival is None or gap > 0) else 0.55
    if top.how == "prefix":
        unique = rival is None or rival.how != "prefix"
        return 0.85 if unique and len(query_key) >= 4 else 0.5
    if top.how == "phrase":
        coverage = _coverage(top)
        # Another rule's name elsewhere in the question ("dispel endless spell"): which one
        # is meant is a guess. A name inside the best one's words ("spell") is not a rival,
        # nor a common word beside a telling one ("fleeing unit").
        others = [
            h
            for h in hits[1:]
            if h.how == "phrase" and not _inside(h.span, top.span) and _coverage(h) >= RIVAL
        ]
        if others:
            return min(0.6, 0.4 + 0.55 * coverage)
        return 0.4 + 0.55 * coverage
    if top.how == "fuzzy":
        ratio = top.score - BAND["fuzzy"]
        if ratio < 85 or (rival is not None and gap < 4):
            return 0.45
        return min(0.9, 0.55 + (ratio - 85) / 25)
    return 0.3  # found only in the text of summaries


def _coverage(hit: Hit) -> float:
    """The share of the query a "phrase" hit's name covers (see RuleIndex._phrases)."""
    return min(1.0, (hit.score - BAND["phrase"]) / 100)


def _inside(inner: tuple[int, int], outer: tuple[int, int]) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


def _tier(hit: Hit) -> str:
    return hit.how


def lookup(
    index: RuleIndex,
    query: str,
    *,
    system: str | None = None,
    chat_system: str | None = None,
) -> Answer:
    """Answer `query`: in `system` when asked, else in a game the query names, else in the
    chat's game (and in every game when that one has nothing), else in every game."""
    named, rest = split_game(query)
    target = system or named
    key = query_key(rest)
    if target is None and chat_system is not None:
        hits = index.search(rest, system=chat_system, limit=DEPTH)
        if hits:
            answer = Answer(rest, chat_system, hits[:CANDIDATES], confidence(hits, key))
            if answer.confident:
                return answer
            # Not sure in the chat's game: an exact answer in another game is offered too,
            # never given as the answer (a WARMACHINE player asking "camouflage" may mean
            # Stealth, not Infinity's Camouflage).
            elsewhere = _everywhere(index, rest, key)
            extra = [h for h in elsewhere.hits[:1] if elsewhere.confident]
            mine = [h for h in hits if h.entry.id not in {e.entry.id for e in extra}]
            return Answer(
                rest,
                chat_system,
                (mine[: CANDIDATES - len(extra)] + extra),
                min(answer.confidence, THRESHOLD - 0.01),
            )
        # Nothing in the chat's game: what other games have is offered, not given as the rule.
        elsewhere = _everywhere(index, rest, key)
        return Answer(
            rest, None, elsewhere.hits, min(elsewhere.confidence, THRESHOLD - 0.01), elsewhere.games
        )
    if target is None:
        return _everywhere(index, rest, key)
    hits = index.search(rest, system=target, limit=DEPTH)
    return Answer(rest, target, hits[:CANDIDATES], confidence(hits, key))


def _everywhere(index: RuleIndex, query: str, key: str) -> Answer:
    hits = index.search(query, system=None, limit=DEPTH)
    if not hits:
        return Answer(query, None, [], 0.0)
    top = hits[0]
    per_game: dict[str, Hit] = {}
    for hit in hits:
        per_game.setdefault(hit.entry.system, hit)
    # Games whose best entry matched the same way as the overall best: an exact name in two
    # games ("line of sight") is a question about the game, not about the rule.
    close = [
        h
        for h in per_game.values()
        if _tier(h) == _tier(top) and (top.how != "text" and top.score - h.score < 30)
    ]
    if len(close) >= 2:
        return Answer(query, None, hits[:CANDIDATES], 0.5, games=close)
    in_game = [h for h in hits if h.entry.system == top.entry.system]
    sure = confidence(in_game, key)
    # Words most games use ("dice", "win"), even when one game names an entry after them, ask
    # about a game rather than about a rule: with no game chosen that is a guess.
    if index.spread(query) >= GENERIC:
        sure = min(sure, THRESHOLD - 0.01)
    return Answer(query, None, hits[:CANDIDATES], sure)
