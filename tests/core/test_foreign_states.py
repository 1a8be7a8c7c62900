"""A game given a state that is not its own refuses it by name, never with an
AttributeError from inside its rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import cardcrawl
from cardcrawl.errors import IllegalActionError, InvalidStateError

MAPLESS = cardcrawl.load("mapless-house")
HAYDES = cardcrawl.load("escape-from-haydes", players=2)
MAPLESS_STATE = MAPLESS.initial_state(seed=1)
HAYDES_STATE = HAYDES.initial_state(seed=1)

CALLS: dict[str, Callable[[Any, Any, Any], object]] = {
    "legal_actions": lambda game, state, action: game.legal_actions(state),
    "step": lambda game, state, action: game.step(state, action),
    "check": lambda game, state, action: game.check(state, action),
    "is_legal": lambda game, state, action: game.is_legal(state, action),
    "chance_outcomes": lambda game, state, action: game.chance_outcomes(state),
    "describe": lambda game, state, action: game.describe(state),
    "current_player": lambda game, state, action: game.current_player(state),
    "is_terminal": lambda game, state, action: game.is_terminal(state),
    "returns": lambda game, state, action: game.returns(state),
    "outcome": lambda game, state, action: game.outcome(state),
    "observe": lambda game, state, action: game.observe(state, 0),
    "determinize": lambda game, state, action: game.determinize(state, 0, 1),
    "state_problems": lambda game, state, action: game.state_problems(state),
}


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize(
    ("game", "state", "own_state", "expected", "given"),
    [
        (MAPLESS, HAYDES_STATE, MAPLESS_STATE, "MaplessState", "HaydesState"),
        (HAYDES, MAPLESS_STATE, HAYDES_STATE, "HaydesState", "MaplessState"),
        (MAPLESS, "a state", MAPLESS_STATE, "MaplessState", "str"),
        (HAYDES, None, HAYDES_STATE, "HaydesState", "NoneType"),
    ],
    ids=["mapless-given-haydes", "haydes-given-mapless", "text", "none"],
)
def test_another_games_state_is_refused_naming_what_was_expected(
    call: str, game: Any, state: Any, own_state: Any, expected: str, given: str
) -> None:
    # An action that is legal in the game's own state: only the state is wrong.
    action = game.legal_actions(own_state)[0]
    with pytest.raises(InvalidStateError) as caught:
        CALLS[call](game, state, action)
    assert str(caught.value) == f"a state of {game.name} is a {expected}, not {given}"


def test_rendering_another_games_state_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="is a MaplessState, not HaydesState"):
        MAPLESS.render(HAYDES_STATE)
    for given, name in ((MAPLESS_STATE, "MaplessState"), (None, "NoneType")):
        with pytest.raises(InvalidStateError, match=f"is a HaydesState, not {name}$"):
            HAYDES.render(given)


def test_an_own_state_still_plays_and_checks() -> None:
    for game, state in ((MAPLESS, MAPLESS_STATE), (HAYDES, HAYDES_STATE)):
        action = game.legal_actions(state)[0]
        game.check(state, action)
        assert game.step(state, action) != state
        assert game.describe(state)


def test_text_given_to_step_points_to_parse_action() -> None:
    state = MAPLESS.initial_state(seed=1, stack={"narrative": ["KS"]})
    with pytest.raises(IllegalActionError) as caught:
        MAPLESS.step(state, "place -1,0")
    message = str(caught.value)
    assert "game.parse_action('place -1,0')" in message
    assert caught.value.reason.startswith("text is not an action of mapless-house")
    # The refused text is not offered back as a legal action: those are shown as values.
    assert "legal actions: Place(cell=(-1, 0)), " in message
    assert "place -1,0," not in message.partition("legal actions:")[2]
    assert message.startswith("illegal action 'place -1,0': ")
    # What it says to do works.
    assert MAPLESS.step(state, MAPLESS.parse_action("place -1,0")) != state
