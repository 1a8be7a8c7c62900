"""The actions of The Mapless House: three decisions and one chance outcome.

Each is a tiny frozen value whose ``repr`` is valid Python and whose ``str`` is the
text form read back by :func:`parse_action` (``"place 1,0"``, ``"exit 3,-1"``,
``"move 0,1"``, ``"draw QS"``).
"""

from __future__ import annotations

import attrs

from cardcrawl._cards import Card
from cardcrawl._errors import ParseError
from cardcrawl._grid import Cell

__all__ = ["Action", "Draw", "Move", "Place", "PlaceExit", "parse_action"]


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

    cell: Cell

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

    cell: Cell

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

    cell: Cell

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

    card: Card

    def __str__(self) -> str:
        return f"draw {self.card}"


Action = Place | PlaceExit | Move | Draw

_FORMS = "'place X,Y', 'exit X,Y', 'move X,Y' or 'draw CARD'"
_CELL_ACTIONS: dict[str, type[Place] | type[PlaceExit] | type[Move]] = {
    "place": Place,
    "exit": PlaceExit,
    "move": Move,
}


def parse_action(text: str) -> Action:
    """The action named by ``text``, the inverse of ``str(action)``.

    Args:
        text: ``"place X,Y"``, ``"exit X,Y"``, ``"move X,Y"`` or ``"draw CARD"``; the
            verb in any case, surrounding spaces ignored.

    Returns:
        The action, a :class:`Place`, :class:`PlaceExit`, :class:`Move` or :class:`Draw`.

    Raises:
        ParseError: ``text`` names no action.

    Examples:
        >>> from cardcrawl.mapless import parse_action
        >>> parse_action("move -1,2"), parse_action("draw 10h")
        (Move(cell=(-1, 2)), Draw(card=Card.parse('10H')))
    """
    if not isinstance(text, str):
        raise ParseError(f"an action is text such as 'move 0,1', not {text!r}")
    parts = text.strip().split()
    if len(parts) == 2:
        verb, arg = parts[0].lower(), parts[1]
        if verb == "draw":
            return Draw(Card.parse(arg))
        kind = _CELL_ACTIONS.get(verb)
        xy = arg.split(",")
        if kind is not None and len(xy) == 2:
            try:
                return kind((int(xy[0]), int(xy[1])))
            except ValueError:
                pass
    raise ParseError(f"{text!r} is not an action of The Mapless House: expected {_FORMS}")
