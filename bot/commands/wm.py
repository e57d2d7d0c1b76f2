"""/wm: WARMACHINE Mk II attacks with exact odds, checks, falls, deviation, focus and settings.

The rules are in rules_core.systems.wm (pure); this module reads options, the chat's game
(`target=UNIT`) and settings, applies results as one game event (`apply`), logs the dice in
the roll log and renders the chain.
"""

from __future__ import annotations

from typing import Any

from bot import session
from bot.commands import game_view, system_kit
from bot.commands.context import Context
from bot.commands.odds_view import as_distribution, distribution_blocks, distribution_data
from bot.commands.spec import (
    APPLY,
    DICE,
    TARGET,
    CommandSpec,
    OptionSpec,
    flag_opt,
    int_opt,
    odds_spec,
    signed_opt,
    unit_opt,
)
from bot.commands.system_kit import dice_text, log_roll, option_or_stat, pct, resolution, signed
from bot.protocol import Block, Reply, bold, code, plain
from bot.storage import games
from rules_core.dice import DiceSource
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import Unit
from rules_core.rules.text import fold
from rules_core.steps import Step
from rules_core.systems.wm import checks, grid
from rules_core.systems.wm.attack import resolve_attack
from rules_core.systems.wm.models import MODS, AttackRequest
from rules_core.systems.wm.odds import attack_odds, check_pass_chance
from rules_core.systems.wm.settings import CHOICES, WmSettings, direction_key, update
from rules_core.systems.wm.system import allocate

# Italian (and short) names of the declared modifiers.
MOD_ALIASES = {
    "back": "backstrike",
    "back_strike": "backstrike",
    "alle_spalle": "backstrike",
    "spalle": "backstrike",
    "mira": "aim",
    "opportunita": "free_strike",
    "freestrike": "free_strike",
    "carica": "charge",
    "kd": "knocked_down",
    "atterrato": "knocked_down",
    "immobilizzato": "stationary",
    "copertura": "cover",
    "celato": "concealment",
    "elevato": "elevated",
    "mischia": "in_melee",
    "in_mischia": "in_melee",
    "interposto": "intervening",
    "terreno_interposto": "intervening",
    "compromesso": "crippled",
    "tira_comunque": "roll_anyway",
    "movimento_compromesso": "movement_crippled",
}
# Conditions on a target unit that declare a mod by themselves (`/unit cond X add atterrato`).
CONDITION_MODS = {
    "knocked_down": "knocked_down",
    "knocked down": "knocked_down",
    "atterrato": "knocked_down",
    "stationary": "stationary",
    "immobilizzato": "stationary",
}
MAX_MODS_TEXT = 200


def parse_mods(text: str | None) -> set[str]:
    out: set[str] = set()
    if not text:
        return out
    for part in text.replace(";", ",").split(","):
        word = fold(part.strip()).replace("-", "_").replace(" ", "_")
        if not word:
            continue
        name = MOD_ALIASES.get(word, word)
        if name not in MODS:
            raise UserError("wm.bad_mod", mod=part.strip()[:30], valid=", ".join(MODS))
        out.add(name)
    return out


# --- settings, target unit ------------------------------------------------------------------

SETTINGS = system_kit.SystemSettings(
    "wm", WmSettings, tuple(CHOICES), update, "wm.settings_admin_only", per_value=False
)
GAME = system_kit.SystemGame("wm", "wm.not_wm_game", "wm.apply_needs_target")


def unit_crippled(unit: Unit) -> list[str]:
    raw = unit.extra.get("grid") if unit.extra else None
    return grid.Grid.model_validate(raw).crippled() if raw else []


