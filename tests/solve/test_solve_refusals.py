"""What the solver refuses, and how: budgets, cycles, deep trees, hidden information,
other seats, and bad arguments, each with its typed error."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs
import pytest
import solve_positions as sp
from solve_positions import twentyone

import cardcrawl
from cardcrawl import CHANCE, TERMINAL, Card, Outcome
from cardcrawl.errors import (
    CardcrawlError,
    IllegalActionError,
    InvalidStateError,
    OptionsError,
    PlayerError,
    SolverBudgetError,
    UnsolvableError,
)
from cardcrawl.solve import Solver, solve


# ------------------------------------------------------------------ budgets
def test_the_node_budget_names_itself_and_the_states_searched() -> None:
    game, state, utility = sp.twenty_one(12)
    with pytest.raises(SolverBudgetError) as caught:
        solve(game, state, utility=utility, max_nodes=50)
    error = caught.value
    assert (error.budget, error.limit, error.nodes) == ("max_nodes", 50, 51)
    assert "max_nodes=50" in str(error)
    assert isinstance(error, CardcrawlError)
    assert isinstance(error, RuntimeError)
    # The full search fits in a budget of its own size, and not in one less.
    nodes = solve(game, state, utility=utility).nodes
    assert solve(game, state, utility=utility, max_nodes=nodes).nodes == nodes
    with pytest.raises(SolverBudgetError):
        solve(game, state, utility=utility, max_nodes=nodes - 1)


def test_the_time_budget_stops_a_search_too_large_for_it() -> None:
    game = cardcrawl.load("mapless-house", max_turns=3)
    state = game.initial_state(seed=1, explicit_chance=True)
    with pytest.raises(SolverBudgetError) as caught:
        solve(game, state, seconds=0.05)
    assert caught.value.budget == "seconds"
    assert caught.value.limit == 0.05
    assert caught.value.nodes > 0


def test_a_game_without_a_turn_limit_is_named_when_the_budget_runs_out() -> None:
    """M-22: without max_turns the hunt need not end; the message says so."""
    game = cardcrawl.load("mapless-house")
    narrative = [*sp.SPADES, "AH"]
    state = game.initial_state(seed=1, explicit_chance=True, stack={"narrative": narrative})
    with pytest.raises(SolverBudgetError, match="loaded without max_turns") as caught:
        solve(game, state, max_nodes=500, hidden=True)
    assert "deepest path" in str(caught.value)
    # With the limit set, the same budget error does not blame it.
    limited = cardcrawl.load("mapless-house", max_turns=50)
    state = limited.initial_state(seed=1, explicit_chance=True, stack={"narrative": narrative})
    with pytest.raises(SolverBudgetError) as caught:
        solve(limited, state, max_nodes=500, hidden=True)
    assert "without" not in str(caught.value)


# ----------------------------------------------------------- cycles, depth
class Dawdle(twentyone.TwentyOne):
    """Twenty-one where standing on an empty hand changes nothing: a loop."""

    def _apply(self, state: Any, action: Any, events: list[Any]) -> Any:
        if action == twentyone.STAND and not state.hand:
            events.append("You wait.")
            return attrs.evolve(state, phase="decide")
        return super()._apply(state, action, events)


def test_a_game_that_comes_back_to_a_state_is_refused() -> None:
    game = Dawdle({"target": 10})
    state = game.initial_state(seed=1, explicit_chance=True)
    with pytest.raises(UnsolvableError, match="cycle") as caught:
        solve(game, state, utility=lambda s: s.total)
    assert caught.value.state is not None
    # Deeper down, a hand that stands still comes back to itself only at the root.
    drawn = game.step(
        game.step(state, twentyone.HIT), game.chance_outcomes(game.step(state, twentyone.HIT))[0][0]
    )
    assert solve(game, drawn, utility=lambda s: 0).value == 0


@attrs.frozen(slots=False)
class CountState:
    left: int
    rng: int
    explicit_chance: bool
    events: tuple[str, ...]
    _memo: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)


@attrs.frozen(order=True)
class Tick:
    size: int

    def __str__(self) -> str:
        return f"tick {self.size}"


class Countdown(cardcrawl.GameBase[Any, Any, Any]):
    """A solo game of ``length`` ticks, far deeper than Python's recursion limit: each
    tick takes one or two off the count; the return is 1 on an even number of ticks."""

    game_name = "test-countdown"
    rules_version = "1"
    options_type = twentyone.TwentyOneOptions  # unused; any options class will do
    state_type = CountState
    action_type = Tick
    length = 3 * sys.getrecursionlimit()

    @property
    def num_players(self) -> int:
        return 1

    def _new_state(
        self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]
    ) -> Any:
        return CountState(self.length, rng, explicit_chance, ())

    def _to_move(self, state: Any) -> int:
        return 0 if state.left > 0 else TERMINAL

    def _decisions(self, state: Any) -> tuple[Tick, ...]:
        return (Tick(1), Tick(2)) if state.left > 1 else (Tick(1),)

    def _chances(self, state: Any) -> tuple[tuple[Any, int], ...]:
        return ()

    def _apply(self, state: Any, action: Any, events: list[Any]) -> Any:
        return attrs.evolve(state, left=state.left - action.size)

    def _describe(self, state: Any) -> str:
        return "tick 1 or tick 2"

    def outcome(self, state: Any) -> Outcome | None:
        return None if state.left else Outcome("done", (1.0,))

    def observe(self, state: Any, player: int) -> Any:
        return state.left

    def determinize(self, state: Any, player: int, seed: int) -> Any:
        return attrs.evolve(state, rng=cardcrawl.rng_from_seed(seed))

    def card_census(self, state: Any) -> dict[str, tuple[Card, ...]]:
        return {}

    def render(self, state: Any) -> str:
        return str(state.left)

    def parse_action(self, text: str) -> Tick:
        return Tick(int(text.split()[1]))


def test_a_tree_deeper_than_the_recursion_limit_is_solved() -> None:
    game = Countdown()
    state = game.initial_state(seed=1, explicit_chance=True)
    assert game.current_player(state) != CHANCE
    solution = solve(game, state)
    assert solution.value == 1
    # Every count from the length down to 1 is valued once, and each of the two
    # actions of the root's children reaches the end.
    assert solution.nodes >= game.length


# ------------------------------------------------------- what is not solved
def test_a_state_of_sampled_play_is_refused() -> None:
    game, _, utility = sp.twenty_one(10)
    with pytest.raises(UnsolvableError, match="sampled play"):
        solve(game, game.initial_state(seed=1), utility=utility)


def test_a_stacked_deck_is_hidden_information_unless_hidden_is_given() -> None:
    game, state = sp.near_exit()
    with pytest.raises(UnsolvableError, match="narrative") as caught:
        solve(game, state)
    assert "hidden=True" in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert solve(game, state, hidden=True).value == Fraction(20, 27)


def test_an_honest_late_hunt_hides_nothing() -> None:
    game, state = sp.late_hunt(10, 1)
    assert solve(game, state).value == 0  # no hidden=True needed


@pytest.mark.parametrize("first", [0, 1])
def test_another_seat_without_a_policy_is_refused(first: int) -> None:
    game, state = sp.haydes_last_round(
        "9S 10H 10D 5S QH 2C RJ", players=2, first=first, replacement="3D 4D 5D 6D"
    )
    with pytest.raises(UnsolvableError, match=r"seat 1 decides here .*policies=\{1:"):
        solve(game, state, hidden=True, max_nodes=100_000)


def test_a_policy_must_choose_a_legal_action() -> None:
    game, state = sp.haydes_last_round("9S 10H RJ", players=2, first=1)
    with pytest.raises(IllegalActionError):
        solve(game, state, policies={1: lambda s: game.parse_action("higher 5,5")}, hidden=True)


def test_a_utility_must_be_a_number() -> None:
    game, state, _ = sp.twenty_one(10)
    with pytest.raises(UnsolvableError, match="exact number"):
        solve(game, state, utility=lambda s: "win")
    # A float is taken at its exact value.
    assert solve(game, state, utility=lambda s: 0.5).value == Fraction(1, 2)


# ---------------------------------------------------------------- arguments
@pytest.mark.parametrize("player", [1, -1, True, 0.0, "0"])
def test_the_player_must_be_a_seat(player: Any) -> None:
    game, state, _ = sp.twenty_one(10)
    with pytest.raises(PlayerError):
        solve(game, state, player=player)


def test_the_policies_must_be_functions_of_seats() -> None:
    game, state = sp.haydes_last_round()
    with pytest.raises(PlayerError):
        solve(game, state, policies={3: lambda s: None})
    with pytest.raises(OptionsError):
        solve(game, state, policies={0: "heuristic"})


@pytest.mark.parametrize(
    "budget", [{"max_nodes": 0}, {"max_nodes": -5}, {"max_nodes": True}, {"max_nodes": 2.5},
               {"seconds": 0}, {"seconds": -1.0}, {"seconds": True}, {"seconds": "1"},
               {"utility": "total"}],
)  # fmt: skip
def test_budgets_are_positive_numbers(budget: dict[str, Any]) -> None:
    game, state, _ = sp.twenty_one(10)
    with pytest.raises(OptionsError):
        solve(game, state, **budget)


def test_a_state_of_another_game_is_refused() -> None:
    mapless, state = sp.late_hunt(10, 1)
    haydes, _ = sp.haydes_last_round()
    with pytest.raises(InvalidStateError):
        solve(haydes, state)
    with pytest.raises(InvalidStateError):
        Solver(mapless).solve("a state")


def test_regret_names_only_legal_actions() -> None:
    game, state = sp.haydes_last_round()
    solution = solve(game, state, hidden=True)
    with pytest.raises(IllegalActionError):
        solution.regret(game.parse_action("higher 4,4"))
    mapless, late = sp.late_hunt(10, 1)
    at_chance = solve(mapless, late)
    assert at_chance.actions == ()
    assert at_chance.best_actions == ()
    assert dict(at_chance.action_costs) == {}
    with pytest.raises(IllegalActionError, match="not a decision"):
        at_chance.regret(mapless.parse_action("move 1,0"))
