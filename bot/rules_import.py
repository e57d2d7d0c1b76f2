"""Turn an uploaded rulebook (text, Markdown or PDF) into passages, within hard caps:
20 MB (known before a byte is read), and one minute of work. Decoding and PDF text extraction
run in a separate process so a hostile file can be stopped (a thread could not be). A file
that isn't a PDF must be text, whatever its name says: binary data is refused, not imported
as mojibake; the text keeps no control or format characters (see bot.clean_text)."""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import re
from pathlib import Path

from bot.clean_text import multi_line
from rules_core.errors import UserError
from rules_core.rules.splitter import SplitResult, split_text

MAX_BYTES = 20 * 1024 * 1024
MAX_SECONDS = 60.0
MAX_PAGES = 2000
# Text has next to no control characters besides line breaks and tabs (a stray escape code or
# two); random bytes decoded as a Windows code page have about one in ten (one in four as
# Latin-1), and a NUL in one of 256.
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]")
MAX_CONTROL_SHARE = 0.01
MAX_STRAY_CONTROLS = 8
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


class TooManyPages(Exception):
    """Raised in the worker process (and pickled back) for a PDF over MAX_PAGES."""


class NotText(Exception):
    """Raised in the worker process (and pickled back) for binary data that isn't a PDF."""


def read_local(path: Path) -> bytes:
    """A rulebook file on this computer (console `file=` and `import-rules`), refused from its
    size before it is read, and never read past the cap even if it grows meanwhile."""
    try:
        if not path.is_file():
            raise UserError("rules.file_missing", path=str(path)[:80])
        too_big = path.stat().st_size > MAX_BYTES
        if not too_big:
            with path.open("rb") as fh:
                data = fh.read(MAX_BYTES + 1)
            too_big = len(data) > MAX_BYTES
    except OSError:
        raise UserError("rules.file_unreadable", path=str(path)[:80]) from None
    if too_big:
        raise UserError("rules.too_big", limit_mb=MAX_BYTES // (1024 * 1024))
    return data


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    if len(reader.pages) > MAX_PAGES:
        raise TooManyPages
    parts = []
    for number, page in enumerate(reader.pages, start=1):
        parts.append(page.extract_text() or "")
        parts.append(f"\n{number}\n")  # a page-number line: the splitter tracks pages by it
    return "\n".join(parts)


def _decode(data: bytes) -> str:
    if data[:2] in _UTF16_BOMS:  # Windows Notepad's "Unicode"
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise NotText from None
    if b"\0" in data:
        raise NotText
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        text = data.decode("latin-1")
    if len(_CONTROLS.findall(text)) > max(MAX_STRAY_CONTROLS, MAX_CONTROL_SHARE * len(text)):
        raise NotText
    return text


def _work(data: bytes, is_pdf: bool) -> SplitResult:
    text = _pdf_text(data) if is_pdf else _decode(data)
    return split_text(multi_line(text))


async def extract(data: bytes, filename: str, timeout: float = MAX_SECONDS) -> SplitResult:
    if len(data) > MAX_BYTES:
        raise UserError("rules.too_big", limit_mb=MAX_BYTES // (1024 * 1024))
    if not data.strip():
        raise UserError("rules.empty_file")
    is_pdf = data[:5] == b"%PDF-"
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(processes=1)
    try:
        pending = pool.apply_async(_work, (data, is_pdf))
        result: SplitResult = await asyncio.to_thread(pending.get, timeout)
    except multiprocessing.TimeoutError:
        raise UserError("rules.too_slow", seconds=int(timeout)) from None
    except TooManyPages:
        raise UserError("rules.too_many_pages", pages=MAX_PAGES) from None
    except NotText:
        raise UserError("rules.not_text", name=filename[:80]) from None
    except Exception:
        raise UserError("rules.unreadable") from None
    finally:
        pool.terminate()  # stops a worker still stuck in a hostile file
        pool.join()
    if not result.passages:
        raise UserError("rules.no_text")
    return result
