"""`/<game> compare` (`confronta`) and the text alias `/compare` (`/confronta`, the chat's game):
two to four attack profiles side by side against one target, from the game's exact odds:
expected damage, expected models removed and damage per 100 points.

A profile is what the game's `odds` command takes (`attacks=10 hit=3+ wound=4+ rend=1
damage=1`, `attacker=Liberators weapon=Warhammer`), or the short form `UNIT/WEAPON` (a stored
unit's weapon); `points=N` (`punti=`) in it gives its cost, else a stored attacker's `pts`
stat (Infinity rosters carry it). `vs=` holds the target side, added to every profile
(`vs="save=4+ wounds=2 models=10"`, `vs=Orcs` for a stored unit). Each profile is read with the
game's own `odds` command's options (so every option and its Italian name works), the requests
are built here (reads only) and the odds of all of them computed in one worker call
(`rules_core.compare.compute`), one evaluator per game (`EVALUATORS`).

Confrontation reads a profile with `/c5 melee` or `/c5 shoot`'s options: a first word names
the kind (`melee`/`mischia`, `shoot`/`tiro`), else a profile with `aim=` (or `range=`, `fire=`)
is a shot and any other a blow. Confrontation and WoW take the target's wounds / Health left
as `wounds=N` / `health=N` in `vs=` (a stored target unit gives its own); WoW counts a stored
attacker's Honor as its points.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

from bot import i18n
from bot.commands.args import Args
from bot.commands.context import Context
from bot.commands.local_names import typed_command
from bot.commands.odds_view import as_distribution
from bot.commands.spec import CommandSpec, OptionSpec
from bot.commands.system_kit import option_named
from bot.i18n import fmt_num
from bot.protocol import Block, Reply, bold, code, plain, pre
from rules_core import compare as cmp
from rules_core.errors import UserError
from rules_core.systems import get_system

if TYPE_CHECKING:
    from bot.images.compare_chart import CompareChart

LABELS = ("A", "B", "C", "D")
_POINTS = re.compile(r"(?i)(?:^|\s)(?:points|punti|pts)=(\d{1,5})(?=\s|$)")
# The target's wounds (C5) / Health (WoW) left, given in `vs=` (no odds option takes them).
_LEFT = {
    "c5": re.compile(r"(?i)(?:^|\s)(?:wounds|ferite)=(\d{1,3})(?=\s|$)"),
    "wow": re.compile(r"(?i)(?:^|\s)(?:health|salute)=(\d{1,3})(?=\s|$)"),
}
# A Confrontation profile's first word: which command's options it takes.
C5_KINDS = {
    "melee": "melee",
    "mischia": "melee",
    "shoot": "shoot",
    "tiro": "shoot",
    "tira": "shoot",
}
_C5_SHOT = re.compile(r"(?i)(?:^|\s)(?:aim|tir|tiro|range|gittata|fire|fuoco)=")
# What a game's attack deals, as the table and chart name it (Confrontation: wound levels).
WORD = {"c5": "wounds"}
# The stat a stored attacker's cost is read from (Infinity's roster pts, WoW's Honor).
POINTS_STAT = {"inf": "pts", "wow": "honor"}


@dataclasses.dataclass(frozen=True)
class Built:
    """One profile ready to compute: its job, its one-line summary, who and what it uses."""

    job: cmp.Job
    summary: str
    name: str | None  # "Liberators · Warhammer" when a stored unit's weapon
    points: int | None


@dataclasses.dataclass(frozen=True)
class Target:
    """What `vs=` says beyond the odds options: the target's wounds/Health left."""

    left: int | None = None


Evaluator = Callable[[Context, Target], Awaitable[Built]]


async def aos_profile(ctx: Context, _given: Target) -> Built:
    from bot.commands.aos.attack import attack_request
    from bot.commands.aos.common import SETTINGS
    from bot.commands.aos.view import request_summary

    settings = await SETTINGS.load(ctx)
    built, _, _, _ = await attack_request(ctx, settings)
    req = built.request
    return Built(
        job=cmp.AosJob(req, settings),
        summary=request_summary(ctx, req),
        name=named(built.source.get("attacker"), built.source.get("weapon")),
        points=None,
    )


async def wm_profile(ctx: Context, _given: Target) -> Built:
    from bot.commands.wm.args import AttackArgs
    from bot.commands.wm.handlers import GAME, attack_request
    from bot.commands.wm.view import attack_title

    a = ctx.args(AttackArgs)  # the profile is read with /wm odds' options
    game, attacker, target = await GAME.units(ctx)
    req = await attack_request(ctx, a, game, attacker, target)
    boxes = get_system("wm").health(target)[0] if target is not None else 1
    name = named(attacker.name if attacker else None, a.weapon)
    return Built(cmp.WmJob(req, boxes), attack_title(ctx, req), name, None)


