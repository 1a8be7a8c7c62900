"""The Mapless House planner bot: registered, legal, deterministic, observation-only."""

from __future__ import annotations

import cardcrawl
from cardcrawl import rng_derive
from cardcrawl.bots import make_bot
from cardcrawl.mapless._bot_model import state_from_observation
from cardcrawl.mapless._bots import MaplessPlannerBot
from cardcrawl.mapless._state import Phase

GAME = cardcrawl.load("mapless-house", max_turns=200)


def _play(seed: int) -> tuple[list[object], str, int]:
    state = GAME.initial_state(seed=seed)
    bot = make_bot("planner", GAME, seed, 0)
    actions: list[object] = []
    searched = 0
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        obs = GAME.observe(state, 0)
        action = bot.choose(GAME, obs, legal)
        assert action in legal
        if obs.phase is Phase.PLACE and obs.exit_cell is None and len(obs.narrative_left) <= 2:
            searched += len(legal) > 1
            # Observation-only: a state rebuilt from the observation (other deck order)
            # gets the same choice.
            other = state_from_observation(obs, seed + 1)
            assert bot.choose(GAME, GAME.observe(other, 0), legal) == action
        actions.append(action)
        state = GAME.step(state, action)
    return actions, GAME.outcome(state).label, searched


def test_registered() -> None:
    assert isinstance(make_bot("planner", GAME, 1, 0), MaplessPlannerBot)


def test_legal_deterministic_and_searches() -> None:
    searched = 0
    for i in range(3):
        seed = rng_derive(7, i)
        first, label, k = _play(seed)
        again, label_again, _ = _play(seed)
        assert first == again
        assert label == label_again
        assert label in ("escaped", "consumed")
        searched += k
    assert searched > 0  # the endgame search was exercised


def test_sanity_seed_one() -> None:
    assert _play(1)[1] == "escaped"
