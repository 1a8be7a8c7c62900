"""The actions of Escape from Haydes: five decisions and three chance outcomes.

Each is a tiny frozen value whose ``repr`` is valid Python and whose ``str`` is the text
form read back by :func:`parse_action`:

* decisions: ``"higher 1,0"`` / ``"lower 1,0"`` (move onto a touching face-down card,
  H-6), ``"tuybe higher 2,0"`` (the Tuybe variant), ``"step 0,1"`` (onto a touching
  face-up card), ``"end"`` (end the turn), ``"charisma"`` / ``"endurance"`` (face a
  creature, H-8);
* chance outcomes (explicit-chance play only): ``"first 2"`` (the first player, H-5),
  ``"reveal QS"`` (the card a face-down cell turns out to be), ``"roll 7"`` (a 2D6 total).

All of them share one total order (kind first, then cell, then the rest), so that a
mixed list of legal actions sorts deterministically.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from cardcrawl._cards import Card
from cardcrawl._errors import ParseError
from cardcrawl._grid import Cell
from cardcrawl.haydes._creatures import Characteristic

__all__ = [
    "Action",
    "Choose",
    "EndTurn",
    "FirstPlayer",
    "Guess",
    "Move",
    "Reveal",
    "Roll",
    "Step",
    "Tuybe",
    "parse_action",
]


class Guess(enum.Enum):
    """The announcement before a face-down card is turned (H-6).

    Examples:
        >>> from cardcrawl.haydes import Guess, Move, parse_action
        >>> Guess("lower")
        Guess.LOWER
        >>> parse_action("lower 0,1") == Move((0, 1), Guess.LOWER)
        True
    """

    HIGHER = "higher"
    LOWER = "lower"

    def __repr__(self) -> str:
        return f"Guess.{self.name}"


_GUESS_RANK = {Guess.HIGHER: 0, Guess.LOWER: 1}


class _Ordered:
    """One total order over every action kind, by a ``(kind, ...)`` key of integers.

    The key is computed once per action and compared in C: legality checks compare an
    action with the legal ones, and sorting mixed kinds needs one order across classes.
    Equal keys mean equal actions (the kind comes first), so equality and hashing follow
    the key too.
    """

    __slots__ = ("_k",)
    _k: tuple[int, ...]

    def _key(self) -> tuple[int, ...]:
        raise NotImplementedError

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_k", self._key())

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, _Ordered):
            return self._k == other._k
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, _Ordered):
            return self._k != other._k
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._k)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self._k < other._k

    def __le__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self._k <= other._k

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self._k > other._k

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return self._k >= other._k


def _cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


@attrs.frozen(eq=False)
class Move(_Ordered):
    """Move onto the touching face-down card on ``cell``, announcing ``guess`` (H-6).

    Examples:
        >>> from cardcrawl.haydes import Guess, Move
        >>> Move((1, 0), Guess.HIGHER), str(Move((1, 0), Guess.LOWER))
        (Move(cell=(1, 0), guess=Guess.HIGHER), 'lower 1,0')
    """

    cell: Cell
    guess: Guess

    def _key(self) -> tuple[int, ...]:
        return (0, self.cell[0], self.cell[1], _GUESS_RANK[self.guess])

    def __str__(self) -> str:
        return f"{self.guess.value} {_cell_text(self.cell)}"


@attrs.frozen(eq=False)
class Step(_Ordered):
    """Step onto the touching face-up card on ``cell`` (H-6): no announcement.

    Examples:
        >>> from cardcrawl.haydes import Step
        >>> str(Step((0, 1)))
        'step 0,1'
    """

    cell: Cell

    def _key(self) -> tuple[int, ...]:
        return (1, self.cell[0], self.cell[1])

    def __str__(self) -> str:
        return f"step {_cell_text(self.cell)}"


@attrs.frozen(eq=False)
class Tuybe(_Ordered):
    """The Tuybe variant: aim at the face-down card two cells away in a straight line.

    Examples:
        >>> from cardcrawl.haydes import Guess, Tuybe
        >>> str(Tuybe((2, 0), Guess.HIGHER))
        'tuybe higher 2,0'
    """

    cell: Cell
    guess: Guess

    def _key(self) -> tuple[int, ...]:
        return (2, self.cell[0], self.cell[1], _GUESS_RANK[self.guess])

    def __str__(self) -> str:
        return f"tuybe {self.guess.value} {_cell_text(self.cell)}"


@attrs.frozen(eq=False)
class EndTurn(_Ordered):
    """End the turn now (H-6: a player *may* move).

    Examples:
        >>> from cardcrawl.haydes import EndTurn
        >>> EndTurn(), str(EndTurn())
        (EndTurn(), 'end')
    """

    def _key(self) -> tuple[int, ...]:
        return (3,)

    def __str__(self) -> str:
        return "end"


@attrs.frozen(eq=False)
class Choose(_Ordered):
    """Face the creature with this characteristic (H-8).

    Examples:
        >>> from cardcrawl.haydes import Characteristic, Choose
        >>> str(Choose(Characteristic.CHARISMA))
        'charisma'
    """

    characteristic: Characteristic

    def _key(self) -> tuple[int, ...]:
        return (4, 0 if self.characteristic is Characteristic.CHARISMA else 1)

    def __str__(self) -> str:
        return self.characteristic.value


@attrs.frozen(eq=False)
class FirstPlayer(_Ordered):
    """A chance outcome: the seat that plays first (H-5).

    Examples:
        >>> from cardcrawl.haydes import FirstPlayer
        >>> str(FirstPlayer(2))
        'first 2'
    """

    seat: int

    def _key(self) -> tuple[int, ...]:
        return (10, self.seat)

    def __str__(self) -> str:
        return f"first {self.seat}"


@attrs.frozen(eq=False)
class Reveal(_Ordered):
    """A chance outcome: the card the face-down card being turned turns out to be.

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.haydes import Reveal
        >>> str(Reveal(Card.parse("QS")))
        'reveal QS'
    """

    card: Card

    def _key(self) -> tuple[int, ...]:
        return (11, self.card.index)

    def __str__(self) -> str:
        return f"reveal {self.card}"


@attrs.frozen(eq=False)
class Roll(_Ordered):
    """A chance outcome: the total of a 2D6 roll (H-8), from 2 to 12.

    Examples:
        >>> from cardcrawl.haydes import Roll
        >>> str(Roll(7))
        'roll 7'
    """

    total: int

    def _key(self) -> tuple[int, ...]:
        return (12, self.total)

    def __str__(self) -> str:
        return f"roll {self.total}"


Action = Move | Step | Tuybe | EndTurn | Choose | FirstPlayer | Reveal | Roll

_FORMS = (
    "'higher X,Y', 'lower X,Y', 'tuybe higher X,Y', 'tuybe lower X,Y', 'step X,Y', 'end', "
    "'charisma', 'endurance', 'first SEAT', 'reveal CARD' or 'roll TOTAL'"
)


def _parse_cell(text: str) -> Cell | None:
    xy = text.split(",")
    if len(xy) != 2:
        return None
    try:
        return (int(xy[0]), int(xy[1]))
    except ValueError:
        return None


def _parse_int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _parse_parts(parts: list[str]) -> Any:
    verb = parts[0].lower() if parts else ""
    if len(parts) == 1:
        if verb == "end":
            return EndTurn()
        if verb in ("charisma", "endurance"):
            return Choose(Characteristic(verb))
        return None
    if len(parts) == 2:
        arg = parts[1]
        if verb in ("higher", "lower"):
            cell = _parse_cell(arg)
            return None if cell is None else Move(cell, Guess(verb))
        if verb == "step":
            cell = _parse_cell(arg)
            return None if cell is None else Step(cell)
        if verb == "reveal":
            return Reveal(Card.parse(arg))
        number = _parse_int(arg)
        if number is not None and verb == "first":
            return FirstPlayer(number)
        if number is not None and verb == "roll":
            return Roll(number)
        return None
    if len(parts) == 3 and verb == "tuybe" and parts[1].lower() in ("higher", "lower"):
        cell = _parse_cell(parts[2])
        return None if cell is None else Tuybe(cell, Guess(parts[1].lower()))
    return None


def parse_action(text: str) -> Action:
    """The action named by ``text``, the inverse of ``str(action)`` (case-insensitive).

    Examples:
        >>> from cardcrawl.haydes import parse_action
        >>> parse_action("higher -1,2"), parse_action("end")
        (Move(cell=(-1, 2), guess=Guess.HIGHER), EndTurn())
        >>> parse_action("tuybe lower 0,2"), parse_action("reveal 10h")
        (Tuybe(cell=(0, 2), guess=Guess.LOWER), Reveal(card=Card.parse('10H')))

    Raises:
        ParseError: ``text`` names no action.
    """
    if not isinstance(text, str):
        raise ParseError(f"an action is text such as 'higher 0,1', not {text!r}")
    action = _parse_parts(text.strip().split())
    if action is None:
        raise ParseError(f"{text!r} is not an action of Escape from Haydes: expected {_FORMS}")
    result: Action = action
    return result
