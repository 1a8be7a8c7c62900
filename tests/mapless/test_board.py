"""The working grid's board of cell codes: laying a card on it and the cells a placement
closes (M-6) read it, and must answer exactly as the tuple grid does, in the board's
window and beyond it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardcrawl import Card, Grid, neighbours
from cardcrawl.mapless import is_corridor, newly_closed
from cardcrawl.mapless._position import WorkingGrid, board_of, closed_on, code_of
from cardcrawl.mapless._rules import _CORRIDOR


def _closed_by_definition(grid: Grid, placed: tuple[int, int]) -> set[tuple[int, int]]:
    """M-6 read straight from the rulings: each corridor touching the placed cell that
    touches two cards or more closes its empty neighbours."""
    closed = set()
    for n in neighbours(placed):
        card = grid.get(n)
        touching = sum(m in grid for m in neighbours(n))
        if card is not None and is_corridor(card) and touching >= 2:
            closed.update(m for m in neighbours(n) if m not in grid)
    return closed


# Each placement: which frontier cell (by its rank in sorted order) and which card.
_PLACEMENTS = st.lists(st.tuples(st.integers(0, 400), st.integers(0, 53)), max_size=40)
# Where the table starts: at the Entrance, or near and beyond the board's window.
_STARTS = st.sampled_from([(0, 0), (61, -3), (-5, -62), (62, 62), (500, 0)])


@given(_STARTS, _PLACEMENTS)
def test_the_working_grid_lays_and_closes_as_the_grid_does(
    start: tuple[int, int], placements: list[tuple[int, int]]
) -> None:
    grid = Grid({start: Card(0)})
    working = WorkingGrid.copy_of(grid)
    for k, index in placements:
        frontier = sorted(grid.frontier)
        cell, card = frontier[k % len(frontier)], Card(index)
        grid = grid.place(cell, card)
        working.put(cell, card)
        assert working.cards == grid.cards
        # The same frontier, in the same order: what iterates it sees the same cells.
        assert list(working.frontier.items()) == list(grid.frontier.items())
        expected = _closed_by_definition(grid, cell)
        assert newly_closed(grid, cell) == expected
        board = working.board
        if board is not None:
            assert code_of(cell) >= 0
            assert closed_on(board, code_of(cell), _CORRIDOR) == expected
            assert board == board_of(working.cards)


def test_a_grid_beyond_the_window_has_no_board() -> None:
    working = WorkingGrid.copy_of(Grid({(0, 0): Card(0)}))
    working.put((1, 0), Card(5))
    working.put((2, 0), Card(6))
    assert working.board is not None  # made at the second placement
    working.put((0, 70), Card(7))  # no longer on the board: laid by tuple from now on
    assert working.board is None
    assert code_of((0, 70)) == -1
    assert board_of(working.cards) is None
