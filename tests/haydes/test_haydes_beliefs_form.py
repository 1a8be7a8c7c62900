"""The two forms of a Haydes state's ``beliefs``.

A state frozen from the rules while a single belief holds the unseen cards keeps them
under ``beliefs`` as the rules do (an ``UnseenForm``: the decks by pool and ``mixed``),
and makes the belief the first time ``beliefs`` is read. These tests check that either
form reads, compares, pickles, copies and plays on the same, that a step that turns no
card shares the form of the state it came from, and that a value given ``beliefs`` by
the engine's replacer (``determinize``) counts over the form.
"""

from __future__ import annotations

import copy
import pickle
import random
import sys
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.haydes import Belief, HaydesState
from cardcrawl.haydes._state import UnseenForm
from strategies import random_game_states

GAMES = [
    cardcrawl.load("escape-from-haydes", max_rounds=30),
    cardcrawl.load("escape-from-haydes", players=3, max_rounds=20, tuybe=True),
]


def _form(state: HaydesState) -> Any:
    return state.__dict__["beliefs"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.options.players))
def test_a_state_in_the_rules_form_reads_compares_and_saves_as_one_with_beliefs(game: Any) -> None:
    forms = 0
    for seed in range(3):
        for state in random_game_states(game, seed):
            if type(_form(state)) is not UnseenForm:
                continue
            twin = game._replace_state(state)  # the same __dict__ entries, read apart
            forms += 1
            rebuilt = attrs.evolve(state)  # the constructor: beliefs themselves
            assert type(_form(rebuilt)) is tuple
            assert rebuilt == state
            assert hash(rebuilt) == hash(state)
            beliefs = state.beliefs
            assert type(_form(state)) is tuple  # made once, then kept
            assert state.beliefs is beliefs
            (belief,) = beliefs
            assert type(belief) is Belief
            assert belief == Belief(1, belief.unseen, belief.mixed)
            assert twin == state
            assert pickle.loads(pickle.dumps(twin)) == state
            assert copy.deepcopy(twin) == state
    assert forms > 20


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.options.players))
def test_a_state_plays_on_the_same_whichever_form_it_holds(game: Any) -> None:
    for seed in range(3):
        choose = random.Random(seed).choice
        for state in random_game_states(game, seed)[:-1]:
            action = choose(game.legal_actions(state))
            read = game._replace_state(state)
            read.beliefs  # noqa: B018 - its beliefs made
            after, again = game.step(state, action), game.step(read, action)
            assert after == again
            assert after.beliefs == again.beliefs


def test_a_step_that_turns_no_card_shares_the_unseen_cards() -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=30)
    shared = 0
    for state in random_game_states(game, 1)[:-1]:
        if type(_form(state)) is not UnseenForm:
            continue
        for action in game.legal_actions(state):
            if str(action).startswith("end"):
                after = game.step(state, action)
                if after.replacement_left == state.replacement_left:
                    assert _form(after) is _form(state)
                    shared += 1
    assert shared > 3


def test_a_replaced_belief_counts_over_the_form_and_keeps_the_state_small() -> None:
    """``determinize`` gives a state new beliefs with the engine's replacer, which copies
    the ``__dict__``: the new beliefs are the state's. Either form is kept under the
    same key, so that a state's dict keeps the layout the states share (their key table
    is full: a key more would give each state a dict of its own keys)."""
    game = cardcrawl.load("escape-from-haydes", max_rounds=30)
    stacked = game.initial_state(3, stack={"build": ["5S", "QH", "2C"]})
    state = game.step(stacked, game.legal_actions(stacked)[0])
    assert type(_form(state)) is UnseenForm
    assert any(deck.stacked for deck in game._replace_state(state).beliefs[0].unseen)
    other = game.determinize(state, 0, seed=5)
    assert not any(deck.stacked for deck in other.beliefs[0].unseen)
    assert other.beliefs == game.determinize(attrs.evolve(state), 0, seed=5).beliefs
    moved = game.step(other, game.legal_actions(other)[0])
    assert not any(deck.stacked for deck in moved.beliefs[0].unseen)
    start = game.initial_state(3)
    state = game.step(start, game.legal_actions(start)[0])
    assert type(_form(state)) is UnseenForm
    plain = game._replace_state(state)
    plain.beliefs  # noqa: B018 - its beliefs made
    assert sys.getsizeof(state.__dict__) == sys.getsizeof(plain.__dict__)
    assert state.__dict__.keys() == plain.__dict__.keys()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.options.players))
def test_a_pool_drawn_from_is_held_as_a_tuple_of_its_cards_and_read_as_a_deck(game: Any) -> None:
    from cardcrawl.kit._deck import Deck

    tuples = 0
    for seed in range(3):
        choose = random.Random(seed).choice
        for state in random_game_states(game, seed)[:-1]:
            form = _form(state)
            if type(form) is not UnseenForm:
                continue
            held = form.unseen
            kept = [tuple(u.rest) if type(u) is Deck else tuple(u) for u in held]
            tuples += sum(type(u) is tuple for u in held)
            assert all(type(u) in (Deck, tuple) for u in held)
            # Two steps from the state, the second from a position thawed afresh: the
            # tuples the state holds are never changed by the steps made from it.
            action = choose(game.legal_actions(state))
            after, again = game.step(state, action), game.step(state, action)
            assert after == again
            assert [tuple(u.rest) if type(u) is Deck else tuple(u) for u in held] == kept
            twin = game._replace_state(state)
            (belief,) = twin.beliefs
            assert all(type(d) is Deck for d in belief.unseen)
            assert [tuple(d.rest) for d in belief.unseen if not d.stacked] == [
                k for u, k in zip(held, kept, strict=True) if type(u) is tuple or not u.stacked
            ]
            assert pickle.loads(pickle.dumps(twin)) == state
    assert tuples > 20


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(g.options.players))
def test_the_states_of_a_game_never_change_as_it_goes_on(game: Any) -> None:
    # Each step goes on from the position the state before was frozen from (kept by
    # the game), which holds the very values it gave that state: none may change.
    for seed in range(3):
        choose = random.Random(seed).choice
        state = game.initial_state(seed)
        made = [(state, pickle.dumps(game._replace_state(state)))]
        while not game.is_terminal(state):
            state = game.step(state, choose(game.legal_actions(state)))
            made.append((state, pickle.dumps(game._replace_state(state))))
        for state, saved in made:
            assert pickle.dumps(game._replace_state(state)) == saved
