"""Warhammer Age of Sigmar 3rd edition (Italian core rules, ../shared/seeds/001_...txt)."""
