"""/wow: World of Warcraft Miniatures attacks, heals and their exact odds, the clocks, Action
Cards, Battleground respawns, the 102.2 standings and per-chat settings."""

from __future__ import annotations

from typing import Any

from bot.commands.context import Context
from bot.commands.game_view import notes_blocks, unit_blocks
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.spec import (
    APPLY,
    ATTACKER,
    DICE,
    TARGET,
    CommandSpec,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    unit_opt,
)
from bot.commands.system_kit import (
    SystemGame,
    SystemSettings,
    dice_spans,
    log_roll,
    pct,
    resolution,
)
from bot.protocol import Block, Reply, Span, bold, code, italic, mention, plain, strike
from bot.session import (
    apply_change,
    name_of,
    require_player,
    require_unit_rights,
)
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.steps import Step
from rules_core.systems.base import Note
from rules_core.systems.wow import cards as wow_cards
from rules_core.systems.wow import clock, victory
from rules_core.systems.wow import system as wow_state
from rules_core.systems.wow.attack import (
    AttackRequest,
    HealRequest,
    attack_odds,
    crit_chance,
    resolve_attack,
    resolve_heal,
)
from rules_core.systems.wow.cards import Card, parse_crit
from rules_core.systems.wow.pool import MAX_POOL
from rules_core.systems.wow.settings import CHOICES, WowSettings, update

SYSTEM = "wow"
TURN_TYPES = ("physical", "magical")


# --- settings (digest section 8) ----------------------------------------------------------------


async def synced(ctx: Context, state: GameState) -> GameState:
    """The game with the chat's settings copied in (the game-state hooks read the copy)."""
    return wow_state.with_settings(state, await SETTINGS.load(ctx), replace=True)


async def copy_to_game(
    ctx: Context, game: StoredGame | None, current: WowSettings, changes: dict[str, str]
) -> None:
    """The chat's WoW game gets a copy of a change at once (and with every /wow command that
    changes it), so kills scored by /unit damage follow it."""
    if game is None or game.state.system != SYSTEM:
        return
    new = wow_state.with_settings(game.state, current, replace=True)
    if new != game.state:
        await apply_change(ctx, new, "wow_settings", game=game)


SETTINGS = SystemSettings(
    SYSTEM,
    WowSettings,
    tuple(CHOICES),
    update,
    "wow.settings_admin",
    per_value=True,
    on_change=copy_to_game,
)


# --- reading the game ---------------------------------------------------------------------------

GAME = SystemGame(SYSTEM, "wow.not_a_wow_game", "wow.apply_needs_target")


async def actor_and_card(ctx: Context, option: str) -> tuple[Unit | None, Card | None]:
    """`attacker=NAME` (`healer=` for heals) and `card=CARD`: the acting character and the
    Action Card it plays, read from the chat's game."""
    name = ctx.opts.get(option)
    card_name = ctx.opts.get("card")
    if not name:
        if card_name:
            raise UserError("wow.card_needs_actor", option=option)
        return None, None
    game = await GAME.load(ctx)
    actor = tr.find_unit(game.state, name)
    return actor, wow_cards.find_card(actor, card_name) if card_name else None


def attack_request(ctx: Context, target: Unit | None, card: Card | None) -> AttackRequest:
    """The options, else the card's power, type and crit ability; the defence dice from the
    target's card when not given: Armor against physical attacks, Resist against magical ones
    (601.2)."""
    if card is not None and card.type not in TURN_TYPES:
        raise UserError("wow.card_not_attack", card=card.name, type=card.type)
    power = ctx.opts["power"]
    if power is None:
        if card is None:
            raise UserError("wow.power_needed")
        power = card.power
    kind = ctx.opts["type"] or (card.type if card is not None else "physical")
    crit_text = ctx.opts["crit"] if ctx.opts["crit"] else (card.crit if card else "")
    crit = parse_crit(crit_text, {"damage", "effect"})
    defense = ctx.opts["defense"]
    if defense is None:
        stat = "armor" if kind == "physical" else "resist"
        defense = target.stats.get(stat, 0) if target is not None else 0
    return AttackRequest(
        power=power,
        defense=defense,
        type=kind,
        reroll_attack=ctx.opts["reroll_attack"],
        reroll_defense=ctx.opts["reroll_defense"],
        elevation=ctx.opts["elevation"],
        cover=ctx.opts["cover"],
        crit_damage=crit.get("damage", 0),
        crit_effect="effect" in crit,
    )


