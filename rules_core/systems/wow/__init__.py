"""World of Warcraft Miniatures Game (comprehensive rules 100-709, Italian transcript
../shared/seeds/002_1d2de6f2890ae553.txt; digest ../shared/rules-digests/wow-minis.md)."""
