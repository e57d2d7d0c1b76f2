"""Confrontation 5 (the Italian C5 amendments to Confrontation 3): tests with the C5 natural-1
rule, the C5 wound table, health by size, mana recovery and temporary faith.

Rule references are character offsets into the seed text
(`../shared/seeds/004_860f6fb4adb088a0.txt`, written `@N`) and sections of the digest
(`../shared/rules-digests/confrontation.md`, written `§N`).
"""
