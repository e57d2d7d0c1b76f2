# The bot in a slim image. Layers from the least to the most often changed: the user, the
# locked dependencies (rebuilt only when requirements.lock changes), then the source, so a
# source change rebuilds in seconds. Runs as a non-root user; the SQLite file (and the health
# heartbeat beside it) lives on the volume.
FROM python:3.11-slim

# The Telegram webhook's port: used only when TELEGRAM_WEBHOOK_URL is set (long polling, the
# default, listens on nothing). `docker build --build-arg WEBHOOK_PORT=...` changes both.
ARG WEBHOOK_PORT=8443

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    WARGAME_BOT_DB=/var/lib/wargame-bot/data.sqlite3 \
    TELEGRAM_WEBHOOK_PORT=${WEBHOOK_PORT}

RUN useradd --system --uid 10001 --user-group --create-home --home-dir /home/bot bot \
    && mkdir -p /var/lib/wargame-bot \
    && chown bot:bot /var/lib/wargame-bot

WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-deps --require-hashes -r requirements.lock

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules_core ./rules_core
COPY data ./data
RUN pip install --no-deps --no-build-isolation .

USER 10001:10001
# matplotlib's font list, built once here rather than by the first picture in each container.
RUN python -c "import matplotlib.font_manager"
VOLUME ["/var/lib/wargame-bot"]
EXPOSE ${WEBHOOK_PORT}
# Healthy when the database is at this bot's schema and every started platform beat within
# 60 s (it beats every 15 s); see `wargame-bot health`.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["wargame-bot", "health"]
CMD ["wargame-bot", "run"]
