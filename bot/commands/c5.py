"""/c5: Confrontation 5 tests, wound rolls, melee and shooting with exact odds, mana, faith,
fear, rally, the pass rule and per-chat settings.

The rules are in rules_core.systems.c5 (pure); this module reads options, the chat's game
(`attacker=UNIT` / `target=UNIT`) and settings, applies results as one game event (`apply`),
logs the dice in the roll log and renders the chain.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot import session
from bot.commands import game_view, system_kit
from bot.commands.context import Context
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.registry import parse_options, tokenize
from bot.commands.spec import (
    APPLY,
    ATTACKER,
    DICE,
    TARGET,
    CommandSpec,
    Handler,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    signed_opt,
)
from bot.commands.system_kit import dice_text, log_roll, option_or_stat, pct, resolution, signed
from bot.protocol import Block, Reply, bold, code, plain
from bot.storage import games
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Unit
from rules_core.rules.text import fold
from rules_core.steps import Step
from rules_core.systems.base import Note
from rules_core.systems.c5 import tables
from rules_core.systems.c5.attack import (
    AttackOutcome,
    MeleeRequest,
    ShootRequest,
    resolve_melee,
    resolve_shoot,
)
from rules_core.systems.c5.checks import (
    RECOVERY,
    may_pass,
    resolve_mana,
    resolve_opposed,
    resolve_recovery,
    resolve_test,
    temporary_faith,
)
from rules_core.systems.c5.models import (
    SETTING_CHOICES,
    SETTING_INTS,
    C5Settings,
    TestRequest,
    WoundRequest,
    update_settings,
)
from rules_core.systems.c5.odds import (
    WoundOdds,
    melee_odds,
    opposed_odds,
    shoot_odds,
    test_odds,
    wound_odds,
)
from rules_core.systems.c5.system import C5, ROUTED, STUNNED, is_routed, unit_penalty
from rules_core.systems.c5.wound import EFFECTS, resolve_wound

# --- settings, units --------------------------------------------------------------------------

SETTING_NAMES = (*SETTING_CHOICES, *SETTING_INTS)
SETTINGS = system_kit.SystemSettings(
    "c5", C5Settings, SETTING_NAMES, update_settings, "c5.settings_admin_only", per_value=False
)
GAME = system_kit.SystemGame("c5", "c5.not_c5_game", "c5.apply_needs_target")


def need(ctx: Context, option: str, unit: Unit | None, stat: str) -> int:
    value = option_or_stat(ctx, option, unit, stat)
    if value is None:
        raise UserError("c5.missing_stat", option=option)
    return value


def penalty_of(unit: Unit | None) -> int:
    return unit_penalty(unit) if unit is not None else 0


# --- rendering --------------------------------------------------------------------------------


def mods_text(ctx: Context, step: Step) -> str:
    parts = []
    for m in step.modifiers:
        label = ctx.t(f"c5.mod.{m.name}")
        parts.append(f"{signed(m.value)} {label}")
    return " ".join(parts)


def test_block(ctx: Context, step: Step) -> Block:
    label = bold(ctx.t(f"c5.step.{step.name}") + ": ")
    line = f"{dice_text(step.dice)} {mods_text(ctx, step)}"
    if step.detail.get("natural_one"):
        line += " " + ctx.t("c5.natural_one", reroll=step.detail.get("reroll"))
    line += f" = {step.total}"
    if step.target is not None:
        line += " " + ctx.t("c5.vs", target=step.target)
    return [label, plain(line + " → "), bold(ctx.t(f"c5.result.{step.outcome}"))]


def wound_block(ctx: Context, step: Step) -> Block:
    d = step.detail
    row = step.detail_int("row")
    where = ctx.t("c5.row_head") if row == tables.HEAD_ROW else ctx.t("c5.row", row=row)
    column = tables.BAND_LABELS[step.detail_int("column")]
    line = (
        f"{dice_text(step.dice)} → {where} · "
        + ctx.t("c5.higher_die", die=max(step.dice))
        + f" {mods_text(ctx, step)} = {step.total} → "
        + ctx.t("c5.column", column=column)
    )
    if d.get("shift"):
        line += " " + ctx.t("c5.shifted", n=signed(step.detail_int("shift")))
    if d.get("exceptional"):
        line += " · " + ctx.t("c5.exceptional")
    if d.get("effects"):
        line += " · " + ctx.t("c5.effects", effects=str(d["effects"]).replace(",", ", "))
    result = step.outcome
    verdict = (
        ctx.t("c5.wounds", n=d["wounds"]) if result == "wounds" else ctx.t(f"c5.result.{result}")
    )
    return [bold(ctx.t("c5.step.wound") + ": "), plain(line + " → "), bold(verdict)]


def step_block(ctx: Context, step: Step) -> Block:
    return wound_block(ctx, step) if step.name == "wound" else test_block(ctx, step)


def attack_verdict(ctx: Context, out: AttackOutcome) -> str:
    if out.parried:
        return ctx.t("c5.verdict.parried")
    if not out.hit:
        return ctx.t("c5.verdict.miss")
    if out.stunned:
        return ctx.t("c5.verdict.stunned")
    return ctx.t("c5.verdict.wounds", n=out.wounds)


async def apply_wounds(
    ctx: Context, game: games.StoredGame, target: Unit, wounds: int, stunned: bool
) -> list[Block]:
    """Wounds and Stordito on the target as ONE event that /undo reverts."""
    if not wounds and not stunned:
        return [[plain(ctx.t("c5.nothing_applied", unit=target.name))]]
    notes: list[Note] = []

    def hit(state: GameState) -> GameState:
        notes.clear()
        new = tr.damage(state, target.name, wounds, notes=notes) if wounds else state
        if stunned and not tr.find_unit(new, target.name).destroyed:
            new = tr.add_condition(new, target.name, STUNNED, None)
            notes.append(("c5.note.stunned", {"unit": target.name}))
        return new

    change = await session.apply_change(ctx, hit, "c5_wound", unit=target.name, attack=True)
    blocks = game_view.notes_blocks(ctx, notes)
    if change.unit is not None:
        blocks += game_view.unit_blocks(ctx, change.unit, change.after.system)
    return blocks


# --- requests ---------------------------------------------------------------------------------


def test_request(
    ctx: Context, value: int, diff: int | None, mod: int, unit_pen: int = 0
) -> TestRequest:
    reroll = ctx.opts.get("reroll")
    return TestRequest(
        value=value,
        diff=diff,
        mod=mod - unit_pen,
        reroll=frozenset({reroll}) if reroll else frozenset(),
        one_ok=bool(ctx.opts.get("one_ok")),
    )


def wound_request(
    ctx: Context, attacker: Unit | None, target: Unit | None, *, melee: bool
) -> WoundRequest:
    """`melee`: a blow, with the attacker's STR and wound penalty (@10224: penalties touch the
    melee wound rolls a fighter inflicts); otherwise a shot, whose STR is its weapon's: the
    card's `wstr` (digest §9: ranged weapons carry their own STR)."""
    str_stat = "str" if melee else "wstr"
    strength = need(ctx, "str", attacker, str_stat)
    res = need(ctx, "res", target, "res")
    pen = ctx.opts.get("pen")
    if pen is None:
        pen = penalty_of(attacker) if melee else 0
    # @2104 (Red Troll @4728): a STR or RES printed above 15 on the card is capped there, not at
    # 15. printed=N says so for STR; a unit's card value above 15 says so by itself.
    str_printed = ctx.opts.get("printed")
    if str_printed is None and attacker is not None and ctx.opts.get("str") is None:
        card = attacker.stats.get(str_stat, 0)
        str_printed = card if card > tables.CAP else None
    res_printed = None
    if target is not None and ctx.opts.get("res") is None:
        card = target.stats.get("res", 0)
        res_printed = card if card > tables.CAP else None
    return WoundRequest(
        str_=strength,
        res=res,
        mod=ctx.opts.get("mod" if ctx.spec.path[-1] == "wound" else "wound_mod") or 0,
        flagello=bool(ctx.opts.get("flagello")),
        ossoduro=bool(ctx.opts.get("ossoduro")),
        str_uncapped=bool(ctx.opts.get("str_uncapped")) or str_printed is not None,
        str_printed=str_printed,
        res_uncapped=res_printed is not None,
        res_printed=res_printed,
        artillery=bool(ctx.opts.get("artillery")),
        master=ctx.opts.get("master"),
        penalty=pen if melee else 0,
        melee=melee,
        effects=parse_effects(ctx.opts.get("effects"), melee=melee),
    )


