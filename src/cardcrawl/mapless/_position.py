"""The working position of The Mapless House: what the rules change in place.

A :class:`~cardcrawl.mapless.MaplessState` is an immutable value, and a step of play
makes many small changes (a card drawn, placed, a Stalker stepping...). The rules make
them to a :class:`Position`, a mutable working copy of one state (:func:`thaw`), and a
new state is made of it once, when the step is done (:func:`freeze`). ``step`` does
that at every step; a rollout (``simulate``, the bots' playouts) plays a whole game on
one position and freezes it at the end, or never.

A position answers every field name of a state, and ``score`` and ``is_hunting``, so a
rule hook reads it as it would read a state: ``table`` is a
:class:`~cardcrawl.Grid` (``frontier``, ``degree``, ``cards``, ``touching_cards``...),
each deck answers as a :class:`~cardcrawl.Deck` does (``cards``, ``len``, ``in``,
``outcomes``), the piles are tuples. Its parts change as play goes on: a hook reads
them and keeps none of them.

Freezing shares with the state a position was thawed from every part that did not
change (the table, a deck), so the states of one game share most of their data.

A rollout's working grid (compiled, see ``BOARDS``) also lays its cards on a
:class:`Board` of cell codes, which answers the placement rules' questions
(:func:`open_cells`, :func:`empty_neighbours`) with no cell hashed or sorted; the rules
ask the same questions of every grid, so each rule is stated once over either form.
"""

from __future__ import annotations

import operator
from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import attrs

from cardcrawl.core._compiled import runs_compiled
from cardcrawl.core._random import _below
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck, _make
from cardcrawl.kit._grid import _NEIGHBOURS, Cell, Grid, _shared_cell, neighbours
from cardcrawl.mapless._state import Ending, MaplessState, Phase

__all__ = [
    "Board",
    "Position",
    "WorkingDeck",
    "WorkingGrid",
    "close",
    "empty_around",
    "empty_neighbours",
    "freeze",
    "frontier_cells",
    "laid_index",
    "laid_neighbours",
    "open_cells",
    "put_card",
    "release_board",
    "setup",
    "thaw",
]

_INDEX = operator.attrgetter("index")
_DRAW, _DRAW_MIND = Phase.DRAW, Phase.DRAW_MIND


# The board a rollout's working grid keeps its cells on (see Board): a square window of
# cells around the Entrance, each cell numbered by its code ``(x + _OFFSET) * _SIDE +
# (y + _OFFSET)``, an order that is the cells' own sorted order. A card is laid on the
# board only with its four neighbours inside the window; the stock game never comes near
# its edge (its Narrative deck holds 25 cards).
_SIDE = 64
_OFFSET = 32
_LOW = 1 - _OFFSET  # the least and greatest coordinate of a card on the board
_HIGH = _SIDE - _OFFSET - 2
# The cell of each code, the grid's shared tuples (as neighbours() gives them), so that
# every cell a board hands out is one object.
_CELL_OF = tuple(
    _shared_cell((x, y)) for x in range(-_OFFSET, _SIDE - _OFFSET)
    for y in range(-_OFFSET, _SIDE - _OFFSET)
)  # fmt: skip
# What a board's arrays hold with no card down.
_BLANK = bytearray(_SIDE * _SIDE)  # never written to


#: Whether rollouts play on a :class:`Board`: where this module runs compiled, which
#: reads a board's arrays as C. Interpreted, a byte array's arithmetic costs more than the
#: dict operations it saves, so a rollout keeps the grid's dicts there; both forms answer
#: the same rule functions (the tests play both in either build).
BOARDS = runs_compiled(__file__)


class Board:
    """Where the cards of a working grid lie, as numbers by cell code: what the placement
    rules ask of a rollout's grid, answered with no cell hashed and nothing sorted.

    ``cards`` holds each cell's card index plus one (0: empty), ``touching`` how many
    cards touch each cell: the frontier (the empty cells touching a card) is the cells
    where ``touching`` is not 0 and ``cards`` is, all of them within the rows ``x_low``
    to ``x_high`` and the columns ``y_low`` to ``y_high`` of the window (read in that
    order, they come in the cells' sorted order). ``marks`` tells the cells of the set
    ``marked`` (the position's closed cells, marked again whenever the rules give another
    set): those whose mark is ``stamp``. ``grid`` is the working grid's dict of cards,
    kept beside the board, and ``frontier`` the grid's frontier dict once made (``None``
    until asked for, and again after each card). A plain class of slots, which the
    compiled build makes an extension type (``_position.pxd``).
    """

    __slots__ = (
        "cards", "frontier", "grid", "marked", "marks", "stamp", "touching",
        "x_high", "x_low", "y_high", "y_low",
    )  # fmt: skip

    cards: bytearray
    touching: bytearray
    marks: bytearray
    x_low: int
    x_high: int
    y_low: int
    y_high: int
    marked: AbstractSet[Cell]
    stamp: int
    grid: dict[Cell, Card]
    frontier: dict[Cell, int] | None

    def __init__(self, grid: dict[Cell, Card]) -> None:
        self.cards = bytearray(_SIDE * _SIDE)
        self.touching = bytearray(_SIDE * _SIDE)
        self.marks = bytearray(_SIDE * _SIDE)
        self.x_low = self.y_low = _SIDE  # no row or column yet
        self.x_high = self.y_high = -1
        self.marked = frozenset()
        self.stamp = 1  # no cell is marked 1 yet
        self.grid = grid
        self.frontier = None

    def lay(self, cell: Cell, card: Card, index: int) -> bool:
        """Lay ``card``, of card index ``index``, on the empty ``cell``; False, and
        nothing laid, if it does not fit on the board."""
        x, y = cell
        if not (_LOW <= x <= _HIGH and _LOW <= y <= _HIGH):
            return False
        self.grid[cell] = card
        self.frontier = None
        x += _OFFSET
        y += _OFFSET
        code = x * _SIDE + y
        cards = self.cards
        cards[code] = index + 1
        touching = self.touching
        touching[code - _SIDE] += 1
        touching[code - 1] += 1
        touching[code + 1] += 1
        touching[code + _SIDE] += 1
        # The frontier's rows and columns take in the card's neighbours: no list of
        # the frontier is kept in order, which would cost a search at every card.
        if x <= self.x_low:
            self.x_low = x - 1
        if x >= self.x_high:
            self.x_high = x + 1
        if y <= self.y_low:
            self.y_low = y - 1
        if y >= self.y_high:
            self.y_high = y + 1
        return True

    def mark(self, cells: AbstractSet[Cell]) -> None:
        """Mark the cells ``cells``, and no others (a cell off the board has no mark)."""
        stamp = self.stamp + 1
        if stamp == 256:  # every stamp used: the marks start afresh
            self.marks = bytearray(_SIDE * _SIDE)
            stamp = 1
        self.stamp = stamp
        marks = self.marks
        for cell in cells:
            code = _code_inside(cell, 0)
            if code >= 0:
                marks[code] = stamp
        self.marked = cells

    def mark_more(self, cells: set[Cell], marked: AbstractSet[Cell]) -> None:
        """Mark the cells ``cells`` too, the marks now telling the set ``marked``.

        ``cells`` is a set (compiled, walked as C, with no iterator made)."""
        marks, stamp = self.marks, self.stamp
        for cell in cells:
            code = _code_inside(cell, 0)
            if code >= 0:
                marks[code] = stamp
        self.marked = marked

    def clear(self) -> None:
        """Take every card off: the board reads as a new one (see :func:`release_board`)."""
        # Two copies of a blank array: a few hundred machine instructions, less than
        # zeroing the cells the cards lay on one by one.
        self.cards[:] = _BLANK
        self.touching[:] = _BLANK
        self.x_low = self.y_low = _SIDE
        self.x_high = self.y_high = -1
        self.grid = {}
        self.frontier = None
        self.mark(frozenset())  # a stamp of its own: no cell is marked

    def frontier_dict(self) -> dict[Cell, int]:
        """The grid's frontier, as a grid keeps it: made once after each card."""
        frontier = self.frontier
        if frontier is None:
            touching = self.touching
            frontier = self.frontier = {c: touching[_code_inside(c, 0)] for c in _front(self)}
        return frontier


