"""What a command's options are called in a language: their names (as Discord's picker shows
them, and as they may be typed: `quantita=`) and the words for their choices (`aggiungi`). Used
for the Discord command list and for errors about an option, so both say the same word."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from bot import i18n
from bot.commands.discord_names import valid_name
from bot.commands.registry import Registry
from bot.commands.spec import CommandSpec, OptionSpec
from rules_core.errors import UserError


def option_names(spec: CommandSpec, lang: i18n.Lang) -> dict[str, str]:
    """Each option's name in `lang`: the catalogue's `discord.options.<name>`, else its first
    alias, else its own name; never a name another option of the command has in either
    language (Discord refuses that)."""
    if lang == i18n.DEFAULT_LANG:
        return {o.name: o.name for o in spec.options}
    defaults = {o.name for o in spec.options}
    out: dict[str, str] = {}
    cat = i18n.catalogue(lang)
    for opt in spec.options:
        taken = (defaults | set(out.values())) - {opt.name}
        candidates = [cat.get(f"discord.options.{opt.name}", ""), *opt.aliases, opt.name]
        out[opt.name] = next(c for c in candidates if valid_name(c) and c not in taken)
    return out


def choice_word(opt: OptionSpec, code: str, lang: i18n.Lang) -> str:
    """How a reader of `lang` types a choice: `values.<option>.<code>`, else Discord's label
    when it is one word (`Aggiungi` -> `aggiungi`), else the code."""
    cat = i18n.catalogue(lang)
    typed = cat.get(f"values.{opt.name}.{code}")
    if typed:
        return typed
    label = cat.get(f"discord.choices.{opt.name}.{code}", "")
    return label.lower() if label and " " not in label else code


def value_word(table: str, code: str, lang: i18n.Lang) -> str:
    """A code as a reader of `lang` types and reads it, from a catalogue table (`values.mods`:
    `charge` is `carica`; `inf.weapon_names`: `rifle` is `Fucile`), else the code itself."""
    return i18n.catalogue(lang).get(f"{table}.{code}") or code


def system_letter(lang: i18n.Lang, key: str) -> str:
    """A WARMACHINE system's letter as the chat's book prints it: the Italian S, D, T for the
    stored L, R, H (the grid's text drawing, the cards and the gear all say it so)."""
    item = f"game.draw.wm.letter.{key}"
    return i18n.t(lang, item) if i18n.has(item, lang) else key


def stat_word(system: str, code: str, lang: i18n.Lang) -> str:
    """A unit's stat as a reader of `lang` types and reads it (`game.stat.<system>.<code>`:
    `ferite`, `dif`), else its code; `models` is every game's. Its accents are given back
    (`velocità`, not `velocita`): typed, both forms are taken."""
    cat = i18n.catalogue(lang)
    word = cat.get(f"game.stat.{system}.{code}") or cat.get(f"game.stat.{code}") or code
    return i18n.readable(lang, word)


def drawn_word(system: str, code: str, lang: i18n.Lang) -> str:
    """A code a game's drawing shows under a unit, as the reader's book writes it:
    `game.draw.<system>.<code>` (a troop type `type.1`, a marker `lt`), else the stat's name."""
    return i18n.catalogue(lang).get(f"game.draw.{system}.{code}") or stat_word(system, code, lang)


def stat_pairs(system: str, codes: list[str], lang: i18n.Lang) -> str:
    """`ferite (wounds), dif (def), cc`: each stat under the reader's name, then the other
    language's when it differs (both are typed alike)."""
    other: i18n.Lang = "en" if lang == "it" else "it"
    out = []
    for code in codes:
        mine, theirs = stat_word(system, code, lang), stat_word(system, code, other)
        out.append(mine if mine == theirs else f"{mine} ({theirs})")
    return ", ".join(out)


def stat_params(params: dict[str, Any], lang: i18n.Lang) -> dict[str, Any]:
    """A stat error's `stat` and `valid` (codes, comma-separated) named in the reader's
    language; what the user typed that is no stat stays as typed."""
    system = str(params["stat_system"])
    out = {**params, "stat": stat_word(system, str(params.get("stat", "")), lang)}
    if "valid" in params:  # as a sentence reads them, accents back (`velocità`)
        out["valid"] = ", ".join(
            i18n.readable(lang, stat_word(system, c, lang)) for c in str(params["valid"]).split(",")
        )
    return out


def error_params(
    spec: CommandSpec | None, params: dict[str, Any], lang: i18n.Lang
) -> dict[str, Any]:
    """An option error's parameters in the reader's words: the option's name and its choices;
    a stat error's stat names (`stat_system`)."""
    if "stat_system" in params:
        params = stat_params(params, lang)
    of, valid = params.get("values_of"), params.get("valid")
    if isinstance(of, str) and isinstance(valid, str):  # listed codes, in the reader's words
        words = (value_word(of, code, lang) for code in valid.split(", "))
        params = {**params, "valid": ", ".join(words)}
    key = params.get("value_key")  # the one code the sentence names (`mod`), as the reader types it
    if isinstance(of, str) and isinstance(key, str) and isinstance(params.get(key), str):
        params = {**params, key: value_word(of, params[key], lang)}
    like = params.get("like")  # the option meant by a mistyped one: the reader's word for it
    names = option_names(spec, lang) if spec is not None and isinstance(like, str) else {}
    if isinstance(like, str) and like in names:
        params = {**params, "like": i18n.readable(lang, names[like])}
    units = params.get("unit_options")  # the options that name a unit, each with the word typed
    if spec is not None and isinstance(units, str):
        word = str(params.get("token", ""))
        value = f'"{word}"' if " " in word else word
        local = option_names(spec, lang)
        shown = [f"{i18n.readable(lang, local.get(n, n))}={value}" for n in units.split(",")]
        params = {**params, "unit_options": i18n.alternatives(lang, shown)}
    name = params.get("option")
    opt = spec.option(str(name)) if spec is not None and name is not None else None
    if opt is None or opt not in spec.options:  # type: ignore[union-attr]
        return params
    label = i18n.readable(lang, option_names(spec, lang)[opt.name])  # type: ignore[arg-type]
    if opt.positional and str(name).isupper():  # a placeholder, as the syntax line shows it
        label = label.upper()
    out = {**params, "option": label}
    if "choices" in params and opt.choices:
        out["choices"] = ", ".join(dict.fromkeys(choice_word(opt, c, lang) for c in opt.choices))
    if params.get("choice_like") in opt.choices:
        out["choice_like"] = choice_word(opt, str(params["choice_like"]), lang)
    return out


def _group_word(registry: Registry, group: str) -> str:
    """A group's first word in Italian: its root command's alias (`/tira`), else a
    `group_aliases` of its commands (`/partita`), else its own name (`/aos`)."""
    members = registry.groups().get(group, [])
    candidates = [a for s in members if len(s.path) == 1 for a in s.aliases]
    candidates += [a for s in members for a in s.group_aliases]
    return next((a for a in candidates if registry.canonical([a]) == (group,)), group)


def typed_name(registry: Registry, spec: CommandSpec, lang: i18n.Lang) -> str:
    """The command as a user of `lang` types it on a text platform: `/partita nuova`,
    `/tira mostra`, `/aos attacco` (the registry answers to both languages' names)."""
    if lang == i18n.DEFAULT_LANG:
        return "/" + spec.name
    words = [_group_word(registry, spec.path[0])]
    if len(spec.path) == 2:
        subs = [a for a in spec.aliases if registry.canonical([spec.path[0], a]) == spec.path]
        words.append(subs[0] if subs else spec.path[1])
    return "/" + " ".join(words)


def _localizable(
    registry: Registry, text: str, lang: i18n.Lang
) -> tuple[CommandSpec, list[str]] | None:
    """The command `text` runs and the words after its name, when a reader of `lang` would
    type it otherwise; None for English and for text that names no command."""
    if lang == i18n.DEFAULT_LANG or not text.startswith("/"):
        return None
    try:
        spec = registry.find(text).spec
    except UserError:
        return None
    return spec, text[1:].split(" ")[len(spec.path) :]


def typed_command(registry: Registry, text: str, lang: i18n.Lang) -> str:
    """A command a button runs (and shows, on the console and in Telegram's input box) as a
    reader of `lang` types it: `/roll 2d6 dice=3,5` -> `/tira 2d6 dadi=3,5`. It runs the same:
    the registry answers to both languages' names. Text that names no command stays as is."""
    found = _localizable(registry, text, lang)
    if found is None:
        return text
    spec, rest = found
    local = option_names(spec, lang)
    if spec.guard is not None:  # the hidden option a turn's button carries: `turno=…`
        local[spec.guard] = i18n.catalogue(lang).get(f"discord.options.{spec.guard}", spec.guard)
    for i, word in enumerate(rest):
        key, eq, value = word.partition("=")
        if eq and key.lower() in local:
            rest[i] = f"{local[key.lower()]}={value}"
    return " ".join([typed_name(registry, spec, lang), *rest])


_TOKEN = re.compile(r'[^\s"=]+="[^"]*"|"[^"]*"|\S+')


def _sample(word: str, lang: i18n.Lang) -> str:
    """An example's sample name (`Guards`, `"Iron Giant"`) as `help.samples` has it in `lang`."""
    bare = word.strip('"')
    local = i18n.catalogue(lang).get(f"help.samples.{bare}")
    if not local:
        return word
    return f'"{local}"' if " " in local else local


def _value(opt: OptionSpec, value: str, lang: i18n.Lang) -> str:
    """An option's value as a reader of `lang` types it: a choice's word, a free option's word
    (`values.<option>.<code>`, each of a comma list: `mod=mira,copertura`), a sample name."""
    if opt.choices and value in opt.choices:
        return i18n.readable(lang, choice_word(opt, value, lang))
    cat = i18n.catalogue(lang)
    items = value.split(",")
    words = [cat.get(f"values.{opt.name}.{item}") for item in items]
    if any(words):
        return ",".join(w or _sample(item, lang) for w, item in zip(words, items, strict=True))
    return _sample(value, lang)


def _field(registry: Registry, spec: CommandSpec, key: str, lang: i18n.Lang) -> str:
    """A field of a quoted profile or a roster line (`attacks=2`, `move=5`), as the command it
    becomes reads it: an option of the game's odds (what /compare and /army run), else a stat,
    else a sample word (`points`, `claws`)."""
    systems = dict.fromkeys([spec.path[0], "aos", "wm", "inf"])
    for system in systems:
        odds = registry.get(f"{system} odds")
        opt = odds.option(key) if odds is not None else None
        if odds is not None and opt is not None:
            return i18n.readable(lang, option_names(odds, lang)[opt.name])
    for system in systems:
        word = stat_word(system, key, lang)
        if word != key:
            return word
    return _sample(key, lang)


_KEY = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)=")