EFFECT_NAMES = {name: name for name in EFFECTS} | {
    "ferocious": "feroce",
    "arma_sacra": "sacred",
    "sacra": "sacred",
    "armatura_sacra": "sacred_armour",
    "sacred_armor": "sacred_armour",
    "saw_axe": "spada_ascia",
    "vulnerable": "vulnerabile",
    "ethereal": "etereo",
}


def parse_effects(text: str | None, *, melee: bool) -> frozenset[str]:
    """`effects=sacred,vulnerabile`: the effects read after the wound table (wound.EFFECTS)."""
    if not text:
        return frozenset()
    found = set()
    for word in text.replace(",", " ").replace(";", " ").split():
        name = EFFECT_NAMES.get(fold(word).replace("-", "_"))
        if name is None:
            raise UserError("c5.bad_effect", name=word[:30], valid=", ".join(EFFECTS))
        found.add(name)
    if "feroce" in found and not melee:
        raise UserError("c5.feroce_melee")
    return frozenset(found)


def melee_request(ctx: Context, attacker: Unit | None, target: Unit | None) -> MeleeRequest:
    att = need(ctx, "att", attacker, "att")
    attack = test_request(ctx, att, ctx.opts.get("diff"), ctx.opts.get("att_mod") or 0)
    attack = attack.model_copy(update={"mod": attack.mod - penalty_of(attacker)})
    defence = None
    dif = ctx.opts.get("def")
    if dif is None and target is not None and ctx.opts.get("parry"):
        dif = target.stats.get("def")
        if dif is None:
            raise UserError("c5.missing_stat", option="def")
    if ctx.opts.get("parry") and dif is None:
        raise UserError("c5.missing_stat", option="def")
    if dif is not None:
        defence = TestRequest(value=dif, mod=(ctx.opts.get("def_mod") or 0) - penalty_of(target))
    return MeleeRequest(
        attack=attack, defence=defence, wound=wound_request(ctx, attacker, target, melee=True)
    )


def shoot_request(ctx: Context, attacker: Unit | None, target: Unit | None) -> ShootRequest:
    aim = need(ctx, "aim", attacker, "aim")
    test = test_request(ctx, aim, None, ctx.opts.get("aim_mod") or 0, penalty_of(attacker))
    return ShootRequest(
        test=test,
        wound=wound_request(ctx, attacker, target, melee=False),
        range=ctx.opts.get("range") or "short",
        fire=ctx.opts.get("fire") or "normal",
        printed=bool(ctx.opts.get("printed_fire")),
        diff_mod=ctx.opts.get("diff_mod") or 0,
        altitude=ctx.opts.get("altitude") or 0,
        mira=bool(ctx.opts.get("mira")),
        mira_printed=bool(ctx.opts.get("mira_printed")),
        aim_printed=attacker.stats.get("aim") if attacker is not None else None,
        zone=bool(ctx.opts.get("zone")),
    )


# --- /c5 test, opposed, fear, rally --------------------------------------------------------


async def plain_test_request(ctx: Context) -> TestRequest:
    """`/c5 test`: value= or target=UNIT stat=NAME (its wound penalty on INI, ATT, DEF, AIM)."""
    _, _, unit = await GAME.units(ctx)
    stat = ctx.opts.get("stat")
    value = ctx.opts.get("value")
    pen = 0
    if value is None and unit is not None and stat:
        value = unit.stats.get(stat)
        pen = unit_penalty(unit) if stat in tables.PENALISED else 0
    if value is None:
        raise UserError("c5.missing_stat", option="value")
    return test_request(ctx, value, ctx.opts.get("diff"), ctx.opts.get("mod") or 0, pen)


