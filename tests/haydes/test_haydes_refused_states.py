"""States ``validate`` refuses that it once accepted, found by the fuzzers.

- A finished state's winner (H-9) is the seat that escaped, whose figure the escape moved
  onto the Red Joker: a winner of 10**30 was accepted, and then could not be read back
  from the state's own notation.
- Before the first player is drawn (explicit chance), every figure stands on the Black
  Joker (H-5): a saved state with a figure out was accepted, then crashed when that
  player was drawn to begin.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl import Card
from cardcrawl.errors import InvalidStateError, SerializationError
from cardcrawl.haydes import Ending, Phase


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


def test_before_the_first_player_every_figure_is_on_the_black_joker() -> None:
    game = cardcrawl.load("escape-from-haydes", players=3)
    state = game.initial_state(seed=4, explicit_chance=True)
    assert state.phase is Phase.FIRST
    game.validate(state)
    for seat in range(3):
        seats = list(state.seats)
        for cell in (None, (1, 0)):
            seats[seat] = attrs.evolve(seats[seat], cell=cell)
            built = attrs.evolve(state, seats=tuple(seats))
            with pytest.raises(InvalidStateError, match="every figure is on the Black Joker"):
                game.validate(built)


def test_a_saved_first_state_with_a_figure_out_is_refused() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2)
    data = game.state_to_data(game.initial_state(seed=4, explicit_chance=True))
    data["state"]["seats"][0]["cell"] = None
    with pytest.raises(SerializationError, match="every figure is on the Black Joker"):
        game.state_from_data(data)


def test_the_notation_names_the_field_of_each_refused_state() -> None:
    game, state = _escaped()
    other = (state.winner + 1) % len(state.seats)
    with pytest.raises(cardcrawl.errors.NotationError, match="Red Joker") as error:
        game.position(game.notation(attrs.evolve(state, winner=other)))
    assert error.value.field == "phase"
    first = game.initial_state(seed=4, explicit_chance=True)
    seats = (attrs.evolve(first.seats[0], cell=(1, 0)), *first.seats[1:])
    with pytest.raises(cardcrawl.errors.NotationError, match="Black Joker") as error:
        game.position(game.notation(attrs.evolve(first, seats=seats)))
    assert error.value.field == "seats"
