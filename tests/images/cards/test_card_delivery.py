"""A warjack's /unit show arrives with its damage grid as a picture on every platform: Discord's
embed image, Telegram's photo, the console's file; a damaged jack's reply and another game's
/unit show (its status card) carry theirs too."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.adapters import console
from bot.app import App
from bot.images.cards import grid as grid_image
from bot.images.cards import unit as unit_image
from bot.images.cards.facts import grid_card, unit_card
from bot.protocol import Request
from rules_core.game.models import Unit
from tests.discord import harness as discord_harness
from tests.helpers import say
from tests.images.cards.samples import JACK, jack
from tests.telegram import harness as telegram_harness

SLOW = 120.0  # a first picture starts matplotlib in a fresh worker: seconds on a busy machine
CARD = grid_card(jack(), "en")
assert CARD is not None
GRID_SIZE = grid_image.size(CARD)
ADD = f"/unit add Ironclad def=12 arm=18 grid={JACK}"


def png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.size


async def test_unit_show_and_damage_carry_the_grid(app: App) -> None:
    assert (await say(app, "/game new wm")).ok
    assert (await say(app, ADD)).ok
    shown = await say(app, "/unit show Ironclad", lang="it")
    (image,) = shown.attachments
    assert image.filename == "grid.png" and image.is_image
    assert png_size(image.content) == GRID_SIZE
    hit = await say(app, "/unit damage Ironclad 8 column=2")
    (image,) = hit.attachments
    after = grid_card(Unit.model_validate(hit.data["unit"]), "en")  # type: ignore[index]
    assert after is not None and after.crippled == ["L left arm"]
    assert png_size(image.content) == grid_image.size(after)  # a line more: the crippled arm
    attack = await say(app, "/wm attack mat=7 pow=12 str=10 target=Ironclad apply dice=6,6,6,6,1")
    assert attack.ok and [a.filename for a in attack.attachments] == ["grid.png"]


async def test_other_units_show_their_card_and_plain_damage_stays_text(app: App) -> None:
    assert (await say(app, "/game new aos")).ok
    assert (await say(app, "/unit add Liberators models=5 wounds=2 save=4")).ok
    hit = await say(app, "/unit damage Liberators 3")
    assert hit.ok and hit.attachments == []  # a card after damage only for a grid
    shown = await say(app, "/unit show Liberators")
    (image,) = shown.attachments
    card = unit_card(Unit.model_validate(shown.data["unit"]), "aos", "en")  # type: ignore[index]
    assert image.filename == "unit.png" and png_size(image.content) == unit_image.size(card)


async def test_discord_embed_shows_the_grid(tmp_path: Path) -> None:
    sub = discord_harness.sub
    async with discord_harness.running(tmp_path, defer_after=SLOW) as env:
        fake = env.fake
        for data in (
            sub("game", "new", system="wm"),
            sub("unit", "add", name="Ironclad", grid=JACK, stats="def=12 arm=18"),
        ):
            body = await discord_harness.interact(fake, fake.interaction(2, data))
            assert "embeds" in body["data"], body
        body = await discord_harness.interact(
            fake, fake.interaction(2, sub("unit", "show", name="Ironclad"))
        )
    (embed,) = body["data"]["embeds"]
    assert embed["image"]["url"] == "attachment://grid.png"
    ((name, content),) = body["_files"].items()
    assert name == "grid.png" and png_size(content) == GRID_SIZE


async def test_telegram_sends_the_grid_as_a_photo(tmp_path: Path) -> None:
    async with telegram_harness.running(tmp_path) as env:
        for text in ("/game new wm", ADD, "/unit show Ironclad"):
            await env.fake.push(env.fake.message(text, chat_id=-1001))
        (sent,) = await env.fake.wait_for("sendPhoto", timeout=SLOW)
    assert int(sent["chat_id"]) == -1001 and "Ironclad" in sent["caption"]
    assert sent["photo"]["filename"] == "grid.png"
    assert png_size(sent["photo"]["content"]) == GRID_SIZE


async def test_console_writes_the_grid(
    app: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (await say(app, "/game new wm", chat="console:c")).ok
    assert (await say(app, ADD, chat="console:c")).ok
    request = Request(
        platform="console", chat_key="console:c", user_id="u1", user_name="u1",
        text="/unit show Ironclad",
    )  # fmt: skip
    reply = await app.handle(request)
    await console.show(app, reply, request, tmp_path / "out")
    path = tmp_path / "out" / "grid.png"
    assert str(path) in capsys.readouterr().out
    assert png_size(path.read_bytes()) == GRID_SIZE
