"""/wow: World of Warcraft Miniatures attacks, heals and their exact odds."""

from __future__ import annotations

import re
from typing import Any

from bot.commands.context import Context
from bot.commands.game import (
    apply_change,
    commit,
    name_of,
    notes_blocks,
    require_player,
    require_unit_rights,
    unit_blocks,
)
from bot.commands.game import load as load_game
from bot.commands.models import Block, Reply, Span, bold, code, italic, mention, plain, strike
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.spec import CommandSpec, OptionSpec
from bot.storage import rolls as rolls_repo
from bot.storage.games import StoredGame
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.systems.base import Note
from rules_core.systems.wow import clock
from rules_core.systems.wow import system as wow_state
from rules_core.systems.wow.attack import (
    AttackRequest,
    HealRequest,
    Step,
    attack_odds,
    crit_chance,
    resolve_attack,
    resolve_heal,
)
from rules_core.systems.wow.pool import MAX_POOL

CRIT_MAX = 20
_CRIT = re.compile(r"^(damage|danno|heal|cura):(\d{1,2})$|^(effect|effetto)$")


def parse_crit(text: str | None, allowed: set[str]) -> dict[str, int]:
    """`crit=damage:2`, `crit=effect`, `crit=heal:1`, comma separated; Italian words too."""
    out: dict[str, int] = {}
    if not text:
        return out
    for part in text.lower().split(","):
        m = _CRIT.match(part.strip())
        if m is None:
            raise UserError("wow.bad_crit", value=part.strip()[:30])
        kind = {"danno": "damage", "cura": "heal", "effetto": "effect"}.get(
            m.group(1) or m.group(3), m.group(1) or m.group(3)
        )
        if kind not in allowed:
            raise UserError("wow.bad_crit", value=part.strip()[:30])
        amount = int(m.group(2)) if m.group(2) else 1
        if amount > CRIT_MAX:
            raise UserError("wow.crit_too_big", limit=CRIT_MAX)
        out[kind] = amount
    return out


async def target_unit(ctx: Context) -> tuple[StoredGame, Unit] | None:
    """`target=UNIT`: the character of this chat's WoW game the attack or heal is aimed at."""
    name = ctx.opts.get("target")
    if not name:
        if ctx.opts.get("apply"):
            raise UserError("wow.apply_needs_target")
        return None
    game = await load_game(ctx)
    require_wow_game(game.state)
    return game, tr.find_unit(game.state, name)


def attack_request(ctx: Context, target: Unit | None = None) -> AttackRequest:
    """The options, with the defence dice read from the target's card when not given:
    Armor against physical attacks, Resist against magical ones (602)."""
    crit = parse_crit(ctx.opts["crit"], {"damage", "effect"})
    defense = ctx.opts["defense"]
    if defense is None:
        stat = "armor" if ctx.opts["type"] == "physical" else "resist"
        defense = target.stats.get(stat, 0) if target is not None else 0
    return AttackRequest(
        power=ctx.opts["power"],
        defense=defense,
        type=ctx.opts["type"],
        reroll_attack=ctx.opts["reroll_attack"],
        reroll_defense=ctx.opts["reroll_defense"],
        elevation=ctx.opts["elevation"],
        cover=ctx.opts["cover"],
        crit_damage=crit.get("damage", 0),
        crit_effect="effect" in crit,
    )


def faces(step: Step) -> list[Span]:
    """The dice in rolling order: rerolled ones struck through, then their replacements."""
    out: list[Span] = [plain("[")]
    shown = [
        strike(str(f)) if i in step.rerolled else plain(str(f)) for i, f in enumerate(step.dice)
    ]
    shown += [bold(str(step.final[i])) for i in step.rerolled]
    for i, span in enumerate(shown):
        if i:
            out.append(plain(", "))
        out.append(span)
    out.append(plain("]"))
    return out


