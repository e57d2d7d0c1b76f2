"""A whole WARMACHINE turn walked as two new players (Italian and English): the conditions the
game knows have one name each and read in the reader's language, and focus pays for boosts
and a warjack's charge as it does for a power attack."""

from __future__ import annotations

import pytest

from bot.app import App
from bot.render import plain
from rules_core.systems import get_system
from tests.helpers import say

GRID = "......|..L..M|...MC.|...MC.|..R..M|......"


async def game(app: App, chat: str, lang: str = "en") -> None:
    for text, user in (("/game new wm", "ann"), ("/game join", "bob")):
        assert (await say(app, text, user=user, chat=chat, lang=lang)).ok
    for text, user in (
        (f"/unit add Ironclad mat=7 str=11 def=12 arm=18 base=50 grid={GRID}", "ann"),
        ("/unit add Stryker mat=7 str=6 def=16 arm=15 focus=6", "ann"),
        (f"/unit add Juggernaut mat=7 str=12 def=12 arm=20 base=50 grid={GRID}", "bob"),
    ):
        assert (await say(app, text, user=user, chat=chat, lang=lang)).ok, text


# --- the conditions WARMACHINE knows: one canonical name, the reader's words ------------------


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("atterrato", "knocked_down"),
        ("knocked down", "knocked_down"),
        ("immobilizzato", "stationary"),
        ("fuoco", "fire"),
        ("corrosione", "corrosion"),
        ("corsa", "ran"),
    ],
)
def test_L3430_L3530_L3955_the_conditions_wm_knows_have_one_name(
    typed: str, canonical: str
) -> None:
    known = get_system("wm").condition(typed)
    assert known is not None and known.name == canonical


async def test_a_knocked_down_warjack_reads_atterrato_once(app: App) -> None:
    """Walking: a head-butt knocked the Juggernaut down and its line read '· knocked_down' on
    an Italian screen; adding 'atterrato' by hand then showed both, two names of one state."""
    chat = "console:wm-walk-turn-down"
    await game(app, chat, "it")
    butt = await say(
        app,
        "/wm forza testata mischia=7 forza=11 bersaglio=Juggernaut applica dadi=5,6,1,1",
        user="ann",
        chat=chat,
        lang="it",
    )
    assert butt.ok, plain.render(butt)
    added = await say(
        app, "/unita condizione Juggernaut aggiungi atterrato", user="bob", chat=chat, lang="it"
    )
    assert added.ok, plain.render(added)
    text = plain.render(added)
    assert "knocked" not in text and text.count("atterrato") == 1, text
    english = plain.render(await say(app, "/unit show Juggernaut", chat=chat, lang="en"))
    assert "knocked down" in english and "knocked_down" not in english, english


# --- focus pays for boosts and a warjack's charge ---------------------------------------------


async def focus_of(app: App, chat: str, unit: str) -> int:
    """The unit's focus as /res shows it."""
    text = plain.render(await say(app, "/res", chat=chat))
    line = next(ln for ln in text.splitlines() if ln.startswith(f"{unit}:"))
    return int(line.rsplit(" ", 1)[1])


async def activation_with_focus(app: App, chat: str) -> None:
    await game(app, chat)
    for text in ("/phase next", "/wm allocate Ironclad 3 caster=Stryker", "/phase next"):
        assert (await say(app, text, user="ann", chat=chat)).ok, text
    assert await focus_of(app, chat, "Ironclad") == 3


def test_L4331_L1847_an_attacks_focus_cost() -> None:
    from rules_core.game.models import Unit
    from rules_core.systems.wm import grid
    from rules_core.systems.wm import transitions as wt

    g = grid.parse_grid(GRID).model_dump(mode="json")
    jack = Unit(name="Ironclad", owner="ann", owner_name="Ann", extra={"grid": g})
    caster = Unit(name="Stryker", owner="ann", owner_name="Ann", stats={"focus": 6})
    grunts = Unit(name="Grunts", owner="ann", owner_name="Ann", models=5)
    assert wt.attack_focus(jack, "hit", charge=False) == 1  # p. 72, L4331-4336
    assert wt.attack_focus(jack, "both", charge=False) == 2
    assert wt.attack_focus(jack, "hit", charge=True) == 2  # p. 46, L1847-1849
    assert wt.attack_focus(caster, "damage", charge=True) == 1  # p. 74, L4517-4520; no charge cost
    assert wt.attack_focus(grunts, "hit", charge=True) == 0  # troopers have no focus


