"""Cards and charts of the game state (#28): the WARMACHINE damage grid, the unit status cards
of the other games (Pillow) and each game's attack odds chart (matplotlib).

`facts` builds what a picture shows from the state or the exact distribution, labels in the
chat's language; `grid`, `unit` and `odds` are pure renderers `render_x(facts, lang) -> PNG`
run in the worker pool.
"""
