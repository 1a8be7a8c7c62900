"""A Haydes state's events, kept as its step's log until read, and its shown cells.

The rules log an event that a step makes anew almost every time as a tuple of its class
and values, and a state frozen from a working position holds that log (``_log``); its
``events`` are made from it when first read. These tests check that what a state
promises of its events holds either way: the same events whether read at once or late,
never a logged tuple, stable once read, in equality, hashing, pickles and copies, and
that a state whose events were read steps on as one whose were not.
"""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

import cardcrawl
from cardcrawl.core._engine import events_of_log
from cardcrawl.haydes import EscapeFromHaydes, HaydesState
from cardcrawl.haydes import _events as events_module

GAMES: list[EscapeFromHaydes] = [
    cardcrawl.load("escape-from-haydes", max_rounds=30),
    cardcrawl.load("escape-from-haydes", players=4, max_rounds=15),
    cardcrawl.load("escape-from-haydes", players=2, max_rounds=20, tuybe=True),
]
EVENT_TYPES = tuple(getattr(events_module, name) for name in events_module.__all__)


def _play(game: EscapeFromHaydes, seed: int, read: bool) -> list[HaydesState]:
    """A random game's states, their events read as each is made if ``read``."""
    rng = random.Random(seed)
    state = game.initial_state(seed)
    states = [state]
    while not game.is_terminal(state):
        if read:
            assert isinstance(state.events, tuple)
        state = game.step(state, rng.choice(game.legal_actions(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("game", GAMES, ids=lambda g: repr(g.options))
def test_events_read_late_are_those_read_at_once(game: EscapeFromHaydes) -> None:
    for seed in range(4):
        late = _play(game, seed, read=False)
        logged = sum("_log" in s.__dict__ and "events" not in s.__dict__ for s in late)
        assert logged >= len(late) - 1  # every state the steps froze holds a log
        early = _play(game, seed, read=True)
        assert [s.events for s in late] == [s.events for s in early]
        assert late == early
        for state in late:
            assert all(isinstance(e, EVENT_TYPES) for e in state.events)
            assert state.events is state.events  # made once, then kept


def test_a_state_whose_events_were_read_steps_on_the_same() -> None:
    game = GAMES[1]
    rng_a, rng_b = random.Random(7), random.Random(7)
    read = unread = game.initial_state(7)
    while not game.is_terminal(read):
        _ = read.events  # the next step thaws a state whose events are in its dict
        read = game.step(read, rng_a.choice(game.legal_actions(read)))
        unread = game.step(unread, rng_b.choice(game.legal_actions(unread)))
        assert "events" not in read.__dict__  # the step's own, from its log
        assert read.events == unread.events
        assert read == unread
        assert hash(read) == hash(unread)


def test_equality_hashing_pickles_and_copies_see_the_events() -> None:
    game = GAMES[0]
    state = game.initial_state(3)
    rng = random.Random(3)
    revealed = events_module.Revealed
    while not any(type(e) is tuple and e[0] is revealed for e in state.__dict__.get("_log", ())):
        state = game.step(state, rng.choice(game.legal_actions(state)))
    twin = game._replace_state(state)
    other = attrs.evolve(state, events=state.events[:-1])
    assert twin == state
    assert hash(twin) == hash(state)
    assert other != state
    assert game._replace_state(state, events=()).events == ()
    back = pickle.loads(pickle.dumps(state))
    assert "_log" not in back.__dict__
    assert back.events == state.events
    assert back == state


def test_a_log_is_made_into_its_events() -> None:
    moved = events_module.Moved(0, (0, 0), (1, 0))
    log = [events_module.TurnEnded(1), (events_module.Moved, 0, (0, 0), (1, 0))]
    assert events_of_log(log) == (events_module.TurnEnded(1), moved)
    assert events_of_log(()) == ()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: repr(g.options))
def test_the_shown_cells_kept_as_indices_are_the_cells(game: EscapeFromHaydes) -> None:
    # A state frozen from the rules holds ``shown`` as the indices of its cells, as it
    # holds its events as a log: read, pickled, or rebuilt, they are the same cells.
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
