"""The command registry: finds a command from its text form and converts its options.

Text form: `/group sub positional key=value flag`, e.g. `/game new aos "Spring league"`.
`/cmd@BotName` is accepted (the adapter has already checked the bot name). Quotes group words:
"…", “…”, «…», '…' (and ‘…’, „…“), alone or right after `key=` (`card="Lightning Shield"`); a
quote closes only before a space or the end, so an apostrophe inside a word (`l'arma`) is no
quote, and an opening quote never closed stays part of the word as typed.
An unknown command or subcommand raises `UnknownCommand` with the closest real ones ("did you
mean /roll?"), found by edit similarity over the names and aliases at that level.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.commands import options
from bot.commands.spec import CommandSpec, OptionSpec, typed_values
from rules_core.errors import UserError
from rules_core.game.stat_names import BARE, SPACED_PAIR
from rules_core.rules.text import fold

MAX_COMMAND_TEXT = 4000
# Opening quote -> the quotes that close it (phones turn " into “ ” and ' into ’).
_QUOTES = {'"': '"”', "“": '”"', "”": "”", "«": "»", "„": "“”", "'": "'’", "‘": "’'"}
_KEY = re.compile(r"([^\s=\"“”«»„'‘’]+)=")
_FACES = re.compile(r"^\d+(?:[,;]\d+)*$")
SUGGEST_CUTOFF = 60.0  # similarity (0-100) a name needs to be offered as "did you mean"
SUGGEST_MARGIN = 10.0  # ... and at most this far below the best one: the closest, not all close
MAX_SUGGESTIONS = 3
BARE_WORD_CUTOFF = 75.0  # a bare word offered as an option (`parata` -> `para`) needs more


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int
    quoted: bool


@dataclass(frozen=True)
class Suggestion:
    """A real command close to what was typed, in the words the user was using (an alias
    stays an alias: /tria -> /tira)."""

    words: tuple[str, ...]
    spec: CommandSpec | None  # None for a group that is no command itself (/game)

    @property
    def text(self) -> str:
        return "/" + " ".join(self.words)


class UnknownCommand(UserError):
    """An unknown command or subcommand with the closest real ones, so the reply can name them
    and show their syntax."""

    def __init__(self, key: str, suggestions: list[Suggestion], **params: Any) -> None:
        super().__init__(key, names=", ".join(s.text for s in suggestions), **params)
        self.suggestions = suggestions


@dataclass(frozen=True)
class Found:
    """A command named by a text, its options not parsed yet: an error in them can then be
    answered with this command's syntax."""

    spec: CommandSpec
    text: str  # without the leading slash
    tokens: list[Token]  # the option tokens, after the command's name
    # A command that is also a group (/turn, /turn end): subcommands close to the first option
    # token, offered if the options don't parse (/turn ned). Found only then: the fuzzy match
    # (and loading rapidfuzz) is no part of a command that parses (/roll 2d6).
    suggest: Callable[[], list[Suggestion]] | None = None

    def options(self) -> dict[str, Any]:
        try:
            return parse_options(self.spec, self.text, self.tokens)
        except UserError as err:
            raise self.hint(err) from err

    def hint(self, err: UserError) -> UserError:
        """`err`, or, when the first word is close to a subcommand, the "did you mean" of it:
        the options didn't parse (/turn ned), or the command couldn't read them (/roll hist
        is a label with no dice; /roll history was meant)."""
        near = self.suggest() if self.suggest is not None else []
        if not near and self.suggest is not None and self._stray_first_word(err):
            # /turno qwxz: a group's root takes no words, so the word meant a subcommand
            return UserError(
                "cmd.no_such_sub", group=self.text.split()[0], name=err.params["token"]
            )
        if not near:
            return err
        group = near[0].words[0]
        typo = self.tokens[0].text[:40]
        return UnknownCommand("cmd.unknown_sub_hint", near, group=group, name=typo)

    def _stray_first_word(self, err: UserError) -> bool:
        """`err` is about the first word after the command, which no option of it takes."""
        return (
            err.key in ("cmd.unexpected", "cmd.unexpected_unit")
            and bool(self.tokens)
            and err.params.get("token") == self.tokens[0].text[:40]
            and not any(o.positional for o in self.spec.options)
        )