async def inf_profile(ctx: Context, _given: Target) -> Built:
    from bot.commands.inf.attack import attack_options, request_of, title_of
    from bot.commands.inf.common import GAME, SETTINGS
    from rules_core.systems.inf.request import wants_hits_only

    game, attacker, target = await GAME.units(ctx)
    options = attack_options(ctx)  # the profile is read with /inf odds' options
    if wants_hits_only(options, attacker):
        raise UserError("compare.inf_needs_damage")
    req, _ = await request_of(ctx, game, attacker, target)
    settings = await SETTINGS.load(ctx)
    name = named(attacker.name if attacker else None, options.weapon)
    return Built(cmp.InfJob(req, settings), title_of(ctx, req), name, None)


def target_left(given: Target, target: Any) -> int | None:
    """The target's wounds/Health left: given in `vs=`, else the stored target's next model's."""
    if given.left is not None:
        return given.left
    if target is None:
        return None
    return cmp.next_model_left(target.wounds_left, target.wounds_per_model)


async def c5_profile(ctx: Context, given: Target) -> Built:
    from bot.commands.c5.args import MeleeArgs, ShootArgs, by_option
    from bot.commands.c5.common import GAME, SETTINGS
    from rules_core.systems.c5 import requests as rq

    _, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    left = target_left(given, target)
    if ctx.spec.path[-1] == "shoot":  # read with /c5 shoot's options (`command_of`)
        s = ctx.args(ShootArgs)
        shot = rq.shoot_request(by_option(s), attacker, target)
        title = ctx.t(
            "c5.title_shoot", aim=shot.test.value, str=shot.wound.str_, res=shot.wound.res
        )
        name = named(attacker.name if attacker else None, s.weapon)
        return Built(cmp.C5Job(shot, settings, left), title, name, None)
    m = ctx.args(MeleeArgs)
    blow = rq.melee_request(by_option(m), attacker, target)
    title = ctx.t("c5.title_melee", att=blow.attack.value, str=blow.wound.str_, res=blow.wound.res)
    name = named(attacker.name if attacker else None, m.weapon)
    return Built(cmp.C5Job(blow, settings, left), title, name, None)


async def wow_profile(ctx: Context, given: Target) -> Built:
    from bot.commands.wow.args import OddsArgs
    from bot.commands.wow.common import GAME, actor_and_card
    from bot.commands.wow.rolls import attack_request

    a = ctx.args(OddsArgs)  # the profile is read with /wow odds' options
    found = await GAME.target(ctx)
    target = found[1] if found else None
    actor, card = await actor_and_card(ctx, "attacker", a.attacker, a.card)
    req = await attack_request(ctx, a, target, card, actor)
    kind = ctx.t(f"wow.type.{req.type}")
    title = ctx.t("wow.attack_title", power=req.power, type=kind, n=req.defense)
    name = named(actor.name if actor else None, card.name if card else None)
    return Built(cmp.WowJob(req, target_left(given, target)), title, name, None)


EVALUATORS: dict[str, Evaluator] = {
    "aos": aos_profile,
    "wm": wm_profile,
    "inf": inf_profile,
    "c5": c5_profile,
    "wow": wow_profile,
}


def named(unit: str | None, weapon: str | None) -> str | None:
    return " · ".join(p for p in (unit, weapon) if p) or None


def split_points(text: str, pattern: re.Pattern[str] = _POINTS) -> tuple[str, int | None]:
    """The profile without its `points=N` (or another `pattern`'s number), and N."""
    found = pattern.search(text)
    if found is None:
        return text, None
    return (text[: found.start()] + text[found.end() :]).strip(), int(found.group(1))


def command_of(system: str, text: str) -> str:
    """The command whose options read one profile: the game's `odds`, or for Confrontation
    the blow's or the shot's own command (its first word, else what its options say)."""
    if system != "c5":
        return f"/{system} odds {text}"
    first, _, rest = text.strip().partition(" ")
    kind = C5_KINDS.get(first.lower())
    if kind is None:
        rest = text
        kind = "shoot" if _C5_SHOT.search(text) else "melee"
    return f"/c5 {kind} {rest.strip()}"


def quoted(name: str) -> str:
    return "«" + name.replace("«", "").replace("»", "").strip() + "»"


