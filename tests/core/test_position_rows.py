"""Compact rows written straight from working positions (``CompactObservation.row_writer``)
are the rows written from the frozen state's observation, byte for byte, at every step,
for every seat: so they hold what the seat may know, no more (the fairness tests of the
observations) and no less (the read-back tests of the compact rows)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import StateWorking, working_for
from cardcrawl.encoding import EncodingError, RowWriter, encoding_for
from cardcrawl.haydes._compact import HaydesRowWriter
from cardcrawl.mapless._compact import MaplessRowWriter


def _rows_agree(game: Any, working: Any, seed: int, check: float) -> int:
    """Play a random game on a position, writing every seat's row at every step (so that
    each writer writes only what changed), and compare the rows with the state's at a
    share ``check`` of the steps and at the end; the steps compared."""
    compact = encoding_for(game).compact()
    assert compact is not None
    seats = range(game.num_players)
    writers = [compact.row_writer(working, seat) for seat in seats]
    rows = [bytearray(compact.size) for _ in seats]
    choose = random.Random(seed)
    position = working.begin(seed)
    compared = 0
    while True:
        over = working.is_over(position)
        for seat in seats:
            writers[seat].write_position(position, rows[seat])
        if over or choose.random() < check:
            state = working.freeze(position)
            for seat in seats:
                assert bytes(rows[seat]) == compact.encode(game.observe(state, seat)), seat
            compared += 1
        if over:
            return compared
        working.advance(position, choose.choice(working.legal(position)))


@pytest.mark.parametrize("tuybe", [False, True])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@given(seed=st.integers(0, 2**64 - 1))
def test_haydes_rows_from_positions_are_the_rows_of_the_states(
    players: int, tuybe: bool, seed: int
) -> None:
    game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=80, tuybe=tuybe)
    working = working_for(game)
    assert type(encoding_for(game).compact().row_writer(working, 0)) is HaydesRowWriter
    assert _rows_agree(game, working, seed, 0.3) > 0


@given(seed=st.integers(0, 2**64 - 1))
def test_mapless_rows_from_positions_are_the_rows_of_the_states(seed: int) -> None:
    game = cardcrawl.load("mapless-house", max_turns=120)
    working = working_for(game)
    assert type(encoding_for(game).compact().row_writer(working, 0)) is MaplessRowWriter
    assert _rows_agree(game, working, seed, 0.3) > 0


def test_many_long_games_of_every_table_agree() -> None:
    """Long games, where the Replacement deck runs out, mixes are dealt and beliefs
    split: every step compared."""
    for players in (1, 2, 4):
        game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=400)
        working = working_for(game)
        for seed in range(8):
            _rows_agree(game, working, seed, 1.0)


def test_a_game_without_its_own_writer_gets_the_observation_written() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=30)
    working = StateWorking(game)
    writer = encoding_for(game).compact().row_writer(working, 1)
    assert type(writer) is RowWriter
    assert _rows_agree(game, working, 3, 0.5) > 0


def test_a_position_beyond_the_rows_room_is_refused_with_the_bound_named() -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=30)
    working = working_for(game)
    writer = encoding_for(game).compact(pools=1).row_writer(working, 0)
    with pytest.raises(EncodingError, match=r"compact\(pools=2\)"):
        writer.write_position(working.begin(1), bytearray(writer.compact.size))