def _similarity(typed: str, name: str) -> float:
    """0-100: the indel ratio (a missing or extra letter: rol/roll), or the Damerau one when two
    letters are swapped (nwe/new), whichever is kinder."""
    from rapidfuzz import fuzz  # only for a typo: not on every process's start
    from rapidfuzz.distance import DamerauLevenshtein

    return max(fuzz.ratio(typed, name), DamerauLevenshtein.normalized_similarity(typed, name) * 100)


def closest(typed: str, names: Iterable[str]) -> list[str]:
    """The names nearest to `typed`, best first: above SUGGEST_CUTOFF and within SUGGEST_MARGIN
    of the best, at most MAX_SUGGESTIONS."""
    scored = sorted(((_similarity(typed, n), n) for n in set(names)), key=lambda x: (-x[0], x[1]))
    good = [(score, n) for score, n in scored if score >= SUGGEST_CUTOFF]
    if not good:
        return []
    best = good[0][0]
    return [n for score, n in good if score >= best - SUGGEST_MARGIN][:MAX_SUGGESTIONS]


def _quoted(text: str, start: int) -> tuple[str, int] | None:
    """The value of a quote opening at `start` and where it ends, or None (no quote there, or
    never closed)."""
    closers = _QUOTES.get(text[start]) if start < len(text) else None
    if closers is None:
        return None
    for end in range(start + 1, len(text)):
        if text[end] in closers and (end + 1 == len(text) or text[end + 1].isspace()):
            return text[start + 1 : end], end + 1
    return None


def _word_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    return end


def tokenize(text: str) -> list[Token]:
    out = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        found = _quoted(text, i)
        if found is not None:
            out.append(Token(found[0], i, found[1], True))
            i = found[1]
            continue
        spaced = SPACED_PAIR.match(text, i)  # `salute = 6`, as a phone keyboard writes it
        if spaced is not None:
            at = spaced.end()
            found = _quoted(text, at)
            end = found[1] if found else _word_end(text, at)
            value = found[0] if found else text[at:end]
            if found or "=" not in value:  # `carta= costo=3`: costo=3 is no value of carta
                out.append(Token(f"{spaced.group(1)}={value}", i, end, False))
                i = end
                continue
        key = _KEY.match(text, i)
        found = _quoted(text, key.end()) if key else None
        if key is not None and found is not None:  # key="two words": one key=value token
            out.append(Token(f"{key.group(1)}={found[0]}", i, found[1], False))
            i = found[1]
            continue
        end = i
        while end < n and not text[end].isspace():
            end += 1
        out.append(Token(text[i:end], i, end, False))
        i = end
    return out


