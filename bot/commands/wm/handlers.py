"""/wm handlers: read the options, the chat's game (`target=UNIT`) and settings, call the rules
(rules_core.systems.wm), save a state change as one undoable event, log the dice, render."""

from __future__ import annotations

from bot import session
from bot.commands import game_view, local_names, system_kit
from bot.commands.context import Context
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.system_kit import dice_text, log_roll, option_or_stat, resolution
from bot.commands.wm.args import (
    AllocateArgs,
    AttackArgs,
    BreakArgs,
    CheckArgs,
    DeviateArgs,
    FallArgs,
    FeatArgs,
    FirstArgs,
    GearArgs,
    HealArgs,
    PowerArgs,
    WmAttackArgs,
)
from bot.commands.wm.view import (
    attack_title,
    chance,
    dice_notes,
    inches,
    steps_blocks,
    tn,
    verdict,
)
from bot.images.cards.attach import grid_picture
from bot.images.cards.odds import attach as odds_picture
from bot.protocol import Block, Reply, bold, code, plain
from bot.storage import games
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.systems.wm import checks
from rules_core.systems.wm import power_state as ps
from rules_core.systems.wm import transitions as wt
from rules_core.systems.wm.attack import base_defense, resolve_attack
from rules_core.systems.wm.models import AttackRequest
from rules_core.systems.wm.odds import attack_odds, check_pass_chance
from rules_core.systems.wm.power import (
    POWER_KINDS,
    PowerRequest,
    TrampleHit,
    parse_kind,
    power_odds,
    resolve_power,
)
from rules_core.systems.wm.settings import CHOICES, WmSettings, direction_key, update

SETTINGS = system_kit.SystemSettings(
    "wm", WmSettings, tuple(CHOICES), update, "wm.settings_admin_only", per_value=False
)
GAME = system_kit.SystemGame("wm", "wm.not_wm_game", "wm.apply_needs_target")


def attack_input(a: AttackArgs) -> wt.AttackInput:
    return wt.AttackInput(
        type=a.type,
        skill=a.skill,
        defense=a.def_,
        pow=a.pow,
        str_=a.str_,
        arm=a.arm,
        boost=a.boost,
        mods=a.mods,
        combined=a.combined,
        extra_hit_dice=a.extra_hit_dice,
        extra_damage_dice=a.extra_damage_dice,
        blast=a.blast,
        hit_mod=a.hit_mod,
        def_mod=a.def_mod,
        dmg_mod=a.dmg_mod,
        shield_arm=a.shield,
    )


async def attack_request(
    ctx: Context,
    a: AttackArgs,
    game: games.StoredGame | None,
    attacker: Unit | None,
    target: Unit | None,
) -> AttackRequest:
    """The request from the options, the chat's settings, the `attacker=` unit and its stored
    `weapon=`, and the `target=` unit (its stats, state, Power Field and shields)."""
    settings = await SETTINGS.load(ctx)
    inp = wt.with_attacker(attack_input(a), attacker, a.weapon)
    if game is None or target is None:
        return wt.attack_request(inp, None, settings)
    return wt.attack_request(inp, target, settings, wt.power_field(game.state, target))