async def attack_request(ctx: Context, unit: Unit | None) -> AttackRequest:
    settings = await SETTINGS.load(ctx)
    mods = parse_mods(ctx.opts["mods"])
    if unit is not None:
        for cond in unit.conditions:
            mod = CONDITION_MODS.get(fold(cond.name))
            if mod:
                mods.add(mod)
        if "M" in unit_crippled(unit):
            mods.add("movement_crippled")
    if settings.roll_autohit == "yes":
        mods.add("roll_anyway")
    blast = bool(ctx.opts["blast"])
    skill = ctx.opts["skill"]
    if skill is None and not blast:
        raise UserError("cmd.missing_option", option="skill")
    defense = option_or_stat(ctx, "def", unit, "def")
    if defense is None and not blast:
        raise UserError("wm.missing_stat", option="def")
    arm = option_or_stat(ctx, "arm", unit, "arm")
    if arm is None:
        raise UserError("wm.missing_stat", option="arm")
    boost = ctx.opts["boost"] or "none"
    return AttackRequest(
        type=ctx.opts["type"],
        skill=skill or 0,
        defense=defense if defense is not None else 5,
        pow=ctx.opts["pow"],
        str_=ctx.opts["str"] or 0,
        arm=arm,
        boost=boost,
        mods=frozenset(mods),
        combined=ctx.opts["combined"] or 0,
        extra_hit_dice=ctx.opts["extra_hit_dice"] or 0,
        extra_damage_dice=ctx.opts["extra_damage_dice"] or 0,
        blast=blast,
        hit_mod=ctx.opts["hit_mod"] or 0,
        def_mod=ctx.opts["def_mod"] or 0,
        dmg_mod=ctx.opts["dmg_mod"] or 0,
    )


# --- rendering --------------------------------------------------------------------------------


def mod_label(ctx: Context, name: str, kind: str) -> str:
    if name == "skill":
        return ctx.t(f"wm.skill.{kind}")
    return ctx.t(f"wm.mod.{name}")


def chain(ctx: Context, step: Step, kind: str) -> str:
    """`[3, 5] +7 MAT +2 back strike = 17`"""
    parts = [dice_text(step.dice)] if step.dice else []
    for m in step.modifiers:
        parts.append(f"{signed(m.value)} {mod_label(ctx, m.name, kind)}")
    return " ".join(parts)


def step_block(ctx: Context, step: Step, kind: str) -> Block | None:
    label = bold(ctx.t(f"wm.step.{step.name}") + ": ")
    if step.name == "defense":
        if len(step.modifiers) <= 1:
            return None
        first, *rest = step.modifiers
        text = f"{first.value} " + " ".join(
            f"{signed(m.value)} {mod_label(ctx, m.name, kind)}" for m in rest
        )
        return [label, plain(f"{text} = {step.total}")]
    if step.name == "attack" and step.outcome == "auto_hit":
        return [label, plain(ctx.t("wm.auto_hit"))]
    if step.name == "attack":
        return [
            label,
            plain(
                f"{chain(ctx, step, kind)} = {step.total} "
                + ctx.t("wm.vs_def", defense=step.target)
                + " → "
                + ctx.t(f"wm.result.{step.outcome}")
            ),
        ]
    if step.name in ("damage", "blast", "fall"):
        line: Block = [label, plain(f"{chain(ctx, step, kind)} = {step.total}")]
        if step.target is not None:
            dmg = max(0, (step.total or 0) - step.target)
            line.append(
                plain(" " + ctx.t("wm.vs_arm", arm=step.target) + " → " + ctx.t("wm.points", n=dmg))
            )
        return line
    return [label, plain(f"{dice_text(step.dice)} → {step.total}")]


def attack_title(ctx: Context, req: AttackRequest) -> str:
    if req.blast:
        return ctx.t("wm.title_blast", pow=req.pow, arm=req.arm)
    power = req.pow + req.str_
    return ctx.t(
        f"wm.title_{req.type}", skill=req.skill, defense=req.defense, pow=power, arm=req.arm
    )


# --- /wm attack, /wm odds --------------------------------------------------------------------


