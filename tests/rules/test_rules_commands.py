"""/rules import, search, list, remove and /rule's passage, through the registry and SQLite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import App
from bot.protocol import Request
from bot.render import plain
from bot.rules_import import MAX_BYTES, extract
from rules_core.errors import UserError
from tests.helpers import say, upload
from tests.rulebooks import read_book

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rulebooks"
BOOK = """# Skirmish rules

## Charging

A charging model moves up to twice its speed and gets a bonus die in melee.

## Morale

12

When a unit loses half its models it tests morale with two dice against its courage.

## 7.2 Cover

Models behind a wall add two to their armour against shooting.
"""


def minimal_pdf(text: str) -> bytes:
    """A one-page PDF whose page shows `text` (built by hand, with a correct xref table)."""
    stream = f"BT /F1 12 Tf 50 700 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    trailer = f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    out += trailer.encode()
    return bytes(out)


async def test_import_search_list_remove_and_isolation(app: App) -> None:
    reply = await upload(app, "house.md", BOOK.encode(), chat="telegram:1")
    assert reply.ok, reply.error  # type: ignore[attr-defined]
    assert reply.data["passages"] >= 3  # type: ignore[attr-defined]

    found = await say(app, "/rules search morale courage", chat="telegram:1")
    assert found.ok and found.data is not None
    first = found.data["passages"][0]
    assert first["heading"] == "Skirmish rules › Morale" and first["page"] == 12
    assert "half its models" in plain.render(found)

    numbered = await say(app, "/rules search 7.2", chat="telegram:1")
    assert numbered.data is not None and numbered.data["passages"][0]["number"] == "7.2"

    elsewhere = await say(app, "/rules search morale", chat="telegram:2")
    assert elsewhere.error is not None and elsewhere.error.code == "rules.no_passage"
    assert (await say(app, "/rules list", chat="telegram:2")).data == {"rulebooks": []}

    listing = await say(app, "/rules list", chat="telegram:1")
    assert listing.data is not None
    book = listing.data["rulebooks"][0]["id"]

    refused = await say(app, f"/rules remove {book}", chat="telegram:1")
    assert refused.error is not None and refused.error.code == "perm.admin_only"
    other = await say(app, f"/rules remove {book}", chat="telegram:2", admin=True)
    assert other.error is not None and other.error.code == "rules.not_yours"
    done = await say(app, f"/rules remove {book}", chat="telegram:1", admin=True)
    assert done.ok
    gone = await say(app, "/rules search morale", chat="telegram:1")
    assert gone.error is not None


async def test_rule_shows_the_best_passage_of_the_groups_book(app: App) -> None:
    await upload(app, "house.md", BOOK.encode(), system="aos", chat="telegram:1")
    reply = await say(app, "/rule charging system=aos", chat="telegram:1")
    assert reply.ok and reply.data is not None
    assert reply.data["passage"]["heading"] == "Skirmish rules › Charging"
    assert "twice its speed" in plain.render(reply)


async def test_only_admins_import_and_file_paths_are_console_only(app: App, tmp_path: Path) -> None:
    refused = await upload(app, "house.md", BOOK.encode(), admin=False, chat="telegram:1")
    assert refused.error.code == "perm.admin_only"  # type: ignore[attr-defined]
    secret = tmp_path / "secret.txt"
    secret.write_text("# Secret\n\nserver file contents\n")
    remote = await app.handle(
        Request(
            platform="telegram",
            chat_key="telegram:1",
            user_id="a",
            user_name="A",
            admin=True,
            text=f"/rules import system=wm file={secret}",
        )
    )
    assert remote.error is not None and remote.error.code == "rules.file_option_local"
    local = await say(app, f"/rules import system=wm file={secret}", admin=True)
    assert local.ok, local.error


async def test_pdf_import(app: App) -> None:
    reply = await upload(
        app, "book.pdf", minimal_pdf("Overwatch lets a model shoot"), chat="telegram:1"
    )
    assert reply.ok, reply.error  # type: ignore[attr-defined]
    found = await say(app, "/rules search overwatch", chat="telegram:1")
    assert found.ok and "Overwatch" in plain.render(found)


async def test_caps_refuse_clearly() -> None:
    with pytest.raises(UserError) as big:
        await extract(b"x" * (MAX_BYTES + 1), "huge.txt")
    assert big.value.key == "rules.too_big"
    with pytest.raises(UserError) as slow:
        await extract(BOOK.encode(), "book.md", timeout=0.0001)
    assert slow.value.key == "rules.too_slow"
    with pytest.raises(UserError) as broken:
        await extract(b"%PDF-1.4\n" + os.urandom(2000), "broken.pdf")
    assert broken.value.key in {"rules.unreadable", "rules.no_text"}


async def test_a_rulebook_like_text_lands_queries_in_the_right_passage(app: App) -> None:
    content = (FIXTURES / "numbered.txt").read_bytes()
    reply = await upload(app, "scaramucce.txt", content, system="wow", chat="telegram:1")
    assert reply.ok, reply.error  # type: ignore[attr-defined]
    cases = {
        "105.1a": "105 Dadi",
        "102.2": "102 Vincere la sfida",
        "Segnatempo": "101 Iniziare la sfida",
        "fango sabbia": "Terreno accidentato",
    }
    for query, heading in cases.items():
        found = await say(app, f"/rules search {query}", chat="telegram:1")
        assert found.data is not None, query
        assert found.data["passages"][0]["heading"].endswith(heading), query


async def test_a_real_rulebook_lands_queries_in_the_right_passage(app: App) -> None:
    content = read_book("002_1d2de6f2890ae553.txt").encode()
    reply = await upload(app, "wow.txt", content, system="wow", chat="telegram:1")
    assert reply.ok, reply.error  # type: ignore[attr-defined]
    cases = {
        "105.1a": "105 Dadi",
        "102.2": "102 Vincere e Perdere",
        "Personal Clock settato": "101 Iniziare una partita",
    }
    for query, heading in cases.items():
        found = await say(app, f"/rules search {query}", chat="telegram:1")
        assert found.data is not None, query
        assert found.data["passages"][0]["heading"].endswith(heading), query


def test_import_rules_cli(tmp_path: Path) -> None:
    book = tmp_path / "book.md"
    book.write_text(BOOK)
    env = dict(os.environ, WARGAME_BOT_DB=str(tmp_path / "cli.sqlite3"))
    run = subprocess.run(
        [sys.executable, "-m", "bot", "import-rules", "--system", "inf", "--all-chats", str(book)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "for every chat" in run.stdout
    missing = subprocess.run(
        [sys.executable, "-m", "bot", "import-rules", "--system", "inf", str(tmp_path / "no")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert missing.returncode == 2 and "no such file" in missing.stderr


async def test_rule_buttons_link_each_entry_once(app: App) -> None:
    """The best entry's links and the "did you mean" alternatives share one row of buttons;
    an entry in both gets one button ("test di comando": CMD is both)."""
    reply = await say(app, '/rule "test di comando" system=wm')
    assert reply.ok and reply.data is not None
    commands = [b.command for b in reply.buttons]
    assert commands and len(commands) == len(set(commands))
    assert '/rule "CMD" system=wm' in commands