# Boards given back by rollouts that are over (release_board), cleared, for the next
# ones: a board's arrays are then made once per board rather than once per game. A
# few: a process plays one rollout at a time, or one per thread.
_SPARE_BOARDS: list[Board] = []
_SPARE_LIMIT = 4


def _new_board() -> Board:
    """An empty board: a spare one if there is one."""
    try:
        # One call, not a test and then a pop: another thread may take the last spare
        # between the two.
        return _SPARE_BOARDS.pop()
    except IndexError:
        return Board({})


def release_board(table: Grid) -> None:
    """Give the board of ``table``, a working grid on one whose game is over and which
    nothing reads any more, to the next rollout (see :meth:`Position.board_table`).

    The grid is left unusable: only a rollout that keeps nothing of its position (a
    simulation's summary) gives its board back.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> grid = WorkingGrid.copy_of(Grid({(0, 0): Card.parse("AD")}), board=True)
        >>> release_board(grid)
        >>> again = WorkingGrid.copy_of(Grid({(5, 5): Card.parse("AS")}), board=True)
        >>> sorted(again.frontier) == sorted(Grid({(5, 5): Card.parse("AS")}).frontier)
        True
    """
    if type(table) is WorkingGrid:
        board = _board_of(table)
        if board is not None:
            _set_board(table, None)
            if len(_SPARE_BOARDS) < _SPARE_LIMIT:
                board.clear()
                _SPARE_BOARDS.append(board)


# The working grid whose board was asked last, with its board (or None). A rollout
# asks the board of its one grid in every placement rule, and a working grid's slot is
# read by a Python attribute look-up even compiled (a grid is no extension type): this
# pair makes it a comparison of pointers. Every change of a grid's board goes through
# _set_board, which keeps the pair true; one tuple, read at once by any thread.
_LAST_BOARD: tuple[WorkingGrid | None, Board | None] = (None, None)


def _board_of(table: WorkingGrid) -> Board | None:
    """The board of the working grid ``table`` (``table.board``)."""
    global _LAST_BOARD
    last = _LAST_BOARD
    if last[0] is table:
        return last[1]
    board = table.board
    _LAST_BOARD = (table, board)
    return board


def _set_board(table: WorkingGrid, board: Board | None) -> None:
    """Put the working grid ``table`` on ``board`` (or off any, with None)."""
    global _LAST_BOARD
    table.board = board
    # Off its board, the grid is forgotten: a grid given back may be dropped.
    _LAST_BOARD = (table, board) if board is not None else (None, None)


def _code_inside(cell: Cell, margin: int) -> int:
    """The code of ``cell`` if it lies at least ``margin`` cells inside the board's
    window (so that its neighbours, ``margin`` deep, have codes too), else -1."""
    x, y = cell
    x += _OFFSET
    y += _OFFSET
    if margin <= x < _SIDE - margin and margin <= y < _SIDE - margin:
        return x * _SIDE + y
    return -1


def _front(board: Board) -> list[Cell]:
    """The frontier of ``board`` (the empty cells touching a card), sorted."""
    cells = []
    counts, laid, cell_of = board.touching, board.cards, _CELL_OF
    for x in range(board.x_low, board.x_high + 1):
        code = x * _SIDE + board.y_low
        end = x * _SIDE + board.y_high
        while code <= end:
            # ``&``, not ``and``: compiled, one branch a cell (see open_cells).
            if (counts[code] != 0) & (laid[code] == 0):
                cells.append(cell_of[code])
            code += 1
    return cells


