"""A name the players give (a unit, a character, a player) has no grammatical gender the bot
knows: "Jaina è distrutto" was a masculine participle after a heroine's name, found walking a
WoW game as a new Italian player. An Italian entry never makes a participle or an adjective
agree with a bare name: it names the game's own noun first (l'unità, il personaggio, il
combattente, il modello), or uses the book's state as a noun ("passa allo stato Morto"), or a
verb that does not agree ("entra nella campagna")."""

from __future__ import annotations

import re

from bot import i18n
from bot.app import App
from bot.render import plain
from rules_core.game.models import GameState, Player
from rules_core.game.transitions import add_unit, damage
from tests.helpers import say

# Placeholders that hold a name the players typed.
_NAMES = (
    "unit|name|target|player|owner|by|a|b|pet|model|caster|jack|attacker|defender|who|holder"
    "|current|locked|winner|first|second|new|card|weapon|effect|spell|command|ability|item"
)
# A bare name: at the start of a sentence or of a clause, not after a noun ("il personaggio
# {unit}") nor a preposition ("la presa di {by} su {unit} è spezzata": the presa agrees).
_BARE = rf"(?:^|[.;:!?(«]\s*|\b(?:ma|poi|perché|quando|se|che|finché)\s+)\{{(?:{_NAMES})\}}"
# What agrees: a participle, a gendered adjective, or an article with a gendered noun.
_AGREES = (
    r"(?!accetta\b|presso\b|passa\b)[a-zàèéìòù]*(?:at|it|ut|tt|ss|is|ns|nt|rt|lt)[oa]"
    r"|(?:morto|morta|pronto|pronta|solo|sola|tuo|tua|suo|sua|primo|prima|nuovo|nuova"
    r"|stordito|stordita|ucciso|uccisa|spinto|spinta|vivo|viva|libero|libera|esausto|esausta)"
    r"|un\s+(?:alleato|nemico)|una\s+(?:alleata|nemica)"
)
_COPULA = r"(?:non\s+)?(?:è|era|sarà|resta|rimane|torna|sembra|viene|si\s+è)"
_FILLER = r"(?:(?:già|più|ora|ancora|stato|stata|di\s+nuovo|\w+\s+o)\s+)*"
# Right after a name, "esausta" is the WoW book's verb ("esaustare": Jaina esausta 2 carte).
AGREEMENT = re.compile(
    rf"{_BARE}\s+(?:{_COPULA}\s+{_FILLER}|(?!esausta\b))(?:{_AGREES})\b",
    re.IGNORECASE,
)


def agreeing_with_a_name(text: str) -> list[str]:
    return [m.group(0) for m in AGREEMENT.finditer(text)]


def test_the_check_finds_what_the_walk_found() -> None:
    assert agreeing_with_a_name("{unit} è distrutto: 3 VP a {player}.")
    assert agreeing_with_a_name("{unit} è stata distrutta.")
    assert agreeing_with_a_name("Fatto. {unit} è Stordito fino alla fine del round.")
    assert agreeing_with_a_name("{unit} resta afferrato.")
    assert agreeing_with_a_name("{unit} distrutta")
    assert agreeing_with_a_name("{name} è entrato nella campagna.")
    assert agreeing_with_a_name("{target} è un alleato di {unit}")
    assert not agreeing_with_a_name("Il personaggio {unit} è distrutto.")
    assert not agreeing_with_a_name("La presa di {by} su {unit} è spezzata.")
    assert not agreeing_with_a_name("{unit} passa allo stato Morto.")
    assert not agreeing_with_a_name("{unit} è in rotta.")


def test_no_italian_entry_makes_a_word_agree_with_a_bare_name() -> None:
    found = {key: text for key, text in i18n.catalogue("it").items() if agreeing_with_a_name(text)}
    assert found == {}