async def attack(ctx: Context) -> Reply:
    found = await GAME.target(ctx)
    unit = found[1] if found else None
    req = await attack_request(ctx, unit)
    source = ctx.dice(ctx.opts["dice"])
    res = resolve_attack(req, source)
    out = res.outcome
    blocks: list[Block] = []
    for step in res.steps:
        block = step_block(ctx, step, req.type)
        if block:
            blocks.append(block)
    if not out.hit:
        verdict = ctx.t("wm.verdict.miss")
    elif req.blast:
        verdict = ctx.t("wm.verdict.blast", n=out.damage)
    else:
        key = "critical" if out.critical else "hit"
        verdict = ctx.t(f"wm.verdict.{key}", n=out.damage)
    blocks.append([bold(verdict)])
    data = resolution("wm", res.steps, out.model_dump())
    if found is not None and ctx.opts["apply"]:
        game, target = found
        effects = tuple(
            effect
            for effect, wanted in (
                (ctx.opts["effect"], out.hit),
                (ctx.opts["crit_effect"], out.critical),
            )
            if effect and wanted
        )
        more, applied = await apply_damage(ctx, game, target, out.damage, source, effects)
        blocks += more
        data["applied"] = {"unit": target.name, "damage": out.damage, "effects": applied}
    source.check_exhausted()
    await log_roll(ctx, source, out.damage, data)
    return Reply(title=attack_title(ctx, req), blocks=blocks, data=data)


async def odds(ctx: Context) -> Reply:
    found = await GAME.target(ctx)
    req = await attack_request(ctx, found[1] if found else None)
    result = await ctx.offload(attack_odds, req)  # off the event loop
    dist = as_distribution(result.distribution)
    heading: Block = [code(attack_title(ctx, req))]
    blocks = distribution_blocks(ctx, dist, heading)
    blocks.append(
        [
            plain(
                ctx.t(
                    "wm.p_line",
                    hit=pct(result.p_hit),
                    crit=pct(result.p_critical),
                    damage=pct(result.p_damage),
                )
            )
        ]
    )
    data = {
        "system": "wm",
        **distribution_data(dist),
        "p_hit": float(result.p_hit),
        "p_critical": float(result.p_critical),
        "p_damage": float(result.p_damage),
    }
    return Reply(title=ctx.t("wm.odds_title"), blocks=blocks, data=data)


# --- damage on a unit of the chat's game ------------------------------------------------------


async def apply_damage(
    ctx: Context,
    game: games.StoredGame,
    unit: Unit,
    amount: int,
    source: DiceSource,
    effects: tuple[str, ...] = (),
) -> tuple[list[Block], list[str]]:
    """Apply `amount` (and continuous effects) to `unit` as one event (/undo reverts it)
    through the game's damage model (a grid rolls its column with the same dice)."""
    session.require_unit_rights(ctx, game.state, unit, attack=True)
    # A model has at most one continuous effect of each type (L3955-3956, example L3979).
    have = {fold(c.name) for c in unit.conditions}
    effects = tuple(e for e in effects if e not in have)
    if amount == 0 and not effects:  # nothing to record: no event
        return [[plain(ctx.t("wm.nothing_applied", unit=unit.name))]], []
    notes: list[tuple[str, dict[str, Any]]] = []
    new = tr.damage(game.state, unit.name, amount, dice=source, notes=notes)
    for effect in effects:
        new = tr.add_condition(new, unit.name, effect, None)
        notes.append((f"wm.note.{effect}_applied", {"unit": unit.name}))
    await session.apply_change(ctx, new, "damage", game=game)
    after = tr.find_unit(new, unit.name)
    blocks = game_view.notes_blocks(ctx, notes) + game_view.unit_blocks(ctx, after, new.system)
    return blocks, list(effects)


# --- /wm check, fall, deviate ---------------------------------------------------------------


async def check(ctx: Context) -> Reply:
    found = await GAME.target(ctx)
    value = option_or_stat(ctx, "value", found[1] if found else None, "cmd")
    if value is None:
        raise UserError("wm.missing_stat", option="value")
    source = ctx.dice(ctx.opts["dice"])
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
        [plain(ctx.t("wm.p_pass", p=pct(p)))],
    ]
    data = {**resolution("wm", steps, out.model_dump(by_alias=True)), "p_pass": float(p)}
    await log_roll(ctx, source, out.total, data)
    return Reply(title=ctx.t("wm.check_title", value=value), blocks=blocks, data=data)


