"""The working position: thawing and freezing keep states immutable values, and freezing
shares with the parent state what a step did not change."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import cardcrawl
from cardcrawl.bots import RandomBot
from cardcrawl.mapless import Phase
from cardcrawl.mapless._kernel import MaplessKernel
from cardcrawl.mapless._position import freeze, thaw


def _states(seed: int) -> list[Any]:
    game = cardcrawl.load("mapless-house", max_turns=30)
    state, bot, states = game.initial_state(seed), RandomBot(game, seed, 0), []
    while not game.is_terminal(state):
        states.append(state)
        state = game.step(state, bot.choose(game, None, game.legal_actions(state)))
    return [*states, state]


def test_a_state_thawed_and_frozen_is_the_same_state() -> None:
    for seed in range(5):
        for state in _states(seed):
            again = freeze(thaw(state), list(state.events))
            assert again == state
            assert again.table is state.table
            assert again.narrative is state.narrative


def test_a_copy_of_the_working_table_reads_as_the_table() -> None:
    """A hook may copy what it is given (copy.copy, pickle): the working grid's copy
    reads as the grid does, and the grid itself goes on changing alone."""
    game = cardcrawl.load("mapless-house")
    position = thaw(game.initial_state(seed=1, stack={"narrative": ["KS"]}))
    table = position.working_table()
    for copied in (copy.copy(table), pickle.loads(pickle.dumps(table))):
        assert copied.cards == table.cards
        assert copied.frontier == table.frontier
        assert copied.degree((0, 0)) == 0
        assert len(copied) == 1
    copied = copy.copy(table)
    table.put((1, 0), cardcrawl.Card.parse("KS"))
    assert (1, 0) in table.cards
    assert (1, 0) not in copied.cards
    assert (1, 0) in copied.frontier
    assert (1, 0) not in table.frontier


def test_no_state_changes_whatever_is_played_from_it() -> None:
    """Immutability: a state handed out never changes, however many steps and rollouts
    are played from it and from the states made from it."""
    game = cardcrawl.load("mapless-house", max_turns=30)
    kernel = MaplessKernel(game)
    for seed in range(4):
        states = _states(seed)
        saved = [pickle.dumps(s) for s in states]
        for i, state in enumerate(states):
            if game.is_terminal(state):
                continue
            for action in game.legal_actions(state):
                child = game.step(state, action)
                if not game.is_terminal(child):
                    game.step(child, game.legal_actions(child)[-1])
            kernel.play(seed + i, 10_000, start=state)
        assert [pickle.dumps(s) for s in states] == saved


def test_a_move_shares_the_table_it_did_not_change() -> None:
    game = cardcrawl.load("mapless-house", max_turns=30)
    moves = 0
    for seed in range(3):
        for state in _states(seed):
            if state.phase is Phase.MOVE:
                # A move, maybe an Encounter and a new turn's draw: no card is placed.
                after = game.step(state, game.legal_actions(state)[0])
                assert after.table is state.table
                moves += 1
    assert moves > 10
