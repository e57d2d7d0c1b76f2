"""A chat's game for one command: load it, check who may do what, and write changes to it.

This is the API a command handler (generic or a game system's) uses for game state; handlers
never call `bot.storage.games` to change a game. Everything takes the handler's `Context`
(any object with the `Caller` shape below), so this module sits under the commands and above
storage and rules_core.

Load and check::

    game = await session.load_game(ctx)                 # UserError game.none when there is none
    session.require_player(ctx, game.state)             # a player or a manager, else refused
    session.require_unit_rights(ctx, game.state, unit, attack=True)
    session.require_turn(ctx, game.state)               # names whose turn it is when refused
    session.require_manager(ctx, game.state)            # organiser or chat admin

Who may do what: the organiser (who created the game) and chat admins manage everything; a
player changes their own units and, on their turn, may hit or mark enemy units (attacks are
resolved on the attacker's turn); only the current player ends the turn; anyone else (a player
who left included) can look but changes nothing.

Write: `apply_change` is the ONE write path. It saves one event (`/log` lists it, `/undo`
restores the state before it exactly) and writes nothing when the change changes nothing::

    def hit(state: GameState) -> GameState:
        notes.clear()  # runs again after a conflict: keep one run's notes
        return tr.damage(state, target, outcome.damage, dice=source, notes=notes)

    change = await session.apply_change(ctx, hit, "aos_attack", unit=target, attack=True)
    change.after, change.unit, change.game    # the new state, the unit now, the stored game

A new game is stored with `create_game` (its first event, which /undo never passes), and
`undo_last` puts back the state before the last change not undone yet, through `apply_change`.

`change` is either a pure function (state in, new state out, `UserError` to refuse), which runs
on the freshly loaded game and again on a reloaded one after a version conflict (up to
`retries`), or a finished `GameState` the handler built from `game=` (which must then be
given): that state was computed from what the handler read, so a conflict is not retried but
answered with the user error `game.changed_meanwhile`. `game=` with a function only saves the
first load. The event stores the request's text as the command, so
the journal shows `/aos attack target=Orcs apply …`.

Turn buttons: a button that acts on a turn ("End turn", "Done") carries a `turn_token` of the
turn it was made for in the hidden option `TURN_GUARD`; `stale_turn` tells a press after that
turn ended (the handler then answers and changes nothing).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from bot import i18n
from bot.protocol import Request
from bot.storage import campaigns, events, games
from bot.storage import settings as settings_repo
from bot.storage.conn import Connection
from bot.storage.events import EventRecord
from bot.storage.games import StoredGame
from rules_core.errors import UserError
from rules_core.game import transitions as tr
from rules_core.game.models import GameState, Player, Unit
from rules_core.rules.text import fold

_MENTION = re.compile(r"^<@!?(\d+)>$")

Mutate = Callable[[GameState], GameState]


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class Caller(Protocol):
    """What this module needs of a command's context (`bot.commands.context.Context` has it)."""

    @property
    def request(self) -> Request: ...
    @property
    def spec(self) -> _Named: ...
    @property
    def conn(self) -> Connection: ...
    @property
    def now(self) -> datetime: ...
    @property
    def opts(self) -> dict[str, Any]: ...

    # Set by `apply_change` and `create_game` when the chat's game was written: after the
    # command commits, the dispatcher refreshes the chat's live board (bot/commands/board_live).
    game_changed: bool

    async def active_game(self) -> StoredGame | None: ...


# --- language ----------------------------------------------------------------------------

# Where an ephemeral reply is seen by its caller alone (Telegram shows it to the whole chat).
CALLER_ONLY_EPHEMERAL = frozenset({"discord"})


async def request_lang(
    conn: Connection, request: Request, chat: str | None, *, ephemeral: bool = False
) -> i18n.Lang:
    """The language of a reply to `request` in a chat whose setting is `chat`, by the one rule
    (`i18n.choose_lang`). The user's own language is read only when it can matter."""
    caller_only = ephemeral and request.platform in CALLER_ONLY_EPHEMERAL
    user = None
    if not i18n.normalize_lang(request.lang) and (caller_only or not i18n.normalize_lang(chat)):
        user = await settings_repo.user_lang(conn, request.platform, request.user_id)
    return i18n.choose_lang(
        override=request.lang,
        chat=chat,
        user=user,
        client=request.locale,
        caller_only=caller_only,
    )


