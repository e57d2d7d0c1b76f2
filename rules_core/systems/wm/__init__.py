"""WARMACHINE Mk II (id `wm`): attacks with exact odds, checks, falls, deviation, damage
grids, focus and the Maintenance/Control bookkeeping of a player's turn.

Rulebook: `../shared/seeds/000_a386fedfef0f54d6.txt` (Italian, Mk II); digest:
`../shared/rules-digests/warmachine.md`. Line numbers `Lnnnn` in comments refer to the book.
"""