class WorkingGrid(Grid):
    """A :class:`~cardcrawl.Grid` that a position changes in place (:func:`put_card`).

    It reads as any grid does; :func:`freeze` hands its cards and frontier to a frozen
    grid, after which the position makes itself a new working copy if it places again.
    A rollout's grid (:meth:`Position.board_table`) lays its cards on a :class:`Board`
    (``board``) too, which keeps the frontier instead of a dict.
    """

    # ``cards`` is a slot here, the very dict of ``_cards``, rather than the grid's
    # property: the rules and the hooks read it at every placement, and reading a slot
    # is no Python call.
    __slots__ = ("board", "cards")
    cards: dict[Cell, Card]
    board: Board | None

    def __init__(self, cards: Mapping[Cell, Card] | Iterable[tuple[Cell, Card]] = ()) -> None:
        # As a grid is made (a copy or a pickle of a working grid is made so too).
        super().__init__(cards)
        self.cards = self._cards
        self.board = None

    @classmethod
    def copy_of(cls, grid: Grid, board: bool = False) -> WorkingGrid:
        """A working copy of ``grid``; with ``board``, one on a :class:`Board` if every
        card fits on one."""
        return working_copy(grid, board)

    @property
    def frontier(self) -> dict[Cell, int]:
        """Empty cells touching at least one card, each with how many cards it touches."""
        board = self.board
        return self._frontier if board is None else board.frontier_dict()

    def place(self, cell: Cell, card: Card) -> Grid:
        """A new grid with ``card`` on the empty ``cell`` (as ``Grid.place``)."""
        return Grid._build(self._cards, self.frontier).place(cell, card)

    def replace(self, cell: Cell, card: Card) -> Grid:
        """A new grid with the card on ``cell`` swapped for ``card`` (as ``Grid.replace``),
        which shares nothing with this one."""
        return Grid._build(self._cards, self.frontier.copy()).replace(cell, card)

    def put(self, cell: Cell, card: Card) -> None:
        """Lay ``card`` on the empty ``cell``, keeping the frontier (as ``Grid.place``)."""
        put_card(self, cell, card)

    def __hash__(self) -> int:
        raise TypeError("a working grid changes: it has no hash")


def working_copy(grid: Grid, board: bool = False) -> WorkingGrid:
    """A working copy of ``grid`` (:meth:`WorkingGrid.copy_of`, which the positions
    call as C in the compiled build, at every placement of a public step)."""
    working: WorkingGrid = _new(WorkingGrid)
    working._hash = None
    working.board = None
    cards = grid._cards
    if board:
        on_board = _new_board()
        for cell, card in cards.items():
            if not on_board.lay(cell, card, card.index):
                break
        else:
            working._cards = working.cards = on_board.grid
            working._frontier = None  # type: ignore[assignment]
            working.board = on_board
            return working
    working._cards = working.cards = cards.copy()
    frontier = grid._frontier
    if frontier is None:  # a working grid on a board keeps no dict
        frontier = grid.frontier
    working._frontier = frontier.copy()
    return working


def put_card(table: WorkingGrid, cell: Cell, card: Card, index: int = -1) -> None:
    """Lay ``card`` on the empty ``cell`` of the working grid ``table``, keeping its
    frontier, or its board (:meth:`WorkingGrid.put`; the compiled build calls this as C).
    ``index`` is the card's index if the caller has read it (a card's attribute is a
    Python look-up even compiled), else -1.

    A card that does not fit on the board moves the grid off it, to a frontier dict.
    """
    board = _board_of(table)
    if board is not None:
        if board.lay(cell, card, card.index if index < 0 else index):
            return
        table._frontier = board.frontier_dict()  # off the board: a dict from now on
        _set_board(table, None)
    cards = table.cards
    cards[cell] = card
    frontier = table._frontier
    frontier.pop(cell, None)
    # The grid's own cache of neighbours, read directly: a lookup costs less than a
    # call, and this runs at every placement of every game.
    cache = _NEIGHBOURS
    around = cache.get(cell)
    if around is None:
        around = neighbours(cell)
    for n in around:
        if n not in cards:
            frontier[n] = frontier.get(n, 0) + 1


def open_cells(
    table: Grid, touching: int, closed: AbstractSet[Cell], among: Sequence[Cell] | None = None
) -> list[Cell]:
    """The empty cells of ``table`` touching exactly ``touching`` cards (with 0, any
    number but none), but for those in ``closed``: sorted, or with ``among``, those of
    the cells ``among`` in their order.

    Asked by the placement rules (:func:`cardcrawl.mapless.corridor_cells`,
    :func:`cardcrawl.mapless.room_cells`) of whatever grid the position holds: a
    board's front is in sorted order already, and its marks say what is closed.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> grid = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")})
        >>> open_cells(grid, 1, frozenset({(0, 1)}))
        [(-1, 0), (0, -1), (1, -1), (1, 1), (2, 0)]
        >>> on_board = WorkingGrid.copy_of(grid, board=True)
        >>> open_cells(on_board, 1, frozenset({(0, 1)}))
        [(-1, 0), (0, -1), (1, -1), (1, 1), (2, 0)]
        >>> open_cells(on_board, 1, frozenset(), among=((1, 1), (1, 0), (0, 1)))
        [(1, 1), (0, 1)]
    """
    cells = []
    if type(table) is WorkingGrid:
        board = _board_of(table)
        if board is not None:
            if closed is not board.marked:
                board.mark(closed)
            counts, marks, stamp, laid = board.touching, board.marks, board.stamp, board.cards
            if among is None:
                cell_of = _CELL_OF
                # The frontier's cells, row by row (see Board): in sorted order. The
                # tests are joined by ``&``, not ``and``: compiled, that is one branch a
                # cell, taken only for the few cells kept, which a processor predicts.
                for x in range(board.x_low, board.x_high + 1):
                    code = x * _SIDE + board.y_low
                    end = x * _SIDE + board.y_high
                    while code <= end:
                        n = counts[code]
                        if (
                            (n == touching if touching else n != 0)
                            & (laid[code] == 0)
                            & (marks[code] != stamp)
                        ):
                            cells.append(cell_of[code])
                        code += 1
                return cells
            for cell in among:
                code = _code_inside(cell, 0)
                if code >= 0:
                    n = counts[code]
                    if (
                        n
                        and not laid[code]
                        and (touching == 0 or n == touching)
                        and marks[code] != stamp
                    ):
                        cells.append(cell)
            return cells
    frontier = table._frontier
    if among is None:
        if touching == 0:
            for c in frontier:
                if c not in closed:
                    cells.append(c)
        else:
            for c, n in frontier.items():
                if n == touching and c not in closed:
                    cells.append(c)
        cells.sort()
        return cells
    for c in among:
        n = frontier.get(c, 0)
        if n and (touching == 0 or n == touching) and c not in closed:
            cells.append(c)
    return cells


