"""The solver's values are the values of expectimax: checked against a naive enumeration.

Every position is solved twice, by :func:`cardcrawl.solve.solve` and by
``naive_value`` (plain recursion over the whole tree, in solve_positions.py), and the
two must agree exactly, as Fractions: the position's value and, at a decision, each
legal action's value.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
import solve_positions as sp
from hypothesis import given
from hypothesis import strategies as st

from cardcrawl.mapless import MaplessHouse
from cardcrawl.solve import Solver, solve


def _alive(game: Any) -> Any:
    """1 unless a Stalker consumed the player (M-20): a utility with fractional values
    where the escape itself is out of reach."""
    return lambda state: 0 if game.outcome(state).label == "consumed" else 1


def _children_agree(game: Any, state: Any, utility: Any, **kwargs: Any) -> None:
    solution = solve(game, state, utility=utility, **kwargs)
    assert solution.value == sp.naive_value(game, state, utility)
    for action, value in solution.actions:
        assert value == sp.naive_value(game, game.step(state, action), utility), action
    return None


@pytest.mark.parametrize("target", [10, 12])
def test_twenty_one_matches_the_naive_enumeration(target: int) -> None:
    game, state, utility = sp.twenty_one(target)
    solution = solve(game, state, utility=utility)
    assert solution.value == sp.naive_value(game, state, utility)
    assert [str(a) for a, _ in solution.actions] == ["hit", "stand"]
    hit, stand = (value for _, value in solution.actions)
    assert stand == 0  # standing on no card at all
    assert (
        hit
        == solution.value
        == sp.naive_value(game, game.step(state, game.parse_action("hit")), utility)
    )
    assert 0 < solution.value < 1


def test_twenty_one_every_decision_of_a_drawn_hand() -> None:
    game, state, utility = sp.twenty_one(12)
    state = game.step(state, game.parse_action("hit"))
    for outcome, _ in game.chance_outcomes(state):
        _children_agree(game, game.step(state, outcome), utility)


def test_the_default_utility_is_the_exact_return() -> None:
    # Twenty-one returns total / target as a float; the solver takes each float at its
    # exact binary value, which is not the ratio itself.
    game, state, _ = sp.twenty_one(10)
    exact_float = sp.naive_value(game, state, lambda s: Fraction(game.returns(s)[0]))
    assert solve(game, state).value == exact_float
    assert exact_float != solve(game, state, utility=sp.twenty_one(10)[2]).value


@pytest.mark.parametrize("left", [1, 2])
def test_a_late_mapless_hunt_matches_the_naive_enumeration(left: int) -> None:
    """M-13, M-15, M-22: the last turns of a hunt whose stacked cards are all spent."""
    game, state = sp.late_hunt(10, left)
    for utility in (lambda s: game.returns(s)[0], _alive(game)):
        assert solve(game, state, utility=utility).value == sp.naive_value(game, state, utility)
    # Each Narrative card that may come next, and each placement of it.
    for outcome, _ in game.chance_outcomes(state)[:2]:
        _children_agree(game, game.step(state, outcome), _alive(game))


def test_a_mapless_position_two_steps_from_the_exit() -> None:
    """M-15, M-16: the Encounter on the 10♠ decides whether the last Move is made."""
    game, state = sp.near_exit()
    solution = solve(game, state, hidden=True)
    naive = sp.naive_value(game, state, lambda s: game.returns(s)[0])
    assert solution.value == naive
    assert 0 < solution.value < 1


def test_a_variant_hook_is_followed() -> None:
    """M-15 varied: with every threshold 3 higher, the Encounter on the 10♠ fails more
    often, and the same position is worth less."""

    class Harder(MaplessHouse):
        def encounter_threshold(self, state: Any) -> int:
            return super().encounter_threshold(state) + 3

    standard, state = sp.near_exit()
    harder = Harder(standard.options)
    value = solve(harder, state, hidden=True).value
    assert value == sp.naive_value(harder, state, lambda s: harder.returns(s)[0])
    assert 0 < value < solve(standard, state, hidden=True).value


@pytest.mark.parametrize(
    "name", ["escape-from-haydes", "escape-from-haydes-solo-timer", "escape-from-haydes-denizens"]
)
def test_a_haydes_last_round_matches_the_naive_enumeration(name: str) -> None:
    """H-8, H-9, H-13: a creature then the Red Joker, in the only round."""
    game, state = sp.haydes_last_round(name=name)
    returns = lambda s: game.returns(s)[0]  # noqa: E731
    solution = solve(game, state, hidden=True)
    assert solution.value == sp.naive_value(game, state, returns)
    for action, value in solution.actions:
        assert value == sp.naive_value(game, game.step(state, action), returns), action
    # Ending the turn at once ends the only round: nobody escapes.
    assert solution.action_values[game.parse_action("end")] == 0
    assert 0 < solution.value < 1


def test_haydes_with_another_seat_fixed_by_a_policy() -> None:
    """H-5: seat 1 plays the heuristic bot, first; seat 0's best reply is solved."""
    game, state = sp.haydes_last_round(
        "9S 10H 10D 5S QH 2C RJ", players=2, first=1, replacement="3D 4D 5D 6D"
    )
    policy = sp.bot_policy("heuristic", game, seat=1)
    asked: list[Any] = []

    def watched(state: Any) -> Any:
        asked.append(state)
        return policy(state)

    returns = lambda s: game.returns(s)[0]  # noqa: E731
    solution = solve(game, state, policies={1: watched}, hidden=True)
    assert asked, "seat 1 decides in this position"
    assert solution.value == sp.naive_value(game, state, returns, policies={1: policy})
    assert 0 < solution.value < 1