def _fields(registry: Registry, spec: CommandSpec, text: str, lang: i18n.Lang) -> str:
    """Every `key=` of a profile or roster text in the reader's words, and the sample names
    around them (`0:move=12,claws=6` -> `0:movimento=12,artigli=6`)."""
    return _KEY.sub(lambda m: _field(registry, spec, m.group(1), lang) + "=", text)


def _twin(registry: Registry, spec: CommandSpec, rest: str, lang: i18n.Lang) -> str | None:
    """An odds twin's line (`/c5 odds wound str=7`): the kind as the reader names it, the rest
    with the options of the command it names; None when `spec` is no such twin."""
    first, _, tail = rest.partition(" ")
    kind = next((o for o in spec.options if o.positional and first in o.choices), None)
    other = registry.get(f"{spec.path[0]} {first}")
    if kind is None or other is None or not any(o.type == "text" for o in spec.options):
        return None
    return " ".join(
        filter(None, [choice_word(kind, first, lang), example_words(registry, other, tail, lang)])
    )


def example_words(registry: Registry, spec: CommandSpec, rest: str, lang: i18n.Lang) -> str:
    """An example's words after the command, as a reader of `lang` writes them: option names
    (`dadi=`), flags (`applica`), choices (`tipo=magico`, `aggiungi`) and free values
    (`values.<option>`: `recupero`), stats (`ferite=2`), the fields of quoted profiles and
    roster lines (`"attacchi=2 colpire=3+"`), the sample names (`help.samples`: `Guardie`,
    `"Gigante di Ferro"`), an odds twin's command (`/c5 prob ferire forza=7`) and a command it
    carries (a macro's: `/tira 2d6`). Anything else stays as written."""
    if lang == i18n.DEFAULT_LANG:
        return rest
    head, slash, nested = rest.partition(" /")
    if slash:  # `/save fire /roll 2d6+3 fire`: the macro's own command, as typed
        return (
            example_words(registry, spec, head, lang)
            + " "
            + typed_example(registry, "/" + nested, lang)
        )
    twin = _twin(registry, spec, rest, lang)
    if twin is not None:
        return twin
    cat = i18n.catalogue(lang)
    phrases = sorted((k for k in cat if k.startswith("help.samples.") and " " in k), key=len)
    for key in reversed(phrases):  # longest first: "fire damage" before "fire"
        english = key.removeprefix("help.samples.")
        rest = re.sub(rf"(?<![\w\"]){re.escape(english)}(?![\w\"])", cat[key], rest)
        rest = rest.replace(f'"{english}"', f'"{cat[key]}"')
    local = option_names(spec, lang)
    pairs = any(o.type == "pairs" for o in spec.options)
    positionals = [o for o in spec.options if o.positional]
    out = []
    for word in _TOKEN.findall(rest):
        key, eq, value = word.partition("=")
        opt = spec.option(key) if key else None
        if word.startswith('"') and "=" in word:  # a quoted profile: `"attacks=2 hit=3+"`
            out.append(_fields(registry, spec, word, lang))
        elif eq and opt is not None:
            if value.startswith('"') and "=" in value:
                value = _fields(registry, spec, value, lang)
            else:
                value = _value(opt, value, lang)
            out.append(f"{i18n.readable(lang, local[opt.name])}={value}")
        elif eq and pairs:
            out.append(f"{stat_word('gen', key, lang)}={value}")
        elif eq:  # a roster line's field: `move=5`, `attacks=2`
            out.append(f"{_field(registry, spec, key, lang)}={value}")
        elif not eq and opt is not None and opt.type == "flag":
            out.append(i18n.readable(lang, local[opt.name]))
        elif choice := next((o for o in positionals if word in o.choices), None):
            out.append(i18n.readable(lang, choice_word(choice, word, lang)))
        elif free := next((o for o in positionals if cat.get(f"values.{o.name}.{word}")), None):
            out.append(cat[f"values.{free.name}.{word}"])
        else:
            out.append(_sample(word, lang))
    return " ".join(out)