def close(p: Position, cells: set[Cell]) -> None:
    """Add the newly closed ``cells`` to the closed cells of ``p`` (M-6): a new frozen
    set, or in place where the position keeps a set of its own (:meth:`Position.own`,
    what a rollout does, so that it makes no set at each placement that closes cells). A
    board whose marks tell the closed cells marks only ``cells`` (see :func:`open_cells`).

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> p = setup(0, False, {"narrative": Deck(), "mind": Deck(), "body": Deck()},
        ...           Grid({(0, 0): Card.parse("AD")}))
        >>> p.board_table()
        >>> close(p, {(1, 0)})
        >>> p.own()
        >>> close(p, {(0, 1)})
        >>> sorted(p.closed), open_cells(p.table, 1, p.closed_set)
        ([(0, 1), (1, 0)], [(-1, 0), (0, -1)])
    """
    closed = p.closed_set
    if type(closed) is set:
        grown = closed  # compiled: a set, updated as C
        grown |= cells
    else:
        p.closed_set = closed | cells
    table = p.table
    if type(table) is WorkingGrid:
        board = _board_of(table)
        if board is not None and board.marked is closed:
            board.mark_more(cells, p.closed_set)


def reopen(p: Position, cell: Cell) -> None:
    """Take ``cell`` from the closed cells of ``p``, if it is one (M-6: the Exit opens
    on a closed cell).

    Examples:
        >>> from cardcrawl import Grid
        >>> p = setup(0, False, {"narrative": Deck(), "mind": Deck(), "body": Deck()}, Grid())
        >>> p.closed = frozenset({(1, 0), (2, 0)})
        >>> reopen(p, (1, 0))
        >>> p.own()
        >>> reopen(p, (2, 0)), reopen(p, (3, 0))
        (None, None)
        >>> p.closed
        frozenset()
    """
    closed = p.closed_set
    if cell in closed:
        # A new set, of the same kind: a board's marks may tell the one taken.
        p.closed_set = closed - {cell}


def frontier_cells(table: Grid) -> Iterable[Cell]:
    """The cells of the frontier of ``table`` (asked by M-11,
    :func:`cardcrawl.mapless.exit_candidates`): a board's, with no dict made.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> grid = Grid({(0, 0): Card.parse("AD")})
        >>> sorted(frontier_cells(grid)) == list(frontier_cells(WorkingGrid.copy_of(grid, True)))
        True
    """
    if type(table) is WorkingGrid:
        board = _board_of(table)
        if board is not None:
            return _front(board)
    return table.frontier


def empty_around(table: Grid, cell: Cell, kinds: Sequence[bool]) -> list[list[Cell]]:
    """For each of ``cell`` and its four neighbours (in the order of
    :func:`~cardcrawl.neighbours`) that holds a card of the kind ``kinds`` tells by card
    index, its empty neighbours, sorted (asked by M-6,
    :func:`cardcrawl.mapless.newly_closed`): a board's read by cell code, with no cell
    hashed, in lists it shares from one call to the next (read them, never change them).

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> from cardcrawl.mapless._rules import _CORRIDOR
        >>> grid = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")})
        >>> empty_around(grid, (0, 0), _CORRIDOR)
        [[(1, -1), (1, 1), (2, 0)]]
        >>> empty_around(WorkingGrid.copy_of(grid, board=True), (0, 0), _CORRIDOR)
        [[(1, -1), (1, 1), (2, 0)]]
    """
    around = []
    if type(table) is WorkingGrid:
        board = _board_of(table)
        if board is not None:
            code = _code_inside(cell, 2)  # the neighbours' own neighbours inside too
            if code >= 0:
                laid = board.cards
                # A board holds each card's index plus one, 0 for an empty cell.
                index = laid[code]
                if index and kinds[index - 1]:
                    around.append(_empty_at(laid, code))
                index = laid[code - _SIDE]
                if index and kinds[index - 1]:
                    around.append(_empty_at(laid, code - _SIDE))
                index = laid[code + _SIDE]
                if index and kinds[index - 1]:
                    around.append(_empty_at(laid, code + _SIDE))
                index = laid[code - 1]
                if index and kinds[index - 1]:
                    around.append(_empty_at(laid, code - 1))
                index = laid[code + 1]
                if index and kinds[index - 1]:
                    around.append(_empty_at(laid, code + 1))
                return around
    cards = table.cards
    near = _NEIGHBOURS.get(cell)  # the grid's cache, read directly (see put_card)
    if near is None:
        near = neighbours(cell)
    left, right, down, up = near
    # Written out: this runs at every placement of every game.
    card = cards.get(cell)
    if card is not None and kinds[card.index]:
        around.append(empty_neighbours(table, cell))
    card = cards.get(left)
    if card is not None and kinds[card.index]:
        around.append(empty_neighbours(table, left))
    card = cards.get(right)
    if card is not None and kinds[card.index]:
        around.append(empty_neighbours(table, right))
    card = cards.get(down)
    if card is not None and kinds[card.index]:
        around.append(empty_neighbours(table, down))
    card = cards.get(up)
    if card is not None and kinds[card.index]:
        around.append(empty_neighbours(table, up))
    return around