async def test_cmd(ctx: Context) -> Reply:
    if ctx.opts.get("odds"):
        return await odds_test(ctx)
    req = await plain_test_request(ctx)
    value = req.value
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(ctx.opts["dice"])
    step, out = resolve_test(req, source, open_ended=settings.open_ended == "yes")
    source.check_exhausted()
    data = resolution("c5", [step], out.model_dump())
    await log_roll(ctx, source, out.total, data)
    title = ctx.t("c5.title_test", value=value) + (
        " " + ctx.t("c5.vs", target=req.diff) if req.diff is not None else ""
    )
    return Reply(title=title, blocks=[test_block(ctx, step)], data=data)


async def opposed_cmd(ctx: Context) -> Reply:
    settings = await SETTINGS.load(ctx)
    a = test_request(ctx, ctx.opts["value"], None, ctx.opts.get("mod") or 0)
    b = TestRequest(value=ctx.opts["vs"], mod=ctx.opts.get("vs_mod") or 0)
    if ctx.opts.get("odds"):
        no_roll(ctx)
        return await opposed_odds_reply(ctx, a, b, settings)
    source = ctx.dice(ctx.opts["dice"])
    steps, out = resolve_opposed(a, b, source, open_ended=settings.open_ended == "yes")
    source.check_exhausted()
    blocks = [test_block(ctx, s) for s in steps]
    blocks.append([bold(ctx.t(f"c5.winner.{out.winner}"))])
    data = resolution("c5", steps, out.model_dump())
    await log_roll(ctx, source, out.total_a, data)
    title = ctx.t("c5.title_opposed", a=ctx.opts["value"], b=ctx.opts["vs"])
    return Reply(title=title, blocks=blocks, data=data)


async def opposed_odds_reply(
    ctx: Context, a: TestRequest, b: TestRequest, settings: C5Settings
) -> Reply:
    """The winner's distribution: 1 = A, 0 = tie, -1 = B (the mean is P(A) - P(B))."""
    odds = await ctx.offload(opposed_odds, a, b, settings.open_ended == "yes")
    dist = as_distribution(odds.winner)
    title = ctx.t("c5.title_opposed", a=a.value, b=b.value)
    blocks = distribution_blocks(ctx, dist, [code(title)])
    blocks.append(
        [bold(ctx.t("c5.p_opposed", a=pct(odds.p_a), tie=pct(odds.p_tie), b=pct(odds.p_b)))]
    )
    blocks.append([plain(ctx.t("c5.tail", tail=f"{odds.tail:.1e}"))])
    data = {
        "system": "c5",
        **distribution_data(dist),
        "p_a": odds.p_a,
        "p_tie": odds.p_tie,
        "p_b": odds.p_b,
        "tail": odds.tail,
    }
    return Reply(title=ctx.t("c5.odds_title"), blocks=blocks, data=data)


async def fear_cmd(ctx: Context) -> Reply:
    """[BG §4.5] COR test against the PAU of the frightening enemy; success: immune to that
    PAU for the game; failure: in Rotta (flees). The C5 natural-1 rule applies (@4060). With
    target=UNIT its COU is used and `apply` marks it routed on a failure (one event)."""
    game, _, unit = await GAME.units(ctx)
    courage = need(ctx, "courage", unit, "cou")
    req = test_request(ctx, courage, ctx.opts["fear"], ctx.opts.get("mod") or 0)
    title = ctx.t("c5.title_fear", cou=courage, fear=ctx.opts["fear"])
    if ctx.opts.get("odds"):
        no_roll(ctx)
        return await test_odds_reply(ctx, req, title)
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(ctx.opts["dice"])
    step, out = resolve_test(req, source, open_ended=settings.open_ended == "yes", name="fear")
    source.check_exhausted()
    verdict = ctx.t("c5.verdict.brave" if out.success else "c5.verdict.routed")
    blocks: list[Block] = [test_block(ctx, step), [bold(verdict)]]
    data = resolution("c5", [step], out.model_dump())
    if game is not None and unit is not None and ctx.opts.get("apply") and not out.success:
        if not is_routed(unit):
            await session.apply_change(
                ctx,
                lambda st: tr.add_condition(st, unit.name, ROUTED, None),
                "c5_fear",
                unit=unit.name,
            )
        blocks.append([plain(ctx.t("c5.note.routed", unit=unit.name))])
        data["applied"] = {"unit": unit.name, "routed": True}
    await log_roll(ctx, source, out.total, data)
    return Reply(title=title, blocks=blocks, data=data)