async def attack(ctx: Context) -> Reply:
    a = ctx.args(WmAttackArgs)
    game, attacker, target = await GAME.units(ctx)
    if game is not None and attacker is not None and a.weapon:
        ps.check_weapon(game.state, attacker, a.weapon)  # a lock holds it
    req = await attack_request(ctx, a, game, attacker, target)
    source = ctx.dice(a.dice)
    res = resolve_attack(req, source)
    paid: wt.Change | None = None  # the attacker's focus for its boosts and charge, if applied
    if game is not None and target is not None and attacker is not None and a.apply:
        session.require_unit_rights(ctx, game.state, attacker, attack=False)
        mods = req.mods
        cost = wt.attack_focus(
            attacker, req.boost, charge="charge" in mods, additional="additional" in mods
        )
        paid = wt.spend_focus(game.state, attacker.name, cost)  # refused with no roll shown
    out = res.outcome
    blocks = steps_blocks(ctx, res.steps, req.type) + dice_notes(ctx, req)
    blocks.append([bold(verdict(ctx, req, out))])
    aoe = wt.weapon_aoe(attacker, a.weapon)
    if aoe and not req.blast:  # what follows: the deviation, or the others' blast damage
        key = "wm.aoe_hit" if out.hit else "wm.aoe_missed"
        blocks.append([plain(ctx.t(key, aoe=aoe, pow=req.pow))])
    data = resolution("wm", res.steps, out.model_dump())
    damaged: Unit | None = None
    if game is not None and target is not None and a.apply:
        effects = wt.wanted_effects(
            a.effect,
            a.crit_effect,
            hit=out.hit,
            critical=out.critical,
            direct_critical=req.blast and a.direct_crit,
        )
        # A free strike is made in the other player's turn (an enemy leaving the attacker's
        # melee range): its rights come from the attacker, the caller's own (checked above).
        reaction = "free_strike" in req.mods and attacker is not None
        more, applied, damaged = await apply_damage(
            ctx, game, target, out.damage, source, effects, a.model, paid, reaction=reaction
        )
        blocks += more
        data["applied"] = {"unit": target.name, "damage": out.damage, "effects": applied}
    source.check_exhausted()
    await log_roll(ctx, source, out.damage, data)
    reply = Reply(title=attack_title(ctx, req), blocks=blocks, data=data)
    return await grid_picture(ctx, reply, damaged, "wm") if damaged else reply


async def odds(ctx: Context) -> Reply:
    req = await attack_request(ctx, ctx.args(AttackArgs), *(await GAME.units(ctx)))
    result = await ctx.offload(attack_odds, req)  # off the event loop
    dist = as_distribution(result.distribution)
    heading: Block = [code(attack_title(ctx, req))]
    blocks = distribution_blocks(ctx, dist, heading)
    line = ctx.t(
        "wm.p_line",
        hit=chance(ctx, result.p_hit),
        crit=chance(ctx, result.p_critical),
        damage=chance(ctx, result.p_damage),
    )
    blocks.append([plain(line)])
    blocks += dice_notes(ctx, req)
    data = {
        "system": "wm",
        **distribution_data(dist),
        "p_hit": float(result.p_hit),
        "p_critical": float(result.p_critical),
        "p_damage": float(result.p_damage),
    }
    reply = Reply(title=ctx.t("wm.odds_title"), blocks=blocks, data=data)
    return await odds_picture(ctx, reply, [(dist, attack_title(ctx, req), "damage")])


async def apply_damage(
    ctx: Context,
    game: games.StoredGame,
    unit: Unit,
    amount: int,
    source: DiceSource,
    effects: tuple[str, ...] = (),
    model: int | None = None,
    paid: wt.Change | None = None,
    *,
    reaction: bool = False,
) -> tuple[list[Block], list[str], Unit | None]:
    """Damage and effects on `unit`, after the attacker's focus `paid` for it, as one event
    (/undo reverts both); see wt.apply_damage. Also the unit afterwards (None when its damage
    changed nothing), for its grid's picture. `reaction`: an attack its player makes out of
    turn (a free strike), whose rights were checked on the attacker."""
    if not reaction:
        session.require_unit_rights(ctx, game.state, unit, attack=True)
    before = paid.state if paid is not None else game.state
    spent = game_view.notes_blocks(ctx, paid.notes) if paid is not None else []
    done = wt.apply_damage(before, unit.name, amount, source, effects, model)
    if not done.changed:  # the focus spent, if any, is the only change
        if spent:
            await session.apply_change(ctx, before, "wm_focus", game=game)
        return [*spent, [plain(ctx.t("wm.nothing_applied", unit=unit.name))]], [], None
    await session.apply_change(ctx, done.state, "damage", game=game)
    after = tr.find_unit(done.state, unit.name)
    blocks = game_view.notes_blocks(ctx, done.notes) + game_view.unit_blocks(
        ctx, after, done.state.system
    )
    return spent + blocks, list(done.effects), after