def step_block(ctx: Context, step: Step, req: AttackRequest | None) -> Block:
    if step.name in ("attack", "defense", "heal"):
        label = ctx.t(f"wow.step.{step.name}")
        if step.name == "defense" and req is not None:
            label = ctx.t(f"wow.step.defense_{req.type}")
        line: Block = [bold(label + ": "), *faces(step), plain(" → ")]
        one = "_one" if step.total == 1 else ""
        line.append(bold(ctx.t(f"wow.count.{step.name}{one}", n=step.total)))
        if step.name != "defense" and 10 in step.final:
            line.append(plain(" " + ctx.t("wow.crit_mark")))
        return line
    if step.name == "crit":
        return [plain(ctx.t("wow.step.crit_damage", hits=step.total))]
    if step.name == "crit_effect":
        return [plain(ctx.t("wow.step.crit_effect"))]
    return [bold(ctx.t("wow.step.damage") + ": "), bold(str(step.total))]


async def log_roll(ctx: Context, source: DiceSource, result: dict[str, Any]) -> int:
    """Attack dice go to the chat's roll log like any roll (/roll show, campaign journals)."""
    return await rolls_repo.add(
        ctx.conn,
        chat_key=ctx.request.chat_key,
        user_id=ctx.request.user_id,
        user_name=ctx.request.user_name,
        expression=ctx.request.text or ctx.spec.name,
        faces=list(source.consumed),
        seed=source.seed,
        result=[result],
        now=ctx.now,
    )


async def attack(ctx: Context) -> Reply:
    found = await target_unit(ctx)
    req = attack_request(ctx, found[1] if found else None)
    source = ctx.dice(ctx.opts["dice"])
    res = resolve_attack(req, source)
    data = {
        "system": "wow",
        "steps": [s.model_dump() for s in res.steps],
        "outcome": res.outcome.model_dump(),
    }
    await log_roll(ctx, source, {"total": res.outcome.damage, **data})
    kind = ctx.t(f"wow.type.{req.type}")
    title = ctx.t("wow.attack_title", power=req.power, type=kind, defense=req.defense)
    blocks = [step_block(ctx, s, req) for s in res.steps]
    blocks.append([plain(ctx.t("wow.rule_ref"))])
    if found is not None and ctx.opts["apply"]:
        blocks += await apply_to(ctx, found[1].name, "wow_attack", res.outcome.damage, heal=False)
        data["applied"] = {"unit": found[1].name, "damage": res.outcome.damage}
    return Reply(title=title, blocks=blocks, data=data)


async def apply_to(ctx: Context, name: str, kind: str, amount: int, *, heal: bool) -> list[Block]:
    """Damage or heal the target as one event that /undo reverts; a kill scores its VP."""
    notes: list[Note] = []

    def change(state: GameState) -> GameState:
        notes.clear()  # runs again after a version conflict
        if heal:
            return tr.heal(state, name, amount)
        return tr.damage(state, name, amount, notes=notes)

    done = await apply_change(ctx, change, kind, unit=name, attack=True)
    if not done.changed or done.unit is None:
        return [[plain(ctx.t("wow.nothing_applied", unit=name))]]
    return notes_blocks(ctx, notes) + unit_blocks(ctx, done.unit, done.after.system)


async def heal(ctx: Context) -> Reply:
    crit = parse_crit(ctx.opts["crit"], {"heal"})
    req = HealRequest(
        power=ctx.opts["power"], rerolls=ctx.opts["reroll"], crit_heal=crit.get("heal", 0)
    )
    found = await target_unit(ctx)
    source = ctx.dice(ctx.opts["dice"])
    res = resolve_heal(req, source)
    data = {
        "system": "wow",
        "steps": [s.model_dump() for s in res.steps],
        "outcome": res.outcome.model_dump(),
    }
    await log_roll(ctx, source, {"total": res.outcome.healed, **data})
    blocks = [step_block(ctx, s, None) for s in res.steps]
    blocks.append([bold(ctx.t("wow.healed", n=res.outcome.healed))])
    if found is not None and ctx.opts["apply"]:
        blocks += await apply_to(ctx, found[1].name, "wow_heal", res.outcome.healed, heal=True)
        data["applied"] = {"unit": found[1].name, "healed": res.outcome.healed}
    return Reply(title=ctx.t("wow.heal_title", power=req.power), blocks=blocks, data=data)


