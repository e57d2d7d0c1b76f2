"""Rulebook import of hostile PDFs: a page count over the cap, a page tree that multiplies
itself (a few hundred bytes claiming 10^8 pages), a Flate stream that inflates to 100 MB, and
objects nested 100,000 deep are refused with one sentence, the work stays in the worker
process (which is gone afterwards), and nothing is stored. Over 20 MB is refused before any
download. (Timeout and random-bytes PDFs: tests/rules/test_rules_commands.py.)"""

from __future__ import annotations

import multiprocessing
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import App
from bot.render import plain
from bot.rules_import import MAX_BYTES, MAX_PAGES
from tests.helpers import say, upload
from tests.telegram.harness import running

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
PAGE = (
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
    b"/Resources << /Font << /F1 3 0 R >> >> >>"
)


def build(objects: list[bytes]) -> bytes:
    """A PDF with a correct xref table; object 1 is the catalog."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def stream(data: bytes, flate: bool = False) -> bytes:
    if flate:
        data = zlib.compress(data, 9)
    extra = b" /Filter /FlateDecode" if flate else b""
    return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def text_content(words: str) -> bytes:
    return f"BT /F1 12 Tf 50 700 Td ({words}) Tj ET".encode()


def pages(n: int) -> bytes:
    """`n` real pages, each showing a line of text."""
    kids = " ".join(f"{5 + i} 0 R" for i in range(n)).encode()
    return build(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % n,
            FONT,
            stream(text_content("Ambush lets hidden units strike first")),
            *[PAGE] * n,
        ]
    )


def page_tree_bomb(levels: int, fan: int) -> bytes:
    """Each Pages node lists the next one `fan` times: fan**levels pages in ~1.6 KB."""
    objects = [b"<< /Type /Catalog /Pages 4 0 R >>", FONT, stream(text_content("Bomb"))]
    for k in range(levels):
        kids = " ".join([f"{5 + k} 0 R"] * fan).encode()
        count = fan ** (levels - k)
        objects.append(b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count)
    objects.append(
        b"<< /Type /Page /MediaBox [0 0 612 792] /Contents 3 0 R "
        b"/Resources << /Font << /F1 2 0 R >> >> >>"
    )
    return build(objects)


def one_page(content: bytes, *, catalog_extra: bytes = b"") -> bytes:
    return build(
        [
            b"<< /Type /Catalog /Pages 2 0 R" + catalog_extra + b" >>",
            b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
            FONT,
            content,
            PAGE,
        ]
    )


def flate_bomb(megabytes: int) -> bytes:
    raw = text_content("Boom") + b" " * (megabytes * 1024 * 1024)
    return one_page(stream(raw, flate=True))


def nesting_bomb(depth: int) -> bytes:
    return one_page(
        stream(text_content("Deep")), catalog_extra=b" /X " + b"[" * depth + b"]" * depth
    )


def test_the_builders_make_readable_pdfs_when_small() -> None:
    """The same shapes, small, import fine: the refusals below are the bombs' doing."""
    for small in (pages(3), page_tree_bomb(2, 3), flate_bomb(1), nesting_bomb(20)):
        assert small.startswith(b"%PDF-") and len(small) < 1_100_000


async def test_small_versions_import(app: App) -> None:
    for name, data in [("pages.pdf", pages(3)), ("tree.pdf", page_tree_bomb(2, 3))]:
        reply = await upload(app, name, data)
        assert reply.ok, plain.render(reply)
    found = await say(app, "/rules search ambush", chat="telegram:9")
    assert found.ok and "hidden units" in plain.render(found)


BOMBS: list[tuple[str, Callable[[], bytes], str]] = [
    ("too many pages", lambda: pages(MAX_PAGES + 1), "rules.too_many_pages"),
    ("page tree bomb", lambda: page_tree_bomb(8, 10), "rules.unreadable"),
    ("flate bomb", lambda: flate_bomb(100), "rules.unreadable"),
    ("nesting bomb", lambda: nesting_bomb(100_000), "rules.unreadable"),
]


@pytest.mark.parametrize(("label", "make", "refusal"), BOMBS, ids=[b[0] for b in BOMBS])
async def test_pdf_bombs_are_refused_in_the_worker(
    app: App, label: str, make: Callable[[], bytes], refusal: str
) -> None:
    data = make()
    assert len(data) < MAX_BYTES  # small files: the size cap alone would not stop them
    tracemalloc.start()
    try:
        reply = await upload(app, f"{label}.pdf", data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert reply.error is not None and reply.error.code == refusal, plain.render(reply)
    assert "Traceback" not in plain.render(reply)
    assert peak < 50_000_000  # the inflating and page walking happened in the worker
    pool = app.pool.pids()  # the odds workers stay; the PDF worker must be gone
    assert [p for p in multiprocessing.active_children() if p.pid not in pool] == []
    listed = await say(app, "/rules list", chat="telegram:9")
    assert listed.data is not None and listed.data["rulebooks"] == []


async def test_over_20_mb_is_refused_before_reading(app: App) -> None:
    reply = await upload(app, "huge.pdf", b"%PDF-1.4\n" + b"0" * MAX_BYTES)
    assert reply.error is not None and reply.error.code == "rules.too_big"
    pool = app.pool.pids()  # the odds workers stay
    assert [p for p in multiprocessing.active_children() if p.pid not in pool] == []


async def test_telegram_refuses_a_document_over_20_mb_without_downloading_it(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as env:
        fake = env.fake
        fake.admins[-1001] = [42]
        document = {
            "file_id": "big",
            "file_unique_id": "ubig",
            "file_name": "bomb.pdf",
            "file_size": MAX_BYTES + 1,
        }
        await fake.push(fake.message("/rules import system=wm", document=document))
        (sent,) = await fake.wait_for("sendMessage")
        assert "20 MB" in sent["text"]
        await env.adapter.stop()
        assert "getFile" not in fake.methods()
