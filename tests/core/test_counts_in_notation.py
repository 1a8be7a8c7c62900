"""A state's round (Escape from Haydes) or turn (The Mapless House) is a count the
position notation can write: ``validate`` refuses one past ``MAX_COUNT``, so that every
state it accepts survives its own notation (found by the hand-built state fuzzer)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.core._notation import MAX_COUNT
from cardcrawl.errors import InvalidStateError


def _haydes_state() -> tuple[Any, Any, str]:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=4)
    return game, game.initial_state(seed=3), "round"


def _mapless_hunt_state() -> tuple[Any, Any, str]:
    # The turn counts only once the hunt is on (M-12): play until the Exit is open.
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(seed=1)
    while state.exit_cell is None:
        state = game.step(state, game.legal_actions(state)[0])
    return game, state, "turn"


@pytest.mark.parametrize("make", [_haydes_state, _mapless_hunt_state], ids=["haydes", "mapless"])
def test_the_largest_count_validates_and_survives_the_notation(make: Any) -> None:
    game, state, field = make()
    built = attrs.evolve(state, **{field: MAX_COUNT})
    game.validate(built)
    read = game.position(game.notation(built))
    assert getattr(read, field) == MAX_COUNT


@pytest.mark.parametrize("make", [_haydes_state, _mapless_hunt_state], ids=["haydes", "mapless"])
@pytest.mark.parametrize("count", [MAX_COUNT + 1, 10**30])
def test_a_count_past_what_the_notation_writes_is_refused(make: Any, count: int) -> None:
    game, state, field = make()
    built = attrs.evolve(state, **{field: count})
    with pytest.raises(InvalidStateError, match="999,999,999"):
        game.validate(built)
    assert field in " ".join(game.state_problems(built))