async def odds(ctx: Context) -> Reply:
    found = await target_unit(ctx)
    req = attack_request(ctx, found[1] if found else None)
    dist = as_distribution(attack_odds(req))
    p_crit = float(crit_chance(req))
    kind = ctx.t(f"wow.type.{req.type}")
    heading: Block = [
        code(ctx.t("wow.attack_title", power=req.power, type=kind, defense=req.defense))
    ]
    blocks = distribution_blocks(ctx, dist, heading)
    blocks.append([plain(ctx.t("wow.p_crit", p=f"{p_crit * 100:.1f}%"))])
    data = {
        "system": "wow",
        **distribution_data(dist),
        "p_critical": p_crit,
        "p_damage": 1 - dist.probabilities.get(0, 0.0),
    }
    return Reply(title=ctx.t("wow.odds_title"), blocks=blocks, data=data)


# --- the clocks (rules 408, 500-502) -----------------------------------------------------------


def require_wow_game(state: GameState) -> None:
    if state.system != "wow":
        raise UserError("wow.not_a_wow_game", system=state.system)


def clock_blocks(ctx: Context, state: GameState) -> tuple[list[Block], list[str]]:
    """The Master Clock, every character's Personal Clock, and who picks the next turn."""
    clocks = wow_state.clocks_of(state)
    chars = wow_state.characters(state, clocks)
    blocks: list[Block] = [[bold(ctx.t("wow.master_clock", tick=clocks.master, round=state.round))]]
    for c in sorted(chars, key=lambda c: (clock.offset(clocks.master, c.clock), c.name)):
        ahead = clock.offset(clocks.master, c.clock)
        mark = "▶ " if ahead == 0 else "  "
        blocks.append(
            [
                code(f"{mark}{c.clock:>2}"),
                plain(" " + c.name),
                italic(f" ({name_of(state, c.owner)}, +{ahead})"),
            ]
        )
    chooser = wow_state.next_chooser(state)
    if chooser is None:
        blocks.append([plain(ctx.t("wow.nobody_ready"))])
        return blocks, []
    ready = ", ".join(c.name for c in wow_state.ready_now(state))
    blocks.append(
        [plain(ctx.t("wow.ready", units=ready) + " "), mention(chooser, name_of(state, chooser))]
    )
    return blocks, [chooser]


def clock_reply(ctx: Context, state: GameState, head: list[Block]) -> Reply:
    blocks, mentions = clock_blocks(ctx, state)
    clocks = wow_state.clocks_of(state)
    return Reply(
        title=ctx.t("wow.clock_title"),
        blocks=head + blocks,
        mentions=mentions,
        data={
            "system": "wow",
            "master": clocks.master,
            "round": state.round,
            "clocks": {c.name: c.clock for c in wow_state.characters(state, clocks)},
            "ready": [c.name for c in wow_state.ready_now(state)],
            "chooser": wow_state.next_chooser(state),
        },
    )


async def clock_show(ctx: Context) -> Reply:
    game = await load_game(ctx)
    require_wow_game(game.state)
    reply = clock_reply(ctx, game.state, [])
    reply.mentions = []  # looking at the clock pings nobody
    return reply


async def take_turn(ctx: Context, kind: str) -> Reply:
    game = await load_game(ctx)
    state = game.state
    require_wow_game(state)
    unit = tr.find_unit(state, ctx.opts["name"])
    require_unit_rights(ctx, state, unit, attack=False)
    before = wow_state.clocks_of(state).personal.get(fold(unit.name), 1)
    if kind == "act":
        new = wow_state.act(state, unit, ctx.opts["cost"])
    else:
        new = wow_state.moved(state, unit)
    await commit(ctx, game, new, f"wow_{kind}")
    after = wow_state.clocks_of(new).personal[fold(unit.name)]
    head: list[Block] = [
        [plain(ctx.t("wow.turn_taken", unit=unit.name, before=before, after=after))]
    ]
    return clock_reply(ctx, new, head)


