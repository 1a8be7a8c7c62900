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

import attrs

from cardcrawl.errors import ParseError, short_repr
from cardcrawl.kit._cards import Card, check_card_argument
from cardcrawl.kit._grid import Cell, cell_code, check_cell_argument, parse_cell_code

__all__ = ["Action", "Draw", "Move", "Place", "PlaceExit", "parse_action"]


@attrs.frozen(order=True)
class Place:
    """Put the drawn Narrative card on ``cell`` (M-8).

    Examples:
        >>> from cardcrawl.mapless import Place
        >>> Place((1, 0)), str(Place((1, 0)))
        (Place(cell=(1, 0)), 'place 1,0')
    """

    cell: Cell = attrs.field(validator=check_cell_argument)

    def __str__(self) -> str:
        return f"place {cell_code(self.cell)}"


@attrs.frozen(order=True)
class PlaceExit:
    """Put the Exit on the candidate ``cell`` of your choice (M-11).

    Examples:
        >>> from cardcrawl.mapless import PlaceExit
        >>> str(PlaceExit((0, 3)))
        'exit 0,3'
    """

    cell: Cell = attrs.field(validator=check_cell_argument)

    def __str__(self) -> str:
        return f"exit {cell_code(self.cell)}"


@attrs.frozen(order=True)
class Move:
    """Move your token to the touching table card on ``cell`` (M-14).

    Examples:
        >>> from cardcrawl.mapless import Move
        >>> str(Move((0, 1)))
        'move 0,1'
    """

    cell: Cell = attrs.field(validator=check_cell_argument)

    def __str__(self) -> str:
        return f"move {cell_code(self.cell)}"


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

    card: Card = attrs.field(validator=check_card_argument)

    def __str__(self) -> str:
        return f"draw {self.card}"


Action = Place | PlaceExit | Move | Draw
"""Any action of The Mapless House: a decision (:class:`Place`, :class:`PlaceExit`,
:class:`Move`) or a chance outcome (:class:`Draw`)."""

_FORMS = "'place X,Y', 'exit X,Y', 'move X,Y' or 'draw CARD'"
_CELL_ACTIONS: dict[str, type[Place] | type[PlaceExit] | type[Move]] = {
    "place": Place,
    "exit": PlaceExit,
    "move": Move,
}
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
            cell = parse_cell_code(arg)
            if kind is not None and cell is not None:
                return kind(cell)
    raise ParseError(
        f"{short_repr(text)} is not an action of The Mapless House: expected {_FORMS}, "
        "X and Y being integers of one to nine ASCII digits with an optional minus"
    )