async def rally_cmd(ctx: Context) -> Reply:
    """@15362: strategic phase, COR or DIS (the player's choice) at difficulty 8; an automatic
    failure in base contact with a frightening enemy; the rallied fighter is not immune to the
    fear that routed it. With target=UNIT the better of its COU and DIS is used and `apply`
    removes the Rotta condition on a success."""
    game, _, unit = await GAME.units(ctx)
    value = ctx.opts.get("value")
    if value is None and unit is not None:
        value = max(unit.stats.get("cou", 0), unit.stats.get("dis", 0))
    if value is None:
        raise UserError("c5.missing_stat", option="value")
    if ctx.opts.get("odds"):
        no_roll(ctx)
        title = ctx.t("c5.title_rally", value=value)
        if ctx.opts.get("contact"):  # @15362: an automatic failure, no roll is made
            never = {"system": "c5", "mean": 0.0, "distribution": [], "p_success": 0.0}
            lines: list[Block] = [[code(title)], [bold(ctx.t("c5.rally_contact"))]]
            return Reply(title=ctx.t("c5.odds_title"), blocks=lines, data=never)
        req = test_request(ctx, value, tables.RALLY_DIFFICULTY, ctx.opts.get("mod") or 0)
        return await test_odds_reply(ctx, req, title)
    settings = await SETTINGS.load(ctx)
    blocks: list[Block] = []
    if ctx.opts.get("contact"):
        outcome: dict[str, Any] = {
            "total": None,
            "success": False,
            "natural_one": False,
            "failed": True,
        }
        steps: list[Step] = []
        source = ctx.dice(ctx.opts["dice"])
        blocks.append([bold(ctx.t("c5.rally_contact"))])
    else:
        req = test_request(ctx, value, tables.RALLY_DIFFICULTY, ctx.opts.get("mod") or 0)
        source = ctx.dice(ctx.opts["dice"])
        step, out = resolve_test(req, source, open_ended=settings.open_ended == "yes", name="rally")
        steps, outcome = [step], out.model_dump()
        blocks.append(test_block(ctx, step))
    source.check_exhausted()
    success = bool(outcome["success"])
    blocks.append([bold(ctx.t("c5.verdict.rallied" if success else "c5.verdict.still_routed"))])
    data = resolution("c5", steps, outcome)
    routed = unit is not None and is_routed(unit)
    if game is not None and unit is not None and ctx.opts.get("apply") and success and routed:
        name = next(
            c.name for c in unit.conditions if fold(c.name) in ("routed", "rotta", "in rotta")
        )
        await session.apply_change(
            ctx,
            lambda st: tr.remove_condition(st, unit.name, name),
            "c5_rally",
            unit=unit.name,
        )
        blocks.append([plain(ctx.t("c5.note.rallied", unit=unit.name))])
    if steps:
        await log_roll(ctx, source, int(outcome["total"]), data)
    return Reply(title=ctx.t("c5.title_rally", value=value), blocks=blocks, data=data)


# --- /c5 wound, melee, shoot ------------------------------------------------------------------


async def wound_cmd(ctx: Context) -> Reply:
    if ctx.opts.get("odds"):
        return await odds_wound(ctx)
    game, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = wound_request(ctx, attacker, target, melee=True)
    source = ctx.dice(ctx.opts["dice"])
    step, out = resolve_wound(
        req,
        source,
        minus_three=settings.minus_three,
        melee_penalty=settings.melee_penalty,
        sacred_on_nothing=settings.sacred_on_nothing == "yes",
    )
    blocks: list[Block] = [wound_block(ctx, step)]
    data = resolution("c5", [step], out.model_dump())
    if game is not None and target is not None and ctx.opts.get("apply"):
        blocks += await apply_wounds(ctx, game, target, out.wounds, out.stunned)
        data["applied"] = {"unit": target.name, "wounds": out.wounds, "stunned": out.stunned}
    source.check_exhausted()
    await log_roll(ctx, source, out.wounds, data)
    title = ctx.t("c5.title_wound", str=req.str_, res=req.res)
    return Reply(title=title, blocks=blocks, data=data)


async def attack_reply(
    ctx: Context,
    game: games.StoredGame | None,
    target: Unit | None,
    steps: list[Step],
    out: AttackOutcome,
    source: DiceSource,
    title: str,
) -> Reply:
    blocks: list[Block] = [step_block(ctx, s) for s in steps]
    blocks.append([bold(attack_verdict(ctx, out))])
    data = resolution("c5", steps, out.model_dump())
    if game is not None and target is not None and ctx.opts.get("apply") and out.hit:
        blocks += await apply_wounds(ctx, game, target, out.wounds, out.stunned)
        data["applied"] = {"unit": target.name, "wounds": out.wounds, "stunned": out.stunned}
    source.check_exhausted()
    await log_roll(ctx, source, out.wounds, data)
    return Reply(title=title, blocks=blocks, data=data)


async def melee_cmd(ctx: Context) -> Reply:
    if ctx.opts.get("odds"):
        return await odds_melee(ctx)
    game, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = melee_request(ctx, attacker, target)
    source = ctx.dice(ctx.opts["dice"])
    steps, out = resolve_melee(req, source, settings)
    title = ctx.t("c5.title_melee", att=req.attack.value, str=req.wound.str_, res=req.wound.res)
    return await attack_reply(ctx, game, target, steps, out, source, title)


async def shoot_cmd(ctx: Context) -> Reply:
    if ctx.opts.get("odds"):
        return await odds_shoot(ctx)
    game, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = shoot_request(ctx, attacker, target)
    source = ctx.dice(ctx.opts["dice"])
    steps, out = resolve_shoot(req, source, settings)
    title = ctx.t("c5.title_shoot", aim=req.test.value, str=req.wound.str_, res=req.wound.res)
    return await attack_reply(ctx, game, target, steps, out, source, title)


# --- odds -------------------------------------------------------------------------------------


def wound_odds_reply(ctx: Context, odds: WoundOdds, title: str) -> Reply:
    dist = as_distribution(odds.wounds)
    blocks = distribution_blocks(ctx, dist, [code(title)])
    blocks.append(
        [
            plain(
                ctx.t(
                    "c5.p_line",
                    hit=pct(odds.p_hit),
                    stunned=pct(odds.p_stunned),
                    exceptional=pct(odds.p_exceptional),
                )
            )
        ]
    )
    if odds.tail:
        blocks.append([plain(ctx.t("c5.tail", tail=f"{odds.tail:.1e}"))])
    data = {
        "system": "c5",
        **distribution_data(dist),
        "p_stunned": float(odds.p_stunned),
        "p_hit": float(odds.p_hit),
        "p_exceptional": float(odds.p_exceptional),
        "p_nulla": float(odds.p_nulla),
        "tail": odds.tail,
    }
    return Reply(title=ctx.t("c5.odds_title"), blocks=blocks, data=data)


def no_roll(ctx: Context) -> None:
    """The odds twin takes its attack's options; rolling and applying have no meaning there."""
    for name in ("dice", "apply"):
        if ctx.opts.get(name):
            raise UserError("c5.odds_no_roll", option=name)