async def test_a_destroyed_heroine_is_a_destroyed_character(app: App) -> None:
    """The walk's reply: Jaina (a heroine) died as "Jaina è distrutto"; the board called every
    destroyed unit "distrutta" (Thrall too), and a new unit was "Aggiunta per Ann"."""
    chat = "console:agreement-wow"
    ann = {"user": "ann", "name": "Ann", "chat": chat, "lang": "it"}
    bob = {"user": "bob", "name": "Bob", "chat": chat, "lang": "it"}
    assert (await say(app, "/partita nuova wow", **ann)).ok
    added = await say(app, "/unita aggiungi Jaina salute=6 resistenza=1 onore=4", **ann)
    assert plain.render(added).startswith("Unità aggiunta per Ann:")
    assert (await say(app, "/partita entra", **bob)).ok
    assert (await say(app, "/unita aggiungi Thrall salute=5 onore=4", **bob)).ok
    killed = plain.render(await say(app, "/wow salute Jaina variazione=-6", **ann))
    assert "Il personaggio Jaina è distrutto: 4 VP a Bob" in killed
    assert "Jaina ░░░░░░░░░░ 0/1 · fuori gioco" in killed
    assert not agreeing_with_a_name(killed.replace("Jaina", "{name}"))
    killed = plain.render(await say(app, "/unita danno Thrall 9", **ann))
    assert "Il personaggio Thrall è distrutto" in killed and "distrutta" not in killed


def test_a_wm_unit_of_several_models_is_disabled_model_by_model() -> None:
    """ "Knights è incapacitato": a WARMACHINE unit of three models has no one gender; its
    models are disabled. A single model is "il modello Stryker"."""
    state = GameState(system="wm", name="t", organiser="a")
    state.players = [Player(user_id="a", name="Ann")]
    state.order = ["a"]
    state = add_unit(state, "Stryker", state.players[0], {"def": 16, "arm": 15})
    state = add_unit(state, "Knights", state.players[0], {"boxes": 1, "models": 3})
    notes: list[tuple[str, dict[str, object]]] = []
    for _ in range(3):
        state = damage(state, "Knights", 1, notes=notes)
    assert ("wm.note.unit_disabled", {"unit": "Knights"}) in notes
    assert ("wm.note.disabled", {"unit": "Knights"}) not in notes
    said = i18n.t("it", "wm.note.unit_disabled", unit="Knights")
    assert said == "Ogni modello dell'unità Knights è incapacitato."
    notes = []
    damage(state, "Stryker", 5, notes=notes)
    assert ("wm.note.disabled", {"unit": "Stryker"}) in notes
    assert i18n.t("it", "wm.note.disabled", unit="Sorscha") == "Il modello Sorscha è incapacitato."


# The reader or a named player given a masculine role: "ne sei l'organizzatore", "vincitore: Ann".
ROLE = re.compile(
    r"\b(?:sei|diventi)\s+(?:il|lo|l')\s?\w+|\bvincitore:\s*\{|\bil vincitore\b", re.I
)


def test_no_italian_entry_gives_the_reader_or_a_player_a_masculine_role() -> None:
    found = {key: text for key, text in i18n.catalogue("it").items() if ROLE.search(text)}
    assert found == {}


async def test_infinity_and_aos_replies_name_a_state_not_a_gender(app: App) -> None:
    """Infinity's 'Anna è Morto' and the board's 'Nagash … · distrutta' (AoS)."""
    inf = {"user": "ann", "name": "Ann", "chat": "console:agreement-inf", "lang": "it"}
    assert (await say(app, "/partita nuova inf", **inf)).ok
    assert (await say(app, "/unita aggiungi Anna f=1", **inf)).ok
    dead = plain.render(await say(app, "/unita danno Anna 3", **inf))
    assert "Anna passa allo stato Morto." in dead and "è Morto" not in dead
    aos = {"user": "ann", "name": "Ann", "chat": "console:agreement-aos", "lang": "it"}
    assert (await say(app, "/partita nuova aos", **aos)).ok
    assert (await say(app, "/unita aggiungi Nagash ferite=10", **aos)).ok
    slain = plain.render(await say(app, "/unita danno Nagash 10", **aos))
    assert "· fuori gioco" in slain and "distrutta" not in slain
