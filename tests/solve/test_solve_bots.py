"""The solver is the ground truth the bots are measured against: no bot scores above it.

A bot is made a policy of the state (a fresh bot for each decision, so that its choice
depends on the position alone; see ``bot_policy``), and the policy's exact value is
worked out with the same expectimax, its seat fixed to the bot's choices. It can never
exceed the solved value, and the naive enumeration must agree with it. The uniformly
random player's exact value (the mean over the legal actions) is bounded the same way.
Last, seeded games played out with the heuristic bot and chance drawn from the exact
probabilities agree with the bot's exact value, within the sample's own error.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
import solve_positions as sp

from cardcrawl import CHANCE, TERMINAL
from cardcrawl.solve import solve


def _alive(game: Any) -> Any:
    return lambda state: 0 if game.outcome(state).label == "consumed" else 1


def _positions() -> list[tuple[str, Any, Any, Any, bool]]:
    """(name, game, state, utility, hidden) for each position the bots are held to."""
    haydes, last_round = sp.haydes_last_round()
    mapless, near = sp.near_exit()
    late_game, late = sp.late_hunt(10, 2)
    return [
        ("haydes-last-round", haydes, last_round, lambda s: haydes.returns(s)[0], True),
        ("mapless-near-exit", mapless, near, lambda s: mapless.returns(s)[0], True),
        ("mapless-late-hunt-alive", late_game, late, _alive(late_game), False),
    ]


POSITIONS = _positions()


@pytest.mark.parametrize(
    ("name", "game", "state", "utility", "hidden"), POSITIONS, ids=[p[0] for p in POSITIONS]
)
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_no_bot_scores_above_the_solver(
    name: str, game: Any, state: Any, utility: Any, hidden: bool, bot: str
) -> None:
    best = solve(game, state, utility=utility, hidden=hidden).value
    policy = sp.bot_policy(bot, game)
    played = solve(game, state, utility=utility, hidden=hidden, policies={0: policy}).value
    assert played <= best
    assert played == sp.naive_value(game, state, utility, policies={0: policy})


@pytest.mark.parametrize(
    ("name", "game", "state", "utility", "hidden"), POSITIONS, ids=[p[0] for p in POSITIONS]
)
def test_a_uniformly_random_player_scores_no_more(
    name: str, game: Any, state: Any, utility: Any, hidden: bool
) -> None:
    best = solve(game, state, utility=utility, hidden=hidden).value
    random_value = sp.naive_value(game, state, utility, uniform=True)
    assert random_value <= best


def test_the_solver_beats_the_random_player_where_choices_matter() -> None:
    """A test that could fail: somewhere, best play is strictly better."""
    game, state = sp.haydes_last_round()
    returns = lambda s: game.returns(s)[0]  # noqa: E731
    assert (
        sp.naive_value(game, state, returns, uniform=True) < solve(game, state, hidden=True).value
    )


def _play_out(game: Any, state: Any, policy: Any, rng: random.Random) -> Any:
    """One game from ``state``: the policy decides, chance is drawn with the exact
    probabilities of ``chance_outcomes``."""
    while True:
        to_move = game.current_player(state)
        if to_move == TERMINAL:
            return state
        if to_move == CHANCE:
            outcomes = game.chance_outcomes(state)
            (outcome,) = rng.choices(
                [o for o, _ in outcomes], weights=[float(p) for _, p in outcomes]
            )
            state = game.step(state, outcome)
        else:
            state = game.step(state, policy(state))


def test_seeded_games_agree_with_the_bots_exact_value() -> None:
    game, state = sp.haydes_last_round()
    policy = sp.bot_policy("heuristic", game)
    exact = solve(game, state, hidden=True, policies={0: policy}).value
    rng = random.Random(2024)
    games = 400
    wins = sum(game.returns(_play_out(game, state, policy, rng))[0] for _ in range(games))
    mean = Fraction(wins) / games
    # Four standard errors of a mean of games each worth 0 or 1.
    p = float(exact)
    tolerance = 4 * math.sqrt(max(p * (1 - p), 1 / games) / games)
    assert abs(float(mean) - p) <= tolerance
    assert float(mean) <= float(solve(game, state, hidden=True).value) + tolerance