def test_the_best_actions_cost_nothing_and_the_others_their_difference() -> None:
    game, state = sp.haydes_last_round()
    solution = solve(game, state, hidden=True)
    best = solution.best_actions
    assert best
    assert all(solution.regret(action) == 0 for action in best)
    for action, value in solution.actions:
        assert solution.regret(action) == solution.value - value >= 0
        assert solution.action_costs[action] == solution.regret(action)
    assert solution.regret(game.parse_action("end")) == solution.value
    assert max(v for _, v in solution.actions) == solution.value


def test_a_solver_reuses_what_it_solved() -> None:
    game, state, utility = sp.twenty_one(10)
    solver = Solver(game, utility=utility)
    first = solver.solve(state)
    again = solver.solve(state)
    assert again.value == first.value
    assert again.nodes == 0
    child = game.step(state, game.parse_action("hit"))
    assert solver.solve(child).nodes == 0
    assert solver.table_size > 0


def test_the_same_position_gives_the_same_solution() -> None:
    game, state = sp.haydes_last_round()
    first, second = solve(game, state, hidden=True), solve(game, state, hidden=True)
    assert first == second
    assert (first.nodes, first.actions) == (second.nodes, second.actions)


@given(target=st.integers(3, 11), data=st.data())
def test_any_twenty_one_position_matches_the_naive_enumeration(target: int, data: Any) -> None:
    """Walk a few steps into the tree (any legal action, any chance outcome), then solve."""
    game, state, utility = sp.twenty_one(target)
    for _ in range(data.draw(st.integers(0, 4), label="steps")):
        if game.is_terminal(state):
            break
        options = [o for o, _ in game.chance_outcomes(state)] or list(game.legal_actions(state))
        state = game.step(state, data.draw(st.sampled_from(options), label="action"))
    solution = solve(game, state, utility=utility)
    assert solution.value == sp.naive_value(game, state, utility)
    if solution.actions:
        assert solution.value == max(v for _, v in solution.actions)
        for action, value in solution.actions:
            assert value == sp.naive_value(game, game.step(state, action), utility)
