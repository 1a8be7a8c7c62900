"""A deterministic bot's policy is one-hot on its choice (``action_probabilities``), so
the exact best reply plays the heuristics as it plays the random bot: from one bot, with
the same values as a fresh bot asked at every position."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
import solve_positions as sp

from cardcrawl import CHANCE
from cardcrawl.bots import DeterministicPolicy, get_bot_spec, make_bot
from cardcrawl.solve import Mixed, best_response_gains, bot_policy


def _positions() -> list[Any]:
    """(game, state, hidden) for the positions the solver's tests solve."""
    haydes, last_round = sp.haydes_last_round()
    two, two_round = sp.haydes_last_round(
        "9S 10H 10D 5S QH 2C RJ", players=2, first=1, replacement="3D 4D 5D 6D"
    )
    mapless, near = sp.near_exit()
    late_game, late = sp.late_hunt(10, 2)
    return [
        pytest.param(haydes, last_round, True, "heuristic", id="haydes-heuristic"),
        pytest.param(haydes, last_round, True, "lookahead", id="haydes-lookahead"),
        pytest.param(two, two_round, True, "heuristic", id="haydes-2-heuristic"),
        pytest.param(mapless, near, True, "heuristic", id="mapless-near-exit-heuristic"),
        pytest.param(mapless, near, True, "shortest-path", id="mapless-near-exit-shortest"),
        pytest.param(late_game, late, False, "planner", id="mapless-late-hunt-planner"),
    ]


def _fresh(name: str) -> Any:
    """The bot without ``action_probabilities``: a fresh one asked at every position."""

    class Fresh:
        def __init__(self, game: Any, seed: int, seat: int = 0) -> None:
            self.bot = make_bot(name, game, seed, seat)

        def choose(self, game: Any, observation: Any, legal: Any) -> Any:
            return self.bot.choose(game, observation, legal)

    return Fresh


def _decisions(game: Any, state: Any, bot: str) -> list[Any]:
    """The positions with a decision along the line the bot plays (chance: the first
    outcome)."""
    found = []
    while game.current_player(state) >= 0 or game.current_player(state) == CHANCE:
        seat = game.current_player(state)
        if seat == CHANCE:
            state = game.step(state, game.chance_outcomes(state)[0][0])
            continue
        found.append(state)
        legal = game.legal_actions(state)
        state = game.step(state, make_bot(bot, game, 0, seat).choose(
            game, game.observe(state, seat), legal))  # fmt: skip
    return found


@pytest.mark.parametrize(("game", "state", "hidden", "bot"), _positions())
def test_a_deterministic_bot_is_one_hot(game: Any, state: Any, hidden: bool, bot: str) -> None:
    assert issubclass(get_bot_spec(bot, game).factory, DeterministicPolicy)
    decisions = _decisions(game, state, bot)
    assert decisions
    for position in decisions:
        seat = game.current_player(position)
        seen, legal = game.observe(position, seat), game.legal_actions(position)
        choice = make_bot(bot, game, 0, seat).choose(game, seen, legal)
        one_hot = make_bot(bot, game, 0, seat).action_probabilities(game, seen, legal)
        assert one_hot == ((choice, Fraction(1)),)
        policy = bot_policy(game, bot, seat)(position)
        assert isinstance(policy, Mixed)
        assert policy.actions == one_hot


@pytest.mark.parametrize(("game", "state", "hidden", "bot"), _positions())
def test_the_best_reply_to_a_heuristic_is_exact(
    game: Any, state: Any, hidden: bool, bot: str
) -> None:
    gains = best_response_gains(game, state, bot, hidden=hidden)
    fresh = best_response_gains(game, state, _fresh(bot), hidden=hidden)
    assert [(s.lineup_value, s.best_value) for s in gains.seats] == [
        (s.lineup_value, s.best_value) for s in fresh.seats
    ]
    assert all(0 <= s.gain <= 1 for s in gains.seats)


def test_what_a_seat_gains_against_the_heuristic() -> None:
    """Two players in the last round, seat 1 first (H-5): the heuristic in seat 0 never
    escapes here, while its best reply to seat 1's heuristic escapes 13 times in 18."""
    game, state = sp.haydes_last_round(
        "9S 10H 10D 5S QH 2C RJ", players=2, first=1, replacement="3D 4D 5D 6D"
    )
    gains = best_response_gains(game, state, "heuristic", hidden=True)
    first, second = gains.seats
    assert (first.lineup_value, first.best_value) == (0, Fraction(13, 18))
    assert second.gain == 0
    assert gains.exploitability == Fraction(13, 36)