def faces(step: Step) -> list[Span]:
    """The dice in rolling order: rerolled ones struck through, then their replacements."""
    shown = [
        strike(str(f)) if i in step.rerolled else plain(str(f))
        for i, f in enumerate(step.first_rolls)
    ]
    shown += [bold(str(step.final[i])) for i in step.rerolled]
    return dice_spans(shown)


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


def roll_expression(ctx: Context) -> str:
    """What the roll log names a WoW roll by: the command's text, else (a Discord command) its
    name, without the slash the other systems put in front."""
    return ctx.request.text or ctx.spec.name


def card_block(ctx: Context, actor: Unit, card: Card) -> Block:
    return [italic(ctx.t("wow.card_used", unit=actor.name, card=card.name, cost=card.cost))]


async def check_play(
    ctx: Context, found: tuple[StoredGame, Unit] | None, actor: Unit | None, card: Card | None
) -> None:
    """Before any die is rolled: may the caller apply this, and may the character play now
    (its turn, the card ready, the cost payable)? The same checks run again on apply."""
    if found is None or not ctx.opts.get("apply") or actor is None:
        return
    state = found[0].state
    require_unit_rights(ctx, state, actor, attack=False)
    if card is not None:
        wow_state.play_card(state, actor, card.name, [])
    else:
        wow_state.start(state, actor, [])


async def attack(ctx: Context) -> Reply:
    found = await GAME.target(ctx)
    actor, card = await actor_and_card(ctx, "attacker")
    req = attack_request(ctx, found[1] if found else None, card)
    await check_play(ctx, found, actor, card)
    source = ctx.dice(ctx.opts["dice"])
    res = resolve_attack(req, source)
    data = resolution(SYSTEM, res.steps, res.outcome.model_dump())
    await log_roll(ctx, source, res.outcome.damage, data, expression=roll_expression(ctx))
    kind = ctx.t(f"wow.type.{req.type}")
    title = ctx.t("wow.attack_title", power=req.power, type=kind, defense=req.defense)
    blocks: list[Block] = [card_block(ctx, actor, card)] if actor and card else []
    blocks += [step_block(ctx, s, req) for s in res.steps]
    blocks.append([plain(ctx.t("wow.rule_ref"))])
    if found is not None and ctx.opts["apply"]:
        blocks += await apply_to(
            ctx, found[1].name, res.outcome.damage, heal=False, actor=actor, card=card, data=data
        )
        data["applied"] = {"unit": found[1].name, "damage": res.outcome.damage}
    return Reply(title=title, blocks=blocks, data=data)