async def test_L4331_a_boost_and_a_warjacks_charge_spend_its_focus(app: App) -> None:
    """Walking: the Ironclad with 3 focus boosted its attack roll and charged, with apply, and
    kept 3 focus; only a power attack spent any. Each boosted roll costs 1 (p. 72, L4331-4336;
    a warcaster's, p. 74, L4517-4520), a warjack's charge 1 (p. 46, L1847-1849), spent even
    when the attack misses, and an attack the focus can't pay is refused before any roll."""
    chat = "console:wm-walk-turn-focus"
    await activation_with_focus(app, chat)
    hit = "/wm attack attacker=Ironclad pow=7 target=Juggernaut apply"
    boosted = await say(app, f"{hit} boost=hit dice=1,1,1", user="ann", chat=chat)
    assert boosted.ok, plain.render(boosted)
    assert "Ironclad spends 1 focus" in plain.render(boosted)
    assert await focus_of(app, chat, "Ironclad") == 2
    charged = await say(app, f"{hit} mods=charge dice=1,1", user="ann", chat=chat)
    assert charged.ok, plain.render(charged)
    assert await focus_of(app, chat, "Ironclad") == 1
    short = await say(app, f"{hit} boost=both dice=1,1,1", user="ann", chat=chat)
    assert short.error is not None and short.error.code == "wm.focus_short"
    assert "Ironclad has 1 focus" in plain.render(short)
    assert await focus_of(app, chat, "Ironclad") == 1
    undone = await say(app, "/undo", user="ann", chat=chat)
    assert undone.ok and await focus_of(app, chat, "Ironclad") == 2


async def test_L2212_L4331_a_boosted_power_attack_costs_a_focus_more(app: App) -> None:
    chat = "console:wm-walk-turn-power"
    await activation_with_focus(app, chat)
    butt = "/wm power headbutt attacker=Ironclad target=Juggernaut apply"
    done = await say(app, f"{butt} boost=hit dice=1,1,1", user="ann", chat=chat)
    assert done.ok, plain.render(done)
    assert await focus_of(app, chat, "Ironclad") == 1
    short = await say(app, f"{butt} boost=both dice=1,1,1", user="ann", chat=chat)
    assert short.error is not None and short.error.code == "wm.focus_short"
    assert await focus_of(app, chat, "Ironclad") == 1


# --- a melee weapon printed with its P+S only ---------------------------------------------------


async def test_L785_a_printed_p_s_is_shown_as_pow_and_str(app: App) -> None:
    """Walking: the Ironclad's Quake Hammer (only P+F 18 printed, FOR 11 on the card) rolled
    'Danno: [...] +18 POT', its P+S named POW. P+S is POW + STR (p. 34, L785): the roll reads
    POW 7 and STR 11, and a typed STR changes the STR, not the whole P+S on top of it."""
    chat = "console:wm-walk-turn-ps"
    await game(app, chat, "it")
    line = "/armata aggiungi Breaker vel=4 for=11 mat=7 dif=12 arm=18 | Quake Hammer: p+f=18"
    assert (await say(app, line, user="ann", chat=chat, lang="it")).ok
    hit = "/wm attacco attaccante=Breaker arma=quake bersaglio=Juggernaut dadi=6,6,3,4"
    shown = await say(app, hit, user="ann", chat=chat, lang="it")
    assert shown.ok and shown.data is not None, plain.render(shown)
    assert "+7 POT +11 FOR = 25" in plain.render(shown)
    english = await say(app, hit.replace("attacco", "attack"), user="ann", chat=chat)
    assert "+7 POW +11 STR = 25" in plain.render(english)
    buffed = await say(app, f"{hit} forza=13", user="ann", chat=chat, lang="it")
    assert buffed.data is not None and buffed.data["outcome"]["damage_total"] == 27, plain.render(
        buffed
    )