class Registry:
    def __init__(self, specs: Iterable[CommandSpec] = ()) -> None:
        self._specs: dict[tuple[str, ...], CommandSpec] = {}
        # (parent path..., alias) -> canonical word, e.g. ("tira",) -> "roll"
        self._alias: dict[tuple[str, ...], str] = {}
        for spec in specs:
            self.add(spec)

    def add(self, spec: CommandSpec) -> None:
        if spec.path in self._specs:
            raise ValueError(f"command declared twice: {spec.name}")
        self._specs[spec.path] = spec
        for alias in spec.aliases:
            self._alias[(*spec.path[:-1], alias)] = spec.path[-1]
        for alias in spec.group_aliases:
            self._alias[(alias,)] = spec.path[0]

    def __iter__(self) -> Iterator[CommandSpec]:
        return iter(sorted(self._specs.values(), key=lambda s: s.path))

    def canonical(self, words: list[str]) -> tuple[str, ...]:
        out: list[str] = []
        for word in words:
            # Names are ASCII (Telegram's rule), so `/unità` folds to the `/unita` it means.
            key = fold(word)
            out.append(self._alias.get((*out, key), key))
        return tuple(out)

    def get(self, name: str) -> CommandSpec | None:
        return self._specs.get(self.canonical(name.lower().split()))

    def groups(self) -> dict[str, list[CommandSpec]]:
        out: dict[str, list[CommandSpec]] = {}
        for spec in self:
            out.setdefault(spec.path[0], []).append(spec)
        return out

    def words_under(self, parent: tuple[str, ...]) -> list[str]:
        """Every name and alias that may follow `parent` (() for the top level)."""
        depth = len(parent)
        names = {
            s.path[depth]
            for s in self._specs.values()
            if len(s.path) > depth and s.path[:depth] == parent
        }
        names |= {key[-1] for key in self._alias if key[:-1] == parent}
        return sorted(names)

    def recognizes(self, word: str) -> bool:
        """Whether a command word is ours or close to one of ours (worth a "did you mean")."""
        word = word.split("@", 1)[0].lower()
        known = self.canonical([word])[0] in self.groups()
        return known or bool(closest(word, self.words_under(())))

    def closest_sub(self, parent: tuple[str, ...], typed: str) -> list[str]:
        """The subcommands of `parent` nearest to `typed`: by their names and aliases, or, when
        `typed` is nearer to one of a subcommand's book words (CommandSpec.book_words: C5's
        `parata`, `parry`), that subcommand alone."""
        low = fold(typed)
        named = closest(low, self.words_under(parent))
        book = {
            fold(w): s.path[-1]
            for s in self._specs.values()
            if len(s.path) == len(parent) + 1 and s.path[:-1] == parent
            for w in s.book_words
        }
        near = closest(low, book)
        if near:
            score = _similarity(low, near[0])
            if score >= BARE_WORD_CUTOFF and (not named or score > _similarity(low, named[0])):
                return [book[near[0]]]
        return named

    def suggest(self, words: list[str]) -> list[Suggestion]:
        """The real commands closest to the unknown `words` (lower case, command word first)."""
        canonical = self.canonical(words)
        groups = self.groups()
        if canonical[0] in groups:  # a known group: the subcommand is what's unknown
            if len(words) < 2:
                return []
            group = canonical[0]
            return [
                Suggestion((words[0], w), self._specs.get(self.canonical([group, w])))
                for w in self.closest_sub((group,), words[1])
            ]
        out: dict[tuple[str, ...], Suggestion] = {}
        for word in closest(words[0], self.words_under(())):
            group = self.canonical([word])[0]
            sub = self._specs.get(self.canonical([group, words[1]])) if len(words) > 1 else None
            if sub is not None:  # /gam nwe -> /game new only when the second word is exact
                out.setdefault(sub.path, Suggestion((word, words[1]), sub))
            else:
                out.setdefault((group,), Suggestion((word,), self._specs.get((group,))))
        return list(out.values())

    def unknown(self, words: list[str]) -> UserError:
        """The error for words that name no command: a "did you mean" when something is close."""
        hints = self.suggest(words)
        group = self.canonical(words)[0]
        if group in self.groups():
            if len(words) < 2:  # only without a /help, which lists a group typed alone
                return UserError("cmd.unknown_sub", group=words[0])
            if hints:
                return UnknownCommand(
                    "cmd.unknown_sub_hint", hints, group=words[0], name=words[1][:40]
                )
            return UserError("cmd.no_such_sub", group=words[0], name=words[1][:40])
        if hints:
            return UnknownCommand("cmd.unknown_hint", hints, name=words[0][:40])
        return UserError("cmd.unknown", name=words[0][:40])

    def is_command_text(self, text: str) -> bool:
        return text.lstrip().startswith("/")

    def resolve(self, text: str) -> tuple[CommandSpec, dict[str, Any]]:
        """Parse the text form into a command and its converted options (raises UserError)."""
        found = self.find(text)
        return found.spec, found.options()

    def find(self, text: str) -> Found:
        """The command a text names (raises UserError when there is none)."""
        if len(text) > MAX_COMMAND_TEXT:
            raise UserError("cmd.too_long", limit=MAX_COMMAND_TEXT)
        stripped = text.strip()
        if stripped.startswith("/"):
            stripped = stripped[1:]
        tokens = tokenize(stripped)
        if not tokens:
            raise UserError("cmd.empty")
        head = tokens[0].text.split("@", 1)[0].lower()
        words: list[str] = [head]
        for tok in tokens[1:3]:
            if tok.quoted:
                break
            words.append(tok.text.lower())
        spec = None
        used = 0
        canonical = self.canonical(words)
        for n in range(len(canonical), 0, -1):
            path = canonical[:n]
            if path in self._specs:
                spec, used = self._specs[path], n
                break
        if spec is None:
            if len(words) == 1 and canonical[0] in self.groups() and ("help",) in self._specs:
                # A group alone (Telegram's menu sends `/aos` so): its list, as /help shows it
                return self.find(f"/help {canonical[0]}")
            raise self.unknown(words)
        rest = tokens[used:]
        suggest = None
        if rest and not rest[0].quoted and len(spec.path) == 1:
            subs = self.words_under(spec.path)
            typed = rest[0].text.lower()
            if subs and "=" not in typed:
                path = spec.path

                def suggest() -> list[Suggestion]:
                    return [
                        Suggestion((head, w), self._specs.get(self.canonical([*path, w])))
                        for w in self.closest_sub(path, typed)
                    ]

        return Found(spec, stripped, rest, suggest)

    def convert(self, spec: CommandSpec, raw: dict[str, Any]) -> dict[str, Any]:
        """Convert structured options (Discord) with the same rules as the text form."""
        out: dict[str, Any] = {}
        for key, value in raw.items():
            opt = spec.option(key)
            if opt is None:
                raise UserError("cmd.unknown_option", option=key)
            if value is None:
                continue
            out[opt.name] = convert_value(opt, value if isinstance(value, str) else str(value))
        return finish(spec, out)