async def apply_to(
    ctx: Context,
    name: str,
    amount: int,
    *,
    heal: bool,
    actor: Unit | None = None,
    card: Card | None = None,
    data: dict[str, Any] | None = None,
) -> list[Block]:
    """Damage or heal the target as one event that /undo reverts; a kill scores its VP. With
    an acting character its turn begins (respawning it if it waits to, 501.1) and a card is
    played: its cost paid and the card exhausted (300.5), all in the same event."""
    chat = await SETTINGS.load(ctx)
    notes: list[Note] = []

    def change(state: GameState) -> GameState:
        notes.clear()  # runs again after a version conflict
        state = wow_state.with_settings(state, chat, replace=True)
        if actor is not None:
            me = tr.find_unit(state, actor.name)
            if card is not None:
                state = wow_state.play_card(state, me, card.name, notes)
            else:
                state = wow_state.start(state, me, notes)
            clocks = wow_state.clocks_of(state)
            clocks.striker = me.owner
            state = wow_state.with_clocks(state, clocks)
        if heal:
            state = tr.heal(state, name, amount)
        else:
            state = tr.damage(state, name, amount, notes=notes)
        clocks = wow_state.clocks_of(state)
        if clocks.striker is not None:
            clocks.striker = None
            state = wow_state.with_clocks(state, clocks)
        return state

    kind = "wow_heal" if heal else "wow_attack"
    if actor is not None:
        game = await GAME.load(ctx)
        require_unit_rights(ctx, game.state, actor, attack=False)
        done = await apply_change(ctx, change, kind, game=game)
        target = next((u for u in done.after.units if fold(u.name) == fold(name)), None)
    else:
        done = await apply_change(ctx, change, kind, unit=name, attack=True)
        target = done.unit
    if not done.changed or target is None:
        return [[plain(ctx.t("wow.nothing_applied", unit=name))]]
    out: list[Block] = []
    if actor is not None and card is not None:
        key = fold(actor.name)
        before = wow_state.clocks_of(done.before).personal.get(key, 1)
        after = wow_state.clocks_of(done.after).personal.get(key, 1)
        out.append([plain(ctx.t("wow.card_played", card=card.name, before=before, after=after))])
        if data is not None:
            data["card"] = {"name": card.name, "clock": [before, after]}
    out += notes_blocks(ctx, notes)
    if actor is not None:
        out.append([plain(ctx.t("wow.turn_goes_on", unit=actor.name))])
    return out + unit_blocks(ctx, target, done.after.system)


async def heal(ctx: Context) -> Reply:
    actor, card = await actor_and_card(ctx, "healer")
    if card is not None and card.type != "heal":
        raise UserError("wow.card_not_heal", card=card.name, type=card.type)
    power = ctx.opts["power"]
    if power is None:
        if card is None:
            raise UserError("wow.power_needed")
        power = card.power
    crit = parse_crit(ctx.opts["crit"] or (card.crit if card else ""), {"heal"})
    req = HealRequest(power=power, rerolls=ctx.opts["reroll"], crit_heal=crit.get("heal", 0))
    found = await GAME.target(ctx)
    await check_play(ctx, found, actor, card)
    source = ctx.dice(ctx.opts["dice"])
    res = resolve_heal(req, source)
    data = resolution(SYSTEM, res.steps, res.outcome.model_dump())
    await log_roll(ctx, source, res.outcome.healed, data, expression=roll_expression(ctx))
    blocks: list[Block] = [card_block(ctx, actor, card)] if actor and card else []
    blocks += [step_block(ctx, s, None) for s in res.steps]
    blocks.append([bold(ctx.t("wow.healed", n=res.outcome.healed))])
    if found is not None and ctx.opts["apply"]:
        blocks += await apply_to(
            ctx, found[1].name, res.outcome.healed, heal=True, actor=actor, card=card, data=data
        )
        data["applied"] = {"unit": found[1].name, "healed": res.outcome.healed}
    return Reply(title=ctx.t("wow.heal_title", power=req.power), blocks=blocks, data=data)


async def odds(ctx: Context) -> Reply:
    found = await GAME.target(ctx)
    _, card = await actor_and_card(ctx, "attacker")
    req = attack_request(ctx, found[1] if found else None, card)
    dist = as_distribution(await ctx.offload(attack_odds, req))  # off the event loop
    p_crit = float(crit_chance(req))
    kind = ctx.t(f"wow.type.{req.type}")
    heading: Block = [
        code(ctx.t("wow.attack_title", power=req.power, type=kind, defense=req.defense))
    ]
    blocks = distribution_blocks(ctx, dist, heading)
    blocks.append([plain(ctx.t("wow.p_crit", p=pct(p_crit)))])
    data = {
        "system": SYSTEM,
        **distribution_data(dist),
        "p_critical": p_crit,
        "p_damage": 1 - dist.probabilities.get(0, 0.0),
    }
    return Reply(title=ctx.t("wow.odds_title"), blocks=blocks, data=data)


# --- Action Cards (rules 106, 202, 300, 502.2) ------------------------------------------------


