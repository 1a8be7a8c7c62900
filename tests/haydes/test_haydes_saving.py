"""Saving and loading Escape from Haydes states: round trips, and tampering refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardcrawl
from cardcrawl import Record, SerializationError
from cardcrawl.haydes import EscapeFromHaydes, HaydesState


def _mid_game() -> tuple[EscapeFromHaydes, HaydesState]:
    game: EscapeFromHaydes = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
    state: HaydesState = game.initial_state(5)
    for _ in range(25):
        state = game.step(state, game.legal_actions(state)[0])
    return game, state


def test_states_survive_json() -> None:
    game, state = _mid_game()
    data = json.loads(json.dumps(game.state_to_data(state)))
    assert game.state_from_data(data) == state


def _tampered(change: Any) -> tuple[EscapeFromHaydes, dict[str, Any]]:
    game, state = _mid_game()
    data = json.loads(json.dumps(game.state_to_data(state)))
    change(data["state"])
    return game, data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["discard"].append("QS"), "extra QS"),
        (lambda s: s["beliefs"][0]["unseen"][1]["rest"].pop(), "missing"),
        (lambda s: s.update(replacement_left=s["replacement_left"] - 1), "pool 1 holds"),
        (lambda s: s["seats"][0].update(cell=[5, 5]), "not on a face-up card"),
        (lambda s: s["seats"][1].update(charisma=0), "characteristic at 0"),
        (lambda s: s.update(shown=[]), "shown must list"),
        (lambda s: s.update(overcome=[[3, 3]]), "holds no face-up creature"),
        (lambda s: s.update(phase="roll"), "chosen characteristic"),
        (lambda s: s["pool_of"].__setitem__(0, 7), "bad face-up card or pool"),
    ],
)
def test_tampered_states_are_refused(change: Any, message: str) -> None:
    game, data = _tampered(change)
    with pytest.raises(SerializationError, match=message):
        game.state_from_data(data)


def test_records_replay() -> None:
    game = cardcrawl.load("escape-from-haydes-tuybe", players=3, max_rounds=5)
    state = game.initial_state(2)
    actions = []
    while not game.is_terminal(state):
        action = game.legal_actions(state)[-1 if len(actions) % 4 == 3 else 0]
        actions.append(action)
        state = game.step(state, action)
    record = Record.of(game, seed=2, actions=actions)
    assert Record.from_json(record.to_json()).replay() == state
