"""The grid: integer cells, touching and distance, and an immutable map of cells to cards.

A cell is a pair ``(x, y)`` of integers; "across" is x, "up and down" is y. Two cells
*touch* when they share an edge, never diagonally; *distance* is Manhattan distance.
A cell has two text forms: :func:`cell_text`, ``"(1, 0)"``, in narration and messages,
and :func:`cell_code`, ``"1,0"``, in action text and data attributes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from cardcrawl.errors import action_argument_error
from cardcrawl.kit._cards import Card

__all__ = [
    "CELL_BOUND",
    "Cell",
    "Grid",
    "bounds",
    "cell_code",
    "cell_text",
    "check_cell_argument",
    "distance",
    "neighbours",
    "parse_cell_code",
    "touching",
]

Cell = tuple[int, int]
"""A cell of a grid: ``(x, y)``, x across and y up, two integers (see :class:`Grid`)."""


# Neighbour tuples are asked for at every placement and every move, so each cell's are
# made once and shared: that is faster than building four tuples each time, and every
# state then holds the same tuple objects for the same cells, which keeps states small.
# The cache is a pure memo (no behaviour depends on it) and stops growing at a size no
# real game reaches.
_NEIGHBOURS: dict[Cell, tuple[Cell, Cell, Cell, Cell]] = {}
_CELLS: dict[Cell, Cell] = {}
_CACHE_LIMIT = 1 << 16
_new = object.__new__


def _shared_cell(cell: Cell) -> Cell:
    shared = _CELLS.get(cell)
    if shared is None:
        if len(_CELLS) >= _CACHE_LIMIT:
            return cell
        shared = _CELLS[cell] = cell
    return shared


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells touching ``cell``, in a fixed order (left, right, down, up).

    Args:
        cell: an ``(x, y)`` cell.

    Returns:
        Its four neighbours, left, right, down and up.

    Examples:
        >>> from cardcrawl import neighbours
        >>> neighbours((0, 0))
        ((-1, 0), (1, 0), (0, -1), (0, 1))
    """
    found = _NEIGHBOURS.get(cell)
    if found is None:
        x, y = cell
        found = (
            _shared_cell((x - 1, y)),
            _shared_cell((x + 1, y)),
            _shared_cell((x, y - 1)),
            _shared_cell((x, y + 1)),
        )
        if len(_NEIGHBOURS) < _CACHE_LIMIT:
            _NEIGHBOURS[cell] = found
    return found


