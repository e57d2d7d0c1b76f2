"""Prometheus metrics on an opt-in port (`WARGAME_BOT_METRICS_PORT`): commands by name and
outcome, their latency, the queue of commands waiting per chat, and the worker pool's use.

Off by default, and then free: `command_done` is one attribute check until `serve` turns the
recording on (prometheus_client is imported only then). The HTTP server is prometheus_client's
own, in a daemon thread: a scrape never runs on the bot's event loop."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.protocol import Reply
    from bot.workers import WorkerPool

log = logging.getLogger(__name__)

# Seconds; Discord allows 3 s before a command must be deferred, so the buckets straddle it.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0, 10.0)


def outcome_of(reply: Reply) -> str:
    """ok | refused (the user's input or permissions) | storage (the database failed) |
    internal (a bug: the reply carries an error id)."""
    if reply.error is None:
        return "ok"
    if reply.error.code == "internal":
        return "internal"
    if reply.error.code.startswith("storage."):
        return "storage"
    return "refused"


class _Recorder:
    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry()
        self.commands = Counter(
            "wargame_commands",
            "Commands handled, by command and outcome.",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "wargame_command_seconds",
            "Time from a command's arrival at the dispatcher to its reply.",
            ["command"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.queued = Gauge(
            "wargame_queue_depth",
            "Commands received and waiting for their chat's earlier ones, per platform.",
            ["platform"],
            registry=self.registry,
        )
        self.workers = Gauge(
            "wargame_workers",
            "Worker processes for heavy commands: the pool's size, those running, those busy.",
            ["state"],
            registry=self.registry,
        )

    def watch_queue(self, platform: str, depth: Callable[[], int]) -> None:
        self.queued.labels(platform).set_function(depth)

    def watch_pool(self, pool: WorkerPool) -> None:
        self.workers.labels("size").set_function(lambda: pool.size)
        self.workers.labels("running").set_function(lambda: pool.usage()[0])
        self.workers.labels("busy").set_function(lambda: pool.usage()[1])


_recorder: _Recorder | None = None


def enabled() -> bool:
    return _recorder is not None


def command_done(reply: Reply, seconds: float) -> None:
    if _recorder is None:
        return
    name = reply.command or "unknown"
    _recorder.commands.labels(name, outcome_of(reply)).inc()
    _recorder.latency.labels(name).observe(seconds)


def watch_queue(platform: str, depth: Callable[[], int]) -> None:
    """A platform's queue of waiting commands, read at each scrape (no-op while off)."""
    if _recorder is not None:
        _recorder.watch_queue(platform, depth)


def watch_pool(pool: WorkerPool) -> None:
    if _recorder is not None:
        _recorder.watch_pool(pool)


def serve(port: int, host: str = "127.0.0.1") -> Any:
    """Turn recording on and serve `/metrics` on host:port; returns the HTTP server (its
    `server_port` is the port bound, useful with port 0). Stop it with `stop`."""
    global _recorder
    from prometheus_client import start_http_server

    if _recorder is None:
        _recorder = _Recorder()
    server, _thread = start_http_server(port, addr=host, registry=_recorder.registry)
    log.info("metrics on http://%s:%d/metrics", host, server.server_port)
    return server


def stop(server: Any) -> None:
    """Stop serving and recording (tests start several bots in one process)."""
    global _recorder
    server.shutdown()
    server.server_close()
    _recorder = None