async def check(ctx: Context) -> Reply:
    a = ctx.args(CheckArgs)
    found = await GAME.target(ctx)
    if found is not None and a.value_ is None and wt.passes_command_checks(found[1]):
        said = ctx.t("wm.check_construct", unit=found[1].name)
        outcome = {"pass": True, "automatic": True}
        data = {"system": "wm", "steps": [], "outcome": outcome, "p_pass": 1.0}
        return Reply(title=ctx.t("wm.check_auto_title"), blocks=[[bold(said)]], data=data)
    value = option_or_stat(a.value_, found[1] if found else None, "cmd")
    if value is None:
        raise UserError("wm.missing_stat", option="value")
    source = ctx.dice(a.dice)
    steps, out = checks.resolve_check(value, source)
    source.check_exhausted()
    p = check_pass_chance(value)
    step = steps[0]
    result = ctx.t("wm.result.pass" if out.pass_ else "wm.result.fail")
    blocks: list[Block] = [
        [
            bold(ctx.t("wm.step.check") + ": "),
            plain(
                f"{dice_text(step.dice)} = {out.total} " + ctx.t("wm.vs_value", value=value) + " → "
            ),
            bold(result),
        ],
        [plain(ctx.t("wm.p_pass", p=chance(ctx, p)))],
    ]
    data = {**resolution("wm", steps, out.model_dump(by_alias=True)), "p_pass": float(p)}
    await log_roll(ctx, source, out.total, data)
    return Reply(title=ctx.t("wm.check_title", value=value), blocks=blocks, data=data)


async def fall(ctx: Context) -> Reply:
    a = ctx.args(FallArgs)
    height = checks.parse_inches(a.height, "height", checks.MAX_HEIGHT)
    found = await GAME.target(ctx)
    arm = wt.front_arm(a.arm, found[0].state, found[1]) if found else a.arm
    source = ctx.dice(a.dice)
    steps, out = checks.resolve_fall(height, arm, source)
    if not out.fell:  # nothing rolled, nothing to apply or log
        said = ctx.t("wm.no_fall", height=inches(ctx, float(height)))
        return Reply(blocks=[[plain(said)]], data={"system": "wm", "outcome": out.model_dump()})
    blocks = steps_blocks(ctx, steps, "fall")
    if out.damage is not None:
        blocks.append([bold(tn(ctx, "wm.verdict.fall", out.damage))])
    data = resolution("wm", steps, out.model_dump())
    damaged: Unit | None = None
    if found is not None and a.apply and out.damage is not None:
        more, _, damaged = await apply_damage(ctx, found[0], found[1], out.damage, source)
        blocks += more
        data["applied"] = {"unit": found[1].name, "damage": out.damage}
    source.check_exhausted()
    await log_roll(ctx, source, out.damage_total, data)
    title = ctx.t("wm.fall_title", height=inches(ctx, float(height)), dice=out.dice)
    reply = Reply(title=title, blocks=blocks, data=data)
    return await grid_picture(ctx, reply, damaged, "wm") if damaged else reply


async def deviate(ctx: Context) -> Reply:
    a = ctx.args(DeviateArgs)
    distance = checks.parse_inches(a.distance, "distance", checks.MAX_DISTANCE)
    thrown = a.thrown
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(a.dice)
    steps, out = checks.resolve_deviation(distance, thrown, source)
    source.check_exhausted()
    direction_name = direction_key(out.direction, settings.deviation_layout)
    where = ctx.t(f"wm.dir.{direction_name}")
    dist_label = ctx.t("wm.step.distance_d3" if thrown else "wm.step.distance")
    blocks: list[Block] = [
        [bold(ctx.t("wm.step.direction") + ": "), plain(f"[{out.direction}] → {where}")],
        [bold(dist_label + ": "), plain(f'{dice_text(steps[1].dice)} → {out.rolled}"')],
    ]
    if out.capped:
        blocks.append([plain(ctx.t("wm.capped", cap=inches(ctx, out.cap)))])
    blocks.append(
        [bold(ctx.t("wm.verdict.deviate", distance=inches(ctx, out.distance), where=where))]
    )
    data = resolution("wm", steps, {**out.model_dump(), "direction_name": direction_name})
    await log_roll(ctx, source, out.direction, data)
    return Reply(
        title=ctx.t("wm.deviate_title", distance=inches(ctx, float(distance))),
        blocks=blocks,
        data=data,
    )