def touching(a: Cell, b: Cell) -> bool:
    """True when the two cells share an edge.

    Args:
        a: an ``(x, y)`` cell.
        b: another cell.

    Returns:
        Whether ``a`` and ``b`` are neighbours (a cell does not touch itself).

    Examples:
        >>> from cardcrawl.kit import touching
        >>> touching((0, 0), (0, 1)), touching((0, 0), (1, 1))
        (True, False)
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def distance(a: Cell, b: Cell) -> int:
    """Manhattan distance between two cells.

    Args:
        a: an ``(x, y)`` cell.
        b: another cell.

    Returns:
        The number of steps from ``a`` to ``b`` moving between touching cells.

    Examples:
        >>> from cardcrawl import distance
        >>> distance((0, 0), (2, -3))
        5
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def bounds(cells: Iterable[Cell]) -> tuple[int, int, int, int]:
    """The smallest box holding ``cells``: ``(min_x, min_y, max_x, max_y)``.

    Every map, text or SVG, is drawn over this box, north (larger y) at the top.

    Args:
        cells: ``(x, y)`` cells, at least one.

    Returns:
        The least and greatest x and y among them.

    Raises:
        ValueError: ``cells`` is empty.

    Examples:
        >>> from cardcrawl.kit._grid import bounds
        >>> bounds([(0, 0), (2, -1), (-1, 3)])
        (-1, -1, 2, 3)
    """
    found = tuple(cells)
    if not found:
        raise ValueError("no cells, so no bounds")
    xs, ys = zip(*found, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def cell_text(cell: Cell) -> str:
    """A cell as narration and messages write it: ``"(x, y)"``.

    Every game's events, pictures and messages write cells this way, so that a cell
    reads the same wherever it appears.

    Args:
        cell: an ``(x, y)`` cell.

    Returns:
        The cell in parentheses, a comma and a space between its coordinates.

    Examples:
        >>> from cardcrawl.kit._grid import cell_text
        >>> cell_text((1, -2))
        '(1, -2)'
    """
    return f"({cell[0]}, {cell[1]})"


def cell_code(cell: Cell) -> str:
    """A cell as action text writes it: ``"x,y"``, with no space, so it is one word.

    Action texts (``"move 1,0"``) and the ``data-cell`` attributes of the SVG pictures
    use this form.

    Args:
        cell: an ``(x, y)`` cell.

    Returns:
        The two coordinates joined by a comma.

    Examples:
        >>> from cardcrawl.kit._grid import cell_code
        >>> cell_code((1, -2))
        '1,-2'
    """
    return f"{cell[0]},{cell[1]}"


class Grid(Mapping[Cell, Card]):
    """An immutable map from cells to the cards lying on them.

    Besides the cards, a grid keeps its *frontier*: every empty cell touching at least one
    card, with the number of cards it touches. The frontier is updated incrementally when
    a card is placed, so finding legal placements never rescans the whole table.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> g = Grid({(0, 0): Card.parse("AD")}).place((1, 0), Card.parse("5S"))
        >>> g[(1, 0)], g.degree((0, 0)), g.frontier[(1, 1)]
        (Card.parse('5S'), 1, 1)
        >>> sorted(g.frontier)
        [(-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (2, 0)]
    """

    __slots__ = ("_cards", "_frontier", "_hash")

    _cards: dict[Cell, Card]
    _frontier: dict[Cell, int]
    _hash: int | None

    def __init__(self, cards: Mapping[Cell, Card] | Iterable[tuple[Cell, Card]] = ()) -> None:
        items: dict[Cell, Card] = dict(cards)
        frontier: dict[Cell, int] = {}
        for cell in items:
            for n in neighbours(cell):
                if n not in items:
                    frontier[n] = frontier.get(n, 0) + 1
        self._cards = items
        self._frontier = frontier
        self._hash = None

    def __reduce__(self) -> tuple[Any, ...]:
        # Slots without __getstate__ pickle only from protocol 2: rebuild from the cards.
        return (type(self), (self._cards,))

    @classmethod
    def _build(cls, cards: dict[Cell, Card], frontier: dict[Cell, int]) -> Grid:
        grid = cls.__new__(cls)
        grid._cards = cards
        grid._frontier = frontier
        grid._hash = None
        return grid

    def place(self, cell: Cell, card: Card) -> Grid:
        """A new grid with ``card`` on the empty ``cell``.

        Raises:
            ValueError: the cell already holds a card.
        """
        cards = self._cards
        if cell in cards:
            raise ValueError(f"cell {cell} already holds {cards[cell]}")
        cards = cards.copy()
        cards[cell] = card
        frontier = self._frontier.copy()
        frontier.pop(cell, None)
        get = frontier.get
        for n in neighbours(cell):
            if n not in cards:
                frontier[n] = get(n, 0) + 1
        grid = _new(Grid)
        grid._cards = cards
        grid._frontier = frontier
        grid._hash = None
        return grid

    def replace(self, cell: Cell, card: Card) -> Grid:
        """A new grid with the card on an occupied ``cell`` swapped for ``card``.

        Raises:
            KeyError: the cell is empty.
        """
        if cell not in self._cards:
            raise KeyError(cell)
        cards = dict(self._cards)
        cards[cell] = card
        return Grid._build(cards, self._frontier)

    @property
    def cards(self) -> Mapping[Cell, Card]:
        """The cards by cell, read-only: the grid itself, without a method call per lookup.

        Examples:
            >>> from cardcrawl import Card, Grid
            >>> cards = Grid({(0, 0): Card.parse("AD")}).cards
            >>> cards.get((0, 0)), (1, 0) in cards
            (Card.parse('AD'), False)
        """
        return self._cards

    @property
    def frontier(self) -> Mapping[Cell, int]:
        """Empty cells touching at least one card, each with how many cards it touches."""
        return self._frontier

    def degree(self, cell: Cell) -> int:
        """How many cards touch ``cell`` (occupied or not)."""
        cards = self._cards
        x, y = cell
        return (
            ((x - 1, y) in cards)
            + ((x + 1, y) in cards)
            + ((x, y - 1) in cards)
            + ((x, y + 1) in cards)
        )

    def touching_cards(self, cell: Cell) -> tuple[Cell, ...]:
        """The occupied cells touching ``cell``, in the order of :func:`neighbours`."""
        cards = self._cards
        return tuple(n for n in neighbours(cell) if n in cards)

    def __getitem__(self, cell: Cell) -> Card:
        return self._cards[cell]

    def __contains__(self, cell: object) -> bool:
        return cell in self._cards

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def get(self, cell: Cell, default: Card | None = None) -> Card | None:  # type: ignore[override]
        """The card at ``cell``, or ``default`` when the cell is empty.

        Examples:
            >>> from cardcrawl import Card, Grid
            >>> grid = Grid({(0, 0): Card.parse("AD")})
            >>> grid.get((0, 0)), grid.get((1, 0))
            (Card.parse('AD'), None)
        """
        return self._cards.get(cell, default)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Grid):
            return self._cards == other._cards
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._cards.items()))
        return self._hash

    def __repr__(self) -> str:
        inner = ", ".join(f"{cell!r}: {card!r}" for cell, card in sorted(self._cards.items()))
        return f"Grid({{{inner}}})"

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_x, min_y, max_x, max_y)`` over the cards; ``(0, 0, 0, 0)`` when empty."""
        return bounds(self._cards) if self._cards else (0, 0, 0, 0)


#: The largest coordinate of a cell an action may name: nine digits, all that
#: :func:`parse_cell_code` reads. No game comes near it; the bound keeps every action's
#: text short and readable back.
CELL_BOUND = 999_999_999
_A_CELL = f"a cell, a tuple (x, y) of two integers from {-CELL_BOUND} to {CELL_BOUND}"
# ASCII digits only, with an optional minus: int() alone would also read "+1", "1_0"
# and Unicode digits such as "١", and spend quadratic time on thousands of digits.
_CELL_CODE = re.compile(r"(-?[0-9]{1,9}),(-?[0-9]{1,9})")


def check_cell_argument(action: object, attribute: Any, value: Any) -> None:
    """An attrs validator for an action's cell: a plain tuple of two plain ``int`` within
    ``CELL_BOUND``; anything else is an :class:`~cardcrawl.errors.ActionError`.

    Exact types only: an int subclass (``bool`` above all) or a tuple subclass could
    compare, hash or print unlike the plain values the rules and the codec expect.

    Examples:
        >>> import attrs
        >>> from cardcrawl.kit._grid import check_cell_argument
        >>> @attrs.frozen
        ... class Go:
        ...     cell: tuple[int, int] = attrs.field(validator=check_cell_argument)
        >>> Go((1, 0)).cell
        (1, 0)
        >>> Go((1.0, 0))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.ActionError: Go(cell=...) takes a cell, a tuple (x, y) of two ...
    """
    if type(value) is tuple and len(value) == 2:
        x, y = value
        if (
            type(x) is int
            and type(y) is int
            and -CELL_BOUND <= x <= CELL_BOUND
            and -CELL_BOUND <= y <= CELL_BOUND
        ):
            return
    raise action_argument_error(type(action), attribute.name, _A_CELL, value)


def parse_cell_code(text: str) -> Cell | None:
    """The cell written ``"x,y"`` (see :func:`cell_code`), or ``None`` if ``text`` is not
    one: one to nine ASCII digits each, with an optional minus.

    Examples:
        >>> from cardcrawl.kit import parse_cell_code
        >>> parse_cell_code("-1,2"), parse_cell_code("+1,2"), parse_cell_code("1_0,0")
        ((-1, 2), None, None)
    """
    xy = _CELL_CODE.fullmatch(text)
    return None if xy is None else (int(xy[1]), int(xy[2]))
