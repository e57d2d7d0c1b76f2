"""Turn an uploaded rulebook (text, Markdown or PDF) into passages, within hard caps:
20 MB, and one minute of work. PDF text extraction runs in a separate process so a hostile
file can be stopped (a thread could not be)."""

from __future__ import annotations

import asyncio
import io
import multiprocessing

from rules_core.errors import UserError
from rules_core.rules.splitter import SplitResult, split_text

MAX_BYTES = 20 * 1024 * 1024
MAX_SECONDS = 60.0
MAX_PAGES = 2000


class TooManyPages(Exception):
    """Raised in the worker process (and pickled back) for a PDF over MAX_PAGES."""


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
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _work(data: bytes, is_pdf: bool) -> SplitResult:
    text = _pdf_text(data) if is_pdf else _decode(data)
    return split_text(text)


async def extract(data: bytes, filename: str, timeout: float = MAX_SECONDS) -> SplitResult:
    if len(data) > MAX_BYTES:
        raise UserError("rules.too_big", limit_mb=MAX_BYTES // (1024 * 1024))
    if not data.strip():
        raise UserError("rules.empty_file")
    is_pdf = data[:5] == b"%PDF-"
    lower = filename.lower()
    if not is_pdf and not lower.endswith((".txt", ".md", ".markdown", ".text")) and b"\0" in data:
        raise UserError("rules.bad_type")
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(processes=1)
    try:
        pending = pool.apply_async(_work, (data, is_pdf))
        result: SplitResult = await asyncio.to_thread(pending.get, timeout)
    except multiprocessing.TimeoutError:
        raise UserError("rules.too_slow", seconds=int(timeout)) from None
    except TooManyPages:
        raise UserError("rules.too_many_pages", pages=MAX_PAGES) from None
    except Exception:
        raise UserError("rules.unreadable") from None
    finally:
        pool.terminate()  # stops a worker still stuck in a hostile file
        pool.join()
    if not result.passages:
        raise UserError("rules.no_text")
    return result
