"""Options of Escape from Haydes: defaults, validation messages, and the registry."""

from __future__ import annotations

from typing import Any

import pytest

import cardcrawl
from cardcrawl import OptionsError
from cardcrawl.haydes import (
    DENIZENS,
    STANDARD_CREATURES,
    Characteristic,
    Creature,
    HaydesOptions,
    standard_layout,
)


def test_defaults_are_the_standard_solo_game() -> None:
    options = HaydesOptions()
    assert options.players == 1
    assert options.character_splits == ((8, 8),)
    assert options.deck_count == 4
    assert len(options.cells) == 106  # H-4
    assert options.max_rounds is None
    assert options.tuybe is False
    assert options.creature_table is STANDARD_CREATURES


def test_cells_are_in_dealing_order() -> None:
    """H-4: the build cards are dealt in order of y then x."""
    cells = HaydesOptions().cells
    assert cells[0] == (-4, -4)
    assert cells[-1] == (4, 5)
    assert list(cells) == sorted(cells, key=lambda c: (c[1], c[0]))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 0}, "players is an integer from 1 to 4"),
        ({"players": 5}, "players is an integer from 1 to 4"),
        ({"splits": [(10, 6)]}, "one of \\(7, 9\\), \\(8, 8\\) or \\(9, 7\\)"),
        ({"splits": [(8, 8), (8, 8)]}, "for each of the 1 players, not 2"),
        ({"players": 2, "splits": [(8, 8)]}, "for each of the 2 players, not 1"),
        ({"deck_count": 3}, "even number of decks"),
        ({"deck_count": 2}, "give a layout of 54 cells"),
        ({"layout": [(0, 0), (1, 0)]}, "106 cells for deck_count 4"),
        ({"max_rounds": 0}, "max_rounds is None"),
        ({"tuybe": 1}, "tuybe: expected true or false"),
        ({"creatures": "goblins"}, "creatures is a table name"),
        ({"creatures": {"J": Creature("x"), "Q": Creature("y")}}, "missing K"),
        ({"creatures": {"J": Creature("x"), "Q": Creature("y"), "K": 3}}, "K: expected an object"),
        ({"creatures": {"J": Creature("x"), "Q": Creature("y"), "K": Creature("z"),
                        "9S": Creature("w")}}, "court ranks"),
    ],
)  # fmt: skip
def test_invalid_options_say_what_is_allowed(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        cardcrawl.load("escape-from-haydes", **options)


def test_a_layout_must_contain_the_black_jokers_cell() -> None:
    cells = [*sorted(standard_layout() - {(0, 0)}), (9, 9)]
    with pytest.raises(OptionsError, match=r"must contain \(0, 0\)"):
        HaydesOptions(layout=cells)


def test_creature_tables_given_directly_are_checked() -> None:
    with pytest.raises(OptionsError, match="Creature objects"):
        HaydesOptions(creatures={"J": Creature("x"), "Q": Creature("y"), "K": 3})


def test_creature_validation() -> None:
    with pytest.raises(OptionsError, match="cost is an integer from 1 to 9"):
        Creature("imp", cost=0)
    with pytest.raises(OptionsError, match="at least one characteristic"):
        Creature("imp", allowed=())
    with pytest.raises(OptionsError, match="'charisma' and/or 'endurance'"):
        Creature("imp", allowed=("wits",))
    assert Creature("imp", allowed="endurance").allowed == (Characteristic.ENDURANCE,)


def test_options_survive_their_data_form() -> None:
    options = HaydesOptions(
        players=2, splits=[(7, 9), (9, 7)], max_rounds=9, tuybe=True, creatures=DENIZENS
    )
    again = HaydesOptions.from_data(options.to_data())
    assert again == options
    assert again.creature_table["KH"].name == "Vakhraca, Prince of Haydes"


def test_variants_are_registered() -> None:
    names = cardcrawl.game_names()
    for name in (
        "escape-from-haydes",
        "escape-from-haydes-solo-timer",
        "escape-from-haydes-tuybe",
        "escape-from-haydes-denizens",
    ):
        assert name in names
    assert cardcrawl.load("escape-from-haydes-solo-timer").options.max_rounds == 30
    assert cardcrawl.load("escape-from-haydes-tuybe").options.tuybe is True
    denizens = cardcrawl.load("escape-from-haydes-denizens", players=2)
    assert denizens.options.creature_table is DENIZENS
    assert denizens.num_players == 2