async def card_cmd(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, ctx.opts["name"])
    action = ctx.opts["action"]
    if action == "list":
        return card_list_reply(ctx, unit)
    if not ctx.opts.get("card"):
        raise UserError("wow.card_needs_name", action=action)
    chat = await SETTINGS.load(ctx)
    removed: list[Card] = []

    def change(state: GameState) -> GameState:
        new = wow_state.with_settings(state, chat, replace=True).clone()
        mine = tr.find_unit(new, unit.name)
        if action == "add":
            if ctx.opts["cost"] is None:
                raise UserError("wow.card_needs_cost")
            card = wow_cards.make_card(
                ctx.opts["card"],
                ctx.opts["cost"],
                ctx.opts["power"],
                ctx.opts["type"],
                ctx.opts["range"],
                ctx.opts["crit"],
            )
            wow_cards.add_card(mine, card, wow_state.settings_of(new).max_cards)
        else:
            removed[:] = [wow_cards.remove_card(mine, ctx.opts["card"])]
        return new

    done = await apply_change(ctx, change, f"wow_card_{action}", unit=unit.name, game=game)
    after = done.unit or unit
    reply = card_list_reply(ctx, after)
    key = "wow.card_added" if action == "add" else "wow.card_removed"
    shown = removed[0].name if removed else ctx.opts["card"]
    reply.blocks.insert(0, [plain(ctx.t(key, unit=after.name, card=shown))])
    return reply


def card_list_reply(ctx: Context, unit: Unit) -> Reply:
    cards = wow_cards.cards_of(unit)
    blocks: list[Block] = [[code(c.line())] for c in cards]
    if not cards:
        blocks.append([plain(ctx.t("wow.no_cards", unit=unit.name))])
    else:
        blocks.append([italic(ctx.t("wow.card_legend"))])
    return Reply(
        title=ctx.t("wow.cards_title", unit=unit.name),
        blocks=blocks,
        data={"system": SYSTEM, "unit": unit.name, "cards": [c.model_dump() for c in cards]},
    )


# --- the clocks (rules 408, 500-502) -----------------------------------------------------------


def clock_blocks(ctx: Context, state: GameState) -> tuple[list[Block], list[str]]:
    """The Master Clock, every character's Personal Clock, and who picks the next turn."""
    clocks = wow_state.clocks_of(state)
    chars = wow_state.characters(state, clocks)
    blocks: list[Block] = [[bold(ctx.t("wow.master_clock", tick=clocks.master, round=state.round))]]
    for c in sorted(chars, key=lambda c: (clock.offset(clocks.master, c.clock), c.name)):
        ahead = clock.offset(clocks.master, c.clock)
        mark = "▶ " if ahead == 0 else "  "
        line: Block = [
            code(f"{mark}{c.clock:>2}"),
            plain(" " + c.name),
            italic(f" ({name_of(state, c.owner)}, +{ahead})"),
        ]
        if not c.in_play:
            line.append(plain(" · " + ctx.t("wow.awaiting_respawn")))
        blocks.append(line)
    current = wow_state.turn_unit(state)
    if current is not None:
        blocks.append([plain(ctx.t("wow.turn_in_progress_note", unit=current.name))])
        return blocks, []
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
    current = wow_state.turn_unit(state)
    return Reply(
        title=ctx.t("wow.clock_title"),
        blocks=head + blocks,
        mentions=mentions,
        data={
            "system": SYSTEM,
            "master": clocks.master,
            "round": state.round,
            "clocks": {c.name: c.clock for c in wow_state.characters(state, clocks)},
            "ready": [c.name for c in wow_state.ready_now(state)],
            "chooser": wow_state.next_chooser(state),
            "turn": current.name if current else None,
            "respawn": [c.name for c in wow_state.characters(state, clocks) if not c.in_play],
        },
    )


