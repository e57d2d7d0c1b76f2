"""The /stats chart: the same facts as the text reply (rolls, games, luck), drawn."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.app import App
from bot.images import stats_chart
from bot.images.render import picture
from tests.helpers import say


async def test_stats_reply_carries_a_chart_of_its_facts(app: App) -> None:
    for _ in range(3):
        assert (await say(app, "/roll 2d6", user="u1", name="Marco", seed=7)).ok
    reply = await say(app, "/stats", user="u1", name="Marco", lang="it")
    assert reply.data is not None
    (image,) = reply.attachments
    assert image.mime == "image/png" and image.filename == "stats.png"
    assert Image.open(io.BytesIO(image.content)).size == (900, 360)
    facts = stats_chart.from_data("Marco", reply.data)
    assert facts.rolls == 3 and facts.luck_rolls == 3
    assert facts.observed == reply.data["observed"]
    assert facts.percentile == pytest.approx(reply.data["percentile"])


def test_the_drawn_bars_are_the_facts() -> None:
    chart = stats_chart.StatsChart(
        name="Ann", rolls=57, played=4, won=3, luck_rolls=50, observed=190, expected=175.5,
        percentile=0.83,
    )  # fmt: skip
    fig = stats_chart.draw(chart, "it")
    luck_ax, sums_ax, counts_ax = fig.axes
    assert [r.get_width() for r in luck_ax.containers[1]] == [0.83]
    assert [r.get_height() for r in sums_ax.containers[0]] == [175.5, 190.0]
    assert [r.get_height() for r in counts_ax.containers[0]] == [57, 4, 3]
    fig.canvas.draw()
    shown = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "83,0%" in shown and "175,5" in shown  # decimal comma
    assert fig.texts[0].get_text() == "Ann in questa chat"


def test_without_rolls_the_luck_panels_say_so() -> None:
    chart = stats_chart.StatsChart(name="Bo", rolls=0, played=1, won=0)
    fig = stats_chart.draw(chart, "en")
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert texts.count("No roll to measure yet.") == 2
    data = picture(stats_chart.render, chart, "en")
    assert Image.open(io.BytesIO(data)).size == stats_chart.size(chart)
