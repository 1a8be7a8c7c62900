"""The actions of The Mapless House: three decisions and one chance outcome.

Each is a tiny frozen value whose ``repr`` is valid Python and whose ``str`` is the
text form read back by :func:`parse_action` (``"place 1,0"``, ``"exit 3,-1"``,
``"move 0,1"``, ``"draw QS"``).

Every action checks its arguments when it is made and raises
:class:`~cardcrawl.ActionError` for anything else: a cell is a tuple of two ``int``
(never a ``float`` or a ``bool``, which compare equal to integers and so would pass as
a legal action, then be stored in the state and break its saved form), each of at most
nine digits so that its text reads back; a card is a :class:`~cardcrawl.Card`.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from cardcrawl.errors import ParseError, action_argument_error, short_repr
from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell

__all__ = ["Action", "Draw", "Move", "Place", "PlaceExit", "parse_action"]

#: The largest coordinate of an action's cell: nine digits, all that parse_action reads.
#: No game comes near it; the bound keeps every action's text short and readable back.
_BOUND = 999_999_999
_LOW = -_BOUND
_A_CELL = f"a cell, a tuple (x, y) of two integers from {-_BOUND} to {_BOUND}"


def _check_cell(action: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    # Exact types only: an int subclass (bool above all) or a tuple subclass could
    # compare, hash or print unlike the plain values the rules and the codec expect.
    if type(value) is tuple and len(value) == 2:
        x, y = value
        if type(x) is int and type(y) is int and _LOW <= x <= _BOUND and _LOW <= y <= _BOUND:
            return
    raise action_argument_error(type(action), attribute.name, _A_CELL, value)


def _check_card(action: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not Card:
        raise action_argument_error(
            type(action), attribute.name, "a Card such as Card.parse('QS')", value
        )


def _cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


@attrs.frozen(order=True)
class Place:
    """Put the drawn Narrative card on ``cell`` (M-8).

    Examples:
        >>> from cardcrawl.mapless import Place
        >>> Place((1, 0)), str(Place((1, 0)))
        (Place(cell=(1, 0)), 'place 1,0')
    """

    cell: Cell = attrs.field(validator=_check_cell)

    def __str__(self) -> str:
        return f"place {_cell_text(self.cell)}"


@attrs.frozen(order=True)
class PlaceExit:
    """Put the Exit on the candidate ``cell`` of your choice (M-11).

    Examples:
        >>> from cardcrawl.mapless import PlaceExit
        >>> str(PlaceExit((0, 3)))
        'exit 0,3'
    """

    cell: Cell = attrs.field(validator=_check_cell)

    def __str__(self) -> str:
        return f"exit {_cell_text(self.cell)}"


@attrs.frozen(order=True)
class Move:
    """Move your token to the touching table card on ``cell`` (M-14).

    Examples:
        >>> from cardcrawl.mapless import Move
        >>> str(Move((0, 1)))
        'move 0,1'
    """

    cell: Cell = attrs.field(validator=_check_cell)

    def __str__(self) -> str:
        return f"move {_cell_text(self.cell)}"


@attrs.frozen(order=True)
class Draw:
    """A chance outcome: the next card drawn from the deck being drawn from.

    Only met in explicit-chance play (see :func:`cardcrawl.Game.chance_outcomes`).

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.mapless import Draw
        >>> str(Draw(Card.parse("QS")))
        'draw QS'
    """

    card: Card = attrs.field(validator=_check_card)

    def __str__(self) -> str:
        return f"draw {self.card}"


Action = Place | PlaceExit | Move | Draw

_FORMS = "'place X,Y', 'exit X,Y', 'move X,Y' or 'draw CARD'"
_CELL_ACTIONS: dict[str, type[Place] | type[PlaceExit] | type[Move]] = {
    "place": Place,
    "exit": PlaceExit,
    "move": Move,
}
# ASCII digits only, with an optional minus: int() alone would also read "+1", "1_0"
# and Unicode digits such as "١", and spend quadratic time on thousands of digits.
_CELL_TEXT = re.compile(r"(-?[0-9]{1,9}),(-?[0-9]{1,9})")
#: The longest text read, once stripped: far more than any action's text needs
#: ("place -999999999,-999999999" has 27 characters); junk beyond it is not looked at.
_LONGEST = 64


def parse_action(text: str) -> Action:
    """The action named by ``text``, the inverse of ``str(action)``.

    Args:
        text: ``"place X,Y"``, ``"exit X,Y"``, ``"move X,Y"`` or ``"draw CARD"``; the
            verb in any case, surrounding spaces ignored. ``X`` and ``Y`` are integers
            of one to nine ASCII digits, with an optional minus.

    Returns:
        The action, a :class:`Place`, :class:`PlaceExit`, :class:`Move` or :class:`Draw`.

    Raises:
        ParseError: ``text`` names no action.

    Examples:
        >>> from cardcrawl.mapless import parse_action
        >>> parse_action("move -1,2"), parse_action("draw 10h")
        (Move(cell=(-1, 2)), Draw(card=Card.parse('10H')))
        >>> parse_action("place +1,0")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.ParseError: 'place +1,0' is not an action of The Mapless House: ...
    """
    if not isinstance(text, str):
        raise ParseError(f"an action is text such as 'move 0,1', not {short_repr(text)}")
    words = text.strip()
    if len(words) <= _LONGEST and words.isascii():
        parts = words.split()
        if len(parts) == 2:
            verb, arg = parts[0].lower(), parts[1]
            if verb == "draw":
                return Draw(Card.parse(arg))
            kind = _CELL_ACTIONS.get(verb)
            xy = _CELL_TEXT.fullmatch(arg)
            if kind is not None and xy is not None:
                return kind((int(xy[1]), int(xy[2])))
    raise ParseError(
        f"{short_repr(text)} is not an action of The Mapless House: expected {_FORMS}, "
        "X and Y being integers of one to nine ASCII digits with an optional minus"
    )