async def allocate(ctx: Context) -> Reply:
    """Control Phase: a caster gives focus to one of its warjacks (see wt.allocate_focus)."""
    a = ctx.args(AllocateArgs)
    game = await GAME.load(ctx)
    jack = tr.find_unit(game.state, a.jack)
    session.require_unit_rights(ctx, game.state, jack, attack=False)
    caster = tr.find_unit(game.state, a.caster).name if a.caster else None
    done = wt.allocate_focus(game.state, jack.name, caster, a.amount)
    await session.apply_change(ctx, done.state, "wm_allocate", game=game)
    text = ctx.t(
        "wm.allocated",
        n=done.amount,
        caster=done.caster,
        jack=done.jack,
        left=done.left,
        has=done.has,
    )
    data = {
        "system": "wm",
        "caster": done.caster,
        "jack": done.jack,
        "focus": done.has,
        "left": done.left,
    }
    return Reply(blocks=[[plain(text)]], data=data)


async def change_unit(ctx: Context, kind: str, change: wt.Change, unit: str) -> Reply:
    """Save a change made to one unit as one event and show the unit after it."""
    game = await GAME.load(ctx)
    await session.apply_change(ctx, change.state, kind, game=game)
    after = tr.find_unit(change.state, unit)
    blocks = game_view.notes_blocks(ctx, change.notes) + game_view.unit_blocks(
        ctx, after, change.state.system
    )
    return Reply(blocks=blocks, data={"system": "wm", "unit": after.model_dump()})


async def heal(ctx: Context) -> Reply:
    """Repair boxes of a unit (its own player, or the organiser)."""
    a = ctx.args(HealArgs)
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, a.name)
    session.require_unit_rights(ctx, game.state, unit, attack=False)
    done = wt.heal_unit(game.state, unit.name, a.amount, a.column, a.system)
    return await change_unit(ctx, "heal", done, unit.name)


async def feat(ctx: Context) -> Reply:
    """A warcaster's feat, once per game."""
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, ctx.args(FeatArgs).caster)
    session.require_unit_rights(ctx, game.state, unit, attack=False)
    return await change_unit(ctx, "wm_feat", wt.use_feat(game.state, unit.name), unit.name)


def _places(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").replace(";", ",").split(",") if p.strip()]


def _gear_place(ctx: Context, key: str, n: int) -> str:
    """Where a piece of gear is carried (`S`, or `-` for no system), and how many if several."""
    where = ctx.t("wm.gear.carried") if key == "-" else local_names.system_letter(ctx.lang, key)
    return where + (f" ×{n}" if n > 1 else "")


async def gear(ctx: Context) -> Reply:
    """A unit's shields and bucklers, by the weapon system carrying each."""
    a = ctx.args(GearArgs)
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, a.name)
    session.require_unit_rights(ctx, game.state, unit, attack=False)
    given = [None if text is None else _places(text) for text in (a.shields, a.bucklers, a.fists)]
    done = wt.set_gear(game.state, unit.name, *given)
    reply = await change_unit(ctx, "wm_gear", done, unit.name)
    after = tr.find_unit(done.state, unit.name)
    said = []
    for kind in ("shields", "bucklers", "fists"):  # what is recorded now, in the book's letters
        counts: dict[str, int] = after.extra.get(kind) or {}
        places = [_gear_place(ctx, key, n) for key, n in sorted(counts.items())]
        if places:
            said.append(f"{ctx.t(f'wm.gear.{kind}')} {', '.join(places)}")
    text = ctx.t("wm.gear.recorded", unit=after.name, gear="; ".join(said) or ctx.t("wm.gear.none"))
    return reply.model_copy(update={"blocks": [[plain(text)], *reply.blocks]})


async def first(ctx: Context) -> Reply:
    """The roll for the first player: a d6 each, the highest first (organiser or admin)."""
    game = await GAME.load(ctx)
    session.require_manager(ctx, game.state)
    source = ctx.dice(ctx.args(FirstArgs).dice)
    done = wt.first_player(game.state, source)
    source.check_exhausted()
    await session.apply_change(ctx, done.state, "wm_first", game=game)
    names = {p.user_id: p.name for p in done.state.players}
    blocks: list[Block] = [
        [plain(", ".join(f"{names.get(uid, uid)} {face}" for uid, face in throw))]
        for throw in done.state.rolloff
    ]
    order = [names.get(uid, uid) for uid in done.state.order]
    blocks.append([bold(ctx.t("wm.first_order", first=order[0], order=", ".join(order)))])
    data = {"system": "wm", "order": done.state.order, "rolloff": done.state.rolloff}
    return Reply(title=ctx.t("wm.first_title"), blocks=blocks, data=data)