async def clock_show(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    reply = clock_reply(ctx, game.state, [])
    reply.mentions = []  # looking at the clock pings nobody
    return reply


def card_names(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


async def take_turn(ctx: Context, kind: str) -> Reply:
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    unit = tr.find_unit(state, ctx.opts["name"])
    require_unit_rights(ctx, state, unit, attack=False)
    before = wow_state.clocks_of(state).personal.get(fold(unit.name), 1)
    notes: list[Note] = []
    played = card_names(ctx.opts.get("card")) if kind == "act" else []
    if kind == "act" and ctx.opts["react"]:
        new = wow_state.react(state, unit, ctx.opts["cost"] or 0, played)
    elif kind == "act":
        new = wow_state.act(state, unit, ctx.opts["cost"] or 0, played, notes)
    else:
        new = wow_state.moved(state, unit, notes)
    await apply_change(ctx, new, f"wow_{kind}", game=game)
    after = wow_state.clocks_of(new).personal[fold(unit.name)]
    head: list[Block] = notes_blocks(ctx, notes)
    if played:
        mine = tr.find_unit(new, unit.name)
        names = [wow_cards.find_card(mine, n).name for n in played]
        head.append([plain(ctx.t("wow.cards_exhausted", unit=unit.name, cards=", ".join(names)))])
    key = "wow.turn_taken" if before != after else "wow.turn_ended"
    head.append([plain(ctx.t(key, unit=unit.name, before=before, after=after))])
    return clock_reply(ctx, new, head)


async def act(ctx: Context) -> Reply:
    return await take_turn(ctx, "act")


async def moved(ctx: Context) -> Reply:
    return await take_turn(ctx, "moved")


async def tick(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = await synced(ctx, game.state)
    require_player(ctx, state)
    new, report = wow_state.tick(state)
    await apply_change(ctx, new, "wow_tick", game=game)
    head: list[Block] = [[plain(ctx.t("wow.tick_ended", tick=report.ended))]]
    if report.vp_locations:
        head.append([plain(ctx.t("wow.vp_locations"))])
    if report.cards_ready:
        head.append([plain(ctx.t("wow.cards_ready"))])
        if report.readied:
            head.append([italic(", ".join(report.readied))])
    if report.new_round:
        head.append([bold(ctx.t("wow.new_round", round=new.round))])
    reply = clock_reply(ctx, new, head)
    reply.data = {**(reply.data or {}), **report.model_dump()}
    return reply


# --- victory (rules 102, 403.2c, 502.1) --------------------------------------------------------


async def standings_cmd(ctx: Context) -> Reply:
    game = await GAME.load(ctx)
    state = game.state
    rows = wow_state.standings(state)
    decision = victory.decide(rows)
    blocks: list[Block] = []
    for row in sorted(rows, key=lambda r: (-r.margin, -r.honor)):
        mark = "✔ " if row.reached else "  "
        blocks.append(
            [
                code(mark),
                bold(name_of(state, row.player)),
                plain(
                    " "
                    + ctx.t("wow.standing", vp=row.vp, honor=row.honor, margin=f"{row.margin:+d}")
                ),
            ]
        )
    blocks += notes_blocks(ctx, wow_state.victory_notes(state))
    if decision.reason == "none":
        blocks.append([plain(ctx.t("wow.win_none"))])
    return Reply(
        title=ctx.t("wow.standings_title"),
        blocks=blocks,
        data={
            "system": SYSTEM,
            "standings": [
                {**r.model_dump(), "margin": r.margin, "reached": r.reached} for r in rows
            ],
            "winner": decision.winner,
            "reason": decision.reason,
            "tied": decision.tied,
        },
    )


# --- the command specs ------------------------------------------------------------------------


def pool(name: str, *aliases: str, required: bool = False, default: int | None = 0) -> OptionSpec:
    return OptionSpec(
        name,
        type="int",
        min_value=0,
        max_value=MAX_POOL,
        required=required,
        default=default,
        aliases=aliases,
    )


NAME = unit_opt("name", positional=True, required=True)
CARD = OptionSpec("card", max_length=40, aliases=("carta",))
ATTACK_OPTIONS = (
    pool("power", "potere", "pow", default=None),
    int_opt("defense", "difesa", "armor", "armatura", "resist", "resistenza", "def", hi=MAX_POOL),
    OptionSpec("type", choices=TURN_TYPES, aliases=("tipo",)),
    pool("reroll_attack", "ritira_attacco"),
    pool("reroll_defense", "ritira_difesa"),
    flag_opt("elevation", "altura", "elevated"),
    flag_opt("cover", "copertura", "coperto"),
    OptionSpec("crit", max_length=60, aliases=("critico",)),
)
SETTING_OPTIONS = tuple(
    OptionSpec(name, choices=CHOICES[name], aliases=aliases)
    for name, aliases in (
        ("kill_scorer", ("punti_uccisione",)),
        ("battleground", ("campo_di_battaglia",)),
        ("card_limit", ("limite_carte",)),
    )
)

SPECS = [
    CommandSpec(
        path=("wow", "attack"),
        handler=attack,
        aliases=("attacco",),
        options=(*ATTACK_OPTIONS, ATTACKER, CARD, TARGET, APPLY, DICE),
        examples=(
            "/wow attack power=4 defense=2",
            "/wow attack power=3 defense=1 crit=damage:2 type=magical dice=2,5,10,4",
            "/wow attack attacker=Jaina card=Fireball target=Thrall apply",
        ),
    ),
    CommandSpec(
        path=("wow", "heal"),
        handler=heal,
        aliases=("cura",),
        options=(
            pool("power", "potere", default=None),
            pool("reroll", "ritira"),
            OptionSpec("crit", max_length=60, aliases=("critico",)),
            unit_opt("healer", "guaritore"),
            CARD,
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/wow heal power=3", "/wow heal healer=Anduin card=Renew target=Jaina apply"),
    ),
    odds_spec(
        "wow",
        odds,
        (*ATTACK_OPTIONS, ATTACKER, CARD, TARGET),
        "/wow odds power=4 defense=2",
        "/wow odds attacker=Jaina card=Fireball",
    ),
    CommandSpec(
        path=("wow", "card"),
        handler=card_cmd,
        aliases=("carta",),
        options=(
            OptionSpec("action", positional=True, required=True, choices=("add", "list", "remove")),
            NAME,
            CARD,
            int_opt("cost", "costo", hi=9),
            pool("power", "potere", default=None),
            OptionSpec("type", choices=wow_cards.CARD_TYPES, aliases=("tipo",)),
            int_opt("range", "raggio", hi=30),
            OptionSpec("crit", max_length=60, aliases=("critico",)),
        ),
        examples=(
            "/wow card add Jaina card=Fireball cost=3 power=4 type=magical range=5 crit=damage:1",
            "/wow card list Jaina",
            "/wow card remove Jaina card=Fireball",
        ),
    ),
    CommandSpec(
        path=("wow", "clock"),
        handler=clock_show,
        readonly=True,
        aliases=("orologio",),
        examples=("/wow clock",),
    ),
    CommandSpec(
        path=("wow", "act"),
        handler=act,
        aliases=("agisci",),
        options=(
            NAME,
            int_opt("cost", "costo", hi=9),
            OptionSpec("card", max_length=120, aliases=("carta", "carte")),
            flag_opt("react", "reazione"),
        ),
        examples=(
            "/wow act Thrall cost=3",
            "/wow act Jaina card=Fireball",
            "/wow act Jaina card=Counterspell react",
        ),
    ),
    CommandSpec(
        path=("wow", "moved"),
        handler=moved,
        aliases=("mosso",),
        options=(NAME,),
        examples=("/wow moved Thrall",),
    ),
    CommandSpec(path=("wow", "tick"), handler=tick, aliases=("scatto",), examples=("/wow tick",)),
    CommandSpec(
        path=("wow", "standings"),
        handler=standings_cmd,
        readonly=True,
        aliases=("classifica",),
        examples=("/wow standings",),
    ),
    CommandSpec(
        path=("wow", "settings"),
        handler=SETTINGS.command,
        aliases=("impostazioni",),
        options=SETTING_OPTIONS,
        examples=("/wow settings", "/wow settings kill_scorer=last_active battleground=yes"),
    ),
]
