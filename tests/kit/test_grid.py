"""The grid: cells, touching, distance, and the incrementally kept frontier."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcrawl import Card, Grid, distance, neighbours
from cardcrawl.kit import touching

Cell = tuple[int, int]
QS = Card.parse("QS")

cells = st.tuples(st.integers(-8, 8), st.integers(-8, 8))


def brute_frontier(occupied: set[Cell]) -> dict[Cell, int]:
    """Every empty cell touching a card, with how many cards it touches, by scanning."""
    xs = [x for x, _ in occupied] or [0]
    ys = [y for _, y in occupied] or [0]
    result = {}
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            if (x, y) in occupied:
                continue
            n = sum((x + dx, y + dy) in occupied for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            if n:
                result[(x, y)] = n
    return result


def test_neighbours_touching_and_distance() -> None:
    assert neighbours((0, 0)) == ((-1, 0), (1, 0), (0, -1), (0, 1))
    assert neighbours((3, -2)) == ((2, -2), (4, -2), (3, -3), (3, -1))
    assert all(touching((3, -2), n) for n in neighbours((3, -2)))
    assert not touching((0, 0), (1, 1))
    assert not touching((0, 0), (0, 0))
    assert distance((0, 0), (2, -3)) == 5
    assert distance((-1, 4), (-1, 4)) == 0


@given(placed=st.lists(cells, unique=True, max_size=40))
def test_frontier_equals_a_brute_force_recomputation(placed: list[Cell]) -> None:
    """After any sequence of placements the incremental frontier equals a full rescan,
    and so does the frontier of a grid built in one go."""
    grid = Grid()
    for i, cell in enumerate(placed):
        grid = grid.place(cell, Card(i % 52))
        occupied = set(placed[: i + 1])
        assert dict(grid.frontier) == brute_frontier(occupied)
    at_once = Grid({c: Card(i % 52) for i, c in enumerate(placed)})
    assert at_once == grid
    assert dict(at_once.frontier) == dict(grid.frontier)


@given(placed=st.lists(cells, unique=True, max_size=30), probe=cells)
def test_degree_and_touching_cards_count_every_card(placed: list[Cell], probe: Cell) -> None:
    grid = Grid(dict.fromkeys(placed, QS))
    around = [n for n in neighbours(probe) if n in set(placed)]
    assert grid.degree(probe) == len(around)
    assert grid.touching_cards(probe) == tuple(around)
    if probe not in grid and around:
        assert grid.frontier[probe] == len(around)


def test_placing_is_immutable_and_checked() -> None:
    empty = Grid()
    one = empty.place((0, 0), QS)
    assert len(empty) == 0
    assert len(one) == 1
    assert one[(0, 0)] == QS
    assert (0, 0) in one
    assert one.get((5, 5)) is None
    with pytest.raises(ValueError, match="already holds"):
        one.place((0, 0), Card.parse("KS"))
    swapped = one.replace((0, 0), Card.parse("KS"))
    assert swapped[(0, 0)] == Card.parse("KS")
    assert one[(0, 0)] == QS
    assert dict(swapped.frontier) == dict(one.frontier)
    with pytest.raises(KeyError):
        one.replace((1, 1), QS)


def test_equality_hash_repr_and_bounds() -> None:
    a = Grid().place((0, 0), QS).place((1, 0), Card.parse("2C"))
    b = Grid({(1, 0): Card.parse("2C"), (0, 0): QS})
    assert a == b
    assert hash(a) == hash(b)
    assert a != Grid({(0, 0): QS})
    assert repr(a) == "Grid({(0, 0): Card.parse('QS'), (1, 0): Card.parse('2C')})"
    assert eval(repr(a), {"Grid": Grid, "Card": Card}) == a
    assert Grid().bounds() == (0, 0, 0, 0)
    assert Grid({(-2, 3): QS, (4, -1): QS}).bounds() == (-2, -1, 4, 3)
    assert sorted(a) == [(0, 0), (1, 0)]
