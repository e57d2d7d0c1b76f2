"""Infinity (N1/N2-era, Italian rulebook v1.0 May 2009): d20 roll-under, Face to Face rolls
with bursts, ammunition and saves, orders. Pure rules; the /inf commands are in
bot/commands/inf.py."""
