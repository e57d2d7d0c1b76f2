"""Rule look-up latency: every built-in entry indexed and all five rulebook transcripts
imported (from $WARGAME_RULEBOOKS; without it the books are left out, and it says so), then the
relevance queries (and free-text variants) through `/rule` end to end."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from bot.app import App
from bot.paths import RULEBOOK_TRANSCRIPTS, missing_transcripts, rulebooks_dir
from bot.protocol import Request
from bot.rules_data import rule_index
from bot.storage import rulebooks
from rules_core.rules.splitter import split_text

ROOT = Path(__file__).resolve().parents[1]
RELEVANCE = ROOT / "tests" / "rules" / "relevance"


def transcripts() -> Path | None:
    """The transcripts' directory, or None (with the reason printed) when it is not set."""
    books = rulebooks_dir()
    if books is None:
        print("Rule look-up: rulebook imports skipped: WARGAME_RULEBOOKS is not set")
        return None
    missing = missing_transcripts(books)
    if missing:
        print(f"Rule look-up: rulebook imports skipped: {books} lacks {', '.join(missing)}")
        return None
    return books


def queries() -> list[tuple[str, str]]:
    out = []
    for file in sorted(RELEVANCE.glob("*.toml")):
        with file.open("rb") as fh:
            out += [(file.stem, q["q"]) for q in tomllib.load(fh)["query"]]
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run() -> RulesResult:
    with tempfile.TemporaryDirectory() as tmp:
        app = App(Path(tmp) / "bench.sqlite3")
        await app.start()
        try:
            started = time.perf_counter()
            index = rule_index()
            index_s = time.perf_counter() - started
            books = transcripts()
            paths = (
                {system: books / name for system, name in RULEBOOK_TRANSCRIPTS.items()}
                if books
                else {}
            )
            for system, path in paths.items():
                split = split_text(path.read_text(encoding="utf-8"))
                async with app.db.transaction() as conn:
                    await rulebooks.add(
                        conn,
                        scope=rulebooks.EVERY_CHAT,
                        system=system,
                        title=path.name,
                        split=split,
                        imported_by="bench",
                        now=app.clock(),
                    )
            cases = queries()
            index_times: list[float] = []
            command_times: list[float] = []
            for _ in range(3):
                for system, text in cases:
                    t0 = time.perf_counter()
                    index.search(text, system=system)
                    index_times.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    await app.handle(
                        Request(
                            platform="ask",
                            chat_key="bench:1",
                            user_id="b",
                            user_name="b",
                            text=f'/rule "{text}" system={system}',
                        )
                    )
                    command_times.append(time.perf_counter() - t0)
        finally:
            await app.stop()  # an App left open keeps its SQLite thread, and us, alive
    ms = 1000.0
    imported = "five books" if books is not None else "no rulebook"
    print(f"Rule look-up: {len(index)} entries (indexed in {index_s * ms:.0f} ms), {imported}")
    print(
        f"  index search : p50 {statistics.median(index_times) * ms:.2f} ms, "
        f"p99 {percentile(index_times, 0.99) * ms:.2f} ms over {len(index_times)} queries"
    )
    print(
        f"  /rule command: p50 {statistics.median(command_times) * ms:.2f} ms, "
        f"p99 {percentile(command_times, 0.99) * ms:.2f} ms (goal p99 <= 5 ms)"
    )
    return RulesResult(
        entries=len(index),
        index_p99_ms=percentile(index_times, 0.99) * ms,
        command_p50_ms=statistics.median(command_times) * ms,
        command_p99_ms=percentile(command_times, 0.99) * ms,
    )


@dataclass
class RulesResult:
    entries: int
    index_p99_ms: float
    command_p50_ms: float
    command_p99_ms: float


def main() -> RulesResult:
    return asyncio.run(run())
