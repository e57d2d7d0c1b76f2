"""A command ability named by one word of its name (6.0-6.1; the core command abilities, 7.2,
8.4, 11.2, 13.4, 15.3): an Italian player's `/aos comando raccolta` (the check is `/aos prova
raccolta`) was refused with "no command ability 'raccolta'", as were `inferno`, `ispiratrice`,
`hell`, `double`; only the name's start was read. A word that names one ability alone is taken;
one shared by several (`totale`, `all`) is still refused with the list."""

from __future__ import annotations

import pytest

from rules_core.errors import UserError
from rules_core.systems.aos.turns import find_command


@pytest.mark.parametrize(
    ("typed", "wanted"),
    [
        ("raccolta", "rally"),
        ("inferno", "unleash_hell"),
        ("ispiratrice", "inspiring_presence"),
        ("presence", "inspiring_presence"),
        ("hell", "unleash_hell"),
        ("double", "at_the_double"),
        ("vittoria", "forward_to_victory"),
        ("corsa", "at_the_double"),
        ("rally", "rally"),  # the whole name, as before
        ("all out att", "all_out_attack"),  # a prefix, as before
    ],
)
def test_a_word_of_one_abilitys_name_names_it(typed: str, wanted: str) -> None:
    assert find_command(typed).id == wanted


@pytest.mark.parametrize("typed", ["totale", "all", "la", "a"])
def test_a_word_several_names_share_is_refused(typed: str) -> None:
    with pytest.raises(UserError) as refused:
        find_command(typed)
    assert refused.value.key == "aos.unknown_command"
