"""Each game's attack odds chart (/wm, /aos, /inf, /c5, /wow odds): the reply carries the /odds
chart of the same exact distribution its text and data show, with the axis named for what the
game counts (damage dealt, wounds, models slain) in the chat's language; the drawn bars are
those facts."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.app import App
from bot.images import odds_chart
from bot.images.cards import odds as game_odds
from rules_core.dice import odds
from tests.helpers import say
from tests.i18n_check import foreign_words

ODDS = {
    "wm": ("/wm odds mat=7 def=12 pow=12 str=10 arm=18", "Danni inflitti"),
    "aos": (
        "/aos odds attacks=10 hit=3 wound=3 rend=-1 save=4 models=5 wounds_per_model=1",
        "Danni inflitti",
    ),
    "inf": ("/inf odds attr=13 burst=2 dam=13 ammo=DA vs=11 arm=2 w=1", "Ferite inflitte"),
    "inf_hits": ("/inf odds attr=12 mod=-3 burst=2", "Colpi a segno"),
    "c5": ("/c5 odds wound str=7 res=6", "Ferite inflitte"),
    "wow": ("/wow odds power=4 defense=1", "Danni inflitti"),
}


@pytest.fixture
def charts(monkeypatch: pytest.MonkeyPatch) -> list[odds_chart.OddsChart]:
    """The charts the handlers build (in the command, before the worker draws them)."""
    made: list[odds_chart.OddsChart] = []
    real = game_odds.chart

    def recording(*args: object) -> odds_chart.OddsChart:
        made.append(real(*args))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(game_odds, "chart", recording)
    return made


@pytest.mark.parametrize("case", list(ODDS))
async def test_reply_carries_the_chart_of_its_distribution(
    app: App, charts: list[odds_chart.OddsChart], case: str
) -> None:
    command, axis = ODDS[case]
    reply = await say(app, command, lang="it")
    assert reply.ok and reply.data is not None, reply.error
    (chart,) = charts
    panel = chart.panels[0]
    shown = reply.data["distribution"]
    assert panel.first == panel.last == [v for v, _ in shown]
    assert panel.exactly == pytest.approx([p for _, p in shown], rel=1e-12, abs=1e-15)
    assert panel.mean == pytest.approx(reply.data["mean"])
    assert panel.axis == axis
    drawn = [ax for ax in odds_chart.draw(chart, "it").axes if ax.containers]
    assert [bar.get_height() for bar in drawn[0].patches] == panel.exactly
    (image,) = reply.attachments
    assert image.filename == "odds.png" and image.is_image
    assert Image.open(io.BytesIO(image.content)).size == odds_chart.size(chart)


async def test_age_of_sigmar_models_slain_panel(
    app: App, charts: list[odds_chart.OddsChart]
) -> None:
    reply = await say(app, ODDS["aos"][0])
    assert reply.data is not None
    (chart,) = charts
    damage, slain = chart.panels
    assert slain.axis == "Models slain" and damage.axis == "Damage dealt"
    shown = reply.data["models_slain_distribution"]
    assert slain.first == [k for k, _ in shown]
    assert slain.exactly == pytest.approx([p for _, p in shown], rel=1e-12, abs=1e-15)
    assert Image.open(io.BytesIO(reply.attachments[0].content)).size == (800, 2 * 420)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_axis_names_in_the_language(lang: str) -> None:
    parts = [(odds("2d6"), "x", q) for q in ("damage", "wounds", "hits", "slain")]
    chart = game_odds.chart(parts, lang)  # type: ignore[arg-type]
    words = " ".join(p.axis or "" for p in chart.panels)
    assert foreign_words(lang, words) == []  # type: ignore[arg-type]
