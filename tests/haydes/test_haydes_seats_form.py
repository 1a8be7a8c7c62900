"""The two forms of a Haydes state's ``seats``.

A state frozen from the rules after a figure changed keeps its seats under ``seats`` as
the rules do (one tuple of integers: the cell indices, then the Charismas, then the
Endurances, by seat), and makes the figures the first time ``seats`` is read. These
tests check that either form reads, compares, pickles, copies and plays on the same.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.haydes import Figure, HaydesState
from strategies import random_game_states

GAMES = [
    cardcrawl.load("escape-from-haydes", max_rounds=30),
    cardcrawl.load("escape-from-haydes", players=3, max_rounds=20, tuybe=True),
]


def _form(state: HaydesState) -> Any:
    return state.__dict__["seats"]


def _is_codes(seats: Any) -> bool:
    return type(seats) is tuple and all(type(v) is int for v in seats)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.options.players))
def test_a_state_in_the_rules_form_reads_compares_and_saves_as_one_with_figures(
    game: Any,
) -> None:
    forms = 0
    for seed in range(3):
        for state in random_game_states(game, seed):
            codes = _form(state)
            if not _is_codes(codes):
                continue
            forms += 1
            assert len(codes) == 3 * game.options.players
            twin = game._replace_state(state)  # the same __dict__ entries, read apart
            rebuilt = attrs.evolve(state)  # the constructor: the figures themselves
            assert all(type(f) is Figure for f in _form(rebuilt))
            assert rebuilt == state
            assert hash(rebuilt) == hash(state)
            seats = state.seats
            assert all(type(f) is Figure for f in _form(state))  # made once, then kept
            assert state.seats is seats
            n = game.options.players
            for s, figure in enumerate(seats):
                i = codes[s]
                assert figure.cell == (None if i < 0 else state.layout[i])
                assert (figure.charisma, figure.endurance) == (codes[n + s], codes[2 * n + s])
            assert twin == state
            saved = pickle.dumps(twin)
            assert b"Figure" in saved  # the figures themselves, never the rules' form
            assert pickle.loads(saved) == state
            assert copy.deepcopy(twin) == state
            assert game.state_from_data(game.state_to_data(twin)) == state
    assert forms > 20


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.options.players))
def test_a_state_plays_on_the_same_whichever_form_its_seats_are_in(game: Any) -> None:
    seen = 0
    for seed in range(3):
        choose = random.Random(seed).choice
        for state in random_game_states(game, seed)[:-1]:
            action = choose(game.legal_actions(state))
            read = game._replace_state(state)
            read.seats  # noqa: B018 - its figures made
            seen += _is_codes(_form(state))
            # The second step from ``state`` thaws it afresh, from the form it holds.
            after, thawed = game.step(state, action), game.step(state, action)
            again = game.step(read, action)
            assert after == thawed == again
            assert after.seats == thawed.seats == again.seats
    assert seen > 20
