"""A command that hands heavy work to a worker (`Context.offload`) has its transaction closed
meanwhile and a new one begun afterwards: on both backends it reads and writes through the new
one (on PostgreSQL another pooled connection, its chat locked again)."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App
from bot.commands import build_registry
from bot.commands.context import Context
from bot.commands.spec import CommandSpec
from bot.protocol import Reply, plain
from bot.storage import settings
from bot.workers import WorkerPool
from tests.helpers import say


async def offload_then_store(ctx: Context) -> Reply:
    before = await settings.kv_get(ctx.conn, "offloaded")
    value = await ctx.offload(math.factorial, 5)
    await settings.kv_set(ctx.conn, "offloaded", f"{before or ''}{value % 1000}")
    stored = await settings.kv_get(ctx.conn, "offloaded")
    return Reply(blocks=[[plain(stored or "")]])


@pytest.fixture
async def app(db_target: Path | str) -> AsyncIterator[App]:
    registry = build_registry()
    registry.add(CommandSpec(path=("offloadtest",), handler=offload_then_store, hidden=True))
    pool = WorkerPool(1)
    application = App(db_target, registry=registry, pool=pool)
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
        pool.shutdown()


async def test_a_command_reads_and_writes_after_offloading(app: App) -> None:
    first = await say(app, "/offloadtest")
    assert first.ok, first.error
    second = await say(app, "/offloadtest")
    assert second.ok, second.error
    assert [plain_text(first), plain_text(second)] == ["120", "120120"]


def plain_text(reply: Reply) -> str:
    return "".join(span.text for block in reply.blocks for span in block)