async def odds_wound(ctx: Context) -> Reply:
    no_roll(ctx)
    _, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = wound_request(ctx, attacker, target, melee=True)
    odds = await ctx.offload(wound_odds, req, settings)
    return wound_odds_reply(ctx, odds, ctx.t("c5.title_wound", str=req.str_, res=req.res))


async def odds_melee(ctx: Context) -> Reply:
    no_roll(ctx)
    _, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = melee_request(ctx, attacker, target)
    odds = await ctx.offload(melee_odds, req, settings)
    title = ctx.t("c5.title_melee", att=req.attack.value, str=req.wound.str_, res=req.wound.res)
    return wound_odds_reply(ctx, odds, title)


async def odds_shoot(ctx: Context) -> Reply:
    no_roll(ctx)
    _, attacker, target = await GAME.units(ctx)
    settings = await SETTINGS.load(ctx)
    req = shoot_request(ctx, attacker, target)
    odds = await ctx.offload(shoot_odds, req, settings)
    title = ctx.t("c5.title_shoot", aim=req.test.value, str=req.wound.str_, res=req.wound.res)
    return wound_odds_reply(ctx, odds, title)


async def odds_cmd(ctx: Context) -> Reply:
    """/c5 odds KIND OPTIONS…: the odds twin of `/c5 KIND OPTIONS… odds`. The rest of the line
    is read with the options of that command, so the twin takes exactly the attack's options
    (Discord maps two path words at most and 25 options per command: one command per kind
    would not fit, a free text option does)."""
    kind = ODDS_KIND_ALIASES.get(fold(ctx.opts["kind"]), ctx.opts["kind"])
    spec = next(s for s in SPECS if s.path == ("c5", kind))  # whose options the line takes
    rest = ctx.opts.get("options") or ""
    opts = parse_options(spec, rest, tokenize(rest))
    # The odds function itself, not the command's handler: no second dispatch.
    return await ODDS_OF[kind](replace(ctx, spec=spec, opts=opts))


async def odds_test(ctx: Context) -> Reply:
    no_roll(ctx)
    req = await plain_test_request(ctx)
    return await test_odds_reply(ctx, req, ctx.t("c5.title_test", value=req.value))


async def test_odds_reply(ctx: Context, req: TestRequest, title: str) -> Reply:
    settings = await SETTINGS.load(ctx)
    open_ended = settings.open_ended == "yes"
    odds = await ctx.offload(test_odds, req, open_ended)
    dist = as_distribution(odds.distribution)
    blocks = distribution_blocks(ctx, dist, [code(title)])
    p = float(odds.p_success)
    blocks.append(
        [
            bold(ctx.t("c5.p_success", p=pct(p))),
            plain(" · " + ctx.t("c5.p_one_fail", p=pct(odds.p_natural_one_fail))),
        ]
    )
    blocks.append([plain(ctx.t("c5.tail", tail=f"{odds.tail:.1e}"))])
    data = {
        "system": "c5",
        **distribution_data(dist),
        "p_success": p,
        "p_success_exact": str(odds.p_success),
        "p_natural_one_fail": odds.p_natural_one_fail,
        "tail": odds.tail,
    }
    return Reply(title=ctx.t("c5.odds_title"), blocks=blocks, data=data)


# --- mana, faith, pass --------------------------------------------------------------------


async def change_pool(ctx: Context, unit: Unit, name: str, op: str, amount: int) -> int:
    key = f"unit:{fold(unit.name)}"
    result: list[int] = []

    def mutate(state: GameState) -> GameState:
        new, value = tr.change_resource(state, key, name, op, amount)
        result[:] = [value]
        return new

    await session.apply_change(ctx, mutate, f"c5_{name}", unit=unit.name)
    return result[0] if result else amount


async def mana_cmd(ctx: Context) -> Reply:
    _, _, unit = await GAME.units(ctx)
    rank = need(ctx, "rank", unit, "rank")
    power = need(ctx, "power", unit, "pow")
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(ctx.opts["dice"])
    step, out = resolve_mana(
        rank,
        power,
        source,
        recupero=ctx.opts.get("recupero") or 0,
        explode=settings.mana_explode == "yes",
    )
    source.check_exhausted()
    rank_name = tables.RANK_NAMES_MAGE.get(rank, str(rank))
    line = f"{dice_text(step.dice)} {signed(power)} {ctx.t('c5.mod.pow')} = {out.total} → " + ctx.t(
        "c5.mana_column", rank=rank_name, column=step.detail["column"]
    )
    blocks: list[Block] = [
        [bold(ctx.t("c5.step.mana") + ": "), plain(line)],
        [bold(ctx.t("c5.gems", n=out.gems))],
    ]
    data = resolution("c5", [step], out.model_dump())
    if unit is not None and ctx.opts.get("apply"):
        have = await change_pool(ctx, unit, "mana", "add", out.gems)
        blocks.append([plain(ctx.t("c5.pool", unit=unit.name, name="mana", n=have))])
        data["applied"] = {"unit": unit.name, "mana": have}
    await log_roll(ctx, source, out.gems, data)
    return Reply(title=ctx.t("c5.title_mana", rank=rank_name, pow=power), blocks=blocks, data=data)


