"""Every registered game passes the public conformance checker (cardcrawl.testing)."""

from __future__ import annotations

import pytest

import cardcrawl
from cardcrawl.testing import ConformanceError, check_game


@pytest.mark.parametrize("max_turns", [1, 5, 60])
def test_mapless_house_conforms(max_turns: int) -> None:
    report = check_game(cardcrawl.load("mapless-house", max_turns=max_turns), games=6)
    assert report.games == 12
    assert report.terminal == 12
    assert report.chance_events > 0


def test_checker_catches_a_game_that_hides_no_legal_action() -> None:
    """The checker itself can fail: a game whose legal actions vanish is caught."""
    from cardcrawl.mapless import MaplessHouse

    class Broken(MaplessHouse):
        def move_cells(self, state):  # type: ignore[no-untyped-def]
            return []

    with pytest.raises(ConformanceError, match="no action is legal"):
        check_game(Broken(cardcrawl.load("mapless-house", max_turns=5).options), games=3)


def test_checker_catches_an_observation_that_leaks_the_deck_order() -> None:
    from cardcrawl.mapless import MaplessHouse

    class Leaky(MaplessHouse):
        def observe(self, state, player):  # type: ignore[no-untyped-def]
            return (super().observe(state, player), state.narrative)

    with pytest.raises(ConformanceError, match="determinize"):
        check_game(_stacked(Leaky), games=1, explicit_chance=(False,))


def _stacked(cls: type) -> object:
    """A game whose initial states always stack the Narrative deck, so order is hidden info."""

    class Stacked(cls):  # type: ignore[valid-type,misc]
        def initial_state(self, seed, *, explicit_chance=False, stack=None):  # type: ignore[no-untyped-def]
            order = ["JS", "QS", "KS", "JC", "QC", "KC", "2S", "3S"]
            return super().initial_state(
                seed, explicit_chance=explicit_chance, stack={"narrative": order}
            )

    return Stacked(cardcrawl.load("mapless-house", max_turns=5).options)
