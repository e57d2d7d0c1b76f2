"""A game named inside a rule query: `/rule wm line of sight`, `linea di vista in infinity`,
`Line of Sight · WARMACHINE Mk II` (an autocomplete suggestion). The name selects the game and
is not part of what is looked up."""

from __future__ import annotations

import re

from rules_core.rules.text import fold

# What players call each game, in either language; matched as whole words, longest first.
GAME_NAMES: dict[str, tuple[str, ...]] = {
    "wm": (
        "wm",
        "wmh",
        "warmachine",
        "war machine",
        "warmachine mk ii",
        "warmachine mk2",
        "warmachine mkii",
        "hordes",
    ),
    "aos": (
        "aos",
        "sigmar",
        "age of sigmar",
        "age of sigmar 3",
        "warhammer age of sigmar",
        "era di sigmar",
        "warhammer aos",
    ),
    "wow": (
        "wow",
        "warcraft",
        "world of warcraft",
        "wow minis",
        "wow miniatures",
        "wow miniature",
        "world of warcraft miniatures",
        "world of warcraft miniature",
    ),
    "inf": ("inf", "infinity", "infinity n2", "infinity n1"),
    "c5": (
        "c5",
        "conf",
        "confrontation",
        "confrontation 5",
        "confrontation 3",
        "confrontation c5",
    ),
}
# Words that only join the game's name to the query ("... in infinity", "... per wm").
_JOINERS = frozenset(["in", "a", "di", "per", "su", "nel", "for", "on", "at", "of", "da"])
_TOKEN = re.compile(r"\S+")
_EDGE = re.compile(r"^[^\w+]+|[^\w+]+$")  # punctuation around a word: "(wm)", "·", "—"


def _key(token: str) -> str:
    return _EDGE.sub("", fold(token))


_PHRASES = sorted(
    ((tuple(name.split()), system) for system, names in GAME_NAMES.items() for name in names),
    key=lambda item: -len(item[0]),
)


def split_game(query: str) -> tuple[str | None, str]:
    """(the game named in `query` or None, the query without it). A query that is only a
    game's name stays as it is: `/rule wow` looks up the word."""
    tokens = [(m.start(), m.end(), _key(m.group())) for m in _TOKEN.finditer(query)]
    keys = [k for _, _, k in tokens]
    for phrase, system in _PHRASES:
        size = len(phrase)
        for at in range(len(keys) - size + 1):
            if tuple(keys[at : at + size]) != phrase:
                continue
            first, last = at, at + size  # the tokens to drop: [first, last)
            if first > 0 and keys[first - 1] in _JOINERS:
                first -= 1
            while first > 0 and not keys[first - 1]:  # a lone "·" or "—" before it
                first -= 1
            while last < len(keys) and not keys[last]:
                last += 1
            rest = (query[: tokens[first][0]] + " " + query[tokens[last - 1][1] :]).strip()
            rest = _EDGE.sub("", rest) if not any(c.isalnum() for c in rest[-1:]) else rest
            rest = " ".join(rest.split())
            if not any(c.isalnum() for c in rest):
                return None, query
            return system, rest
    return None, query