def collateral_units(text: str | None, game: games.StoredGame | None) -> list[tuple[str, int]]:
    """`collateral=Flameguard,14`: each model taking collateral damage, a unit of the chat's
    game (its name and ARM) or an ARM; a number is a model outside the game."""
    out: list[tuple[str, int]] = []
    for part in _places(text):
        if part.isdecimal():
            out.append(("", int(part)))
            continue
        if game is None:
            raise UserError("wm.collateral_needs_game", name=part[:40])
        unit = tr.find_unit(game.state, part)
        arm = wt.front_arm(None, game.state, unit)
        if arm is None:
            raise UserError("wm.missing_stat", option="arm")
        out.append((unit.name, arm))
    return out


def power_request(
    a: PowerArgs,
    attacker: Unit | None,
    target: Unit | None,
    state: GameState | None,
    collateral: list[tuple[str, int]] | None = None,
) -> PowerRequest:
    """The power attack from the options, else the warjack's MAT, STR, base and Open Fists and
    the target's DEF, ARM, STR, base and knocked-down condition."""
    kind = parse_kind(a.kind)  # an unknown power attack is the first thing to say
    ps.refuse_power(attacker, target, kind, a.fist)
    skill, defense = option_or_stat(a.mat, attacker, "mat"), option_or_stat(a.def_, target, "def")
    strength, arm = option_or_stat(a.str_, attacker, "str"), wt.front_arm(a.arm, state, target)
    for name, value in (("mat", skill), ("def", defense), ("str", strength), ("arm", arm)):
        if value is None:  # MAT and STR are the attacker's, read with attacker=
            key = "wm.missing_attacker_stat" if name in ("mat", "str") else "wm.missing_stat"
            raise UserError(key, option=name)
    mods = wt.target_mods(target) if target is not None else set()
    down, stationary = "knocked_down" in mods, "stationary" in mods
    if defense is not None and a.def_ is None:  # the base DEF its state sets, as /wm attack
        defense = base_defense(defense, mods)
    more = (a.models or 1) - 1  # trample: the target's further models contacted
    if more and kind != "trample":
        raise UserError("wm.power_trampled", kind=kind)
    return PowerRequest(
        kind=kind,
        skill=skill or 0,
        defense=defense or 5,
        str_=strength or 0,
        target_str=option_or_stat(a.target_str, target, "str") or 0,
        arm=arm or 0,
        larger_base=a.larger_base,
        contact=a.contact,
        short_move=a.short,
        boost=a.boost or "none",
        charge=a.charge,
        knocked_down=down,
        stationary=stationary,
        hit_mod=a.hit_mod or 0,
        attacker_base=attacker.stats.get("base") if attacker is not None else None,
        target_base=target.stats.get("base") if target is not None else None,
        open_fists=ps.open_fists(attacker) if attacker is not None else None,
        collateral_arms=tuple(arm for _, arm in collateral or []),
        trampled=((defense or 5, arm or 0),) * more,
    )


