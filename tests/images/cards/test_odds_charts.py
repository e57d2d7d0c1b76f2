"""Each game's attack odds chart: its bars are the exact distribution the odds reply gives
(read back from the drawn figure), the cumulative line is P(at least k), labels are the
chat's language, and the picture matches its golden image."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from PIL import Image

from bot.app import App
from bot.images.cards import odds as chart_image
from bot.images.cards.facts import MAX_BARS, odds_chart
from rules_core.dice import Distribution, odds
from tests.helpers import say
from tests.i18n_check import foreign_words
from tests.images.cards.golden import assert_like_golden

ODDS = {
    "wm": "/wm odds mat=7 def=12 pow=12 str=10 arm=18",
    "aos": "/aos odds attacks=10 hit=3 wound=3 rend=-1 save=4 models=5 wounds_per_model=1",
    "inf": "/inf odds attr=13 burst=2 dam=13 ammo=DA vs=11 arm=2 w=1",
    "c5": "/c5 odds wound str=7 res=6",
    "wow": "/wow odds power=4 defense=1",
}


def reply_distribution(data: dict[str, object], key: str = "distribution") -> Distribution[int]:
    """The reply's distribution back from its floats (scaled when their rounding sums past 1)."""
    pairs = data[key]
    assert isinstance(pairs, list)
    exact = {int(v): Fraction(p) for v, p in pairs}
    total = sum(exact.values())
    return Distribution.from_probabilities({v: p / max(total, 1) for v, p in exact.items()})


def drawn_bars(chart: object, lang: str, panel: int = 0) -> list[float]:
    fig = chart_image.figure(chart, lang)  # type: ignore[arg-type]
    return [float(bar.get_height()) for bar in fig.axes[panel].patches]


@pytest.mark.parametrize("system", list(ODDS))
async def test_bars_are_the_replys_exact_distribution(app: App, system: str) -> None:
    reply = await say(app, ODDS[system], lang="it")
    assert reply.ok and reply.data is not None, reply.error
    dist = reply_distribution(reply.data)
    chart = odds_chart("titolo", [(dist, "damage")], "it")
    panel = chart.panels[0]
    assert panel.labels == [str(v) for v in dist.outcomes()]
    shown = [p for _, p in reply.data["distribution"]]
    assert panel.probabilities == pytest.approx(shown, rel=1e-12, abs=0)
    assert panel.at_least == [dist.p_at_least(v) for v in dist.outcomes()]
    assert drawn_bars(chart, "it") == panel.probabilities
    assert sum(panel.probabilities) == pytest.approx(1.0)


async def test_age_of_sigmar_models_slain_panel(app: App) -> None:
    reply = await say(app, ODDS["aos"])
    assert reply.data is not None
    damage, slain = (
        reply_distribution(reply.data),
        reply_distribution(reply.data, "models_slain_distribution"),
    )
    chart = odds_chart("t", [(damage, "damage"), (slain, "slain")], "en")
    assert [p.x_label for p in chart.panels] == ["Damage dealt", "Models slain"]
    assert drawn_bars(chart, "en", 1) == [float(slain.probability(v)) for v in slain.outcomes()]


def test_wide_distribution_grouped_as_the_text() -> None:
    dist = odds("20d6")
    chart = odds_chart("20d6", [(dist, "value")], "en")
    panel = chart.panels[0]
    assert len(dist) > MAX_BARS and panel.grouped
    assert len(panel.labels) <= 12
    assert sum(panel.probabilities) == pytest.approx(1.0)
    first = int(panel.labels[0].split("–")[0])
    assert panel.at_least[0] == dist.p_at_least(first) == 1.0


@pytest.mark.parametrize("lang", ["it", "en"])
def test_labels_in_the_language(lang: str) -> None:
    chart = odds_chart("x", [(odds("2d6"), "damage"), (odds("d3"), "slain")], lang)  # type: ignore[arg-type]
    words = [chart.y_label, chart.exactly_label, chart.at_least_label]
    words += [t for p in chart.panels for t in (p.x_label, p.mean_label)]
    assert foreign_words(lang, " ".join(words)) == []  # type: ignore[arg-type]
    assert ("," in chart.panels[0].mean_label) == (lang == "it")  # 7,00 / 7.00


def test_png_and_golden() -> None:
    chart = odds_chart("POT 12 vs ARM 18", [(odds("2d6+4"), "damage"), (odds("d3"), "slain")], "it")
    png = chart_image.render_odds_chart(chart, "it")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == chart_image.size(chart)
    assert_like_golden(png, "odds_it")
