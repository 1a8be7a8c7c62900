"""play_game builds an observation only for a bot that reads one."""

from __future__ import annotations

from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import RandomBot
from cardcrawl.simulate import play_game


def _counting(game: Any) -> list[int]:
    seats: list[int] = []
    observe = game.observe

    def counted(state: Any, player: int) -> Any:
        seats.append(player)
        return observe(state, player)

    game.observe = counted
    return seats


@pytest.mark.parametrize("name", ["mapless-house", "escape-from-haydes"])
def test_the_random_bot_is_given_no_observation(name: str) -> None:
    game = cardcrawl.load(name, **({"max_turns": 50} if name == "mapless-house" else {}))
    observed = _counting(game)
    result = play_game(game, ["random"], seed=4)
    assert result.decisions > 0
    assert observed == []
    # Spared or not, it plays the same game: its choices never read the observation.
    assert RandomBot.reads_observation is False


def test_a_bot_that_reads_its_observation_gets_one_at_every_decision() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=5)
    observed = _counting(game)
    result = play_game(game, ["heuristic", "random"], seed=4)
    heuristic_turns = observed.count(0)
    assert heuristic_turns > 0
    assert set(observed) == {0}
    assert heuristic_turns < result.decisions


def test_skipping_the_observation_changes_no_result() -> None:
    game = cardcrawl.load("escape-from-haydes", players=3, max_rounds=8)

    class Reading(RandomBot):
        reads_observation = True

    spared = play_game(game, ["random"] * 3, seed=11)
    given = play_game(game, [Reading] * 3, seed=11)
    assert (spared.outcome, spared.returns, spared.decisions) == (
        given.outcome,
        given.returns,
        given.decisions,
    )
