"""The API game systems use to change a game (`apply_change`), what /log says each change did,
turn-bound permissions, and many writers on one game from several users and two Apps."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot import i18n
from bot.app import App
from bot.commands.context import Context
from bot.protocol import Reply, Request
from bot.render import plain
from bot.session import apply_change
from bot.storage import events, games
from rules_core.errors import UserError
from rules_core.game import diff
from rules_core.game import transitions as tr
from rules_core.game.models import GameState
from tests.helpers import say

CHAT = "discord:42"
NAMES = {"1": "Ann", "2": "Bob", "3": "Cat", "4": "Dan", "5": "Eve", "9": "Zed"}


async def as_(app: App, user: str, text: str, **kw: object) -> Reply:
    return await say(app, text, user=user, name=NAMES[user], chat=CHAT, **kw)  # type: ignore[arg-type]


def ok(reply: Reply) -> Reply:
    assert reply.error is None, reply.error
    return reply


async def setup(app: App) -> None:
    ok(await as_(app, "1", "/game new gen"))
    ok(await as_(app, "2", "/game join"))
    ok(await as_(app, "3", "/game join"))
    ok(await as_(app, "2", "/unit add Orcs models=4 wounds=2"))
    ok(await as_(app, "3", "/unit add Elves wounds=3"))


async def run_as(app: App, user: str, text: str, fn: object) -> object:
    """Run `fn(ctx)` inside a command transaction, as a game-system command would."""
    request = Request(platform="console", chat_key=CHAT, user_id=user, user_name=NAMES[user])
    request = request.model_copy(update={"text": text})
    spec, opts = app.registry.resolve("/unit damage Orcs 1")
    async with app.db.transaction() as conn:
        ctx = Context(app, request, spec, opts, "en", conn, app.clock())
        return await fn(ctx)  # type: ignore[operator]


async def test_apply_change_is_one_event_that_undo_reverts(app: App) -> None:
    await setup(app)

    async def attack(ctx: Context) -> object:
        notes: list[tuple[str, dict[str, object]]] = []

        def hit(state: GameState) -> GameState:
            notes.clear()
            state = tr.damage(state, "orcs", 3, notes=notes)  # type: ignore[arg-type]
            return tr.add_condition(state, "orcs", "shaken", "end-of-turn")

        return await apply_change(ctx, hit, "gen_attack", unit="orcs", attack=True)

    change = await run_as(app, "1", "/sys attack target=orcs apply", attack)  # Ann's turn
    assert change.changed and change.unit is not None  # type: ignore[attr-defined]
    assert change.unit.damage == 3 and change.unit.models_left == 3  # type: ignore[attr-defined]
    log = ok(await as_(app, "1", "/log 1"))
    assert log.data is not None
    (event,) = log.data["events"]
    assert event["command"] == "/sys attack target=orcs apply" and event["kind"] == "gen_attack"
    assert [c["kind"] for c in event["changes"]] == ["damage", "cond_added"]
    assert "Orcs: 3 damage, 5/8 left" in plain.render(log)
    ok(await as_(app, "1", "/undo"))  # one undo reverts both parts of the attack
    orcs = ok(await as_(app, "1", "/unit show orcs")).data["unit"]  # type: ignore[index]
    assert orcs["damage"] == 0 and orcs["conditions"] == []


async def test_apply_change_checks_rights_and_skips_no_ops(app: App) -> None:
    await setup(app)

    async def hit_elves(ctx: Context) -> object:
        return await apply_change(
            ctx, lambda s: tr.damage(s, "elves", 1), "x", unit="elves", attack=True
        )

    # Bob is not on turn (Ann is) and the Elves are Cat's: he is told whose turn it is.
    try:
        await run_as(app, "2", "/sys attack target=elves apply", hit_elves)
    except UserError as err:
        assert err.key == "perm.not_your_turn" and err.params == {"name": "Ann"}
    else:
        raise AssertionError("Bob changed Cat's unit off his turn")

    async def nothing(ctx: Context) -> object:
        return await apply_change(ctx, lambda s: tr.damage(s, "elves", 0), "x", unit="elves")

    change = await run_as(app, "3", "/sys attack target=elves apply", nothing)
    assert not change.changed  # type: ignore[attr-defined]
    assert len(ok(await as_(app, "1", "/log 50")).data["events"]) == 5  # type: ignore[index]


async def test_apply_change_retries_on_a_stale_version(app: App) -> None:
    await setup(app)

    async def race(ctx: Context) -> object:
        stale = await games.active(ctx.conn, CHAT)
        assert stale is not None
        # Another writer changes the game after we read it ...
        meanwhile = tr.damage(stale.state, "elves", 2)
        await games.save_change(
            ctx.conn,
            stale,
            meanwhile,
            user_id="3",
            user_name="Cat",
            command="/unit damage elves 2",
            kind="damage",
            now=ctx.now,
        )
        # ... so our change, built on `stale`, is reapplied on the new state.
        return await apply_change(
            ctx, lambda s: tr.damage(s, "orcs", 1), "damage", unit="orcs", game=stale
        )

    change = await run_as(app, "1", "/unit damage orcs 1", race)
    after = change.after  # type: ignore[attr-defined]
    assert tr.find_unit(after, "elves").damage == 2 and tr.find_unit(after, "orcs").damage == 1
    stored = ok(await as_(app, "1", "/game status")).data["state"]  # type: ignore[index]
    assert [u["damage"] for u in stored["units"]] == [1, 2]


async def test_the_player_on_turn_acts_and_the_others_wait(app: App) -> None:
    await setup(app)
    ok(await as_(app, "1", "/turn end"))  # Bob's turn now
    ok(await as_(app, "2", "/unit damage elves 1"))  # Bob hits Cat's unit on his turn
    ok(await as_(app, "2", "/unit cond elves add pinned until=end-of-turn"))
    refused = await as_(app, "3", "/unit damage orcs 1")  # Cat can't hit Bob's off her turn
    assert refused.error is not None and refused.error.code == "perm.not_your_turn"
    assert refused.error.message == "It's Bob's turn, not yours."
    refused = await as_(app, "2", "/unit set elves wounds=9")  # hitting isn't rewriting
    assert refused.error is not None and refused.error.code == "perm.not_your_unit"
    for command in ("/turn end", "/phase next"):
        refused = await as_(app, "3", command)
        assert refused.error is not None and refused.error.code == "perm.not_your_turn"
    passed = ok(await as_(app, "2", "/turn end"))
    assert passed.mentions == ["3"]
    elves = ok(await as_(app, "3", "/unit show elves")).data["unit"]  # type: ignore[index]
    assert elves["conditions"] == []  # pinned until the end of Bob's turn
    # Every refusal is one sentence, in Italian too.
    italian = await as_(app, "2", "/unit damage orcs 1", lang="it")
    ok(italian)  # Bob's own unit: always his
    refused = await as_(app, "3", "/unit set orcs wounds=1", lang="it")
    assert refused.error is not None
    assert refused.error.message == i18n.t("it", "perm.not_your_unit", unit="Orcs")
    refused = await as_(app, "9", "/unit damage orcs 1", lang="it")  # not in the game at all
    assert refused.error is not None
    assert refused.error.message == i18n.t("it", "perm.players_only")


def test_describe_names_what_changed() -> None:
    state = GameState(system="gen", name="g", organiser="1")
    state = tr.join(state, "1", "Ann", None)
    state = tr.join(state, "2", "Bob", None)
    ann = state.players[0]
    before = tr.add_unit(state, "Guards", ann, {"models": 2, "wounds": 2})
    after = tr.damage(before, "guards", 4)
    after, _ = tr.change_resource(after, "player:2", "cp", "add", 2)
    after = tr.end_turn(after)
    assert diff.describe(before, after) == [
        ("game.diff.damage", {"unit": "Guards", "left": 0, "max": 4, "n": 4}),
        ("game.diff.destroyed", {"unit": "Guards"}),
        ("game.diff.resource", {"who": "Bob", "name": "cp", "was": 0, "now": 2}),
        ("game.diff.turn", {"name": "Bob"}),
    ]
    assert diff.describe(after, after) == []
    assert diff.describe(None, after) == [("game.diff.started", {"name": "g"})]
    ended = tr.end_game(tr.next_round(after), "1")
    assert diff.describe(after, ended)[-1] == ("game.diff.ended", {"winner": "Ann"})


async def test_many_users_many_writers_two_apps(tmp_path: Path) -> None:
    """60 changes from five players through two Apps on one file: none lost, none refused."""
    path = tmp_path / "many.sqlite3"
    first, second = App(path), App(path)
    await first.start()
    await second.start()
    try:
        ok(await say(first, "/game new gen", user="1", name="Ann", chat=CHAT))
        for user in "2345":
            ok(await say(second, "/game join", user=user, name=NAMES[user], chat=CHAT))
        commands = [
            (first if i % 2 else second, str(1 + i % 5), f"/res add cp {1 + i % 3}")
            for i in range(60)
        ]
        replies = await asyncio.gather(
            *[say(app, text, user=u, name=NAMES[u], chat=CHAT) for app, u, text in commands]
        )
        assert [r.error for r in replies if r.error] == []
        expected: dict[str, int] = {}
        for _, user, text in commands:
            expected[user] = expected.get(user, 0) + int(text.split()[-1])
        state = ok(await say(second, "/game status", chat=CHAT)).data["state"]  # type: ignore[index]
        assert {k.split(":")[1]: v["cp"] for k, v in state["resources"].items()} == expected
        async with first.db.transaction(write=False) as conn:
            game = await games.active(conn, CHAT)
            assert game is not None
            logged = await events.recent(conn, game.id, 100)
        # one version per change: creation, 4 joins, 60 resource changes
        assert game.version == 1 + 1 + 4 + 60 and len(logged) == 1 + 4 + 60
    finally:
        await first.stop()
        await second.stop()


async def test_active_game_reuses_the_first_read_only_until_a_write(app: App) -> None:
    """The dispatcher's first read (language + active game) stands in for `games.active` until
    the command writes anything; after a write the game is read again."""
    await setup(app)
    request = Request(platform="console", chat_key=CHAT, user_id="1", user_name="Ann", text="x")
    spec, opts = app.registry.resolve("/unit damage Orcs 1")
    async with app.db.transaction() as conn:
        first = await games.chat_read(conn, CHAT)
        ctx = Context(app, request, spec, opts, "en", conn, app.clock(), first)
        before = await ctx.active_game()
        assert before is not None and before == await games.active(conn, CHAT)
        # The row parsed afresh: changing what was returned changes nothing stored or cached.
        before.state.units.clear()
        again = await ctx.active_game()
        assert again is not None and len(again.state.units) == 2
        change = await apply_change(ctx, lambda st: tr.damage(st, "Orcs", 1), "test")
        after = await ctx.active_game()
        assert after is not None and after.version == again.version + 1
        assert after == change.game == await games.active(conn, CHAT)
        assert tr.find_unit(after.state, "Orcs").damage == 1
        ended = after.state.model_copy(update={"status": "ended"})
        await games.save_change(
            conn, after, ended, user_id="1", user_name="Ann", command="x", kind="end", now=ctx.now
        )
        assert await ctx.active_game() is None