async def fall(ctx: Context) -> Reply:
    height = checks.parse_inches(ctx.opts["height"], "height", checks.MAX_HEIGHT)
    found = await GAME.target(ctx)
    unit = found[1] if found else None
    arm = option_or_stat(ctx, "arm", unit, "arm")
    source = ctx.dice(ctx.opts["dice"])
    steps, out = checks.resolve_fall(height, arm, source)
    blocks: list[Block] = [b for s in steps if (b := step_block(ctx, s, "fall"))]
    if out.damage is not None:
        blocks.append([bold(ctx.t("wm.verdict.fall", n=out.damage))])
    data = resolution("wm", steps, out.model_dump())
    if found is not None and ctx.opts["apply"] and out.damage is not None:
        blocks += (await apply_damage(ctx, found[0], found[1], out.damage, source))[0]
        data["applied"] = {"unit": found[1].name, "damage": out.damage}
    source.check_exhausted()
    await log_roll(ctx, source, out.damage_total, data)
    title = ctx.t("wm.fall_title", height=f"{float(height):g}", dice=out.dice)
    return Reply(title=title, blocks=blocks, data=data)


async def deviate(ctx: Context) -> Reply:
    distance = checks.parse_inches(ctx.opts["distance"], "distance", checks.MAX_DISTANCE)
    thrown = bool(ctx.opts["thrown"])
    settings = await SETTINGS.load(ctx)
    source = ctx.dice(ctx.opts["dice"])
    steps, out = checks.resolve_deviation(distance, thrown, source)
    source.check_exhausted()
    where = ctx.t(f"wm.dir.{direction_key(out.direction, settings.deviation_layout)}")
    dist_label = ctx.t("wm.step.distance_d3" if thrown else "wm.step.distance")
    blocks: list[Block] = [
        [bold(ctx.t("wm.step.direction") + ": "), plain(f"[{out.direction}] → {where}")],
        [bold(dist_label + ": "), plain(f'{dice_text(steps[1].dice)} → {out.rolled}"')],
    ]
    if out.capped:
        blocks.append([plain(ctx.t("wm.capped", cap=f"{out.cap:g}"))])
    blocks.append([bold(ctx.t("wm.verdict.deviate", distance=f"{out.distance:g}", where=where))])
    direction_name = direction_key(out.direction, settings.deviation_layout)
    data = resolution("wm", steps, {**out.model_dump(), "direction_name": direction_name})
    await log_roll(ctx, source, out.direction, data)
    return Reply(
        title=ctx.t("wm.deviate_title", distance=f"{float(distance):g}"), blocks=blocks, data=data
    )


# --- /wm allocate ----------------------------------------------------------------------------


async def allocate_cmd(ctx: Context) -> Reply:
    """Control Phase: a caster gives focus to one of its warjacks (at most 3 per turn)."""
    game = await GAME.load(ctx)
    state = game.state
    jack = tr.find_unit(state, ctx.opts["jack"])
    session.require_unit_rights(ctx, state, jack, attack=False)
    new = state.clone()
    new_jack = tr.find_unit(new, jack.name)
    casters = [
        u for u in new.units if u.owner == jack.owner and u.stats.get("focus") and u is not new_jack
    ]
    if ctx.opts["caster"]:
        caster = tr.find_unit(new, ctx.opts["caster"])
    elif len(casters) == 1:
        caster = casters[0]
    else:
        raise UserError("wm.which_caster")
    allocate(new, caster, new_jack, ctx.opts["amount"])
    await session.apply_change(ctx, new, "wm_allocate", game=game)
    left = new.resources[f"unit:{fold(caster.name)}"]["focus"]
    has = new.resources[f"unit:{fold(new_jack.name)}"]["focus"]
    text = ctx.t(
        "wm.allocated",
        n=ctx.opts["amount"],
        caster=caster.name,
        jack=new_jack.name,
        left=left,
        has=has,
    )
    return Reply(
        blocks=[[plain(text)]],
        data={
            "system": "wm",
            "caster": caster.name,
            "jack": new_jack.name,
            "focus": has,
            "left": left,
        },
    )


# --- declarations ----------------------------------------------------------------------------


