"""M-6 is stated once: the cells a placement closes (``newly_closed``), asked by the step
as cards go down and by the state check and the notation of a whole table at once.

Both must agree whatever order the cards came in and whichever hooks a variant
overrides, and both agree with the independent model of the ruling in ``strategies.py``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardcrawl import Card, Grid
from cardcrawl.mapless import MaplessHouse, MaplessOptions
from cardcrawl.mapless._rules import _CORRIDOR, closed_cells, newly_closed
from strategies import around, corridor, touching_count


class AnywhereGoes(MaplessHouse):
    """Any card on any open cell: a corridor may touch two cards as it goes down."""

    def placement_cells(self, state: Any, card: Any) -> list[Any]:
        return self.room_cells(state)


class TensAreNoCorridors(MaplessHouse):
    def is_corridor(self, card: Any) -> bool:
        return super().is_corridor(card) and card.rank != 10


def model_closed(table: dict[tuple[int, int], Card]) -> set[tuple[int, int]]:
    """M-6 from the ruling: every empty neighbour of a corridor touching two cards."""
    return {
        n
        for cell, card in table.items()
        if corridor(card) and touching_count(table, cell) >= 2
        for n in around(cell)
        if n not in table
    }


@pytest.mark.parametrize("variant", [MaplessHouse, AnywhereGoes, TensAreNoCorridors])
def test_the_step_closes_what_the_whole_table_closes(variant: type[MaplessHouse]) -> None:
    """Cells closed placement by placement on the public path are those of the table,
    and the state check and the notation find the same; in every variant."""
    game = variant(MaplessOptions(max_turns=40))
    for seed in range(40):
        rnd = random.Random(seed)
        state = game.initial_state(seed)
        while not game.is_terminal(state):
            state = game.step(state, rnd.choice(game.legal_actions(state)))
            assert state.closed == closed_cells(state.table, game._corridor)
            assert game.state_problems(state) == []
            assert game.position(game.notation(state)).closed == state.closed


def test_a_corridor_laid_against_two_cards_closes_its_own_neighbours() -> None:
    table = Grid({(0, 0): Card.parse("AD"), (2, 0): Card.parse("KS")})
    after = table.place((1, 0), Card.parse("5S"))
    assert newly_closed(after, (1, 0)) == {(1, -1), (1, 1)}
    assert closed_cells(after) == {(1, -1), (1, 1)}


def test_closed_cells_agree_with_the_ruling_on_random_tables() -> None:
    """Random connected tables of random cards, grown in random orders: the cells the
    placements closed one by one, and those of the whole table, are the model's."""
    cards = [Card(i) for i in range(52)]
    for seed in range(300):
        rnd = random.Random(seed)
        deck = rnd.sample(cards, rnd.randint(1, 30))
        table: dict[tuple[int, int], Card] = {(0, 0): deck[0]}
        grid = Grid(table)
        closed: set[tuple[int, int]] = set()
        for card in deck[1:]:
            cell = rnd.choice(sorted({n for c in table for n in around(c) if n not in table}))
            table[cell] = card
            grid = grid.place(cell, card)
            closed = (closed - {cell}) | newly_closed(grid, cell, _CORRIDOR)
        assert closed == model_closed(table) == closed_cells(grid)