# The lists _empty_at gives, each made once: by cell code, a row of the sixteen ways
# its four neighbours may be empty or not (None until asked for).
_EMPTY_ROWS: list[list[list[Cell] | None] | None] = [None] * (_SIDE * _SIDE)


def _empty_at(laid: bytearray, code: int) -> list[Cell]:
    """The empty neighbours of the cell of ``code`` on a board whose cards are ``laid``,
    sorted (as the codes are): one list for each cell and each way its neighbours lie,
    made once and shared (a rollout asks for them at every placement), which the
    callers only read."""
    # Four bits, one for each empty neighbour, with no branch (compiled): which of a
    # cell's neighbours hold a card is what a processor cannot predict.
    way = (
        (laid[code - _SIDE] == 0)
        | (laid[code - 1] == 0) << 1
        | (laid[code + 1] == 0) << 2
        | (laid[code + _SIDE] == 0) << 3
    )
    row = _EMPTY_ROWS[code]
    if row is None:
        row = _EMPTY_ROWS[code] = [None] * 16
    empty = row[way]
    if empty is None:
        cell_of = _CELL_OF
        empty = []
        if way & 1:
            empty.append(cell_of[code - _SIDE])
        if way & 2:
            empty.append(cell_of[code - 1])
        if way & 4:
            empty.append(cell_of[code + 1])
        if way & 8:
            empty.append(cell_of[code + _SIDE])
        row[way] = empty
    return empty


def empty_neighbours(table: Grid, cell: Cell) -> list[Cell]:
    """The empty cells among the four neighbours of ``cell`` of ``table``, sorted (asked
    by M-6, :func:`cardcrawl.mapless.newly_closed`, and M-7,
    :func:`cardcrawl.mapless.corridor_cells`).

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> grid = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")})
        >>> empty_neighbours(grid, (1, 0))
        [(1, -1), (1, 1), (2, 0)]
        >>> empty_neighbours(WorkingGrid.copy_of(grid, board=True), (1, 0))
        [(1, -1), (1, 1), (2, 0)]
    """
    if type(table) is WorkingGrid:
        board = _board_of(table)
        if board is not None:
            code = _code_inside(cell, 1)
            if code >= 0:
                return _empty_at(board.cards, code)[:]  # a list of the caller's own
    empty = []
    cards = table.cards
    around = _NEIGHBOURS.get(cell)  # the grid's cache, read directly (see put_card)
    if around is None:
        around = neighbours(cell)
    left, right, down, up = around
    # Written out, in sorted order: this runs at every placement of every game.
    if left not in cards:
        empty.append(left)
    if down not in cards:
        empty.append(down)
    if up not in cards:
        empty.append(up)
    if right not in cards:
        empty.append(right)
    return empty


def laid_neighbours(table: Grid, cell: Cell) -> list[Cell]:
    """The cells among the four neighbours of ``cell`` of ``table`` that hold a card,
    sorted (asked by M-14, :func:`cardcrawl.mapless._rules.move_cells`): a board's read
    by cell code, with no cell hashed.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> grid = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")})
        >>> laid_neighbours(grid, (0, 0)), laid_neighbours(grid, (1, 1))
        ([(1, 0)], [(1, 0)])
        >>> laid_neighbours(WorkingGrid.copy_of(grid, board=True), (0, 0))
        [(1, 0)]
    """
    laid = []
    if type(table) is WorkingGrid:
        board = _board_of(table)
        if board is not None:
            code = _code_inside(cell, 1)
            if code >= 0:
                on, cell_of = board.cards, _CELL_OF
                # In sorted order, as the codes are.
                if on[code - _SIDE]:
                    laid.append(cell_of[code - _SIDE])
                if on[code - 1]:
                    laid.append(cell_of[code - 1])
                if on[code + 1]:
                    laid.append(cell_of[code + 1])
                if on[code + _SIDE]:
                    laid.append(cell_of[code + _SIDE])
                return laid
    cards = table.cards
    around = _NEIGHBOURS.get(cell)  # the grid's cache, read directly (see put_card)
    if around is None:
        around = neighbours(cell)
    left, right, down, up = around
    # Written out, in sorted order: this runs at every move of every game.
    if left in cards:
        laid.append(left)
    if down in cards:
        laid.append(down)
    if up in cards:
        laid.append(up)
    if right in cards:
        laid.append(right)
    return laid


def laid_index(table: Grid, cell: Cell) -> int:
    """The card index of the card on ``cell`` of ``table`` (asked by M-15,
    :func:`cardcrawl.mapless._rules.encounter_threshold`): a board's read by cell code,
    with no cell hashed and no card's attribute looked up.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> grid = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")})
        >>> laid_index(grid, (1, 0)), laid_index(WorkingGrid.copy_of(grid, board=True), (1, 0))
        (4, 4)

    Raises:
        KeyError: no card lies on ``cell``.
    """
    if type(table) is WorkingGrid:
        board = _board_of(table)
        if board is not None:
            code = _code_inside(cell, 0)
            if code >= 0:
                laid = board.cards
                index = laid[code]  # the card's index plus one; 0 for an empty cell
                if index:
                    return index - 1
    return table.cards[cell].index