async def act(ctx: Context) -> Reply:
    return await take_turn(ctx, "act")


async def moved(ctx: Context) -> Reply:
    return await take_turn(ctx, "moved")


async def tick(ctx: Context) -> Reply:
    game = await load_game(ctx)
    state = game.state
    require_wow_game(state)
    require_player(ctx, state)
    new, report = wow_state.tick(state)
    await commit(ctx, game, new, "wow_tick")
    head: list[Block] = [[plain(ctx.t("wow.tick_ended", tick=report.ended))]]
    if report.vp_locations:
        head.append([plain(ctx.t("wow.vp_locations"))])
    if report.cards_ready:
        head.append([plain(ctx.t("wow.cards_ready"))])
    if report.new_round:
        head.append([bold(ctx.t("wow.new_round", round=new.round))])
    reply = clock_reply(ctx, new, head)
    reply.data = {**(reply.data or {}), **report.model_dump()}
    return reply


def pool(name: str, *aliases: str, required: bool = False) -> OptionSpec:
    return OptionSpec(
        name,
        type="int",
        min_value=0,
        max_value=MAX_POOL,
        required=required,
        default=0,
        aliases=aliases,
    )


ATTACK_OPTIONS = (
    pool("power", "potere", "pow", required=True),
    OptionSpec(
        "defense",
        type="int",
        min_value=0,
        max_value=MAX_POOL,
        aliases=("difesa", "armor", "armatura", "resist", "resistenza", "def"),
    ),
    OptionSpec("type", choices=("physical", "magical"), default="physical", aliases=("tipo",)),
    pool("reroll_attack", "ritira_attacco"),
    pool("reroll_defense", "ritira_difesa"),
    OptionSpec("elevation", type="flag", aliases=("altura", "elevated")),
    OptionSpec("cover", type="flag", aliases=("copertura", "coperto")),
    OptionSpec("crit", max_length=60, aliases=("critico",)),
)
DICE = OptionSpec("dice", type="faces", aliases=("dadi",))
TARGET = OptionSpec("target", max_length=40, autocomplete="units", aliases=("bersaglio",))
APPLY = OptionSpec("apply", type="flag", aliases=("applica",))

SPECS = [
    CommandSpec(
        path=("wow", "attack"),
        handler=attack,
        aliases=("attacco",),
        options=(*ATTACK_OPTIONS, TARGET, APPLY, DICE),
        examples=(
            "/wow attack power=4 defense=2",
            "/wow attack power=3 defense=1 crit=damage:2 type=magical dice=2,5,10,4",
        ),
    ),
    CommandSpec(
        path=("wow", "heal"),
        handler=heal,
        aliases=("cura",),
        options=(
            pool("power", "potere", required=True),
            pool("reroll", "ritira"),
            OptionSpec("crit", max_length=60, aliases=("critico",)),
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/wow heal power=3", "/wow heal power=2 crit=heal:1"),
    ),
    CommandSpec(
        path=("wow", "odds"),
        handler=odds,
        readonly=True,
        aliases=("prob",),
        options=(*ATTACK_OPTIONS, TARGET),
        examples=("/wow odds power=4 defense=2", "/wow odds power=5 defense=3 elevation"),
    ),
    CommandSpec(path=("wow", "clock"), handler=clock_show, readonly=True, aliases=("orologio",)),
    CommandSpec(
        path=("wow", "act"),
        handler=act,
        aliases=("agisci",),
        options=(
            OptionSpec("name", positional=True, required=True, max_length=40, autocomplete="units"),
            OptionSpec(
                "cost", type="int", required=True, min_value=0, max_value=9, aliases=("costo",)
            ),
        ),
        examples=("/wow act Thrall cost=3",),
    ),
    CommandSpec(
        path=("wow", "moved"),
        handler=moved,
        aliases=("mosso",),
        options=(
            OptionSpec("name", positional=True, required=True, max_length=40, autocomplete="units"),
        ),
        examples=("/wow moved Thrall",),
    ),
    CommandSpec(path=("wow", "tick"), handler=tick, aliases=("scatto",)),
]
