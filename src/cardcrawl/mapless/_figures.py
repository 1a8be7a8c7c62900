"""What a simulation of The Mapless House reports of each game, besides its outcome."""

from __future__ import annotations

from typing import Any

from cardcrawl.core._tools import Panel
from cardcrawl.kit._grid import distance
from cardcrawl.mapless._state import ENTRANCE_CELL, Ending, MaplessState

__all__ = ["OUTCOMES", "PANELS", "MaplessFigures"]

#: The outcomes in the order tables and plots show them: the win first (M-21).
OUTCOMES = tuple(ending.value for ending in Ending)

#: The report's panels: the escape rate by house size (the score, M-21), the hunt's
#: length in turns, and every outcome's rate by bot.
PANELS = (
    Panel(
        "rate",
        "house_size",
        title="escaped rate by house size",
        xlabel="cards on the table at the end (house size)",
    ),
    Panel("histogram", "turns", title="game length", xlabel="turns"),
    Panel("outcomes", title="outcomes by bot"),
)


class MaplessFigures:
    """turns, house_size (the score, M-21), house_at_exit (cards on the table when the
    Exit opened), refused, exit_distance (from the Entrance, M-11; -1 if it never opened).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import play_game
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> [name for name, _ in play_game(game, ["random"], seed=1).figures]
        ['turns', 'house_size', 'house_at_exit', 'refused', 'exit_distance']
    """

    def __init__(self, game: Any) -> None:
        self._game = game
        self._at_exit = 0

    def step(self, state: MaplessState) -> None:
        """Notes the size of the house when the Exit opens."""
        if not self._at_exit and state.exit_cell is not None:
            self._at_exit = len(state.table)

    def figures(self, state: MaplessState) -> tuple[tuple[str, int], ...]:
        """The figures of the game that ended in ``state``."""
        exit_cell = state.exit_cell
        return (
            ("turns", state.turn),
            ("house_size", self._game.score(state)),
            ("house_at_exit", self._at_exit),
            ("refused", len(state.refused)),
            ("exit_distance", -1 if exit_cell is None else distance(ENTRANCE_CELL, exit_cell)),
        )
