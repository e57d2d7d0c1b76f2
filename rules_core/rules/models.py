"""Rule entries: one rule, ability, condition, ammunition, spell... in the players' own words.

Entries live in data/systems/<id>/rules/*.toml as `[[entry]]` tables and are validated here;
summaries are written for this project (never the rulebook's sentences). An entry's `source`
says where our transcript of the book holds the rule (for whoever writes entries, never shown);
its `ref` is what a reader of the printed book can follow (pages, section or rule numbers,
section titles), computed from the sources by scripts/build_refs.py into
data/systems/<id>/refs.toml.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SYSTEMS = ("wm", "aos", "wow", "inf", "c5")
Kind = Literal[
    "rule",
    "ability",
    "condition",
    "state",
    "ammo",
    "command",
    "spell",
    "phase",
    "keyword",
    "weapon",
    "action",
    "term",
]
_ID = re.compile(r"^(wm|aos|wow|inf|c5)\.[a-z0-9_]+$")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
RULE_NUMBER = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){1,3}[a-z]?\b")


class Localized(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    it: str = Field(min_length=1, max_length=1200)
    en: str = Field(min_length=1, max_length=1200)

    def get(self, lang: str) -> str:
        return self.it if lang == "it" else self.en


class Names(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    it: list[str] = Field(min_length=1)
    en: list[str] = Field(min_length=1)
    abbr: list[str] = Field(default_factory=list)  # "DA", "P+S", "ARO": language-neutral

    def all(self) -> list[str]:
        return [*self.it, *self.en, *self.abbr]

    def title(self, lang: str) -> str:
        """The first name in `lang`, as a heading: "charge" reads "Charge" ("P+S" stays)."""
        name = (self.it if lang == "it" else self.en)[0]
        return name[:1].upper() + name[1:]


class BookRef(BaseModel):
    """Where the printed book has the rule: what a player can look up at the table."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pages: list[int] = Field(default_factory=list)  # printed pages (WARMACHINE, Infinity)
    sections: list[str] = Field(default_factory=list)  # numbered sections (Age of Sigmar)
    rules: list[str] = Field(default_factory=list)  # rule numbers (WoW Miniatures)
    titles: list[str] = Field(default_factory=list)  # section titles, as the book prints them
    c3_pages: list[int] = Field(default_factory=list)  # Confrontation 3 pages the C5 text amends
    c3: bool = False  # the rule is the Confrontation 3 rulebook's, which C5 leaves as it is

    @model_validator(mode="after")
    def _not_empty(self) -> BookRef:
        if not (self.pages or self.sections or self.rules or self.titles or self.c3):
            raise ValueError("a reference needs a page, a section, a rule or a title")
        return self


class RuleEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    kind: Kind
    names: Names
    summary: Localized
    details: Localized | None = None
    source: str = Field(min_length=3, max_length=200)  # our transcript's lines; never shown
    ref: BookRef | None = None  # from refs.toml
    see_also: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)

    @property
    def system(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def numbers(self) -> list[str]:
        """Section and rule numbers of the reference ("301.2", "10.1"), for number look-ups."""
        if self.ref is None:
            return []
        cited = [*self.ref.sections, *self.ref.rules]
        return [n for raw in cited for n in RULE_NUMBER.findall(raw)]

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError("id must look like '<system>.<snake_case>' with a known system")
        return value

    @field_validator("summary")
    @classmethod
    def _short_summary(cls, value: Localized) -> Localized:
        for lang in ("it", "en"):
            sentences = len(_SENTENCE_END.findall(value.get(lang).strip() + " "))
            if not 1 <= sentences <= 5:
                raise ValueError(f"summary.{lang} must be 1-5 sentences, has {sentences}")
        return value

    @model_validator(mode="after")
    def _names_clean(self) -> RuleEntry:
        for name in self.names.all():
            if not name.strip() or len(name) > 80:
                raise ValueError(f"bad name {name!r}")
        return self


class RuleFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    entry: list[RuleEntry]


def check_collection(entries: list[RuleEntry]) -> list[str]:
    """Problems across entries: duplicate ids, see_also pointing nowhere."""
    problems = []
    ids = [e.id for e in entries]
    seen: set[str] = set()
    for ident in ids:
        if ident in seen:
            problems.append(f"duplicate id {ident}")
        seen.add(ident)
    for entry in entries:
        problems += [
            f"{entry.id}: see_also {other} does not exist"
            for other in entry.see_also
            if other not in seen
        ]
    return problems