def odds_text(profile: str, vs: str) -> str:
    """The options of the game's `odds` command for one profile: `UNIT/WEAPON` becomes
    `attacker=UNIT weapon=WEAPON`, a bare `vs` names the target unit."""
    if profile and "=" not in profile:
        unit, _, weapon = profile.partition("/")
        profile = f"attacker={quoted(unit)}" + (f" weapon={quoted(weapon)}" if weapon else "")
    if vs and "=" not in vs:
        vs = f"target={quoted(vs)}"
    return f"{profile} {vs}".strip()


async def build(
    ctx: Context, system: str, label: str, profile: str, vs: str, target: Target
) -> Built:
    text, points = split_points(profile)
    kind, _, rest = text.partition(" ")
    if system == "c5" and kind.lower() in C5_KINDS:  # the kind stays in front of UNIT/WEAPON
        text = f"{kind} {odds_text(rest.strip(), vs)}"
    else:
        text = odds_text(text, vs)
    try:
        found = ctx.app.registry.find(command_of(system, text))
        sub = dataclasses.replace(ctx, spec=found.spec, opts=found.options())
        built = await EVALUATORS[system](sub, target)
    except UserError as err:
        reason = i18n.t(ctx.lang, err.key, **err.params)
        raise UserError("compare.bad_profile", label=label, reason=reason) from err
    attacker = option_named(sub, "attacker")
    if points is None and attacker:
        points = stored_points(await ctx.active_game(), str(attacker), system)
    return dataclasses.replace(built, points=points)


def stored_points(game: Any, unit_name: str, system: str) -> int | None:
    """A stored unit's cost, if its game keeps one (`POINTS_STAT`)."""
    from rules_core.game import transitions as tr

    stat = POINTS_STAT.get(system)
    if game is None or stat is None:
        return None
    try:
        unit = tr.find_unit(game.state, unit_name)
    except UserError:
        return None
    value = unit.stats.get(stat)
    return int(value) if isinstance(value, int) and value > 0 else None


class CompareArgs(Args):
    """Two to four profiles (each read later with the game's own odds options) and a target."""

    a: Annotated[str, OptionSpec("a", positional=True, required=True, max_length=300)]
    b: Annotated[str, OptionSpec("b", positional=True, required=True, max_length=300)]
    c: Annotated[str | None, OptionSpec("c", positional=True, max_length=300)] = None
    d: Annotated[str | None, OptionSpec("d", positional=True, max_length=300)] = None
    vs: Annotated[str | None, OptionSpec("vs", max_length=300, aliases=("contro",))] = None


async def compare_in(ctx: Context, system: str) -> Reply:
    args = ctx.args(CompareArgs)
    profiles = (args.a, args.b, args.c, args.d)
    given = [(label, text) for label, text in zip(LABELS, profiles, strict=True) if text]
    if len(given) < 2:
        raise UserError("compare.two_needed")
    vs, left = args.vs or "", None
    if system in _LEFT:
        vs, left = split_points(vs, _LEFT[system])
    built = [await build(ctx, system, label, text, vs, Target(left)) for label, text in given]
    results = await ctx.offload(cmp.compute, [b.job for b in built])
    rows = [cmp.row(r, b.points) for r, b in zip(results, built, strict=True)]
    answer = reply(ctx, system, given, built, results, rows)
    from bot.images.compare_chart import render_compare_chart
    from bot.images.render import attach

    # One chart of the table, drawn in the worker pool; pictures off or failed: the table alone.
    return await attach(
        ctx, answer, render_compare_chart, chart(ctx, system, given, built, rows), "compare.png"
    )


def chart(
    ctx: Context,
    system: str,
    given: list[tuple[str, str]],
    built: list[Built],
    rows: list[cmp.Row],
) -> CompareChart:
    """The facts of the chart: the table's numbers (bot/images/compare_chart.py)."""
    from bot.images.compare_chart import compare_facts

    def column(values: list[Any]) -> list[float | None]:
        return [None if v is None else float(v) for v in values]

    labels = [
        f"{label} · {b.name}" if b.name else label
        for (label, _), b in zip(given, built, strict=True)
    ]
    word = WORD.get(system, "damage")
    return compare_facts(
        ctx.lang,
        labels,
        [
            (f"compare.chart.{word}", column([r.damage for r in rows])),
            ("compare.chart.removed", column([r.removed for r in rows])),
            (f"compare.chart.{word}_per_100", column([r.per_100 for r in rows])),
        ],
    )


