"""A state's events, kept as its step's log until read, in every game that logs them.

A game's rules may log the events a step makes anew almost every time as a tuple of the
event's class and values, and a state frozen from a working position then holds that
log (``_log``); its ``events`` are made from it when first read
(:func:`cardcrawl.core._engine.events_of_log`). These tests check, for each game, that
what a state promises of its events holds either way: the same events whether read at
once or late, never a logged tuple, stable once read, in equality, hashing, pickles,
copies and saved data, in sampled and explicit-chance play, and that a state whose
events were read steps on as one whose were not.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.core._engine import events_of_log

# Each game with a kind of event its steps log in almost every game.
CASES = [
    ("mapless-house", {}, "CardPlaced"),
    ("mapless-house", {"max_turns": 12}, "Moved"),
    ("escape-from-haydes", {"max_rounds": 30}, "Revealed"),
    ("escape-from-haydes", {"players": 4, "max_rounds": 15}, "Moved"),
    ("escape-from-haydes", {"players": 2, "max_rounds": 20, "tuybe": True}, "Moved"),
]
IDS = [f"{name}-{options}" for name, options, _ in CASES]


def _log(state: Any) -> tuple[Any, ...]:
    return tuple(state.__dict__.get("_log", ()))


def _logged(state: Any) -> set[str]:
    """The names of the event classes a state holds logged, unread."""
    return {entry[0].__name__ for entry in _log(state) if type(entry) is tuple}


def _play(game: Any, seed: int, read: bool, explicit: bool = False) -> list[Any]:
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


@pytest.mark.parametrize(("name", "options", "kind"), CASES, ids=IDS)
@pytest.mark.parametrize("explicit", [False, True])
def test_events_read_late_are_those_read_at_once(
    name: str, options: dict[str, Any], kind: str, explicit: bool
) -> None:
    game = cardcrawl.load(name, **options)
    logged: set[str] = set()
    for seed in range(4):
        late = _play(game, seed, read=False, explicit=explicit)
        held = sum("_log" in s.__dict__ and "events" not in s.__dict__ for s in late)
        assert held >= len(late) - 1  # every state the steps froze holds a log
        for state in late:
            logged |= _logged(state)
        early = _play(game, seed, read=True, explicit=explicit)
        assert [s.events for s in late] == [s.events for s in early]
        assert late == early
        for state in late:
            assert all(attrs.has(type(e)) for e in state.events)  # events, never a tuple
            assert state.events is state.events  # made once, then kept
    if not explicit:
        assert kind in logged


@pytest.mark.parametrize(("name", "options", "kind"), CASES, ids=IDS)
def test_a_state_whose_events_were_read_steps_on_the_same(
    name: str, options: dict[str, Any], kind: str
) -> None:
    game = cardcrawl.load(name, **options)
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


@pytest.mark.parametrize(("name", "options", "kind"), CASES, ids=IDS)
def test_equality_hashing_pickles_copies_and_data_see_the_events(
    name: str, options: dict[str, Any], kind: str
) -> None:
    game = cardcrawl.load(name, **options)
    state: Any = game.initial_state(3)
    rng = random.Random(3)
    while kind not in _logged(state):
        assert not game.is_terminal(state), f"seed 3 logs no {kind}"
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


@attrs.frozen
class _Moved:
    frm: int
    to: int


def test_a_log_is_made_into_its_events() -> None:
    first = _Moved(0, 1)
    assert events_of_log([first, (_Moved, 1, 2)]) == (first, _Moved(1, 2))
    assert events_of_log(()) == ()