class WorkingDeck:
    """A deck that a position draws from in place: a stacked top over a sorted rest.

    It draws exactly as :meth:`cardcrawl.Deck.draw` does (the stacked top first, else
    index ``rng_below(len(rest))`` of the rest sorted by card index), and reads as a
    :class:`~cardcrawl.Deck` does. Until something is drawn it only holds the frozen
    deck it was made from (``source``), which freezing then shares. Its first draw (or
    take) makes the next frozen deck at once, one copy of the cards, which freezing
    shares too: a public step draws about once from a deck. From the second on it
    keeps lists, changed in place: a rollout draws many times from one working deck.

    Examples:
        >>> from cardcrawl import Deck, parse_cards
        >>> deck = Deck.of(parse_cards("2S 3S 4S"))
        >>> p = setup(7, False, dict.fromkeys(("narrative", "mind", "body"), deck), Grid())
        >>> working = p.drawing()
        >>> card = working.draw(p)
        >>> (card, p.rng) == deck.sample(7), working.freeze() == deck.take(card)
        (True, True)
    """

    __slots__ = ("_once", "_rest", "_stacked", "source")

    def __init__(self, stacked: list[Card], rest: list[Card], source: Deck | None) -> None:
        self._stacked = stacked
        self._rest = rest
        self.source = source
        self._once = True

    @classmethod
    def of(cls, deck: Deck) -> WorkingDeck:
        """A working copy of ``deck`` (made lazily: its lists at the first change)."""
        working: WorkingDeck = cls.__new__(cls)
        working.source = deck
        working._once = False  # nothing drawn yet: the first draw makes a frozen deck
        return working

    @classmethod
    def shuffled(cls, cards: Iterable[Card]) -> WorkingDeck:
        """A shuffled deck of ``cards`` (``Deck.of``)."""
        return cls([], sorted(cards, key=_INDEX), None)

    def _own(self) -> None:
        """Make the lists of the source, to change them."""
        source = self.source
        if source is not None:
            self._stacked = list(source.stacked)
            self._rest = list(source.rest)
            self.source = None

    @property
    def stacked(self) -> tuple[Card, ...] | list[Card]:
        """The stacked top, drawn first in this order."""
        source = self.source
        return self._stacked if source is None else source.stacked

    @property
    def rest(self) -> tuple[Card, ...] | list[Card]:
        """The unordered rest, sorted by card index."""
        source = self.source
        return self._rest if source is None else source.rest

    def draw(self, p: Position) -> Card:
        """Draw the next card with the generator of the position ``p``, moved on in
        place (compiled, a C word: no tuple or integer made)."""
        source = self.source
        if source is not None:
            if not self._once:
                # The first draw: the deck after it, frozen, in one copy of the cards.
                self._once = True
                stacked = source.stacked
                if stacked:
                    self.source = _make(stacked[1:], source.rest)
                    return stacked[0]
                cards = source.rest
                rng, k = _below(p.rng, len(cards))  # a statement of its own (a C pair)
                p.rng = rng
                self.source = _make((), cards[:k] + cards[k + 1 :])
                return cards[k]
            self._own()
        if self._stacked:
            return self._stacked.pop(0)
        rest = self._rest
        rng, k = _below(p.rng, len(rest))  # a statement of its own: compiled, a C pair
        p.rng = rng
        return rest.pop(k)

    def take(self, card: Card) -> None:
        """Take ``card``, a possible next draw (an outcome of :meth:`outcomes`)."""
        source = self.source
        if source is not None and not self._once:
            # The first: the deck after it, frozen, as draw makes it.
            self._once = True
            stacked = source.stacked
            if stacked:
                self.source = _make(stacked[1:], source.rest)
                return
            cards = source.rest
            k = bisect_left(cards, card.index, key=_INDEX)
            self.source = _make((), cards[:k] + cards[k + 1 :])
            return
        self._own()
        if self._stacked:
            self._stacked.pop(0)
            return
        rest = self._rest
        del rest[bisect_left(rest, card.index, key=_INDEX)]

    def shuffle_in(self, card: Card) -> None:
        """Shuffle ``card`` into the unstacked rest."""
        self._own()
        insort(self._rest, card, key=_INDEX)

    def freeze(self) -> Deck:
        """The frozen deck of these cards."""
        deck = self.source
        if deck is None:
            deck = self.source = Deck._make(tuple(self._stacked), tuple(self._rest))
        return deck

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card in the deck, sorted (as ``Deck.cards``)."""
        source = self.source
        if source is not None:
            return source.cards
        if self._stacked:
            return tuple(sorted(self._stacked + self._rest, key=_INDEX))
        return tuple(self._rest)

    def outcomes(self) -> tuple[tuple[Card, int], ...]:
        """What the next draw can be, each card with its weight (as ``Deck.outcomes``)."""
        return self.freeze().outcomes()

    def __len__(self) -> int:
        source = self.source
        if source is not None:
            return len(source)
        return len(self._stacked) + len(self._rest)

    def __bool__(self) -> bool:
        source = self.source
        if source is not None:
            return bool(source)
        return bool(self._stacked or self._rest)

    def __contains__(self, card: object) -> bool:
        return card in self.stacked or card in self.rest

    def __repr__(self) -> str:
        return f"<WorkingDeck {self.freeze()!r}>"


# What ``attrs.evolve`` reads of a class to copy an instance with changes: the fields of
# a state (but ``events``), so that a hook that asks another hook of a changed copy of
# the position it is given (``attrs.evolve(state, last_room=None)``) is given a position.
_EVOLVED = tuple(a for a in attrs.fields(MaplessState) if a.init and a.name != "events")


class Position:
    """One position of The Mapless House, changed in place by the rules.

    Its attributes are the fields of :class:`~cardcrawl.mapless.MaplessState` (but
    ``events``), with a :class:`WorkingGrid` or frozen grid for ``table``, a
    :class:`WorkingDeck` or frozen deck for each deck (:meth:`drawing` makes the one
    drawn from a working deck), and ``choices``: the cells of the decision the
    position waits for, once the rules have asked the hooks for them (else ``None``).
    A plain class of slots, which the compiled build makes an extension type whose
    fields the rules read as C (``_position.pxd``).

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
        >>> position = thaw(state)
        >>> position.drawn, position.score, len(position.narrative)
        (Card.parse('KS'), 1, 24)
        >>> freeze(position, list(state.events)) == state
        True

        ``attrs.evolve`` copies it with changes, as it does a state, so a hook that
        asks another hook of a changed copy (``attrs.evolve(state, last_room=None)``)
        is given a position too:

        >>> import attrs
        >>> attrs.evolve(position, last_room=(1, 0)).last_room, position.last_room
        ((1, 0), None)
    """

    __slots__ = (
        # A batch keeps each position's last events beside it, weakly.
        "__weakref__",
        "body", "body_aside", "choices", "closed_set", "club", "drawn", "ending", "exit_cell",
        "explicit_chance", "held", "last_room", "mind", "mind_aside", "mind_card",
        "narrative", "phase", "player", "ran_dry", "refused", "rng", "spade",
        "spade_left_exit", "table", "turn",
    )  # fmt: skip
    __attrs_attrs__ = _EVOLVED

    phase: Phase
    turn: int
    table: Grid
    # The closed cells (M-6) as the rules keep them: a frozen set, or a set of the
    # position's own that grows in place (own); read as ``closed``, a frozen set.
    closed_set: frozenset[Cell] | set[Cell]
    last_room: Cell | None
    narrative: Deck | WorkingDeck
    mind: Deck | WorkingDeck
    body: Deck | WorkingDeck
    mind_aside: tuple[Card, ...]
    body_aside: tuple[Card, ...]
    refused: tuple[Card, ...]
    held: tuple[Card, ...]
    drawn: Card | None
    mind_card: Card | None
    player: Cell
    exit_cell: Cell | None
    spade: Cell | None
    club: Cell | None
    spade_left_exit: bool
    ran_dry: bool
    ending: Ending | None
    rng: int
    explicit_chance: bool
    choices: list[Cell] | None

    def __init__(
        self,
        phase: Phase,
        turn: int,
        table: Grid,
        closed: frozenset[Cell],
        last_room: Cell | None,
        narrative: Deck | WorkingDeck,
        mind: Deck | WorkingDeck,
        body: Deck | WorkingDeck,
        mind_aside: tuple[Card, ...],
        body_aside: tuple[Card, ...],
        refused: tuple[Card, ...],
        held: tuple[Card, ...],
        drawn: Card | None,
        mind_card: Card | None,
        player: Cell,
        exit_cell: Cell | None,
        spade: Cell | None,
        club: Cell | None,
        spade_left_exit: bool,
        ran_dry: bool,
        ending: Ending | None,
        rng: int,
        explicit_chance: bool,
        choices: list[Cell] | None = None,
    ) -> None:
        self.phase = phase
        self.turn = turn
        self.table = table
        self.closed = closed
        self.last_room = last_room
        self.narrative = narrative
        self.mind = mind
        self.body = body
        self.mind_aside = mind_aside
        self.body_aside = body_aside
        self.refused = refused
        self.held = held
        self.drawn = drawn
        self.mind_card = mind_card
        self.player = player
        self.exit_cell = exit_cell
        self.spade = spade
        self.club = club
        self.spade_left_exit = spade_left_exit
        self.ran_dry = ran_dry
        self.ending = ending
        self.rng = rng
        self.explicit_chance = explicit_chance
        self.choices = choices

    @property
    def closed(self) -> frozenset[Cell]:
        """The empty cells closed to Narrative cards (M-6), as ``MaplessState.closed``."""
        closed = self.closed_set
        if type(closed) is frozenset:
            return closed
        # Kept frozen: a hook that reads them at every step then copies them once.
        frozen = self.closed_set = frozenset(closed)
        return frozen

    @closed.setter
    def closed(self, cells: frozenset[Cell]) -> None:
        self.closed_set = cells

    def own(self) -> None:
        """Make the position's closed cells and decks its own, changed in place from the
        first change on: what a rollout does, whose stock rules read them as they are
        and which keeps no state between decisions (a public step makes one new frozen
        set and deck per change, which its state shares). A frozen set is made again
        when ``closed`` is read.

        Examples:
            >>> from cardcrawl import Grid, parse_cards
            >>> deck = Deck.of(parse_cards("2S 3S 4S"))
            >>> p = setup(7, False, dict.fromkeys(("narrative", "mind", "body"), deck), Grid())
            >>> p.own()
            >>> card = p.drawing().draw(p)
            >>> (card, p.rng) == deck.sample(7), p.narrative.freeze() == deck.take(card)
            (True, True)
        """
        if type(self.closed_set) is not set:
            self.closed_set = set(self.closed_set)
        self.narrative = _owned(self.narrative)
        self.mind = _owned(self.mind)
        self.body = _owned(self.body)

    @property
    def score(self) -> int:
        """The number of cards on the table (M-21), as ``MaplessState.score``."""
        return len(self.table)

    @property
    def is_hunting(self) -> bool:
        """True once the Exit is on the table (M-12), as ``MaplessState.is_hunting``."""
        return self.exit_cell is not None

    def drawing(self) -> WorkingDeck:
        """The deck the chance event of the position draws from, made a working deck."""
        phase = self.phase
        if phase is _DRAW:
            deck = self.narrative
            if type(deck) is not WorkingDeck:  # a frozen deck (compiled: no isinstance)
                deck = self.narrative = WorkingDeck.of(deck)  # type: ignore[arg-type]
        elif phase is _DRAW_MIND:
            deck = self.mind
            if type(deck) is not WorkingDeck:  # a frozen deck (compiled: no isinstance)
                deck = self.mind = WorkingDeck.of(deck)  # type: ignore[arg-type]
        else:
            deck = self.body
            if type(deck) is not WorkingDeck:  # a frozen deck (compiled: no isinstance)
                deck = self.body = WorkingDeck.of(deck)  # type: ignore[arg-type]
        return deck

    def working_table(self) -> WorkingGrid:
        """The table, made a working grid of the position's own if it is not one."""
        table = self.table
        if type(table) is not WorkingGrid:
            table = self.table = working_copy(table)
        return table

    def board_table(self) -> None:
        """Make the table a working grid on a :class:`Board`, if it fits on one: what
        a rollout plays on (see ``BOARDS``), where a step's position copies the dicts."""
        table = self.table
        if type(table) is not WorkingGrid or table.board is None:
            self.table = working_copy(table, True)

    def __repr__(self) -> str:
        return f"<Position of {freeze(self, [])!r}>"