async def test_L167_a_trample_boosts_each_models_roll_for_its_own_focus(app: App) -> None:
    """Walking: the Juggernaut trampled three Trenchers with boost=damage and spent 2 focus
    (the power attack and one boost) for three boosted damage rolls. Against several models
    each model's roll is boosted separately (p. 28, L167-169), 1 focus each (p. 72,
    L4331-4336): 1 + 3 here, so with 3 focus it is refused before any roll."""
    chat = "console:wm-walk-turn-trample"
    await activation_with_focus(app, chat)
    assert (
        await say(app, "/unit add Grunts def=13 arm=13 base=30 models=5", user="bob", chat=chat)
    ).ok
    trample = "/wm power trample attacker=Ironclad target=Grunts models=3 apply"
    short = await say(app, f"{trample} boost=damage", user="ann", chat=chat)
    assert short.error is not None and short.error.code == "wm.focus_short", plain.render(short)
    assert "Ironclad has 3 focus and needs 4" in plain.render(short)
    two = await say(
        app,
        "/wm power trample attacker=Ironclad target=Grunts models=2 boost=damage apply",
        user="ann",
        chat=chat,
    )
    assert two.ok, plain.render(two)
    assert await focus_of(app, chat, "Ironclad") == 0


# --- a lock is broken, or released, in the model's own activation ------------------------------


async def test_L2254_L2273_a_lock_is_fought_in_the_models_own_activation(app: App) -> None:
    """Walking: the Ironclad headlocked the Juggernaut in Marco's turn and Luca at once broke
    free with /wm liberati, in Marco's turn. The locked model tries at the start of its combat
    action (p. 51, L2254-2256), the holder lets go during its own activation (L2272-2274):
    each in its player's turn."""
    chat = "console:wm-walk-turn-lock"
    await activation_with_focus(app, chat)
    lock = "/wm forza presa attaccante=Ironclad bersaglio=Juggernaut afferra=T mano=S applica"
    held = await say(app, f"{lock} dadi=6,6", user="ann", chat=chat, lang="it")
    assert held.ok, plain.render(held)
    early = await say(app, "/wm liberati Juggernaut dadi=6,1", user="bob", chat=chat, lang="it")
    assert early.error is not None and early.error.code == "wm.break_own_turn"
    assert "Juggernaut" in plain.render(early) and "ann" in plain.render(early)
    assert (await say(app, "/turn end", user="ann", chat=chat)).ok
    late = await say(app, "/wm break Ironclad release", user="ann", chat=chat)
    assert late.error is not None and late.error.code == "wm.break_own_turn"
    broke = await say(app, "/wm break Juggernaut dice=6,1", user="bob", chat=chat)
    assert broke.ok and broke.data is not None and broke.data["broken"], plain.render(broke)


# --- a power attack's reply says each thing once -------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text", "hit", "moved"),
    [
        ("it", "/wm forza testata", "Colpito", "schiantato"),
        ("en", "/wm power headbutt", "Hit", "slammed"),
    ],
)
async def test_a_head_butt_says_hit_once_and_no_odds_of_moving(
    app: App, lang: str, text: str, hit: str, moved: str
) -> None:
    """Walking: a head-butt's reply read 'Colpito: il bersaglio è atterrato.' then 'Colpito: 0
    danni.', and its odds 'schiantato, spinto, lanciato o afferrato 0%', a chance of nothing a
    head-butt does (it knocks down and damages, p. 51, L2318-2322)."""
    reply = await say(
        app, f"{text} mat=7 str=11 def=12 arm=18 dice=5,6,1,1", chat="console:wm-butt", lang=lang
    )
    assert reply.ok, plain.render(reply)
    screen = plain.render(reply)
    assert screen.count(f"{hit}:") == 1 and moved not in screen, screen


# --- an additional attack costs a focus -----------------------------------------------------------