async def mystic_cmd(ctx: Context) -> Reply:
    """Mystic phase (digest §4.1-4): each of your mages in the chat's game (units with a POW)
    rolls its mana recovery on its rank's row (@130449), in the order of the game's units;
    `all` (organiser or admin) rolls for every mage. `apply` adds every mage's gems to its
    mana as ONE event."""
    game = await GAME.load(ctx)
    state = game.state
    if ctx.opts.get("all"):
        session.require_manager(ctx, state)
    mages = [
        u
        for u in state.units
        if not u.destroyed
        and u.stats.get("pow")
        and (ctx.opts.get("all") or u.owner == ctx.request.user_id)
    ]
    if not mages:
        raise UserError("c5.no_mages")
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(ctx.opts["dice"])
    rolled = []
    for unit in mages:
        step, out = resolve_mana(
            unit.stats.get("rank", 1),
            unit.stats["pow"],
            source,
            explode=settings.mana_explode == "yes",
        )
        rolled.append((unit, step, out))
    source.check_exhausted()
    blocks: list[Block] = []
    for unit, step, out in rolled:
        rank_name = tables.RANK_NAMES_MAGE.get(out.rank, str(out.rank))
        line = (
            f"{dice_text(step.dice)} {signed(unit.stats['pow'])} {ctx.t('c5.mod.pow')} = "
            f"{out.total} → "
            + ctx.t("c5.mana_column", rank=rank_name, column=step.detail["column"])
            + " → "
        )
        blocks.append([bold(unit.name + ": "), plain(line), bold(ctx.t("c5.gems", n=out.gems))])
    gems = {unit.name: out.gems for unit, _, out in rolled}
    data = resolution("c5", [step for _, step, _ in rolled], {"gems": gems})
    if ctx.opts.get("apply"):

        def recover(st: GameState) -> GameState:
            for unit, _, out in rolled:
                st, _ = tr.change_resource(st, f"unit:{fold(unit.name)}", "mana", "add", out.gems)
            return st

        change = await session.apply_change(ctx, recover, "c5_mystic")
        pools = change.after.resources
        have = {u.name: pools.get(f"unit:{fold(u.name)}", {}).get("mana", 0) for u, _, _ in rolled}
        for name, n in have.items():
            blocks.append([plain(ctx.t("c5.pool", unit=name, name="mana", n=n))])
        data["applied"] = {"mana": have}
    blocks.append([plain(ctx.t("c5.mystic_faith"))])
    await log_roll(ctx, source, sum(out.gems for _, _, out in rolled), data)
    return Reply(title=ctx.t("c5.title_mystic"), blocks=blocks, data=data)


async def maintenance_cmd(ctx: Context) -> Reply:
    """Maintenance phase: Rigenerazione/X, Guarigione/X or Effimero/X on a fighter; with
    target=UNIT the wounds come from the game and `apply` heals (or wounds) it as one event."""
    game, _, unit = await GAME.units(ctx)
    ability = ctx.opts.get("ability") or "rigenerazione"
    wounds = ctx.opts.get("wounds")
    if wounds is None:
        wounds = unit.damage if unit is not None else tables.MAX_WOUNDS
    source = ctx.dice(ctx.opts["dice"])
    step, out = resolve_recovery(ability, ctx.opts["x"], wounds, source)
    source.check_exhausted()
    line = f"{dice_text(step.dice)} " + ctx.t("c5.vs", target=f"{out.x}+")
    key = "c5.lost" if ability == "effimero" else "c5.healed"
    n = out.lost if ability == "effimero" else out.healed
    blocks: list[Block] = [
        [bold(ctx.t(f"c5.step.{ability}") + ": "), plain(line + " → "), bold(ctx.t(key, n=n))]
    ]
    data = resolution("c5", [step], out.model_dump())
    if game is not None and unit is not None and ctx.opts.get("apply") and n:
        notes: list[Note] = []

        def change(state: GameState) -> GameState:
            notes.clear()
            if ability == "effimero":
                return tr.damage(state, unit.name, n, notes=notes)
            return tr.heal(state, unit.name, n)

        done = await session.apply_change(ctx, change, f"c5_{ability}", unit=unit.name)
        blocks += game_view.notes_blocks(ctx, notes)
        if done.unit is not None:
            blocks += game_view.unit_blocks(ctx, done.unit, done.after.system)
        data["applied"] = {"unit": unit.name, "healed": out.healed, "lost": out.lost}
    await log_roll(ctx, source, n, data)
    title = ctx.t("c5.title_maintenance", ability=ctx.t(f"c5.step.{ability}"), x=out.x)
    return Reply(title=title, blocks=blocks, data=data)


async def faith_cmd(ctx: Context) -> Reply:
    game, _, unit = await GAME.units(ctx)
    rank = need(ctx, "rank", unit, "rank")
    aspects = need(ctx, "aspects", unit, "aspects")
    pieta = option_or_stat(ctx, "pieta", unit, "pieta") or 0
    unspent = ctx.opts.get("unspent")
    if unspent is None and game is not None and unit is not None:
        unspent = game.state.resources.get(f"unit:{fold(unit.name)}", {}).get("ft", 0)
    out = temporary_faith(
        rank,
        aspects,
        ctx.opts.get("followers") or 0,
        credente=ctx.opts.get("credente") or 0,
        consecrated=ctx.opts.get("consecrated") or 0,
        pieta=pieta,
        unspent=unspent or 0,
    )
    rank_name = tables.RANK_NAMES_FAITHFUL.get(rank, str(rank))
    line = ctx.t(
        "c5.faith_line",
        aspects=out.aspects,
        followers=out.from_followers,
        credente=out.credente,
        kept=out.kept,
        ft=out.ft,
    )
    blocks: list[Block] = [[plain(line)], [bold(ctx.t("c5.ft", n=out.ft))]]
    data: dict[str, Any] = resolution("c5", [], out.model_dump())
    if unit is not None and ctx.opts.get("apply"):
        have = await change_pool(ctx, unit, "ft", "set", out.ft)
        blocks.append([plain(ctx.t("c5.pool", unit=unit.name, name="ft", n=have))])
        data["applied"] = {"unit": unit.name, "ft": have}
    return Reply(title=ctx.t("c5.title_faith", rank=rank_name), blocks=blocks, data=data)