def _owned(deck: Deck | WorkingDeck) -> WorkingDeck:
    """``deck`` made a working deck whose first draw makes its lists at once, with no
    frozen deck made after it (see :meth:`Position.own`)."""
    if type(deck) is WorkingDeck:
        working = deck
    else:  # WorkingDeck.of's, with no class method called through Python
        working = WorkingDeck.__new__(WorkingDeck)
        working.source = deck  # type: ignore[assignment]
    working._once = True
    return working


_new = object.__new__


def thaw(state: MaplessState) -> Position:
    """A working position of ``state``, which itself never changes."""
    p: Position = Position.__new__(Position)
    fields = state.__dict__
    p.phase = fields["phase"]
    p.turn = fields["turn"]
    p.table = fields["table"]
    p.closed_set = fields["closed"]
    p.last_room = fields["last_room"]
    p.narrative = fields["narrative"]  # each deck becomes a working deck when drawn from
    p.mind = fields["mind"]
    p.body = fields["body"]
    p.mind_aside = fields["mind_aside"]
    p.body_aside = fields["body_aside"]
    p.refused = fields["refused"]
    p.held = fields["held"]
    p.drawn = fields["drawn"]
    p.mind_card = fields["mind_card"]
    p.player = fields["player"]
    p.exit_cell = fields["exit_cell"]
    p.spade = fields["spade"]
    p.club = fields["club"]
    p.spade_left_exit = fields["spade_left_exit"]
    p.ran_dry = fields["ran_dry"]
    p.ending = fields["ending"]
    p.rng = fields["rng"]
    p.explicit_chance = fields["explicit_chance"]
    p.choices = None
    return p