def num(ctx: Context, value: Any) -> str:
    return "–" if value is None else fmt_num(ctx.lang, float(value), 2)


def reply(
    ctx: Context,
    system: str,
    given: list[tuple[str, str]],
    built: list[Built],
    results: list[cmp.Odds],
    rows: list[cmp.Row],
) -> Reply:
    word = WORD.get(system, "damage")
    heads = [
        ctx.t(f"compare.col_{word}"),
        ctx.t("compare.col_removed"),
        ctx.t(f"compare.col_{word}_per_100"),
    ]
    widths = [max(len(h), 6) for h in heads]
    lines = ["   " + " ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True))]
    for (label, _), r in zip(given, rows, strict=True):
        cells = [num(ctx, r.damage), num(ctx, r.removed), num(ctx, r.per_100)]
        lines.append(
            f"{label}  " + " ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True))
        )
    blocks: list[Block] = []
    for (label, _), b, r in zip(given, built, rows, strict=True):
        line: Block = [bold(label + " "), code(b.summary)]
        if b.name:
            line.insert(1, plain(b.name + " "))
        if r.points:
            line.append(plain(" · " + i18n.tn(ctx.lang, "compare.points", r.points)))
        blocks.append(line)
    blocks.append([pre("\n".join(lines))])
    top = cmp.best(rows)
    # the ranking's own words: per 100 points only when every profile has points
    per_100 = all(r.per_100 is not None for r in rows)
    key = f"compare.best_{word}_per_100" if per_100 else f"compare.best_{word}"
    blocks.append([bold(ctx.t(key, label=given[top][0]))])
    if system in ("wm", "c5", "wow"):  # what "removed" means in that game
        blocks.append([plain(ctx.t(f"compare.{system}_removed"))])
    elif all(r.removed is None for r in rows):
        blocks.append([plain(ctx.t("compare.no_removed"))])
    data = {
        "system": system,
        "best": given[top][0],
        "profiles": [
            {
                "label": label,
                "name": b.name,
                "summary": b.summary,
                "points": r.points,
                "damage_mean": float(r.damage),
                "models_removed_mean": None if r.removed is None else float(r.removed),
                "damage_per_100": None if r.per_100 is None else float(r.per_100),
                "damage_distribution": [[v, p] for v, p in as_distribution(o.damage).items()],
            }
            for (label, _), b, r, o in zip(given, built, rows, results, strict=True)
        ],
    }
    return Reply(title=ctx.t("compare.title"), blocks=blocks, data=data)


async def compare_here(ctx: Context) -> Reply:
    """`/compare`: the chat's game's comparison."""
    game = await ctx.active_game()
    system = game.state.system if game is not None else None
    if system not in EVALUATORS:
        named = (typed_command(ctx.app.registry, f"/{s} compare", ctx.lang) for s in EVALUATORS)
        raise UserError("compare.which_game", games=", ".join(named))
    assert system is not None
    return await compare_in(ctx, system)


def in_game(system: str) -> Callable[[Context], Awaitable[Reply]]:
    async def handler(ctx: Context) -> Reply:
        return await compare_in(ctx, system)

    return handler


EXAMPLES = {
    "aos": '/aos compare "attacks=2 hit=3+ wound=3+ rend=1 damage=1 points=110" '
    '"attacks=3 hit=4+ wound=3+ damage=2 points=140" vs="save=4+ wounds=1 models=10"',
    "wm": '/wm compare "mat=7 pow=12 str=10" "mat=6 pow=14 str=10" vs="def=13 arm=17"',
    "inf": '/inf compare "attr=12 burst=3 dam=13 ammo=N points=28" '
    '"attr=11 burst=2 dam=14 ammo=DA points=33" vs="arm=1 w=1"',
    "c5": '/c5 compare "att=5 str=7 points=30" "aim=4 str=8 points=35" vs="res=6 wounds=3"',
    "wow": '/wow compare "power=4 points=20" "power=3 reroll_attack=1 points=15" '
    'vs="defense=2 health=5"',
}
SPECS = [
    CommandSpec(
        path=("compare",),
        handler=compare_here,
        readonly=True,
        slow=True,
        aliases=("confronta",),
        args=CompareArgs,
        examples=(EXAMPLES["aos"].replace("/aos compare", "/compare", 1),),
    ),
    *(
        CommandSpec(
            path=(system, "compare"),
            handler=in_game(system),
            readonly=True,
            slow=True,
            aliases=("confronta",),
            args=CompareArgs,
            examples=(EXAMPLES[system],),
        )
        for system in EVALUATORS
    ),
]
