"""The board card (#28): the live board as a picture, with the same facts as the text board
(`game_view.board`): the round and phase, whose turn it is, each player with their score and
resources and their units with health, models left and conditions, units without a player last;
under the round and turn, the lines the game's own package adds to the text board
(`game_view.board_extra`: Age of Sigmar's fights of the combat phase and whose pick is next).

`board_facts` builds what the card shows from the game state, every label in the chat's
language; `render_board_card(facts, lang) -> PNG` is a pure Pillow renderer for the worker
pool (Pillow imported lazily). Drawing helpers, fonts and the colour-blind-safe palette are the
cards' (`bot.images.cards.draw`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel

from bot import i18n
from bot.commands.board import Words
from bot.commands.game_view import board_extra, condition_label, current_phase, points_text
from bot.images.cards import draw as d
from rules_core.game.models import GameState, Unit
from rules_core.systems import get_system

if TYPE_CHECKING:
    from PIL import ImageDraw

WIDTH = 560
MARGIN = 18
BAND = 32
HEAD = 58  # the round and phase, whose turn
PLAYER = 34
UNIT = 40
CONDITIONS = 18
NOTE = 20  # one of the game's own lines under the round and turn
BAR_WIDTH = 150


class BoardUnit(BaseModel):
    name: str
    left: int
    most: int
    models: str | None  # "3/5 modelli"
    destroyed: str | None  # the word for it, when destroyed
    conditions: list[str]


class BoardPlayer(BaseModel):
    name: str
    score: str  # "3 PV"
    current: bool  # whose turn it is
    resources: str | None
    units: list[BoardUnit]


class BoardCard(BaseModel):
    game: str  # the game system's name
    title: str  # the game's own name
    round_phase: str
    turn: str | None  # "Turno: Ann"
    notes: list[str] = []  # the game's own lines: "Hanno combattuto in questa fase: …"
    ended: str | None  # "Partita finita." when it is over
    players: list[BoardPlayer]
    others: list[BoardUnit]  # units whose owner is not a player (any more)
    alt: str  # the card in one text, for the caption / alt text


def unit_facts(unit: Unit, system: str, lang: i18n.Lang) -> BoardUnit:
    left, most = get_system(system).health(unit)
    return BoardUnit(
        name=unit.name,
        left=left,
        most=most,
        models=i18n.t(lang, "game.models_left", n=unit.models_left, of=unit.models)
        if unit.models > 1
        else None,
        destroyed=i18n.t(lang, "game.destroyed") if unit.destroyed else None,
        conditions=[
            condition_label(lang, c.name, c.until, c.rounds_left, system) for c in unit.conditions
        ],
    )


def pools(state: GameState, key: str) -> str | None:
    found = state.resources.get(key, {})
    return ", ".join(f"{k} {v}" for k, v in sorted(found.items())) or None


def board_facts(state: GameState, lang: i18n.Lang) -> BoardCard:
    words = Words(lang)
    scores = state.score()
    current = state.player(state.current) if state.current else None
    players = [
        BoardPlayer(
            name=p.name + (f" ({p.side})" if p.side else ""),
            score=points_text(lang, state.system, scores.get(p.user_id, 0)),
            current=current is not None and p.user_id == current.user_id,
            resources=pools(state, f"player:{p.user_id}"),
            units=[unit_facts(u, state.system, lang) for u in state.units if u.owner == p.user_id],
        )
        for p in state.players
    ]
    others = [unit_facts(u, state.system, lang) for u in state.units if not state.player(u.owner)]
    card = BoardCard(
        game=i18n.t(lang, f"systems.{state.system}"),
        title=state.name,
        round_phase=i18n.t(
            lang, "game.round_phase", round=state.round, phase=current_phase(words, state)
        ),
        turn=f"{i18n.t(lang, 'game.turn_of')} {current.name}" if current else None,
        notes=["".join(span.text for span in block) for block in board_extra(words, state)],
        ended=ended_text(state, lang),
        players=players,
        others=others,
        alt="",
    )
    return card.model_copy(update={"alt": alt_text(card)})


def ended_text(state: GameState, lang: i18n.Lang) -> str | None:
    if state.status != "ended":
        return None
    winner = state.player(state.winner) if state.winner else None
    if winner is None:
        return i18n.t(lang, "game.ended")
    return i18n.t(lang, "game.ended_winner", winner=winner.name)


def band_text(card: BoardCard) -> str:
    """The game's name and its system's, once when the game is named after its system."""
    return card.game if card.title == card.game else f"{card.title} · {card.game}"


def alt_text(card: BoardCard) -> str:
    lines = [band_text(card), card.round_phase]
    lines += [x for x in (card.turn, *card.notes, card.ended) if x]
    for player in card.players:
        lines.append(f"{player.name} · {player.score}")
        lines += [f"  {unit_text(u)}" for u in player.units]
    lines += [f"  {unit_text(u)}" for u in card.others]
    return "\n".join(lines)


def unit_text(unit: BoardUnit) -> str:
    parts = [f"{unit.name} {unit.left}/{unit.most}", unit.models, unit.destroyed, *unit.conditions]
    return " · ".join(p for p in parts if p)


def unit_height(unit: BoardUnit) -> int:
    return UNIT + (CONDITIONS if unit.conditions else 0)


def note_rows(card: BoardCard) -> list[str]:
    """The game's lines as the card draws them: a sentence a row, so that a long line (the next
    pick and the units waiting) is not cut at the card's edge."""
    return [row for note in card.notes for row in re.split(r"(?<=[.!?]) (?=\S)", note) if row]


