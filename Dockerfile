# The bot in a slim image: non-root user, the SQLite file on a volume, `wargame-bot run`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    WARGAME_BOT_DB=/var/lib/wargame-bot/data.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules_core ./rules_core
COPY data ./data
RUN pip install . \
    && useradd --system --create-home --home-dir /home/bot bot \
    && mkdir -p /var/lib/wargame-bot \
    && chown bot:bot /var/lib/wargame-bot

USER bot
VOLUME ["/var/lib/wargame-bot"]
CMD ["wargame-bot", "run"]
