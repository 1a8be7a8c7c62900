"""What can happen in a step of Escape from Haydes.

Every step leaves its events, in order, on the state it returns (``state.events``), so
a user interface or a narrator never has to compare two states. ``str(event)`` is a
line of plain narration; players are named by seat ("Player 0").
"""

from __future__ import annotations

import attrs

from cardcrawl._cards import Card
from cardcrawl._grid import Cell
from cardcrawl.haydes._actions import Guess
from cardcrawl.haydes._creatures import Characteristic

__all__ = [
    "AllTrapped",
    "AlmostThere",
    "Announced",
    "CardsReplaced",
    "EncounterBegan",
    "Escaped",
    "FirstPlayerDrawn",
    "HaydesEvent",
    "Held",
    "JokerShuffledIn",
    "Lowered",
    "Moved",
    "Overcame",
    "Released",
    "ReplacementReshuffled",
    "Revealed",
    "Rolled",
    "TimeUp",
    "Trapped",
    "TurnBegan",
    "TurnEnded",
    "TurnedFaceDown",
]


def _at(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


@attrs.frozen
class FirstPlayerDrawn:
    """Chance picked the first player (H-5)."""

    seat: int

    def __str__(self) -> str:
        return f"Player {self.seat} goes first."


@attrs.frozen
class TurnBegan:
    """A player's turn began (H-5); ``round`` counts from 1 (H-13)."""

    seat: int
    round: int

    def __str__(self) -> str:
        return f"Round {self.round}: Player {self.seat}'s turn."


@attrs.frozen
class Announced:
    """A player aimed at a face-down card, announcing higher or lower (H-6, the Tuybe)."""

    seat: int
    source: Cell
    target: Cell
    guess: Guess
    tuybe: bool

    def __str__(self) -> str:
        how = "rides the Tuybe toward" if self.tuybe else "moves toward"
        return f"Player {self.seat} {how} {_at(self.target)}, announcing {self.guess.value}."


@attrs.frozen
class Revealed:
    """A face-down card was turned face up, and the announcement judged (H-7).

    ``correct`` is whether ``card`` is strictly higher (or lower, as announced) than
    ``from_value``, the value of the card the figure moved from: equal is never correct.
    """

    cell: Cell
    card: Card
    guess: Guess
    from_value: int
    correct: bool

    def __str__(self) -> str:
        verdict = "correct" if self.correct else "wrong"
        return (
            f"The card at {_at(self.cell)} is turned: {self.card.symbol}; "
            f"{self.guess.value} than {self.from_value}: {verdict}."
        )


@attrs.frozen
class Moved:
    """A figure moved (after a reveal, or a step onto a face-up card)."""

    seat: int
    source: Cell
    target: Cell

    def __str__(self) -> str:
        return f"Player {self.seat} moves to {_at(self.target)}."


@attrs.frozen
class EncounterBegan:
    """A figure met a creature not yet overcome (H-8)."""

    seat: int
    cell: Cell
    card: Card
    creature: str

    def __str__(self) -> str:
        return f"Player {self.seat} faces {self.card.symbol}: {self.creature}."


@attrs.frozen
class Rolled:
    """The 2D6 roll of an encounter (H-8): overcome when total + modifier <= value."""

    seat: int
    characteristic: Characteristic
    total: int
    modifier: int
    value: int
    overcome: bool

    def __str__(self) -> str:
        mod = f" {self.modifier:+d}" if self.modifier else ""
        verdict = "overcome" if self.overcome else "not overcome"
        return (
            f"Player {self.seat} rolls {self.total}{mod} against "
            f"{self.characteristic.value} {self.value}: {verdict}."
        )


@attrs.frozen
class Lowered:
    """An encounter's effort lowered a characteristic (H-8)."""

    seat: int
    characteristic: Characteristic
    before: int
    after: int

    def __str__(self) -> str:
        return (
            f"Player {self.seat}'s {self.characteristic.value} drops from "
            f"{self.before} to {self.after}."
        )


@attrs.frozen
class Overcame:
    """The creature is gone; its card stays as plain ground until replaced (H-8)."""

    seat: int
    cell: Cell
    card: Card

    def __str__(self) -> str:
        return f"The creature of {self.card.symbol} at {_at(self.cell)} is gone."


@attrs.frozen
class Held:
    """The creature holds the player; the turn ends (H-8)."""

    seat: int
    cell: Cell

    def __str__(self) -> str:
        return f"Player {self.seat} is held at {_at(self.cell)}."


@attrs.frozen
class Released:
    """Figures held by a creature another player overcame are freed (H-8)."""

    seats: tuple[int, ...]
    cell: Cell

    def __str__(self) -> str:
        who = ", ".join(f"Player {s}" for s in self.seats)
        return f"{who} freed at {_at(self.cell)}."


@attrs.frozen
class Trapped:
    """A characteristic reached 0: the player is out, the figure removed (H-11)."""

    seat: int
    characteristic: Characteristic

    def __str__(self) -> str:
        return (
            f"Player {self.seat}'s {self.characteristic.value} is spent: trapped in Haydes forever."
        )


@attrs.frozen
class AlmostThere:
    """A move onto the Red Joker failed; the figure stays (H-10)."""

    seat: int
    cell: Cell

    def __str__(self) -> str:
        return f"Almost there: the Red Joker at {_at(self.cell)} escapes Player {self.seat}."


@attrs.frozen
class TurnEnded:
    """A player's turn ended (H-12 follows)."""

    seat: int

    def __str__(self) -> str:
        return f"Player {self.seat}'s turn ends."


@attrs.frozen
class CardsReplaced:
    """End of turn (H-12): the face-up cards on ``cells`` left; new ones lie face down."""

    cells: tuple[Cell, ...]
    discarded: tuple[Card, ...]
    removed: tuple[Card, ...]

    def __str__(self) -> str:
        parts = [f"{len(self.cells)} face-up card{'s' if len(self.cells) != 1 else ''} replaced"]
        if self.removed:
            parts.append(f"{' '.join(c.symbol for c in self.removed)} removed from the game")
        return "; ".join(parts) + "."


@attrs.frozen
class JokerShuffledIn:
    """The Red Joker was shuffled in among the new cards on ``cells`` (H-10)."""

    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        where = ", ".join(_at(c) for c in self.cells)
        return f"The Red Joker is shuffled in among the new cards: it lies under one of {where}."


@attrs.frozen
class ReplacementReshuffled:
    """The Replacement deck was empty: the discard pile became the new deck (H-12)."""

    cards: int

    def __str__(self) -> str:
        return f"The Replacement deck is empty: the discard pile ({self.cards}) is shuffled."


@attrs.frozen
class TurnedFaceDown:
    """Replacement deck and discard pile both empty: the old card turned face down (H-12)."""

    cell: Cell
    card: Card

    def __str__(self) -> str:
        return f"No card to deal: {self.card.symbol} is turned face down at {_at(self.cell)}."


@attrs.frozen
class Escaped:
    """A player moved onto the Red Joker with a correct guess and wins (H-9)."""

    seat: int
    cell: Cell

    def __str__(self) -> str:
        return f"Player {self.seat} reaches the Red Joker and escapes Haydes!"


@attrs.frozen
class AllTrapped:
    """Every player is out: the game ends with no winner (H-11)."""

    def __str__(self) -> str:
        return "Every player is trapped: Haydes keeps them all."


@attrs.frozen
class TimeUp:
    """The ``max_rounds`` limit ended the game with no winner (H-13)."""

    rounds: int

    def __str__(self) -> str:
        return f"After {self.rounds} rounds, time is up: nobody escapes."


HaydesEvent = (
    FirstPlayerDrawn
    | TurnBegan
    | Announced
    | Revealed
    | Moved
    | EncounterBegan
    | Rolled
    | Lowered
    | Overcame
    | Held
    | Released
    | Trapped
    | AlmostThere
    | TurnEnded
    | CardsReplaced
    | JokerShuffledIn
    | ReplacementReshuffled
    | TurnedFaceDown
    | Escaped
    | AllTrapped
    | TimeUp
)