async def test_L4325_an_additional_attack_is_declared_and_paid(app: App) -> None:
    """Walking: after the Ironclad's initial attack a player had no way to say the next one was
    an additional attack, and its focus was not spent (only /res spend by hand). A warjack or
    a warcaster pays 1 focus for each additional attack (p. 72, L4325-4330; p. 74,
    L4558-4563): mods=additional (aggiuntivo) spends it with apply, a boost on it 1 more. An
    additional attack is never the charge attack, which is the first one (p. 46, L1820-1834)."""
    chat = "console:wm-walk-turn-more"
    await activation_with_focus(app, chat)
    more = "/wm attacco attaccante=Ironclad potenza=7 bersaglio=Juggernaut applica"
    paid = await say(
        app, f"{more} mod=aggiuntivo potenzia=colpire dadi=1,1,1", user="ann", chat=chat, lang="it"
    )
    assert paid.ok, plain.render(paid)
    assert "Ironclad spende 2 focus" in plain.render(paid)
    assert await focus_of(app, chat, "Ironclad") == 1
    charge = await say(
        app, f"{more} mod=aggiuntivo,carica dadi=1,1", user="ann", chat=chat, lang="it"
    )
    assert charge.error is not None and charge.error.code == "wm.additional_not_first"
    assert "attacco aggiuntivo" in plain.render(charge) and "carica" in plain.render(charge)


# --- an AOE attack says what follows: deviation on a miss, blast damage on a hit -----------------


@pytest.mark.parametrize(
    ("lang", "attack", "deviate", "blast"),
    [
        ("it", "/wm attacco", "/wm devia distanza=", "/wm attacco esplosione potenza=14"),
        ("en", "/wm attack", "/wm deviate distance=", "/wm attack blast pow=14"),
    ],
)
async def test_L2988_an_aoe_attack_names_the_deviation_or_the_blast(
    app: App, lang: str, attack: str, deviate: str, blast: str
) -> None:
    """Walking: the Destroyer's Bombard (AOE 3) missed and the reply said 'Mancato.' and no
    more; a missed AOE attack deviates (p. 58, L3057-3066) and a hit deals blast damage to
    every other model under the template, each its own roll (p. 58, L2996-3004): the reply names
    the command for each, in the reader's words."""
    chat = f"console:wm-walk-aoe-{lang}"
    await game(app, chat, lang)
    gun = "Destroyer rat=4 str=11 | Bombard: rng=14 pow=14 aoe=3"
    assert (await say(app, f"/army add {gun}", user="ann", chat=chat, lang=lang)).ok
    shot = f"{attack} attacker=Destroyer weapon=Bombard target=Juggernaut"
    missed = plain.render(await say(app, f"{shot} dice=1,2", user="ann", chat=chat, lang=lang))
    assert deviate in missed and blast not in missed, missed
    hit = plain.render(await say(app, f"{shot} dice=6,5,1,1", user="ann", chat=chat, lang=lang))
    assert blast in hit and deviate not in hit, hit


# --- a missing stat of the attacker is read from the attacker -------------------------------------


@pytest.mark.parametrize(
    ("lang", "text", "unit", "other"),
    [
        ("it", "/wm forza testata dif=12 armatura=18", "attaccante=", "bersaglio="),
        ("en", "/wm power headbutt def=12 arm=18", "attacker=", "target="),
        ("it", "/wm attacco potenza=12 dif=12 armatura=16", "attaccante=", "bersaglio="),
        ("en", "/wm attack mat=7 def=12 arm=16", "attacker=UNIT weapon=", "target="),
    ],
)
async def test_a_missing_mat_names_attacker_not_target(
    app: App, lang: str, text: str, unit: str, other: str
) -> None:
    """Walking: '/wm forza testata' without MAT answered 'Indica mischia=N, oppure
    bersaglio=UNITÀ per leggerla': the target's card has no say in the attacker's MAT or
    STR; attacker= reads them. /wm attack without its skill or POW said only 'Manca
    abilità.', where attacker= (and weapon=) give them."""
    reply = await say(app, text, chat="console:wm-missing", lang=lang)
    assert reply.error is not None and reply.error.code.startswith("wm.missing_"), reply.error
    said = plain.render(reply).splitlines()[0]
    assert unit in said and other not in said, said
