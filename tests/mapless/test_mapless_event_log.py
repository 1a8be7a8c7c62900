"""A Mapless state's events, kept as its step's log until read.

The rules log the events a step makes anew almost every time (a card placed, a move, an
encounter, a Stalker's step) as a tuple of the event's class and values, and a state
frozen from a working position holds that log (``_log``); its ``events`` are made from
it when first read. These tests check that what a state promises of its events holds
either way: the same events whether read at once or late, never a logged tuple, stable
once read, in equality, hashing, pickles and copies, in explicit-chance play, and that a
state whose events were read steps on as one whose were not.
"""

from __future__ import annotations

import copy
import pickle
import random

import attrs
import pytest

import cardcrawl
from cardcrawl.core._engine import events_of_log
from cardcrawl.mapless import MaplessHouse, MaplessState
from cardcrawl.mapless import _events as events_module

GAMES: list[MaplessHouse] = [
    cardcrawl.load("mapless-house"),
    cardcrawl.load("mapless-house", max_turns=12),
]
EVENT_TYPES = tuple(
    getattr(events_module, name) for name in events_module.__all__ if name != "MaplessEvent"
)


def _play(game: MaplessHouse, seed: int, read: bool, explicit: bool = False) -> list[MaplessState]:
    """A random game's states, their events read as each is made if ``read``."""
    rng = random.Random(seed)
    state = game.initial_state(seed, explicit_chance=explicit)
    states = [state]
    while not game.is_terminal(state):
        if read:
            assert isinstance(state.events, tuple)
        if game.current_player(state) == cardcrawl.CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.step(state, action)
        states.append(state)
    return states


@pytest.mark.parametrize("game", GAMES, ids=lambda g: repr(g.options))
@pytest.mark.parametrize("explicit", [False, True])
def test_events_read_late_are_those_read_at_once(game: MaplessHouse, explicit: bool) -> None:
    logged_kinds: set[type] = set()
    for seed in range(6):
        late = _play(game, seed, read=False, explicit=explicit)
        logged = sum("_log" in s.__dict__ and "events" not in s.__dict__ for s in late)
        assert logged >= len(late) - 1  # every state the steps froze holds a log
        for state in late:
            logged_kinds.update(e[0] for e in state.__dict__.get("_log", ()) if type(e) is tuple)
        early = _play(game, seed, read=True, explicit=explicit)
        assert [s.events for s in late] == [s.events for s in early]
        assert late == early
        for state in late:
            assert all(isinstance(e, EVENT_TYPES) for e in state.events)
            assert state.events is state.events  # made once, then kept
    if not explicit:
        assert {events_module.CardPlaced, events_module.Moved} <= logged_kinds


def test_a_state_whose_events_were_read_steps_on_the_same() -> None:
    game = GAMES[0]
    rng_a, rng_b = random.Random(7), random.Random(7)
    read = unread = game.initial_state(7)
    while not game.is_terminal(read):
        _ = read.events  # the next step thaws, or takes over, a state whose events are read
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
    placed = events_module.CardPlaced
    while not any(type(e) is tuple and e[0] is placed for e in state.__dict__.get("_log", ())):
        state = game.step(state, rng.choice(game.legal_actions(state)))
    twin = game._replace_state(state)
    other = attrs.evolve(state, events=state.events[:-1])
    assert twin == state
    assert hash(twin) == hash(state)
    assert other != state
    assert game._replace_state(state, events=()).events == ()
    for back in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert "_log" not in back.__dict__
        assert back.events == state.events
        assert back == state
    assert game.state_from_data(game.state_to_data(state)).events == state.events


def test_a_log_is_made_into_its_events() -> None:
    moved = events_module.Moved((0, 0), (1, 0))
    log = [events_module.TurnStarted(1), (events_module.Moved, (0, 0), (1, 0))]
    assert events_of_log(log) == (events_module.TurnStarted(1), moved)
    assert events_of_log(()) == ()