def typed_example(registry: Registry, text: str, lang: i18n.Lang) -> str:
    """A whole example as a reader of `lang` writes it (see `example_words`)."""
    found = _localizable(registry, text, lang)
    if found is None:
        return text
    spec, rest = found
    words = example_words(registry, spec, " ".join(rest), lang)
    return " ".join(filter(None, [typed_name(registry, spec, lang), words]))


def text_names(registry: Registry, lang: i18n.Lang) -> dict[tuple[str, ...], str]:
    """Every command's `typed_name`."""
    return {s.path: typed_name(registry, s, lang) for s in registry}


def usage(name: str, spec: CommandSpec, lang: i18n.Lang) -> str:
    """The command's syntax under `name`, its options and their choices named in `lang`:
    `/unita danno NOME QUANTITÀ [colonna=N] [penalità=N]`. Option names and choices carry their
    accents (`i18n.readable`) whether positional or not: the parser folds `penalità=` and
    `per_unità` to their ASCII forms, so the line is typed as it stands (the command's own
    words stay ASCII: Telegram's command names are)."""
    local = option_names(spec, lang)
    options = [
        replace(
            o,
            name=i18n.readable(lang, local[o.name]),
            choices=tuple(
                dict.fromkeys(i18n.readable(lang, choice_word(o, c, lang)) for c in o.choices)
            ),
        )
        for o in spec.options
    ]
    return " ".join([name, *(o.usage() for o in options)])


def syntax(registry: Registry, spec: CommandSpec, lang: i18n.Lang, head: str | None = None) -> str:
    """An error's syntax line in the reader's words: the command as they type it (or `head`,
    its Discord name) and its options in `lang` (`/tira ESPRESSIONE… [dadi=3,5,6…]`)."""
    return usage(head or typed_name(registry, spec, lang), spec, lang)
