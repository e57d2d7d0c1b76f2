"""How a reply gets a picture: one small API shared by every chart and card.

- A renderer is a pure, module-level function `render(facts, lang) -> bytes` (a PNG) in a module
  of this package; `facts` is a pydantic model holding exactly what the text reply says (the
  picture is never the only place a number is). It imports matplotlib or Pillow inside the
  function, so a /roll never loads them, and is deterministic (same facts, same bytes).
- `await attach(ctx, reply, render, facts, "odds.png")` is what a command calls last: when the
  chat has pictures on (`/settings images`, on by default) the renderer runs in the worker pool
  (never on the event loop) within `DEADLINE_S`, and the reply comes back with the PNG as an
  image `Attachment` (`alt`: the reply's text); the text stays the caption. A picture that fails
  (deadline, busy pool, a bug) is logged and the reply goes out as text: it never costs the answer.
- `await png(pool, render, facts, lang)`: the same outside a command (a live board's edit).
- `picture(render, facts, lang)`: the synchronous call the worker makes (benchmarks and tests call
  it directly); it sets the shared style (`palette`).
- Helpers for renderers: `figure(width_px, height_px)` a matplotlib Figure with the shared
  style, and `to_png(figure)` its PNG bytes (no timestamp or software tag: golden images compare).

Delivery is the adapters' (bot/adapters): Discord puts the first image in the reply's embed
(`attachment://name.png`), Telegram sends a photo with the text as caption (or the text, then
the photo, when the text is longer than a caption may be), the console and `ask` write the file
and print its path.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pydantic import BaseModel

from bot.i18n import Lang
from bot.images import palette
from bot.protocol import Attachment, Reply
from bot.storage import settings as settings_repo
from bot.workers import WorkerPool

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from bot.commands.context import Context

log = logging.getLogger(__name__)

DEADLINE_S = 15.0
"""Seconds one picture may take in a worker. A warm render takes about 0.1 s; the first one in
a fresh worker also imports matplotlib and reads its font list, seconds on a busy machine, and
a picture given up there would be missing from that answer for nothing."""
MIME = "image/png"

F = TypeVar("F", bound=BaseModel)
Renderer = Callable[[F, Lang], bytes]

STYLE: dict[str, Any] = {
    "font.family": "sans-serif",
    "font.sans-serif": [palette.FONT],
    "font.size": palette.LABEL_SIZE,
    "axes.titlesize": palette.TITLE_SIZE,
    "axes.labelsize": palette.LABEL_SIZE,
    "xtick.labelsize": palette.TICK_SIZE,
    "ytick.labelsize": palette.TICK_SIZE,
    "axes.edgecolor": palette.TEXT,
    "axes.labelcolor": palette.TEXT,
    "text.color": palette.TEXT,
    "xtick.color": palette.TEXT,
    "ytick.color": palette.TEXT,
    "axes.facecolor": palette.BACKGROUND,
    "figure.facecolor": palette.BACKGROUND,
    "savefig.facecolor": palette.BACKGROUND,
    "text.parse_math": False,  # a unit or expression with `$` is drawn as typed, never TeX
    "text.usetex": False,
    "svg.hashsalt": "wargame",
    "path.simplify": True,
    # A title at a fixed height: the automatic one measures every tick label of the axes to
    # clear them, a fifth of a chart's render time.
    "axes.titley": 1.0,
    "axes.titlepad": 6.0,
}


def picture(render: Renderer[F], facts: F, lang: Lang) -> bytes:
    """The renderer with the shared style: what the worker executes."""
    import matplotlib

    with matplotlib.rc_context(cast(Any, STYLE)):  # matplotlib types keys as a Literal
        # Axes and ticks keep the style they were made and first drawn in: a figure is kept
        # for the next picture (`kept_figure`) only when made here, never by a direct call.
        _KEPT.styled = True
        try:
            return render(facts, lang)
        finally:
            _KEPT.styled = False


def warm(*, freeze: bool = True) -> None:
    """A worker's first picture, at start-up (`WorkerPool.warm_up`): it imports matplotlib and
    Pillow, reads the font, and builds the kept figure of a one-part /odds chart (the most
    asked picture), so a player's first picture costs what the others do.

    Then (`freeze`) every object alive is moved out of the garbage collector's sight
    (`gc.freeze`): the modules, fonts and figures a worker keeps for its life are 100,000
    objects that each full collection scanned again, 40-70 ms added to whichever picture it
    fell in, about two in a hundred (the p99). Only for a worker's process: a test calling
    this keeps its objects collectable (`freeze=False`)."""
    import gc

    from bot.images import odds_chart

    panel = odds_chart.OddsPanel(
        label="1d2",
        first=[1, 2],
        last=[1, 2],
        exactly=[0.5, 0.5],
        at_least=[1.0, 0.5],
        hit=[False, True],
        mean=1.5,
        question="1d2 ≥ 2",
        probability=0.5,
    )
    picture(odds_chart.render, odds_chart.OddsChart(panels=[panel]), "it")
    if freeze:
        gc.collect()  # what is garbage already goes, the rest is frozen
        gc.freeze()


def figure(width_px: int, height_px: int) -> Figure:
    """An empty figure of exactly this many pixels, drawn by Agg (no pyplot, no global state)."""
    from matplotlib.figure import Figure

    from bot.images.agg import Canvas

    fig = Figure(figsize=(width_px / palette.DPI, height_px / palette.DPI), dpi=palette.DPI)
    Canvas(fig)
    return fig


_KEPT = threading.local()  # each worker process (and thread) keeps its own figures


def kept_figure(
    key: Hashable, width_px: int, height_px: int, layout: Callable[[Figure], None]
) -> Figure:
    """A figure of this layout that the previous picture of the same `key` already built, its
    drawings removed (`wipe`), else a new one laid out by `layout` (its axes, twins) and kept.
    Building the axes and their ticks is most of a chart's cost: a worker pays it once per
    layout, not once per picture. Every renderer sets everything it draws (limits, ticks,
    labels, titles), so a kept figure draws the same bytes as a new one (tests check it)."""
    figures: dict[Hashable, Figure] = _KEPT.__dict__.setdefault("figures", {})
    styled = getattr(_KEPT, "styled", False)  # only figures made and drawn in the style are kept
    fig = figures.get(key) if styled else None
    if fig is None:
        fig = figure(width_px, height_px)
        layout(fig)
        if styled:
            figures[key] = fig
        return fig
    for ax in fig.axes:
        wipe(ax)  # (a figure's suptitle is one Text that the next suptitle call rewrites)
    return fig


def wipe(ax: Axes) -> None:
    """Everything drawn on `ax` removed; its data limits forgotten (autoscale starts anew)."""
    for artist in [*ax.patches, *ax.lines, *ax.collections, *ax.texts, *ax.images]:
        artist.remove()
    ax.containers.clear()
    if ax.legend_ is not None:
        ax.legend_.remove()
    ax.relim()
    ax.set_autoscale_on(True)
    ax.set_axis_on()


def to_png(fig: Figure) -> bytes:
    """The figure as PNG bytes, the same bytes for the same figure (no metadata). Drawn once by
    Agg (`savefig` would draw the whole figure a second time) and encoded here: Pillow's PNG
    encoder tries five row filters on every row, most of its 12 ms for an 800 x 840 chart;
    unfiltered rows at zlib level 3 take 5 ms and come out no larger on these flat colours."""
    import struct
    import zlib

    import numpy as np

    canvas = cast("FigureCanvasAgg", fig.canvas)  # `figure()` gave it this canvas
    canvas.draw()  # type: ignore[no-untyped-call]  # (matplotlib's Agg stubs lack it)
    width, height = canvas.get_width_height()
    rgba = np.asarray(canvas.buffer_rgba()).reshape(height, width, 4)  # type: ignore[no-untyped-call]
    rows = np.zeros((height, 1 + 3 * width), np.uint8)  # each row: filter 0 ("none"), RGB
    rows[:, 1:] = rgba[:, :, :3].reshape(height, 3 * width)  # (opaque: the alpha goes)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, not interlaced
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"IDAT", zlib.compress(rows.tobytes(), 3)),
            chunk(b"IEND", b""),
        ]
    )


async def png(
    pool: WorkerPool, render: Renderer[F], facts: F, lang: Lang, *, deadline: float = DEADLINE_S
) -> bytes:
    """The picture rendered in the worker pool (raises what the pool raises)."""
    return await pool.run(picture, render, facts, lang, deadline=deadline)


async def enabled(ctx: Context) -> bool:
    """Whether this chat wants pictures (`/settings images`)."""
    return await settings_repo.chat_images(ctx.conn, ctx.request.chat_key)


async def attach(
    ctx: Context,
    reply: Reply,
    render: Renderer[F],
    facts: F,
    filename: str,
    *,
    alt: str | None = None,
) -> Reply:
    """`reply` with the picture of `facts` added (see the module docstring), or `reply` itself
    when the chat has pictures off or the picture failed. A read-only command renders with its
    transaction paused (`Context.offload`); for one that writes, the picture is rendered after
    its transaction is committed (`Context.after_commit`), so no write waits for a picture."""
    if not await enabled(ctx):
        return reply
    if alt is None:
        from bot.render import plain

        alt = plain.render(reply.model_copy(update={"attachments": [], "private": None}))
    text = alt
    if not ctx.spec.readonly:  # rendered once the write is committed (`Context.after_commit`)
        pool, lang = ctx.app.pool, ctx.lang

        async def later(done: Reply) -> Reply:
            try:
                content = await png(pool, render, facts, lang)
            except Exception:  # a picture never costs the answer: the text goes out alone
                log.warning("picture %s not rendered", filename, exc_info=True)
                return done
            return _with_image(done, content, filename, text)

        ctx.after_commit.append(later)
        return reply
    try:
        content = await ctx.offload(picture, render, facts, ctx.lang, deadline=DEADLINE_S)
    except Exception:  # a picture never costs the answer: the text goes out alone
        log.warning("picture %s not rendered", filename, exc_info=True)
        return reply
    return _with_image(reply, content, filename, text)


def _with_image(reply: Reply, content: bytes, filename: str, alt: str) -> Reply:
    image = Attachment(filename=filename, content=content, mime=MIME, alt=alt)
    return reply.model_copy(update={"attachments": [*reply.attachments, image]})