async def power(ctx: Context) -> Reply:
    """A warjack's power attack (1 focus from attacker= with apply), with its exact odds."""
    a = ctx.args(PowerArgs)
    game, attacker, target = await GAME.units(ctx)
    if game is not None and attacker is not None:
        ps.check_power(game.state, attacker.name)  # no power attack in a lock
    collateral = collateral_units(a.collateral, game)
    source = ctx.dice(a.dice)
    try:
        req = power_request(a, attacker, target, game.state if game else None, collateral)
        steps, out = resolve_power(req, source)
    except UserError as error:  # the power attack's name in the reader's language
        if error.params.get("kind") in POWER_KINDS:
            error.params["kind"] = ctx.t(f"wm.power_kind.{error.params['kind']}")
        raise
    odds = await ctx.offload(power_odds, req)
    blocks = steps_blocks(ctx, steps, "melee")
    if out.trampled:  # each model contacted: its attack's verdict, model by model
        first = TrampleHit(
            hit=out.hit, critical=out.critical, damage_total=out.damage_total, damage=out.damage
        )
        for i, t in enumerate([first, *out.trampled], start=1):
            said = tn(ctx, "wm.verdict.hit", t.damage) if t.hit else ctx.t("wm.verdict.miss")
            blocks.append([bold(ctx.t("wm.trampled_model", n=i) + " " + said)])
    else:
        if out.moved:
            distance = inches(ctx, out.distance) if out.distance is not None else ""
            said = ctx.t(f"wm.power_moved.{req.kind}", d=distance)
        elif out.hit:
            said = ctx.t(f"wm.power_hit.{req.kind}")
        else:
            said = ctx.t("wm.verdict.miss")
        blocks.append([bold(said)])
        if out.damage_total is not None:
            blocks.append([bold(tn(ctx, "wm.verdict.hit", out.damage))])
    for (name, _), amount in zip(collateral, out.collateral, strict=True):
        who = name or ctx.t("wm.collateral_model")
        blocks.append([bold(tn(ctx, "wm.verdict.collateral", amount, unit=who))])
    if odds.total is not None:
        blocks.append([plain(ctx.t("wm.trample_mean", mean=inches(ctx, float(odds.total.mean()))))])
    if odds.p_collateral:  # each collateral model's chance of taking damage
        each = ", ".join(chance(ctx, p) for p in odds.p_collateral)
        blocks.append([plain(ctx.t("wm.collateral_odds", p=each))])
    # A head-butt or a trample moves and holds nothing: no chance of it to show.
    still = req.kind in ("headbutt", "trample")
    blocks.append(
        [
            plain(
                ctx.t(
                    "wm.power_odds_still" if still else "wm.power_odds",
                    hit=chance(ctx, odds.p_hit),
                    moved=chance(ctx, odds.p_moved),
                    damage=chance(ctx, odds.p_damage),
                )
            )
        ]
    )
    data = resolution("wm", steps, out.model_dump())
    data["p_hit"], data["p_moved"] = float(odds.p_hit), float(odds.p_moved)
    data["p_collateral"] = [float(p) for p in odds.p_collateral]
    data["p_trampled"] = [float(p) for p in odds.p_trampled]
    if game is not None and target is not None and a.apply:
        session.require_unit_rights(ctx, game.state, target, attack=True)
        names = tuple(name for name, _ in collateral)
        if not all(names):
            raise UserError("wm.collateral_needs_units")
        for name in names:
            session.require_unit_rights(
                ctx, game.state, tr.find_unit(game.state, name), attack=True
            )
        power = ps.PowerOnGame(
            attacker=attacker.name if attacker is not None else None,
            target=target.name,
            kind=req.kind,
            collateral=names,
            grab=a.grab,
            fist=a.fist,
            boost=req.boost,
            models=1 + len(req.trampled),
        )
        done = ps.apply_power(game.state, power, out, source)
        await session.apply_change(ctx, done.state, "wm_power", game=game)
        after = tr.find_unit(done.state, target.name)
        blocks += game_view.notes_blocks(ctx, done.notes)
        blocks += game_view.unit_blocks(ctx, after, done.state.system)
        data["applied"] = {"unit": target.name, "damage": out.damage}
    source.check_exhausted()
    await log_roll(ctx, source, out.damage, data)
    title = ctx.t("wm.power_title", kind=ctx.t(f"wm.power_kind.{req.kind}"))
    return Reply(title=title, blocks=blocks, data=data)


async def break_lock(ctx: Context) -> Reply:
    """A locked model tries to break free (its player), or the holder lets go (`release`)."""
    a = ctx.args(BreakArgs)
    game = await GAME.load(ctx)
    unit = tr.find_unit(game.state, a.name)
    session.require_unit_rights(ctx, game.state, unit, attack=False)
    source = ctx.dice(a.dice)
    done, step = ps.break_free(game.state, unit.name, source, release=a.release)
    source.check_exhausted()
    await session.apply_change(ctx, done.state, "wm_break", game=game)
    blocks: list[Block] = steps_blocks(ctx, [step], "melee") if step else []
    blocks += game_view.notes_blocks(ctx, done.notes)
    if step is not None and step.outcome == "held":
        blocks.append([bold(ctx.t("wm.still_locked", unit=unit.name))])
    data: dict[str, object] = {
        "system": "wm",
        "unit": unit.name,
        "broken": ps.lock_of(done.state, unit.name) is None,
    }
    if step is not None:
        data.update(resolution("wm", [step], {"broken": step.outcome == "broken"}))
        await log_roll(ctx, source, step.total or 0, data)
    return Reply(title=ctx.t("wm.break_title", unit=unit.name), blocks=blocks, data=data)