async def pass_cmd(ctx: Context) -> Reply:
    """@16499 (replaces C3 p.30): on your lead you may pass when the opponent has more cards
    left to activate than you, reserves included. With `apply`, in the activation phase of the
    chat's game, the lead goes to the opponent (one event; /undo gives it back)."""
    mine, theirs = ctx.opts["mine"], ctx.opts["theirs"]
    ok = may_pass(mine, theirs)
    text = ctx.t("c5.may_pass" if ok else "c5.may_not_pass", mine=mine, theirs=theirs)
    blocks: list[Block] = [[bold(text)]]
    data: dict[str, Any] = resolution("c5", [], {"may_pass": ok})
    if ctx.opts.get("apply"):
        if not ok:
            raise UserError("c5.pass_refused", mine=mine, theirs=theirs)
        game = await GAME.load(ctx)
        state = game.state
        if C5.phases[state.phase] != "activation":
            raise UserError("c5.pass_not_activation")
        session.require_turn(ctx, state)
        new = tr.end_turn(state)
        await session.apply_change(ctx, new, "c5_pass", game=game)
        lead = session.name_of(new, new.current)
        blocks.append([plain(ctx.t("c5.passed", player=lead))])
        data["applied"] = {"lead": new.current}
    return Reply(blocks=blocks, data=data)


# --- /c5 settings ---------------------------------------------------------------------------


async def settings_cmd(ctx: Context) -> Reply:
    reply = await SETTINGS.command(ctx)
    reply.blocks.append([plain(ctx.t("c5.settings_hint"))])
    return reply


# --- which rules are [SEED], [BG] or [AMBIG] -------------------------------------------------


def sourced(handler: Handler) -> Handler:
    """Close the reply with the line saying which rules it used come from the seed [SEED], from
    Confrontation 3 background [BG] or are ambiguous and a setting [AMBIG]."""

    async def run(ctx: Context) -> Reply:
        reply = await handler(ctx)
        reply.blocks.append([plain(ctx.t(f"c5.src.{ctx.spec.path[-1]}"))])
        return reply

    return run


# --- declarations ---------------------------------------------------------------------------


REROLL = int_opt("reroll", "rilancia", lo=2, hi=5)
ONE_OK = flag_opt("one_ok", "uno_ok")
WOUND_OPTS = (
    OptionSpec("effects", max_length=200, aliases=("effetti",)),
    flag_opt("flagello", "scourge"),
    flag_opt("ossoduro", "hardboned"),
    flag_opt("str_uncapped", "forza_libera"),
    int_opt("printed", "stampata", lo=16, hi=30),
    flag_opt("artillery", "artiglieria"),
    int_opt("master", "colpo_da_maestro", hi=10),
    int_opt("pen", "penalita", hi=3),
)
WOUND_CORE = (
    int_opt("str", "for", "forza", lo=-10, hi=40),
    int_opt("res", "resistenza", lo=-10, hi=40),
)
MELEE_OPTS = (
    int_opt("att", "attacco"),
    int_opt("def", "dif", "difesa"),
    flag_opt("parry", "para"),
    *WOUND_CORE,
    signed_opt("att_mod", "mod_att"),
    signed_opt("def_mod", "mod_dif"),
    int_opt("diff", "difficolta", hi=40),
    signed_opt("wound_mod", "mod_ferire"),
    REROLL,
    ONE_OK,
    *WOUND_OPTS,
    ATTACKER,
    TARGET,
)
# Not on shots: wound penalties and Colpo da Maestro are melee only; a weapon printed above 15
# says so with printed=N (str_uncapped stays on /c5 wound and /c5 melee).
NOT_ON_SHOTS = frozenset({"pen", "master", "str_uncapped"})
SHOOT_OPTS = (
    int_opt("aim", "tir", "tiro"),
    OptionSpec("range", choices=("short", "medium", "long"), aliases=("gittata",)),
    OptionSpec("fire", choices=("normal", "assault", "reaction"), aliases=("fuoco",)),
    flag_opt("printed_fire", "stampato"),
    *WOUND_CORE,
    signed_opt("aim_mod", "mod_tir"),
    signed_opt("diff_mod", "mod_difficolta"),
    int_opt("altitude", "altitudine", hi=2),
    flag_opt("mira", "aim_bonus"),
    flag_opt("mira_printed", "mira_stampata"),
    flag_opt("zone", "zona"),
    signed_opt("wound_mod", "mod_ferire"),
    REROLL,
    ONE_OK,
    *(o for o in WOUND_OPTS if o.name not in NOT_ON_SHOTS),
    ATTACKER,
    TARGET,
)
ODDS = flag_opt("odds", "prob", "probabilita")

ODDS_OF: dict[str, Handler] = {
    "wound": odds_wound,
    "test": odds_test,
    "melee": odds_melee,
    "shoot": odds_shoot,
}
ODDS_KINDS = tuple(ODDS_OF)
ODDS_KIND_ALIASES = {"ferita": "wound", "ferire": "wound", "prova": "test", "mischia": "melee"}
ODDS_KIND_ALIASES |= {"tiro": "shoot", "tira": "shoot"}
ODDS_OPTS = (
    OptionSpec(
        "kind",
        positional=True,
        required=True,
        choices=(*ODDS_KINDS, "ferita", "prova", "mischia", "tiro"),
        aliases=("tipo",),
    ),
    OptionSpec("options", type="text", positional=True, max_length=1000, aliases=("opzioni",)),
)
STATS = ("ini", "att", "def", "aim", "cou", "fear", "dis", "pow", "str", "res", "mov")

