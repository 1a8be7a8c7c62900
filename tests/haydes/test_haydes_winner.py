"""A finished state's winner (H-9) is the seat that escaped: ``validate`` refuses any
other number there, since the escape moved that seat's figure onto the Red Joker. (Found
by the hand-built state fuzzer: a winner of 10**30 was accepted, and then could not be
read back from the state's own notation.)"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl import Card
from cardcrawl.errors import InvalidStateError
from cardcrawl.haydes import Ending


def _escaped() -> tuple[Any, Any]:
    """A three-player game that ended with an escape, played by the first legal action."""
    game = cardcrawl.load("escape-from-haydes", players=3, max_rounds=60)
    for seed in range(200):
        state = game.initial_state(seed=seed)
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            state = game.step(state, legal[seed % len(legal)])
        if state.ending is Ending.ESCAPED:
            return game, state
    raise AssertionError("no escape in 200 seeds")  # pragma: no cover - fixed inputs


def test_the_escaped_seat_is_on_the_red_joker_and_validates() -> None:
    game, state = _escaped()
    game.validate(state)
    cell = state.seats[state.winner].cell
    assert state.face_up[state.layout.index(cell)] is Card.RED_JOKER
    # The notation keeps the position, not the last step's events.
    assert game.position(game.notation(state)) == attrs.evolve(state, events=())


@pytest.mark.parametrize("winner", ["another seat", "past the seats", -1, 10**30])
def test_a_winner_who_did_not_escape_is_refused(winner: Any) -> None:
    game, state = _escaped()
    if winner == "another seat":
        winner = (state.winner + 1) % len(state.seats)
    elif winner == "past the seats":
        winner = len(state.seats)
    built = attrs.evolve(state, winner=winner)
    with pytest.raises(InvalidStateError, match="Red Joker"):
        game.validate(built)
    assert game.state_problems(built) == [
        "the winner must be a seat whose figure stands on the Red Joker"
    ]