def setup(rng: int, explicit_chance: bool, decks: Mapping[str, Deck], table: Grid) -> Position:
    """The position at setup: ``table`` and the three decks, the player on (0, 0)."""
    p: Position = Position.__new__(Position)
    p.phase = Phase.DRAW
    p.turn = 0
    p.table = table
    p.closed_set = frozenset()
    p.last_room = None
    p.narrative = decks["narrative"]
    p.mind = decks["mind"]
    p.body = decks["body"]
    p.mind_aside = p.body_aside = p.refused = p.held = ()
    p.drawn = p.mind_card = None
    p.player = (0, 0)
    p.exit_cell = p.spade = p.club = None
    p.spade_left_exit = p.ran_dry = False
    p.ending = None
    p.rng = rng
    p.explicit_chance = explicit_chance
    p.choices = None
    return p


# One state built by its class before any is frozen: the table of keys that the dicts
# of all states share (see freeze) lays out their fields in the class's order.
MaplessState(
    phase=Phase.OVER, turn=0, table=Grid(), closed=frozenset(), last_room=None,
    narrative=Deck(), mind=Deck(), body=Deck(), mind_aside=(), body_aside=(), refused=(),
    held=(), drawn=None, mind_card=None, player=(0, 0), exit_cell=None, spade=None,
    club=None, spade_left_exit=False, ran_dry=False, ending=None, rng=0,
    explicit_chance=False, events=(),
)  # fmt: skip


def freeze(
    p: Position, events: list[Any], legal_key: str | None = None, legal: Any = None
) -> MaplessState:
    """The state of position ``p`` with the events ``events``, a step's log of them
    (events, and tuples of an event's class and values: see
    :func:`cardcrawl.core._engine.events_of_log`), and, with ``legal_key``, its legal
    actions ``legal`` kept in its memo under that key.

    The position stays usable: its table and decks, if they were working ones, are now
    the frozen ones of the state, and a later placement or draw copies them first.
    """
    table = p.table
    if type(table) is WorkingGrid:
        # Grid._build, written out (a call less at every placement).
        grid: Grid = _new(Grid)
        grid._cards = table._cards
        grid._frontier = table._frontier if table.board is None else table.frontier
        grid._hash = None
        table = p.table = grid
    # The new state's own dict, filled in place: it shares the table of keys of every
    # state's dict (a third of the memory of a dict built afresh, for every state a
    # game keeps), with no copy of another dict made and none set on the state.
    state: MaplessState = _new(MaplessState)
    fields = state.__dict__
    fields["phase"] = p.phase
    fields["turn"] = p.turn
    fields["table"] = table
    # ``p.closed``, without the property's call: the closed cells as a frozen set,
    # kept so (the position's own set, if it grew in place, is frozen once).
    closed = p.closed_set
    if type(closed) is not frozenset:
        closed = p.closed_set = frozenset(closed)
    fields["closed"] = closed
    fields["last_room"] = p.last_room
    # A working deck is replaced by its frozen deck, as the table is: a position kept
    # for the next step (GameBase._keep_position) freezes only what is drawn again.
    # (``working``, a working deck, is typed for the compiled build: its freeze is a C call.)
    deck = p.narrative
    if type(deck) is WorkingDeck:
        working = deck
        deck = p.narrative = working.freeze()
    fields["narrative"] = deck
    deck = p.mind
    if type(deck) is WorkingDeck:
        working = deck
        deck = p.mind = working.freeze()
    fields["mind"] = deck
    deck = p.body
    if type(deck) is WorkingDeck:
        working = deck
        deck = p.body = working.freeze()
    fields["body"] = deck
    fields["mind_aside"] = p.mind_aside
    fields["body_aside"] = p.body_aside
    fields["refused"] = p.refused
    fields["held"] = p.held
    fields["drawn"] = p.drawn
    fields["mind_card"] = p.mind_card
    fields["player"] = p.player
    fields["exit_cell"] = p.exit_cell
    fields["spade"] = p.spade
    fields["club"] = p.club
    fields["spade_left_exit"] = p.spade_left_exit
    fields["ran_dry"] = p.ran_dry
    fields["ending"] = p.ending
    fields["rng"] = p.rng
    fields["explicit_chance"] = p.explicit_chance
    # The memo before the log, as a state built by its class has them: the dicts of
    # all states keep one order of their keys.
    fields["_memo"] = {} if legal_key is None else {legal_key: legal}
    # A frozen state holds its step's log of events, made into ``events`` when read
    # (see cardcrawl.mapless._state).
    fields["_log"] = tuple(events)
    return state
