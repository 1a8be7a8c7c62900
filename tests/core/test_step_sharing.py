"""A step may take over the working position a recent step of its game froze (see
``GameBase._keep_position``): whatever order states are stepped in, how many times,
from which thread, and whatever copies are made of them, every step gives what a step
from a fresh copy of the state gives, and no state ever changes."""

from __future__ import annotations

import copy
import pickle
import random
import threading
from typing import Any

import pytest

import cardcrawl

GAMES = [
    ("mapless-house", {"max_turns": 30}),
    ("escape-from-haydes", {"players": 1, "max_rounds": 10}),
    ("escape-from-haydes", {"players": 3, "max_rounds": 6}),
]


def _history(game: Any, seed: int) -> list[Any]:
    """The states of one random game, each after its step."""
    rng = random.Random(seed)
    state = game.initial_state(seed)
    states = [state]
    while not game.is_terminal(state):
        state = game.step(state, rng.choice(game.legal_actions(state)))
        states.append(state)
    return states


def _step_into(
    game: Any, state: Any, action: Any, start: threading.Barrier, results: list[Any]
) -> None:
    """Wait for the other threads, then step ``state`` and keep the result."""
    start.wait()
    results.append(game.step(state, action))


def _fresh(state: Any) -> Any:
    """An equal state that shares nothing derived with ``state`` (its memo is new)."""
    return pickle.loads(pickle.dumps(state))


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_stepping_one_state_twice_gives_what_fresh_copies_give(
    name: str, options: dict[str, Any]
) -> None:
    """Every action of every state, taken one after the other from the same state (the
    first step may take over its position, the others thaw it), gives the state a step
    from a fresh copy gives, events included; the state stepped from stays as it was."""
    game = cardcrawl.load(name, **options)
    for seed in range(4):
        for state in _history(game, seed)[:-1]:
            before = _fresh(state)
            legal = game.legal_actions(state)
            for action in legal[:3]:
                after = game.step(state, action)
                expected = game.step(_fresh(state), action)
                assert after == expected
                assert after.events == expected.events
            assert state == before
            assert state.events == before.events


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_copies_and_reseeded_states_never_share_a_position(
    name: str, options: dict[str, Any]
) -> None:
    """A copy, a deep copy or a re-seeded state of a state steps as a fresh copy does,
    before or after the original is stepped, and the original is not changed by it."""
    game = cardcrawl.load(name, **options)
    states = _history(game, 7)
    before = states[len(states) // 2 - 1]
    step_in = game.legal_actions(before)[0]
    for make in (copy.copy, copy.deepcopy, lambda s: game.reseed(s, 99)):
        for original_first in (True, False):
            # A new state each round, whose position no step has taken yet.
            state = game.step(_fresh(before), step_in)
            snapshot = _fresh(state)
            other = make(state)
            action = game.legal_actions(state)[-1]
            if original_first:
                first = game.step(state, action)
                second = game.step(other, action)
            else:
                second = game.step(other, action)
                first = game.step(state, action)
            assert first == game.step(_fresh(state), action)
            assert second == game.step(_fresh(other), action)
            assert state == snapshot
            assert state.events == snapshot.events


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_threads_stepping_one_state_all_get_the_same_state(
    name: str, options: dict[str, Any]
) -> None:
    """Threads stepping the same new state at once (one of them may take over its
    position) all get the state a fresh copy's step gives."""
    game = cardcrawl.load(name, **options)
    for seed in range(3):
        states = _history(game, seed)
        for k in range(0, len(states) - 1, max(1, len(states) // 6)):
            # A new state, whose position no step has taken yet.
            state = game.step(_fresh(states[k]), game.legal_actions(states[k])[0])
            if game.is_terminal(state):
                continue
            action = game.legal_actions(state)[-1]
            expected = game.step(_fresh(state), action)
            results: list[Any] = []
            start = threading.Barrier(4)
            threads = [
                threading.Thread(target=_step_into, args=(game, state, action, start, results))
                for _ in range(4)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert results == [expected] * 4
            assert all(r.events == expected.events for r in results)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_games_played_in_turns_with_one_game_object_play_as_alone(
    name: str, options: dict[str, Any]
) -> None:
    """Two games played a step each in turn, with the same game object (it keeps the
    positions of both), play exactly as each does alone."""
    game = cardcrawl.load(name, **options)
    alone = [_history(game, seed) for seed in (3, 4)]
    rngs = [random.Random(3), random.Random(4)]
    states = [game.initial_state(3), game.initial_state(4)]
    played: list[list[Any]] = [[states[0]], [states[1]]]
    while not all(game.is_terminal(s) for s in states):
        for k in (0, 1):
            if not game.is_terminal(states[k]):
                states[k] = game.step(states[k], rngs[k].choice(game.legal_actions(states[k])))
                played[k].append(states[k])
    assert played == alone
    assert [[s.events for s in h] for h in played] == [[s.events for s in h] for h in alone]


def test_a_game_keeps_a_bounded_number_of_positions() -> None:
    """However many states a game steps to and leaves unstepped (the leaves of a search
    tree), it keeps at most KEPT_POSITIONS working positions, and states hold none."""
    from cardcrawl.core._engine import KEPT_POSITIONS

    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=10)
    root = game.initial_state(5)
    leaves = []
    for seed in range(KEPT_POSITIONS + 40):
        state = game.reseed(root, seed)
        for action in game.legal_actions(state):
            leaves.append(game.step(state, action))
    assert len(game._spare) <= KEPT_POSITIONS
    assert all(len(leaf._memo) <= 1 for leaf in leaves)
