"""Pictures for replies (#28): charts and cards as PNG, from the same facts as the text reply.

See `bot.images.render` for the API; `palette` holds the one palette and font; each picture has
its own module (`odds_chart`, `stats_chart`, ...), a pure renderer `render(facts, lang) -> bytes`.
"""
