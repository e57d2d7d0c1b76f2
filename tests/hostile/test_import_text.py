"""Rulebook import of files that are not what they claim, or too big, or meant for one chat:
random bytes named `.txt` are refused with one sentence (nothing stored), text in UTF-8,
UTF-16 or a Windows code page imports, control characters in a book never reach a reply,
a file over the cap is refused from its size before it is read (console and command line),
and the operator says which chats may search a book (`--chat KEY` or `--all-chats`, warned)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tracemalloc
import unicodedata
from pathlib import Path

import pytest

from bot.app import App
from bot.render import plain
from bot.rules_import import MAX_BYTES
from tests.helpers import say, upload

ROOT = Path(__file__).resolve().parents[2]
BOOK = "# Movement\n\nL'unità può muovere fino a 6 pollici; perché no.\n\n# Charge\n\nUp to 12.\n"


def noise(size: int, seed: int, nul: bool = True) -> bytes:
    data = random.Random(seed).randbytes(size)
    return data if nul else data.replace(b"\0", b"\1")


async def books(app: App, chat: str = "telegram:9") -> list[dict[str, object]]:
    listed = await say(app, "/rules list", chat=chat)
    assert listed.data is not None
    return listed.data["rulebooks"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("book.txt", noise(50_000, 1)),
        ("rules.md", noise(50_000, 2, nul=False)),  # no NUL byte: the share of controls tells
        ("notes.txt", b"# Rules\n\n" + noise(4_000, 3)),  # a text start, then binary
        ("scan.txt", b"PK\x03\x04" + noise(2_000, 4)),  # a Word document renamed
    ],
)
async def test_random_bytes_named_as_text_are_refused(app: App, name: str, content: bytes) -> None:
    reply = await upload(app, name, content)
    assert reply.error is not None and reply.error.code == "rules.not_text", plain.render(reply)
    text = plain.render(reply)
    assert name in text and "text" in text and "Traceback" not in text
    assert await books(app) == []
    italian = await upload(app, name, content, lang="it")
    assert italian.error is not None and "testo" in italian.error.message


@pytest.mark.parametrize(
    "encoding", ["utf-8", "utf-8-sig", "cp1252", "utf-16", "utf-16-le-bom", "utf-16-be-bom"]
)
async def test_text_in_any_common_encoding_imports(app: App, encoding: str) -> None:
    if encoding.endswith("-bom"):
        codec = encoding.removesuffix("-bom")
        bom = "\ufeff".encode(codec)
        data = bom + BOOK.encode(codec)
    else:
        data = BOOK.encode(encoding)
    reply = await upload(app, f"{encoding}.txt", data)
    assert reply.ok, plain.render(reply)
    found = await say(app, "/rules search unità", chat="telegram:9")
    assert found.ok and "L'unità può muovere fino a 6 pollici" in plain.render(found)


async def test_control_characters_in_a_book_never_reach_a_reply(app: App) -> None:
    book = "# Stealth\n\nHidden\u202e units \x1b[31mstrike\x07 first.\tAlways.\r\n"
    assert (await upload(app, "evil.md", book.encode())).ok
    found = await say(app, "/rules search stealth", chat="telegram:9")
    shown = plain.render(found)
    assert "Hidden units [31mstrike first. Always." in shown
    assert [c for c in shown if unicodedata.category(c) in ("Cc", "Cf") and c != "\n"] == []


def sparse(path: Path, size: int) -> Path:
    with path.open("wb") as fh:
        fh.truncate(size)  # no disk used, but reading it would take `size` bytes of memory
    return path


async def test_console_import_checks_the_size_before_reading(app: App, tmp_path: Path) -> None:
    big = sparse(tmp_path / "big.txt", 10 * MAX_BYTES)
    tracemalloc.start()
    try:
        reply = await say(app, f"/rules import system=wm file={big}", admin=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert reply.error is not None and reply.error.code == "rules.too_big"
    assert peak < MAX_BYTES  # not read whole: a read of 200 MB would peak over 200 MB


# --- the command line, as a real process -------------------------------------------------------


# Runs `wargame-bot` (python -m bot) and records its peak memory from /proc/self/status at
# exit: the process's own high-water mark (ru_maxrss would include the pytest process's, which
# a child inherits across fork and exec).
LAUNCH = """
import atexit, re, runpy, sys
out = sys.argv.pop(1)
def peak():
    status = open("/proc/self/status").read()
    open(out, "w").write(re.search(r"VmHWM:\\s+(\\d+)", status).group(1))
atexit.register(peak)
runpy.run_module("bot", run_name="__main__")
"""


def cli(tmp_path: Path, *args: str) -> tuple[int, str, str, int]:
    """Exit status, stdout, stderr and peak memory (KB) of `wargame-bot ARGS`."""
    env = dict(os.environ, WARGAME_BOT_DB=str(tmp_path / "cli.sqlite3"), PYTHONPATH=str(ROOT))
    peak = tmp_path / "peak.txt"
    run = subprocess.run(
        [sys.executable, "-c", LAUNCH, str(peak), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return run.returncode, run.stdout, run.stderr, int(peak.read_text())


def listed(tmp_path: Path, chat: str) -> list[str]:
    code, out, _, _ = cli(tmp_path, "ask", "--json", "--chat", chat, "/rules list")
    assert code == 0, out
    return [b["title"] for b in json.loads(out)["data"]["rulebooks"]]


def test_cli_refuses_a_big_file_from_its_size_without_reading_it(tmp_path: Path) -> None:
    big = sparse(tmp_path / "big.txt", 10 * MAX_BYTES)
    code, _, err, peak_kb = cli(
        tmp_path, "import-rules", "--system", "wm", "--chat", "t:1", str(big)
    )
    assert code == 2 and "too big" in err and "Traceback" not in err
    assert peak_kb * 1024 < 10 * MAX_BYTES // 2  # a read of the whole file would need 200 MB


def test_cli_refuses_random_bytes_named_txt(tmp_path: Path) -> None:
    junk = tmp_path / "book.txt"
    junk.write_bytes(noise(50_000, 5))
    code, out, err, _ = cli(tmp_path, "import-rules", "--system", "wm", "--chat", "t:1", str(junk))
    assert code == 2 and out == ""
    assert "book.txt is not a text file" in err and "Traceback" not in err
    assert listed(tmp_path, "t:1") == []


def test_cli_asks_which_chats_may_search_the_book(tmp_path: Path) -> None:
    book = tmp_path / "house.md"
    book.write_text(BOOK)
    code, out, err, _ = cli(tmp_path, "import-rules", "--system", "wm", str(book))
    assert code == 2 and out == ""
    assert "--chat" in err and "--all-chats" in err and "every chat" in err
    assert listed(tmp_path, "telegram:1") == []  # nothing imported

    code, out, err, _ = cli(
        tmp_path, "import-rules", "--system", "wm", "--chat", "telegram:1", str(book)
    )
    assert code == 0 and "for telegram:1" in out and "warning" not in err.lower()
    assert listed(tmp_path, "telegram:1") == ["house.md"]
    assert listed(tmp_path, "telegram:2") == []

    code, out, err, _ = cli(tmp_path, "import-rules", "--system", "wm", "--all-chats", str(book))
    assert code == 0 and "for every chat" in out
    assert "warning" in err.lower() and "searchable by every chat" in err
    assert listed(tmp_path, "telegram:2") == ["house.md"]

    both = ("import-rules", "--system", "wm", "--chat", "telegram:1", "--all-chats", str(book))
    code, _, err, _ = cli(tmp_path, *both)
    assert code == 2 and "not allowed with" in err
