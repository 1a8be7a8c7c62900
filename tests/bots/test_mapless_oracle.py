"""The Mapless House oracle: an upper bound that cheats, kept apart from the fair bots."""

from __future__ import annotations

from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import bot_names, make_bot
from cardcrawl.bots._oracles import make_oracle, oracle_names
from cardcrawl.errors import CardcrawlError, OptionsError, UnknownBotError
from cardcrawl.mapless import MaplessHeuristicBot
from cardcrawl.mapless._oracle import MaplessOracleBot
from cardcrawl.simulate import play_game

GAME = cardcrawl.load("mapless-house", max_turns=200)
#: Seeds 1-24; the heuristic loses on 2, 9, 15 and 21, and the oracle escapes on all but 15.
SEEDS = range(1, 25)
ORACLE_ONLY = {2, 9, 21}


def _play(seed: int, bot: Any, *, sees_state: bool) -> tuple[str, list[Any]]:
    """The outcome's label and the actions of one game, checking each is legal."""
    state = GAME.initial_state(seed=seed)
    actions = []
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        action = bot.choose(GAME, state if sees_state else GAME.observe(state, 0), legal)
        assert action in legal
        actions.append(action)
        state = GAME.step(state, action)
    return GAME.outcome(state).label, actions


def test_it_is_registered_as_an_oracle_and_not_as_a_bot() -> None:
    assert oracle_names(GAME) == ("oracle",)
    assert "oracle" not in bot_names(GAME)
    assert "oracle" not in bot_names()
    with pytest.raises(UnknownBotError):
        make_bot("oracle", GAME, seed=1)
    assert isinstance(make_oracle("oracle", GAME, seed=1), MaplessOracleBot)
    haydes = cardcrawl.load("escape-from-haydes", players=1)
    assert oracle_names(haydes) == ()
    with pytest.raises(UnknownBotError, match="no oracle 'oracle' plays escape-from-haydes"):
        make_oracle("oracle", haydes, seed=1)


def test_an_oracle_must_say_that_it_sees_the_state() -> None:
    with pytest.raises(OptionsError, match="sees_state"):
        cardcrawl.GameTools(oracles={"peek": MaplessHeuristicBot})
    with pytest.raises(OptionsError, match="without spaces"):
        cardcrawl.GameTools(oracles={"an oracle": MaplessOracleBot})
    assert cardcrawl.tools_for("mapless-house").oracles == {"oracle": MaplessOracleBot}


def test_it_refuses_to_play_from_an_observation() -> None:
    state = GAME.initial_state(seed=1)
    oracle = MaplessOracleBot(GAME, seed=1)
    with pytest.raises(CardcrawlError, match="plays from the true state"):
        oracle.choose(GAME, GAME.observe(state, 0), GAME.legal_actions(state))
    # simulate's play loop shows every player its observation, so there it forfeits.
    result = play_game(GAME, [MaplessOracleBot], seed=1, on_bot_error="forfeit")
    assert result.outcome == "forfeit"
    assert result.decisions == 0


@pytest.mark.slow
def test_it_is_never_weaker_than_the_heuristic_and_sometimes_stronger() -> None:
    for seed in SEEDS:
        heuristic, _ = _play(seed, MaplessHeuristicBot(GAME, seed), sees_state=False)
        oracle, _ = _play(seed, MaplessOracleBot(GAME, seed), sees_state=True)
        if heuristic == "escaped":
            assert oracle == "escaped", seed
        else:
            assert (oracle == "escaped") == (seed in ORACLE_ONLY), seed


def test_with_no_budget_it_plays_as_the_heuristic() -> None:
    """A search out of budget leaves the decision to the heuristic, for the rest of the game."""
    for seed in (2, 3):
        oracle = MaplessOracleBot(GAME, seed, budget=0)
        assert _play(seed, oracle, sees_state=True) == _play(
            seed, MaplessHeuristicBot(GAME, seed), sees_state=False
        )
        assert oracle.out_of_budget == 1


@pytest.mark.slow
def test_it_is_deterministic() -> None:
    first = _play(9, MaplessOracleBot(GAME, 9), sees_state=True)
    assert first == _play(9, MaplessOracleBot(GAME, 9), sees_state=True)
    assert first[0] == "escaped"
