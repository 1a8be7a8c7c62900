"""A Haydes state's shown cells, kept as indices by the states the rules freeze.

A state frozen from a working position holds ``shown`` as the indices of its cells
(``_shown``), as it holds its events as a log (tests/core/test_event_log.py): read,
pickled or rebuilt, they are the same cells, and a rebuilt state steps on as the state.
"""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

import cardcrawl
from cardcrawl.haydes import EscapeFromHaydes, HaydesState

GAMES: list[EscapeFromHaydes] = [
    cardcrawl.load("escape-from-haydes", max_rounds=30),
    cardcrawl.load("escape-from-haydes", players=4, max_rounds=15),
    cardcrawl.load("escape-from-haydes", players=2, max_rounds=20, tuybe=True),
]


def _play(game: EscapeFromHaydes, seed: int, read: bool) -> list[HaydesState]:
    """A random game's states, their shown cells read as each is made if ``read``."""
    rng = random.Random(seed)
    state = game.initial_state(seed)
    states = [state]
    while not game.is_terminal(state):
        if read:
            assert isinstance(state.shown, tuple)
        state = game.step(state, rng.choice(game.legal_actions(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("game", GAMES, ids=lambda g: repr(g.options))
def test_the_shown_cells_kept_as_indices_are_the_cells(game: EscapeFromHaydes) -> None:
    late = _play(game, 5, read=False)
    early = _play(game, 5, read=True)
    for state, twin in zip(late, early, strict=True):
        if "_shown" in state.__dict__:
            cells = tuple(state.layout[i] for i in state.__dict__["_shown"])
            assert state.shown == cells
        _ = state.shown, twin.shown
    assert [s.shown for s in late] == [s.shown for s in early]
    state = next(s for s in reversed(late[:-1]) if s.shown and not game.is_terminal(s))
    back = pickle.loads(pickle.dumps(state))
    assert "_shown" not in back.__dict__
    assert back.shown == state.shown
    rebuilt = attrs.evolve(state)
    assert rebuilt == state
    assert "_shown" not in rebuilt.__dict__
    for action in game.legal_actions(rebuilt):
        assert game.step(rebuilt, action) == game.step(state, action)