def size(card: BoardCard) -> tuple[int, int]:
    height = BAND + HEAD + NOTE * len(note_rows(card)) + (24 if card.ended else 0)
    for player in card.players:
        height += PLAYER + (18 if player.resources else 0)
        height += sum(unit_height(u) for u in player.units)
    if card.others:
        height += 12 + sum(unit_height(u) for u in card.others)
    return WIDTH, height + MARGIN


def render_board_card(card: BoardCard, lang: i18n.Lang) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size(card), d.PAPER)
    pen = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    small, body, bold = d.font(13), d.font(15), d.font(15, True)
    pen.rectangle((0, 0, WIDTH, BAND - 1), fill=d.BLUE)
    band = d.fit(pen, band_text(card), d.font(15, True), inner)
    pen.text((MARGIN, BAND / 2), band, fill=d.PAPER, font=d.font(15, True), anchor="lm")
    y = BAND + 8
    pen.text((MARGIN, y), d.fit(pen, card.round_phase, bold, inner), fill=d.INK, font=bold)
    if card.turn:
        pen.text((MARGIN, y + 24), d.fit(pen, card.turn, body, inner), fill=d.INK, font=body)
    y = BAND + HEAD
    for note in note_rows(card):
        pen.text((MARGIN, y - 6), d.fit(pen, note, body, inner), fill=d.INK, font=body)
        y += NOTE
    if card.ended:
        pen.text((MARGIN, y - 4), card.ended, fill=d.VERMILLION, font=bold)
        y += 24
    for player in card.players:
        pen.rectangle((MARGIN, y, WIDTH - MARGIN, y + PLAYER - 6), fill=d.PANEL)
        if player.current:  # whose turn: a marker at the left edge
            pen.rectangle((MARGIN, y, MARGIN + 5, y + PLAYER - 6), fill=d.ORANGE)
        mid = y + (PLAYER - 6) / 2
        score_w = int(pen.textlength(player.score, font=bold))
        name = d.fit(pen, player.name, bold, inner - score_w - 30)
        pen.text((MARGIN + 12, mid), name, fill=d.INK, font=bold, anchor="lm")
        pen.text((WIDTH - MARGIN - 8, mid), player.score, fill=d.INK, font=bold, anchor="rm")
        y += PLAYER
        if player.resources:
            pen.text(
                (MARGIN + 12, y - 4),
                d.fit(pen, player.resources, small, inner - 12),
                fill=d.MUTED,
                font=small,
            )
            y += 18
        for unit in player.units:
            y = draw_unit(pen, unit, y)
    if card.others:
        y += 12
        for unit in card.others:
            y = draw_unit(pen, unit, y)
    return d.png(image)


def draw_unit(pen: ImageDraw.ImageDraw, unit: BoardUnit, y: int) -> int:
    """One unit's row: name, health bar with numbers, models left; conditions under it."""
    small, body = d.font(13), d.font(15)
    x = MARGIN + 12
    bar_x = WIDTH - MARGIN - BAR_WIDTH
    ink = d.MUTED if unit.destroyed else d.INK
    name_w = bar_x - x - 90
    pen.text((x, y + 4), d.fit(pen, unit.name, body, name_w), fill=ink, font=body)
    numbers = f"{unit.left}/{unit.most}"
    pen.text((bar_x - 10, y + 4), numbers, fill=ink, font=body, anchor="ra")
    bar = (bar_x, y + 6, WIDTH - MARGIN, y + 20)
    pen.rectangle(bar, fill=d.PANEL, outline=d.INK, width=1)
    if unit.most > 0 and unit.left > 0:
        filled = round((bar[2] - bar[0] - 2) * unit.left / unit.most)
        colour = d.GREEN if unit.left * 2 > unit.most else d.ORANGE
        pen.rectangle((bar[0] + 1, bar[1] + 1, bar[0] + 1 + filled, bar[3] - 1), fill=colour)
    note = " · ".join(p for p in (unit.models, unit.destroyed) if p)
    if note:
        pen.text((x, y + 22), d.fit(pen, note, small, name_w + 80), fill=d.MUTED, font=small)
    y += UNIT
    if unit.conditions:
        text = d.fit(pen, " · ".join(unit.conditions), small, WIDTH - MARGIN - x - 10)
        pen.text((x + 10, y - 1), text, fill=d.BLUE, font=small)
        y += CONDITIONS
    return y
