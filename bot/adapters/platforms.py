"""Start the chat platforms whose tokens are set, side by side on one App, and stop them
cleanly on SIGTERM/SIGINT."""

from __future__ import annotations

import sys

from bot.config import Settings


async def run_platforms(settings: Settings) -> int:
    missing = []
    if settings.telegram_token is not None:
        missing.append("Telegram")
    if settings.discord_token is not None:
        missing.append("Discord")
    print(
        f"wargame-bot: the {' and '.join(missing)} adapter is not built yet; "
        "unset the token(s) to use the console.",
        file=sys.stderr,
    )
    return 2
