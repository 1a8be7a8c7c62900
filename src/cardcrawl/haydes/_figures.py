"""What a simulation of Escape from Haydes reports of each game, besides its outcome."""

from __future__ import annotations

from typing import Any

from cardcrawl.core._tools import Panel
from cardcrawl.haydes._events import EncounterBegan, Overcame, Revealed, TurnStarted
from cardcrawl.haydes._state import Ending, HaydesState

__all__ = ["OUTCOMES", "PANELS", "HaydesFigures"]

#: The outcomes in the order tables and plots show them: a player escaped (H-9), everyone
#: is out (H-11), the round limit came (H-13).
OUTCOMES = tuple(ending.value for ending in Ending)

#: The report's panels: every outcome's rate by bot, the game's length in rounds, and
#: how many creatures were met in a game.
PANELS = (
    Panel("outcomes", title="outcomes by bot"),
    Panel("histogram", "rounds", title="game length", xlabel="rounds (H-13)"),
    Panel("histogram", "encounters", title="creatures met", xlabel="encounters (H-8)"),
)


class HaydesFigures:
    """rounds (the round the game ended in, H-13), turns, guesses (cards turned by a
    move, H-6), correct (the guesses that were right), encounters (creatures met, H-8),
    overcome (creatures overcome), out (players out at the end, H-11).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import play_game
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=30)
        >>> result = play_game(game, ["random"], seed=1)
        >>> [name for name, _ in result.figures]
        ['rounds', 'turns', 'guesses', 'correct', 'encounters', 'overcome', 'out']
        >>> result.figure("correct") <= result.figure("guesses")
        True
    """

    def __init__(self, game: Any) -> None:
        self._turns = self._guesses = self._correct = 0
        self._encounters = self._overcome = 0

    def step(self, state: HaydesState) -> None:
        """Counts the events of the step that made ``state``."""
        for event in state.events:
            if isinstance(event, Revealed):
                self._guesses += 1
                self._correct += event.correct
            elif isinstance(event, TurnStarted):
                self._turns += 1
            elif isinstance(event, EncounterBegan):
                self._encounters += 1
            elif isinstance(event, Overcame):
                self._overcome += 1

    def figures(self, state: HaydesState) -> tuple[tuple[str, int], ...]:
        """The figures of the game that ended in ``state``."""
        return (
            ("rounds", state.round),
            ("turns", self._turns),
            ("guesses", self._guesses),
            ("correct", self._correct),
            ("encounters", self._encounters),
            ("overcome", self._overcome),
            ("out", sum(seat.is_out for seat in state.seats)),
        )