def parse_options(spec: CommandSpec, text: str, tokens: list[Token]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    positional: list[tuple[int, Token]] = []
    pairs = next((o for o in spec.options if o.type == "pairs"), None)
    lines = next((o for o in spec.options if o.type == "lines"), None)
    if lines is not None:
        cut = _lines_start(spec, text, tokens, lines)
        if cut is not None:  # the rest of the message verbatim: every line, quote and `=`
            out[lines.name] = convert_value(lines, text[tokens[cut].start :])
            tokens = tokens[:cut]
    for i, tok in enumerate(tokens):
        if not tok.quoted and "=" in tok.text:
            key, _, value = tok.text.partition("=")
            opt = spec.option(key) if key else None
            if opt is not None and opt.type != "text":
                if opt.name in out:
                    raise UserError("cmd.duplicate_option", option=opt.name)
                out[opt.name] = convert_value(opt, value)
                continue
            if opt is None and pairs is not None and key:
                collected = out.setdefault(pairs.name, {})
                collected.update(convert_value(pairs, tok.text))
                continue
        if not tok.quoted:
            flag = spec.option(tok.text)
            if flag is not None and flag.type == "flag":
                out[flag.name] = True
                continue
        positional.append((i, tok))
    slots = [o for o in spec.options if o.positional and o.name not in out and o is not lines]
    index = 0
    for slot in slots:
        if index >= len(positional):
            break
        if slot.type == "text":
            rest = positional[index:]
            # Keep the user's own spacing unless options or quotes were taken out of the middle.
            contiguous = rest[-1][0] - rest[0][0] == len(rest) - 1 and not any(
                t.quoted for _, t in rest
            )
            value = (
                text[rest[0][1].start : rest[-1][1].end]
                if contiguous
                else " ".join(t.text for _, t in rest)
            )
            out[slot.name] = convert_value(slot, value)
            index = len(positional)
            break
        try:
            out[slot.name] = convert_value(slot, positional[index][1].text)
        except UserError:
            # `/unita danno Gigante di Ferro 3`: 'di' is no amount; the name wanted quotes
            prev = slots[index - 1] if index else None
            name = _unquoted_name(prev, positional, index, amount=True) if prev else None
            if name is None:
                raise
            token = positional[index][1].text[:40]
            raise UserError("cmd.unquoted_name", token=token, name=name) from None
        index += 1
    if pairs is not None:
        index = _bare_stats(pairs, tokens, positional, index, out)
    if index < len(positional):
        word = positional[index][1].text
        if _SIGNED.fullmatch(word):  # `/wow salute Thrall -2`: a value, no part of a name
            numbers = [
                o
                for o in spec.options
                if o.type in ("int", "signed") and not o.positional and o.name not in out
            ]
            if len(numbers) == 1:
                raise UserError("cmd.number_like", token=word[:12], like=numbers[0].name)
            raise leftover(spec, positional[index][1], out)
        if 0 < index <= len(slots):
            name = _unquoted_name(slots[index - 1], positional, index)
            if name is not None and word[:1].islower() and _may_be_stat(spec, word):
                # `/unita imposta Liberatori salvezza`: a longer name, or a stat with no value
                raise UserError(
                    "cmd.unquoted_name_or_pair",
                    token=word[:24],
                    name=name,
                    example=f"{word[:24]}=1",
                )
            if name is not None:
                raise UserError("cmd.unquoted_name", token=word[:40], name=name)
        raise leftover(spec, positional[index][1], out)
    return finish(spec, out)


def _bare_stats(
    pairs: OptionSpec,
    tokens: list[Token],
    positional: list[tuple[int, Token]],
    index: int,
    out: dict[str, Any],
) -> int:
    """The words left over from `index` that are stats written alone after the stats
    (`/unita aggiungi Capitano ferite=6 generale`), kept in `pairs` for the game to read as a
    roster line does (`stat_names.canonical_stats`: a yes/no stat is 1); the index of the
    first other word. A word right after the name may be a longer name: it stays leftover."""
    while index < len(positional):
        i, tok = positional[index]
        after_pair = any(not t.quoted and "=" in t.text for t in tokens[:i])
        if tok.quoted or not after_pair or not _PAIR_KEY.match(tok.text):
            break
        out.setdefault(pairs.name, {}).update(convert_value(pairs, tok.text))
        index += 1
    return index


def _unquoted_name(
    slot: OptionSpec, positional: list[tuple[int, Token]], index: int, amount: bool = False
) -> str | None:
    """A name of several words typed without quotes (`/unita aggiungi Capitano Uno`): the
    words from the one a name option took to the end of their unbroken run, quoted; None
    when the word left over doesn't follow a name. With `amount`, the run must end in the
    number the next option wanted (`Gigante di Ferro 3`; `Guardie tre` is a mistyped amount)."""
    if slot.type != "str" or not (slot.autocomplete == "units" or slot.name == "name"):
        return None
    run = [positional[index - 1]]
    for i, tok in positional[index:]:
        if tok.quoted or i != run[-1][0] + 1:
            break
        run.append((i, tok))
    if len(run) > 2 and run[-1][1].text.lstrip("+-").isdigit():
        run.pop()  # the amount after the name (`Gigante di Ferro 3`)
    elif amount:
        return None
    if run[0][1].quoted or len(run) < 2:
        return None
    return '"' + " ".join(tok.text for _, tok in run)[:60] + '"'


def leftover(spec: CommandSpec, tok: Token, given: Mapping[str, Any] | None = None) -> UserError:
    """A word no option took. A `key=value` whose key is no option names the closest option
    (`potenza=` -> `potere=`; the reader's word for it: `local_names.error_params`), else says
    the command has no such option; a bare word where the command names units by option
    (`/wow attacco Jaina Thrall`: the natural way to say who attacks whom) names those options
    not given yet; any other word is quoted back."""
    key, eq, _ = tok.text.partition("=")
    names = {fold(n): o.name for o in spec.options for n in (o.name, *o.aliases)}
    if tok.quoted or not key or not eq:
        return _unexpected_word(spec, tok, names, given)
    near = closest(fold(key), names)
    if near:
        return UserError("cmd.unknown_option_like", option=key[:40], like=names[near[0]])
    return UserError("cmd.unknown_option", option=key[:40])


def _unexpected_word(
    spec: CommandSpec, tok: Token, names: dict[str, str], given: Mapping[str, Any] | None
) -> UserError:
    """A bare word no option took. Close to one of the command's options (C5's book word
    `parata` for the `para` flag, `difesa` with no value), it names that option as the reader
    types it: a flag as it is, another option with its `=`. Else, where the command names
    units by option, those not given yet."""
    word = tok.text.split()[0] if tok.text.split() else ""
    near = closest(fold(word), names) if not tok.quoted and len(word) >= 3 else []
    # stricter than a typed `key=`: a bare word is as often another thing (`carica` is no
    # `applica`)
    if not near or not _bare_word_means(fold(word), fold(near[0])):
        units = [
            o.name
            for o in spec.options
            if o.autocomplete == "units" and not o.positional and o.name not in (given or {})
        ]
        # a name as names are written (`Jaina`, `"Iron Giant"`), not `per` or `di`
        if units and (tok.quoted or word[:1].isupper()):
            return UserError(
                "cmd.unexpected_unit", token=tok.text[:40], unit_options=",".join(units)
            )
        if not tok.quoted and _may_be_stat(spec, word):
            # `/unita aggiungi Capitano ferite=6 generale`: a stat typed without its value
            return UserError("cmd.bare_pair", token=word[:24], example=f"{word[:24]}=1")
        return UserError("cmd.unexpected", token=tok.text[:40])
    opt = spec.option(names[near[0]])
    key = (
        "cmd.unexpected_flag_like"
        if opt is not None and opt.type == "flag"
        else "cmd.unexpected_option_like"
    )
    return UserError(key, token=tok.text[:40], like=names[near[0]])


def _bare_word_means(word: str, name: str) -> bool:
    """A bare word close enough to an option's name to offer it: near by edit similarity, and
    either one begins the other (`parata`/`para`, `difesa`/`dif`) or they differ by a letter
    (`aplica`/`applica`); `ferire` is no `fire`."""
    if _similarity(word, name) < BARE_WORD_CUTOFF:
        return False
    return word.startswith(name) or name.startswith(word) or abs(len(word) - len(name)) <= 1


def _may_be_stat(spec: CommandSpec, word: str) -> bool:
    """`word` could be a stat typed without its value: the command takes stats as pairs."""
    return any(o.type == "pairs" for o in spec.options) and bool(_PAIR_KEY.match(word.lower()))


def _lines_start(
    spec: CommandSpec, text: str, tokens: list[Token], lines: OptionSpec
) -> int | None:
    """Where a `lines` option begins: at the first token that isn't one of the command's
    options; when the command has other positional options, they take the first line and the
    list begins on the next one (`/army save My army` + a line per unit)."""
    if any(o.positional and o is not lines for o in spec.options):
        newline = text.find("\n")
        if newline < 0:
            return None
        return next((i for i, t in enumerate(tokens) if t.start > newline), None)
    return next((i for i, t in enumerate(tokens) if not _is_option(spec, t)), None)


def _is_option(spec: CommandSpec, tok: Token) -> bool:
    """A `key=value` or flag token naming one of the command's options."""
    if tok.quoted:
        return False
    key, eq, _ = tok.text.partition("=")
    opt = spec.option(key)
    return opt is not None and (bool(eq) or opt.type == "flag")


def finish(spec: CommandSpec, out: dict[str, Any]) -> dict[str, Any]:
    for opt in spec.options:
        if opt.name not in out:
            if opt.required and opt.choices:  # `/partita nuova`: which words it takes
                choices = ", ".join(opt.choices)
                raise UserError("cmd.missing_choice", option=opt.shown, choices=choices)
            if opt.required:
                raise UserError("cmd.missing_option", option=opt.shown)
            if opt.type == "flag":
                out[opt.name] = False
            elif opt.type == "pairs":
                out[opt.name] = {}
            else:
                out[opt.name] = opt.default
    return options.validate(spec, out)


_PAIR = re.compile(r"^([a-z][a-z0-9_]{0,23})=([+-]?\d{1,4}\+?|[-–—])$")
_SIGNED = re.compile(r"[+-]\d{1,9}")  # a signed number: never a word of a name
_YES = ("si", "yes")  # folded: `sì`; a yes/no stat's 1 as a word
_BARE_KEY = re.compile(r"^[a-z][a-z0-9_]{0,23}$")  # a stat written alone, folded
_PAIR_KEY = re.compile(r"^[a-zà-ù][a-z0-9_à-ù]{0,23}$")  # a word that may name a stat
MAX_PAIRS = 30


def parse_pairs(opt: OptionSpec, value: str) -> dict[str, int | str]:
    """`ferite=2 salvezza=4+`: each stat's number, or its printed form (`4+`, `-`) for the game
    to read (GameSystem.read_stat: what `-` stands for is the game's)."""
    out: dict[str, int | str] = {}
    for token in value.split():
        if _BARE_KEY.match(fold(token)):  # a stat alone (`generale`): the game reads it
            out[fold(token)] = BARE
            continue
        key, _, said = fold(token).partition("=")
        if said in _YES and _BARE_KEY.match(key):  # `generale=sì`: as the stat alone
            out[key] = BARE
            continue
        # Names are ASCII: `velocità=5`, as an Italian types it, is `velocita=5` (as `/unità` is).
        m = _PAIR.match(fold(token))
        if m is None:
            raise UserError("cmd.bad_pair", token=token[:30], option=opt.shown)
        number = m.group(2)
        out[m.group(1)] = int(number) if number[-1:].isdigit() else number
    if len(out) > MAX_PAIRS:
        raise UserError("cmd.too_many_pairs", limit=MAX_PAIRS)
    return out


def convert_value(opt: OptionSpec, value: str) -> Any:
    value = value.strip()
    if opt.type == "flag":
        low = value.lower()
        if low in ("", "1", "true", "yes", "si", "sì", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise UserError("cmd.bad_flag", option=opt.shown)
    if opt.type in ("int", "signed"):
        if not re.fullmatch(r"[+-]?\d{1,9}", value):
            raise UserError("cmd.bad_int", option=opt.shown, value=value[:20])
        return int(value)  # its bounds: the command's options model (`options.validate`)
    if opt.type == "pairs":
        return parse_pairs(opt, value)
    if opt.type == "faces":
        if not _FACES.fullmatch(value):
            raise UserError("cmd.bad_faces", option=opt.shown)
        faces = [int(f) for f in re.split(r"[,;]", value)]
        if len(faces) > 2000:
            raise UserError("cmd.too_many_faces", limit=2000)
        return faces
    if not value:
        raise UserError("cmd.empty_value", option=opt.shown)
    if len(value) > opt.max_length:
        raise UserError("cmd.too_long_value", option=opt.shown, limit=opt.max_length)
    if opt.choices:
        low = fold(value)
        for choice in opt.choices:
            if fold(choice) == low:
                return choice
        for choice in opt.choices:  # its word in Italian (`aggiungi`), or its label on Discord
            if low in typed_values(opt.name, choice):
                return choice
        typed = {fold(c): c for c in opt.choices} | {
            t: c for c in opt.choices for t in typed_values(opt.name, c)
        }
        near = closest(low, typed)
        if near:  # `caratteristica=attaco`: att, in the reader's word (local_names)
            raise UserError(
                "cmd.bad_choice_like",
                option=opt.shown,
                choices=", ".join(opt.choices),
                choice_like=typed[near[0]],
            )
        raise UserError("cmd.bad_choice", option=opt.shown, choices=", ".join(opt.choices))
    return value