def fallback_lang(request: Request, chat: i18n.Lang | None = None) -> i18n.Lang:
    """The language when the store can't be read (the store may be what failed)."""
    return i18n.choose_lang(
        override=request.lang,
        chat=chat,
        client=request.locale,
        caller_only=request.platform in CALLER_ONLY_EPHEMERAL,
    )


# --- loading ---------------------------------------------------------------------------------


async def load_game(ctx: Caller) -> StoredGame:
    """The chat's active game, or the user error `game.none`."""
    game = await ctx.active_game()
    if game is None:
        raise UserError("game.none")
    return game


def find_player(state: GameState, text: str) -> Player:
    """A player named by a mention, their exact name or a unique prefix of it."""
    m = _MENTION.match(text.strip())
    if m:
        found = state.player(m.group(1))
        if found:
            return found
    key = fold(text.strip().lstrip("@"))
    exact = [p for p in state.players if fold(p.name) == key]
    matches = exact or [p for p in state.players if fold(p.name).startswith(key)]
    if len(matches) == 1:
        return matches[0]
    raise UserError("game.no_player", name=text[:40])


def name_of(state: GameState, user_id: str | None) -> str:
    return state.player_name(user_id, "-")


# --- turn buttons ----------------------------------------------------------------------------

# The hidden option a turn's button adds to its command (`CommandSpec.guard`).
TURN_GUARD = "turn"


def turn_token(*parts: object) -> str:
    """A short opaque mark of one turn: which game or campaign, how far along, whose turn."""
    return hashlib.blake2s("\n".join(map(str, parts)).encode(), digest_size=5).hexdigest()


def game_turn(game: StoredGame) -> str:
    return turn_token("game", game.id, game.state.turn_seq, game.state.current)


def sent_guard(ctx: Caller, guard: str) -> str | None:
    """The value a button sent in a command's hidden `guard` option (`CommandSpec.guard`: the
    state it acts on); None when the command was typed without it. Handlers read options
    typed (`ctx.args`); a guard is no declared option, so it is read here."""
    sent = ctx.opts.get(guard)
    return None if sent is None else str(sent)


def stale_turn(ctx: Caller, token: str) -> bool:
    """A button pressed after the turn it was made for. False when the command came without a
    guard (typed) or its turn is still on."""
    sent = sent_guard(ctx, TURN_GUARD)
    return sent is not None and sent != token


# --- permissions -----------------------------------------------------------------------------


def is_manager(ctx: Caller, state: GameState) -> bool:
    return ctx.request.admin or ctx.request.user_id == state.organiser


def require_manager(ctx: Caller, state: GameState) -> None:
    if not is_manager(ctx, state):
        raise UserError("perm.organiser_only")


def require_player(ctx: Caller, state: GameState) -> Player:
    player = state.player(ctx.request.user_id)
    if player is None and not is_manager(ctx, state):
        raise UserError("perm.players_only")
    return player or Player(user_id=ctx.request.user_id, name=ctx.request.user_name)


def require_unit_rights(ctx: Caller, state: GameState, unit: Unit, *, attack: bool) -> None:
    """Players change their own units; on their turn a player may also hit enemy units. Who
    left the game changes none, not even the units still theirs."""
    if is_manager(ctx, state):
        return
    if state.player(ctx.request.user_id) is None:
        raise UserError("perm.players_only")
    if unit.owner == ctx.request.user_id:
        return
    if attack:
        require_turn(ctx, state)
        return
    raise UserError("perm.not_your_unit", unit=unit.name)


def require_turn(ctx: Caller, state: GameState) -> None:
    """The player whose turn it is (or a manager) acts now; anyone else is told whose it is."""
    if state.current == ctx.request.user_id or is_manager(ctx, state):
        return
    if state.current is None:
        raise UserError("perm.organiser_only")
    raise UserError("perm.not_your_turn", name=name_of(state, state.current))


