"""Escape from Haydes keeps no score: its rules end a game with one winner, who escaped
(H-9), or with none (H-11, H-13), so ``Outcome.scores`` is ``None`` and the returns and
the winners say everything."""

from __future__ import annotations

import random

import pytest

import cardcrawl

# (players, max_rounds, seed) of a random game that ends each way.
ENDINGS = {"escaped": (1, 50, 5), "trapped": (1, 50, 0), "time-up": (2, 3, 1)}


@pytest.mark.parametrize("label", sorted(ENDINGS))
def test_every_ending_has_no_score_and_its_returns_name_the_winners(label: str) -> None:
    players, max_rounds, seed = ENDINGS[label]
    game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=max_rounds)
    state = game.initial_state(seed=seed)
    choose = random.Random(seed)
    while not game.is_terminal(state):
        state = game.step(state, choose.choice(game.legal_actions(state)))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.label == label
    assert outcome.scores is None
    assert outcome.winners == tuple(s for s, r in enumerate(outcome.returns) if r == 1.0)
    assert outcome.returns == game.returns(state)
    assert (label == "escaped") == bool(outcome.winners)
