"""Best-response gains: exact on small positions (checked by hand), sampled on games."""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.bots import RandomBot
from cardcrawl.cli._main import main
from cardcrawl.compare import sampled_best_response_gains
from cardcrawl.errors import OptionsError, UnsolvableError
from cardcrawl.solve import Mixed, best_response_gains, solve
from cardcrawl.tree import solver_tree

TERMINAL = -4


@attrs.frozen
class Pile:
    """Take-away: a pile of stones, two players take 1 or 2 in turn; the last stone wins."""

    stones: int
    to_move: int = 0
    winner: int | None = None
    explicit_chance: bool = True


class TakeAway:
    """A two-player game with nothing hidden, small enough to value by hand."""

    name = "take-away"
    num_players = 2

    def current_player(self, state: Pile) -> int:
        return TERMINAL if state.winner is not None else state.to_move

    def legal_actions(self, state: Pile) -> list[int]:
        return [] if state.winner is not None else [n for n in (1, 2) if n <= state.stones]

    def step(self, state: Pile, action: int) -> Pile:
        assert action in self.legal_actions(state)
        left = state.stones - action
        winner = state.to_move if left == 0 else None
        return Pile(left, 1 - state.to_move, winner)

    def returns(self, state: Pile) -> tuple[float, float]:
        return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)

    def observe(self, state: Pile, seat: int) -> Pile:
        return state

    def determinize(self, state: Pile, seat: int, seed: int) -> Pile:
        return state

    def describe(self, state: Pile) -> str:
        return f"{state.stones} stones, player {state.to_move} to move"

    def check(self, state: Pile, action: int) -> None:
        assert action in self.legal_actions(state)


def test_take_away_against_random_players_by_hand() -> None:
    """From 3 stones, both players random: the first wins 1/2 * 1/2 = 1/4 (it must take
    one, then the second must take one). Best-responding, the first takes one and wins
    1/2 (the second takes two half the time); the second always wins: both gain 1/4."""
    gains = best_response_gains(TakeAway(), Pile(3), RandomBot)
    first, second = gains.seats
    assert (first.lineup_value, first.best_value, first.gain) == (
        Fraction(1, 4),
        Fraction(1, 2),
        Fraction(1, 4),
    )
    assert (second.lineup_value, second.best_value, second.gain) == (
        Fraction(3, 4),
        Fraction(1),
        Fraction(1, 4),
    )
    assert gains.nash_conv == Fraction(1, 2)
    assert gains.exploitability == Fraction(1, 4)


def _perfect(game: TakeAway) -> Any:
    """Take-away's winning rule: leave a multiple of 3 when you can."""

    class Perfect:
        def __init__(self, game: Any, seed: int, seat: int) -> None:
            pass

        def choose(self, game: Any, observation: Pile, legal: list[int]) -> int:
            return next((n for n in legal if (observation.stones - n) % 3 == 0), legal[0])

    return Perfect


def test_an_equilibrium_gains_nothing() -> None:
    gains = best_response_gains(TakeAway(), Pile(7), _perfect(TakeAway()))
    assert gains.nash_conv == 0
    assert [s.lineup_value for s in gains.seats] == [1, 0]


def test_a_solo_bot_s_gain_is_what_it_loses_to_best_play() -> None:
    """After the roll of 7 against the Q♥ (H-8): 3 of the 8 actions are right (the three
    'lower' guesses), and from each, 3 of 8 again reach the Red Joker; best play always
    does. The random bot wins 3/8 * 3/8 = 9/64, and loses 55/64 to best play."""
    game = cardcrawl.load("escape-from-haydes", max_rounds=1)
    state = game.initial_state(
        seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]}
    )
    for text in ("higher 1,0", "higher 2,0", "charisma", "roll 7"):
        state = game.step(state, game.parse_action(text))
    tree = solver_tree(game, state, hidden=True)
    right = [c for c in tree.children if c.value == 1]
    assert len(tree.children) == 8
    assert len(right) == 3
    for child in right:
        assert len(child.children) == 8
        assert sum(g.value for g in child.children) == 3
        assert all(g.kind == "end" for g in child.children)
    gains = best_response_gains(game, state, "random", hidden=True)
    (seat,) = gains.seats
    assert (seat.lineup_value, seat.best_value, seat.gain) == (
        Fraction(9, 64),
        Fraction(1),
        Fraction(55, 64),
    )


def test_a_mixed_policy_is_valued_as_chance() -> None:
    game = TakeAway()
    uniform = {
        0: lambda s: Mixed.uniform(game.legal_actions(s)),
        1: lambda s: Mixed.uniform(game.legal_actions(s)),
    }
    assert solve(game, Pile(3), policies=uniform).value == Fraction(1, 4)
    assert solve(game, Pile(2), policies=uniform).value == Fraction(1, 2)
    broken = {0: lambda s: Mixed([(1, Fraction(1, 3))]), 1: uniform[1]}
    with pytest.raises(UnsolvableError, match="sum to 1"):
        solve(game, Pile(3), policies=broken)
    with pytest.raises(UnsolvableError, match="sum to 1"):
        solve(game, Pile(4), policies={0: uniform[0], 1: broken[0]})


def test_a_line_up_that_does_not_fit_is_refused() -> None:
    with pytest.raises(OptionsError, match="2 seat"):
        best_response_gains(TakeAway(), Pile(3), [RandomBot])


def test_sampled_gains_of_the_same_bot_are_zero() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=10)
    same = sampled_best_response_gains(game, "random", responder="random", games=30, workers=1)
    assert same.nash_conv.estimate == 0.0
    assert all(not d.differs for d in same.seats)


def test_sampled_gains_find_a_stronger_responder() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=10)
    gains = sampled_best_response_gains(game, "random", responder="heuristic", games=150, workers=1)
    assert gains.nash_conv.low > 0
    assert gains.exploitability.estimate == pytest.approx(gains.nash_conv.estimate / 2)
    assert "lower bound" in gains.format()
    with pytest.raises(OptionsError, match="games"):
        sampled_best_response_gains(game, "random", games=1)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["best-response", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_exact_and_sampled() -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=1)
    state = game.initial_state(
        seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]}
    )
    for text in ("higher 1,0", "higher 2,0", "charisma", "roll 7"):
        state = game.step(state, game.parse_action(text))
    code, out, err = run(
        "escape-from-haydes", "--max-rounds", "1", "--hidden", "--position", game.notation(state)
    )
    assert code == 0, err
    assert out.splitlines()[0] == (
        "seat 0 (random): 9/64 (0.1406) with its bot, 1 best-responding: gains 55/64 (0.8594)"
    )
    code, out, err = run(
        "escape-from-haydes", "--max-rounds", "1", "--position", game.notation(state)
    )
    assert code == 1
    assert "hides" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "1"], "--games"),
        (["--games", "5", "--position", "x"], "no --position"),
        (["--solver-nodes", "0"], "--solver-nodes"),
        (["--bot", "random", "--bot", "heuristic"], "one line-up"),
        (["--games", "5", "--responder", "nobody"], "nobody"),
    ],
)
def test_the_command_s_usage_errors(argv: list[str], message: str) -> None:
    code, _, err = run("escape-from-haydes", "--max-rounds", "3", *argv)
    assert code == 2, err
    assert message in err