# --- the one write path ----------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """What `apply_change` did: the stored game after it, the states before and after, and
    the unit it was aimed at (as it is now; None if it was removed or none was named)."""

    game: StoredGame
    before: GameState
    after: GameState
    unit: Unit | None
    changed: bool


async def apply_change(
    ctx: Caller,
    change: Mutate | GameState,
    kind: str,
    *,
    unit: str | None = None,
    attack: bool = False,
    game: StoredGame | None = None,
    retries: int = 3,
) -> Change:
    """Load the chat's game (or use `game`), check the caller's rights on `unit` if named,
    apply `change` and save the result as one event of `kind` (see the module docstring)."""
    if isinstance(change, GameState):
        if game is None:
            raise TypeError("a finished state needs the game it was computed from")
        new_state = change
        mutate: Mutate = lambda _state: new_state  # noqa: E731
        retries = 0  # computed from what the handler read: on a conflict, the user retries
    else:
        mutate = change
    for attempt in range(retries + 1):
        current = game if game is not None and attempt == 0 else await load_game(ctx)
        target_name = None
        if unit is not None:
            target = tr.find_unit(current.state, unit)
            require_unit_rights(ctx, current.state, target, attack=attack)
            target_name = target.name
        new = mutate(current.state)
        if new == current.state:
            found = _unit_named(new, target_name)
            return Change(game=current, before=new, after=new, unit=found, changed=False)
        try:
            saved = await games.save_change(
                ctx.conn,
                current,
                new,
                user_id=ctx.request.user_id,
                user_name=ctx.request.user_name,
                command=ctx.request.text or ctx.spec.name,
                kind=kind,
                now=ctx.now,
            )
        except UserError as err:
            if err.key != "game.changed_meanwhile" or attempt == retries:
                raise
            continue
        ctx.game_changed = True
        after = _unit_named(new, target_name)
        return Change(game=saved, before=current.state, after=new, unit=after, changed=True)
    raise AssertionError("unreachable")  # pragma: no cover


async def create_game(ctx: Caller, state: GameState) -> StoredGame:
    """Store a new game for the chat (in the chat's running campaign, if any) with its first
    event, the one /undo never goes past."""
    created = await games.create(ctx.conn, ctx.request.chat_key, state, ctx.now)
    campaign = await campaigns.active(ctx.conn, ctx.request.chat_key)
    if campaign is not None:  # games played during a campaign belong to it
        await campaigns.link_game(ctx.conn, campaign.id, created.id)
    await games.save_change(
        ctx.conn,
        created,
        state,
        user_id=ctx.request.user_id,
        user_name=ctx.request.user_name,
        command=ctx.request.text or ctx.spec.name,
        kind="game_new",
        now=ctx.now,
    )
    ctx.game_changed = True
    return created


async def undo_last(ctx: Caller) -> EventRecord:
    """Put back the state before the game's last change not undone yet (again and again walks
    further back) and return that change. Right after `/game end` it reopens the game, if no
    other has started. Only who made the change, or a manager, undoes it."""
    game = await ctx.active_game()
    reopening = False
    if game is None:
        latest = await games.history(ctx.conn, ctx.request.chat_key, 1)
        if not latest or latest[0].state.status != "ended":
            raise UserError("game.none")
        game, reopening = latest[0], True
    event = await events.last_undoable(ctx.conn, game.id)
    if event is None or event.before is None or event.kind == "game_new":
        raise UserError("game.nothing_to_undo")
    if reopening and event.kind != "end":
        raise UserError("game.none")
    if event.user_id != ctx.request.user_id and not is_manager(ctx, game.state):
        raise UserError("perm.undo_not_yours", name=event.user_name)
    if event.after != game.state:
        raise UserError("game.undo_conflict")
    await apply_change(ctx, event.before, "undo", game=game)
    await events.mark_undone(ctx.conn, event.id)
    return event


def _unit_named(state: GameState, name: str | None) -> Unit | None:
    if name is None:
        return None
    return next((u for u in state.units if fold(u.name) == fold(name)), None)