SPECS = [
    CommandSpec(
        path=("c5", "test"),
        handler=sourced(test_cmd),
        aliases=("prova",),
        options=(
            int_opt("value", "valore", lo=-10, hi=30),
            int_opt("diff", "difficolta", lo=-10, hi=40),
            signed_opt("mod"),
            REROLL,
            ONE_OK,
            OptionSpec("stat", choices=STATS, aliases=("caratteristica",)),
            TARGET,
            ODDS,
            DICE,
        ),
        examples=(
            "/c5 test value=5 diff=7",
            "/c5 test value=6 reroll=5 dice=5,1,2",
            "/c5 test target=Abel stat=att diff=9 odds",
        ),
    ),
    CommandSpec(
        path=("c5", "opposed"),
        handler=sourced(opposed_cmd),
        aliases=("opposto",),
        options=(
            int_opt("value", "valore", lo=-10, hi=30, required=True),
            int_opt("vs", "contro", lo=-10, hi=30, required=True),
            signed_opt("mod"),
            signed_opt("vs_mod", "mod_contro"),
            ODDS,
            DICE,
        ),
        examples=("/c5 opposed value=4 vs=3", "/c5 opposed value=4 vs=3 odds"),
    ),
    CommandSpec(
        path=("c5", "wound"),
        handler=sourced(wound_cmd),
        aliases=("ferire", "ferita"),
        options=(*WOUND_CORE, signed_opt("mod"), *WOUND_OPTS, ATTACKER, TARGET, APPLY, ODDS, DICE),
        examples=(
            "/c5 wound str=7 res=6",
            "/c5 wound str=10 target=Orc apply dice=4,4",
            "/c5 wound str=7 res=6 flagello odds",
        ),
    ),
    CommandSpec(
        path=("c5", "melee"),
        handler=sourced(melee_cmd),
        aliases=("mischia",),
        options=(*MELEE_OPTS, APPLY, ODDS, DICE),
        examples=(
            "/c5 melee att=5 def=4 str=7 res=6",
            "/c5 melee attacker=Wolfen target=Griffin parry apply",
            "/c5 melee attacker=Wolfen target=Griffin parry odds",
        ),
    ),
    CommandSpec(
        path=("c5", "shoot"),
        handler=sourced(shoot_cmd),
        aliases=("tiro", "tira"),
        options=(*SHOOT_OPTS, APPLY, ODDS, DICE),
        examples=(
            "/c5 shoot aim=4 range=medium str=6 res=5 mira",
            "/c5 shoot attacker=Archer target=Orc range=long altitude=1 odds",
        ),
    ),
    odds_spec(
        "c5",
        odds_cmd,
        ODDS_OPTS,
        "/c5 odds wound str=7 res=6 flagello",
        "/c5 odds test value=5 diff=9",
        "/c5 odds melee attacker=Wolfen target=Griffin parry",
        "/c5 odds shoot aim=4 range=long str=8 res=5 zone",
    ),
    CommandSpec(
        path=("c5", "mana"),
        handler=sourced(mana_cmd),
        options=(
            int_opt("rank", "rango", lo=1, hi=4),
            int_opt("power", "pot", "pow", lo=-10, hi=30),
            int_opt("recupero", "recovery", hi=10),
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/c5 mana rank=2 power=4", "/c5 mana target=Enoch apply"),
    ),
    CommandSpec(
        path=("c5", "mystic"),
        handler=sourced(mystic_cmd),
        aliases=("mistica",),
        options=(flag_opt("all", "tutti"), APPLY, DICE),
        examples=("/c5 mystic apply", "/c5 mystic all apply dice=5,3"),
    ),
    CommandSpec(
        path=("c5", "maintenance"),
        handler=sourced(maintenance_cmd),
        aliases=("mantenimento",),
        options=(
            OptionSpec("ability", choices=RECOVERY, aliases=("abilita",)),
            int_opt("x", lo=1, hi=7, required=True),
            int_opt("wounds", "ferite", hi=8),
            TARGET,
            APPLY,
            DICE,
        ),
        examples=(
            "/c5 maintenance ability=rigenerazione x=4 target=Troll apply",
            "/c5 maintenance ability=effimero x=5 wounds=1 dice=5,6",
        ),
    ),
    CommandSpec(
        path=("c5", "faith"),
        handler=sourced(faith_cmd),
        aliases=("fede",),
        options=(
            int_opt("rank", "rango", lo=1, hi=4),
            int_opt("aspects", "aspetti", hi=30),
            int_opt("followers", "seguaci", hi=100),
            int_opt("credente", "believer", hi=30),
            int_opt("consecrated", "consacrati", hi=30),
            int_opt("pieta", hi=10),
            int_opt("unspent", "avanzata", hi=99),
            TARGET,
            APPLY,
        ),
        examples=("/c5 faith rank=1 aspects=3 followers=7",),
    ),
    CommandSpec(
        path=("c5", "fear"),
        handler=sourced(fear_cmd),
        aliases=("paura",),
        options=(
            int_opt("courage", "cou", "cor", "coraggio", lo=-10, hi=30),
            int_opt("fear", "pau", "paura", lo=0, hi=30, required=True),
            signed_opt("mod"),
            REROLL,
            ONE_OK,
            TARGET,
            APPLY,
            ODDS,
            DICE,
        ),
        examples=("/c5 fear courage=4 fear=7", "/c5 fear target=Abel fear=8 apply"),
    ),
    CommandSpec(
        path=("c5", "rally"),
        handler=sourced(rally_cmd),
        aliases=("raduno",),
        options=(
            int_opt("value", "valore", "cou", "dis", lo=-10, hi=30),
            flag_opt("contact", "contatto"),
            signed_opt("mod"),
            REROLL,
            ONE_OK,
            TARGET,
            APPLY,
            ODDS,
            DICE,
        ),
        examples=("/c5 rally value=5", "/c5 rally target=Wolfen apply", "/c5 rally value=5 odds"),
    ),
    CommandSpec(
        path=("c5", "pass"),
        handler=sourced(pass_cmd),
        aliases=("passa",),
        options=(
            int_opt("mine", "mie", hi=99, required=True),
            int_opt("theirs", "sue", hi=99, required=True),
            APPLY,
        ),
        examples=("/c5 pass mine=5 theirs=6", "/c5 pass mine=2 theirs=4 apply"),
    ),
    CommandSpec(
        path=("c5", "settings"),
        handler=settings_cmd,
        aliases=("impostazioni",),
        options=(
            *(OptionSpec(name, choices=choices) for name, choices in SETTING_CHOICES.items()),
            *(int_opt(name, lo=0, hi=30) for name in SETTING_INTS),
        ),
        examples=("/c5 settings", "/c5 settings open_ended=no range_long=12"),
    ),
]
