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

Every action checks its arguments when it is made and raises
:class:`~cardcrawl.ActionError` for anything else: a cell is a tuple of two ``int``
(never a ``float`` or a ``bool``, which compare equal to integers), each of at most nine
digits so that its text reads back; a guess is a :class:`Guess`, a characteristic a
:class:`~cardcrawl.haydes.Characteristic`, a card a :class:`~cardcrawl.Card`; a seat is
an ``int`` from 0 to 3 and a roll's total one from 0 to 999 (the game's dice, its
``roll_weights`` hook, say which totals can come: 2 to 12 for the standard 2D6).
Whether the action is legal
in a given state (a seat of this many players, a cell of this layout) is for the game's
``check`` to say.
"""

from __future__ import annotations

import enum
import re
from typing import Any

import attrs

from cardcrawl.errors import ActionError, ParseError, action_argument_error, short_repr
from cardcrawl.haydes._creatures import Characteristic
from cardcrawl.kit._cards import Card, check_card_argument
from cardcrawl.kit._grid import Cell, cell_code, check_cell_argument, parse_cell_code

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


_HIGHER = Guess.HIGHER
_CHARISMA = Characteristic.CHARISMA
_set = object.__setattr__

#: The seats of the most players a game can have (H-5: one to four).
_SEATS = 4


def _check_guess(action: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not Guess:
        raise action_argument_error(
            type(action), attribute.name, "a Guess, Guess.HIGHER or Guess.LOWER", value
        )


def _check_characteristic(action: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not Characteristic:
        raise action_argument_error(
            type(action),
            attribute.name,
            "a Characteristic, Characteristic.CHARISMA or Characteristic.ENDURANCE",
            value,
        )


def _check_seat(action: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not int or not 0 <= value < _SEATS:
        raise action_argument_error(
            type(action), attribute.name, f"a seat, an integer from 0 to {_SEATS - 1}", value
        )


def _check_total(action: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not int or not 0 <= value <= 999:
        raise action_argument_error(
            type(action), attribute.name, "a roll total, an integer from 0 to 999", value
        )


class _Ordered:
    """One total order over every action kind, by a ``(kind, ...)`` key of integers.

    The key is computed once per action and compared in C: legality checks compare an
    action with the legal ones, and sorting mixed kinds needs one order across classes.
    Equal keys mean equal actions (the kind comes first), so equality and hashing follow
    the key too. Each kind's ``__attrs_post_init__`` sets it, after attrs has checked
    the fields; it tests enum members by identity, since hashing one runs Python code.
    """

    __slots__ = ("_k",)
    _k: tuple[int, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        # attrs pickles a slotted class by its fields alone, which would leave out the
        # key: rebuild the action from its fields instead, which checks them again too.
        fields = type(self).__attrs_attrs__  # type: ignore[attr-defined]
        return type(self), tuple(getattr(self, a.name) for a in fields)

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


@attrs.frozen(eq=False)
class Move(_Ordered):
    """Move onto the touching face-down card on ``cell``, announcing ``guess`` (H-6).

    Examples:
        >>> from cardcrawl.haydes import Guess, Move
        >>> Move((1, 0), Guess.HIGHER), str(Move((1, 0), Guess.LOWER))
        (Move(cell=(1, 0), guess=Guess.HIGHER), 'lower 1,0')
    """

    cell: Cell = attrs.field(validator=check_cell_argument)
    guess: Guess = attrs.field(validator=_check_guess)

    def __attrs_post_init__(self) -> None:
        cell = self.cell
        _set(self, "_k", (0, cell[0], cell[1], 0 if self.guess is _HIGHER else 1))

    def __str__(self) -> str:
        return f"{self.guess.value} {cell_code(self.cell)}"


@attrs.frozen(eq=False)
class Step(_Ordered):
    """Step onto the touching face-up card on ``cell`` (H-6): no announcement.

    Examples:
        >>> from cardcrawl.haydes import Step
        >>> str(Step((0, 1)))
        'step 0,1'
    """

    cell: Cell = attrs.field(validator=check_cell_argument)

    def __attrs_post_init__(self) -> None:
        cell = self.cell
        _set(self, "_k", (1, cell[0], cell[1]))

    def __str__(self) -> str:
        return f"step {cell_code(self.cell)}"


@attrs.frozen(eq=False)
class Tuybe(_Ordered):
    """The Tuybe variant: aim at the face-down card two cells away in a straight line.

    Examples:
        >>> from cardcrawl.haydes import Guess, Tuybe
        >>> str(Tuybe((2, 0), Guess.HIGHER))
        'tuybe higher 2,0'
    """

    cell: Cell = attrs.field(validator=check_cell_argument)
    guess: Guess = attrs.field(validator=_check_guess)

    def __attrs_post_init__(self) -> None:
        cell = self.cell
        _set(self, "_k", (2, cell[0], cell[1], 0 if self.guess is _HIGHER else 1))

    def __str__(self) -> str:
        return f"tuybe {self.guess.value} {cell_code(self.cell)}"


@attrs.frozen(eq=False)
class EndTurn(_Ordered):
    """End the turn now (H-6: a player *may* move).

    Examples:
        >>> from cardcrawl.haydes import EndTurn
        >>> EndTurn(), str(EndTurn())
        (EndTurn(), 'end')
    """

    def __attrs_post_init__(self) -> None:
        _set(self, "_k", (3,))

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

    characteristic: Characteristic = attrs.field(validator=_check_characteristic)

    def __attrs_post_init__(self) -> None:
        _set(self, "_k", (4, 0 if self.characteristic is _CHARISMA else 1))

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

    seat: int = attrs.field(validator=_check_seat)

    def __attrs_post_init__(self) -> None:
        _set(self, "_k", (10, self.seat))

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

    card: Card = attrs.field(validator=check_card_argument)

    def __attrs_post_init__(self) -> None:
        _set(self, "_k", (11, self.card.index))

    def __str__(self) -> str:
        return f"reveal {self.card}"


@attrs.frozen(eq=False)
class Roll(_Ordered):
    """A chance outcome: the total of an encounter's roll (H-8): 2 to 12 with the
    standard 2D6, other totals with a variant's own dice (``roll_weights``).

    Examples:
        >>> from cardcrawl.haydes import Roll
        >>> str(Roll(7))
        'roll 7'
    """

    total: int = attrs.field(validator=_check_total)

    def __attrs_post_init__(self) -> None:
        _set(self, "_k", (12, self.total))

    def __str__(self) -> str:
        return f"roll {self.total}"


Action = Move | Step | Tuybe | EndTurn | Choose | FirstPlayer | Reveal | Roll
"""Any action of Escape from Haydes: a decision (:class:`Move`, :class:`Step`,
:class:`Tuybe`, :class:`EndTurn`, :class:`Choose`) or a chance outcome
(:class:`FirstPlayer`, :class:`Reveal`, :class:`Roll`)."""

_FORMS = (
    "'higher X,Y', 'lower X,Y', 'tuybe higher X,Y', 'tuybe lower X,Y', 'step X,Y', 'end', "
    "'charisma', 'endurance', 'first SEAT', 'reveal CARD' or 'roll TOTAL'"
)


# ASCII digits only, with an optional minus: int() alone would also read "+1", "1_0"
# and Unicode digits such as "١", and spend quadratic time on thousands of digits.
_INT_TEXT = re.compile(r"-?[0-9]{1,9}")
#: The longest text read, once stripped: far more than any action's text needs
#: ("tuybe higher -999999999,-999999999" has 34 characters); junk beyond it is not
#: looked at.
_LONGEST = 64


def _parse_int(text: str) -> int | None:
    return int(text) if _INT_TEXT.fullmatch(text) else None


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
            cell = parse_cell_code(arg)
            return None if cell is None else Move(cell, Guess(verb))
        if verb == "step":
            cell = parse_cell_code(arg)
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
        cell = parse_cell_code(parts[2])
        return None if cell is None else Tuybe(cell, Guess(parts[1].lower()))
    return None


def parse_action(text: str) -> Action:
    """The action named by ``text``, the inverse of ``str(action)`` (case-insensitive).

    Numbers (coordinates, seats, totals) are one to nine ASCII digits with an optional
    minus; surrounding spaces are ignored.

    Examples:
        >>> from cardcrawl.haydes import parse_action
        >>> parse_action("higher -1,2"), parse_action("end")
        (Move(cell=(-1, 2), guess=Guess.HIGHER), EndTurn())
        >>> parse_action("tuybe lower 0,2"), parse_action("reveal 10h")
        (Tuybe(cell=(0, 2), guess=Guess.LOWER), Reveal(card=Card.parse('10H')))
        >>> parse_action("first 4")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.ParseError: 'first 4' is not an action of Escape from Haydes: ...

    Raises:
        ParseError: ``text`` names no action.
    """
    if not isinstance(text, str):
        raise ParseError(f"an action is text such as 'higher 0,1', not {short_repr(text)}")
    words = text.strip()
    action = None
    if len(words) <= _LONGEST and words.isascii():
        try:
            action = _parse_parts(words.split())
        except ActionError as error:  # well formed, but out of range: "first 4"
            raise ParseError(
                f"{short_repr(text)} is not an action of Escape from Haydes: {error}"
            ) from None
    if action is None:
        raise ParseError(
            f"{short_repr(text)} is not an action of Escape from Haydes: expected {_FORMS}, "
            "numbers being one to nine ASCII digits with an optional minus"
        )
    result: Action = action
    return result