EFFECTS = ("fire", "corrosion")  # continuous effects a weapon applies (L847-856)
ATTACK_OPTIONS = (
    OptionSpec("type", choices=("melee", "ranged", "magic"), default="melee", aliases=("tipo",)),
    int_opt("skill", "mat", "rat", "focus", "mag", "abilita", "dat"),
    int_opt("def", "dif", "defense", "difesa", lo=1, hi=30),
    int_opt("pow", "pot", "potenza", hi=40, required=True),
    int_opt("str", "for", "forza"),
    int_opt("arm", "armatura", hi=40),
    OptionSpec("boost", choices=("hit", "damage", "both"), aliases=("potenzia",)),
    OptionSpec("mods", max_length=MAX_MODS_TEXT, aliases=("mod", "modificatori")),
    int_opt("combined", "combinato", hi=20),
    int_opt("extra_hit_dice", "dadi_attacco", hi=2),
    int_opt("extra_damage_dice", "dadi_danno", hi=2),
    flag_opt("blast", "esplosione"),
    signed_opt("hit_mod", "mod_attacco"),
    signed_opt("def_mod", "mod_dif"),
    signed_opt("dmg_mod", "mod_danno"),
    TARGET,
)

SPECS = [
    CommandSpec(
        path=("wm", "attack"),
        handler=attack,
        aliases=("attacco",),
        options=(
            *ATTACK_OPTIONS,
            APPLY,
            OptionSpec("effect", choices=EFFECTS, aliases=("effetto",)),
            OptionSpec("crit_effect", choices=EFFECTS, aliases=("effetto_critico",)),
            DICE,
        ),
        examples=(
            "/wm attack mat=7 def=12 pow=12 str=10 arm=18 mods=charge",
            "/wm attack type=ranged rat=6 def=13 pow=10 arm=15 boost=hit mods=aim,cover",
            "/wm attack mat=6 pow=12 str=11 target=Juggernaut apply dice=4,5,3,6,2,4",
        ),
    ),
    odds_spec("wm", odds, ATTACK_OPTIONS, "/wm odds mat=7 def=13 pow=12 str=10 arm=18 mods=charge"),
    CommandSpec(
        path=("wm", "check"),
        handler=check,
        aliases=("test",),
        options=(int_opt("value", "valore", "cmd", lo=0, hi=30), TARGET, DICE),
        examples=("/wm check value=9", "/wm test valore=8 dadi=3,4", "/wm check target=Trenchers"),
    ),
    CommandSpec(
        path=("wm", "fall"),
        handler=fall,
        aliases=("caduta",),
        options=(
            OptionSpec("height", required=True, max_length=10, aliases=("altezza",)),
            int_opt("arm", "armatura", hi=40),
            TARGET,
            APPLY,
            DICE,
        ),
        examples=("/wm fall height=5 arm=14",),
    ),
    CommandSpec(
        path=("wm", "deviate"),
        handler=deviate,
        aliases=("devia", "deviazione"),
        options=(
            OptionSpec("distance", required=True, max_length=10, aliases=("distanza",)),
            flag_opt("thrown", "lanciato"),
            DICE,
        ),
        examples=("/wm deviate distance=11", "/wm deviate distance=5.5 thrown dice=3,6"),
    ),
    CommandSpec(
        path=("wm", "allocate"),
        handler=allocate_cmd,
        aliases=("alloca",),
        options=(
            unit_opt("jack", positional=True, required=True),
            OptionSpec(
                "amount",
                type="int",
                positional=True,
                required=True,
                min_value=1,
                max_value=3,
                aliases=("quanti",),
            ),
            unit_opt("caster", "warcaster"),
        ),
        examples=("/wm allocate Ironclad 2", "/wm allocate Lancer 1 caster=Stryker"),
    ),
    CommandSpec(
        path=("wm", "settings"),
        handler=SETTINGS.command,
        aliases=("impostazioni",),
        options=tuple(OptionSpec(name, choices=choices) for name, choices in CHOICES.items()),
        examples=("/wm settings", "/wm settings deviation_layout=counterclockwise"),
    ),
]
