"""`/metrics` in Prometheus' text format: commands by name and outcome, latency, the worker
pool; served by `run` only when WARGAME_BOT_METRICS_PORT is set."""

from __future__ import annotations

import asyncio
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.app import App
from tests.helpers import say


@pytest.fixture
def exporter() -> Iterator[Any]:
    server = metrics.serve(0)
    try:
        yield server
    finally:
        metrics.stop(server)


async def scrape(server: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    url = f"http://127.0.0.1:{server.server_port}/metrics"

    def get() -> str:
        with urllib.request.urlopen(url, timeout=10) as response:
            return str(response.read().decode())

    text = await asyncio.to_thread(get)
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_commands_are_counted_by_outcome_and_timed(tmp_path: Path, exporter: Any) -> None:
    app = App(tmp_path / "bot.sqlite3")
    await app.start()
    metrics.watch_pool(app.pool)
    try:
        for _ in range(3):
            assert (await say(app, "/roll 2d6")).error is None
        assert (await say(app, "/roll 2d")).error is not None
        assert (await say(app, "/game end")).error is not None  # no game: refused
    finally:
        await app.stop()
    samples = await scrape(exporter)
    assert samples[("wargame_commands_total", (("command", "roll"), ("outcome", "ok")))] == 3
    assert samples[("wargame_commands_total", (("command", "roll"), ("outcome", "refused")))] == 1
    assert samples[("wargame_command_seconds_count", (("command", "roll"),))] == 4
    assert samples[("wargame_command_seconds_bucket", (("command", "roll"), ("le", "+Inf")))] == 4
    assert samples[("wargame_workers", (("state", "size"),))] == app.pool.size
    assert samples[("wargame_workers", (("state", "busy"),))] == 0


async def test_queue_depth_is_read_at_each_scrape(exporter: Any) -> None:
    waiting = [1, 2, 3]
    metrics.watch_queue("telegram", lambda: len(waiting))
    assert (await scrape(exporter))[("wargame_queue_depth", (("platform", "telegram"),))] == 3
    waiting.clear()
    assert (await scrape(exporter))[("wargame_queue_depth", (("platform", "telegram"),))] == 0


async def test_recording_is_off_without_the_port(tmp_path: Path) -> None:
    assert not metrics.enabled()
    app = App(tmp_path / "bot.sqlite3")
    await app.start()
    try:
        assert (await say(app, "/roll 2d6")).error is None  # nothing recorded, nothing fails
    finally:
        await app.stop()
    assert not metrics.enabled()


async def test_run_serves_metrics_on_the_configured_port(tmp_path: Path) -> None:
    from bot.adapters.platforms import run_platforms
    from tests.telegram.fake_bot_api import FakeBotAPI
    from tests.telegram.harness import settings_for
    from tests.telegram.test_telegram_run import free_port

    fake = FakeBotAPI()
    await fake.start()
    port = free_port()
    conf = settings_for(fake, tmp_path / "run.sqlite3").model_copy(
        update={"wargame_bot_metrics_port": port}
    )
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(conf, stop))
    try:
        await fake.push(fake.message("/roll 2d6"))
        await fake.wait_for("sendMessage")
        server = type("Bound", (), {"server_port": port})
        samples = await scrape(server)
        assert samples[("wargame_commands_total", (("command", "roll"), ("outcome", "ok")))] == 1
    finally:
        stop.set()
        assert await asyncio.wait_for(task, 30) == 0
        await fake.stop()
    assert not metrics.enabled()  # stopped with the bot
