"""Expectimax over the explicit chance tree, with exact values.

The search is a depth-first walk kept on an explicit stack (never Python's own, so a
deep tree cannot raise ``RecursionError``), memoised on a key of each state, and
bounded by a node budget and a time budget.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from numbers import Rational
from types import MappingProxyType
from typing import Any, Generic, TypeVar

import attrs

from cardcrawl.core._protocol import CHANCE, TERMINAL
from cardcrawl.core._registry import tools_for
from cardcrawl.errors import (
    IllegalActionError,
    OptionsError,
    PlayerError,
    SolverBudgetError,
    UnsolvableError,
)

__all__ = ["DEFAULT_MAX_NODES", "Mixed", "Policy", "Solution", "Solver", "solve"]

S = TypeVar("S")
A = TypeVar("A")

#: The node budget of :func:`solve` and :class:`Solver` unless another is given: for The
#: Mapless House, about a minute of search and tens of megabytes of kept values.
DEFAULT_MAX_NODES = 1_000_000

#: A fixed choice for a seat: a function of the state to one of its legal actions, or
#: to a :class:`Mixed` choice among them.
Policy = Callable[[Any], Any]


def _pairs(pairs: Iterable[tuple[Any, Any]]) -> tuple[tuple[Any, Fraction], ...]:
    return tuple(pairs)


@attrs.frozen
class Mixed:
    """A policy's choice at random: each action with its exact probability.

    A policy (see :func:`solve`) returns one to say that its seat plays each action
    with that probability, as the random bot does: the solver values the choice as a
    chance event, the probability-weighted mean of the actions' values.

    Attributes:
        actions: ``(action, probability)`` pairs; the probabilities are exact
            (Fractions or ints) and sum to 1.

    Examples:
        >>> from fractions import Fraction
        >>> from cardcrawl.solve import Mixed
        >>> Mixed.uniform(["hit", "stand"]).actions
        (('hit', Fraction(1, 2)), ('stand', Fraction(1, 2)))
    """

    actions: tuple[tuple[Any, Fraction], ...] = attrs.field(converter=_pairs)

    @classmethod
    def uniform(cls, actions: Any) -> Mixed:
        """Each of ``actions`` with the same probability."""
        listed = list(actions)
        share = Fraction(1, len(listed))
        return cls([(a, share) for a in listed])


_ZERO = Fraction(0)
# How many states the search values between two looks at the clock.
_CLOCK_EVERY = 256


class _Key:
    """A state's memo key with its hash worked out once.

    The search looks a key up, stores it and marks it on the path: a tuple would hash
    every field (its decks and grids, card by card) each time.
    """

    __slots__ = ("data", "hash")

    def __init__(self, data: Hashable) -> None:
        self.data = data
        self.hash = hash(data)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and other.hash == self.hash and other.data == self.data


def _key_function(state_type: type) -> Callable[[Any], Hashable]:
    """The memo key of a state: its rules data, without ``events``.

    ``events`` says what happened in the step that made the state, not what can happen
    next, so two paths to the same position give states that differ only there. For an
    attrs state class the key is the tuple of its compared fields but ``events`` (one
    C-level ``attrgetter``); for any other class, the state itself.
    """
    if not attrs.has(state_type):
        return _Key
    names = tuple(f.name for f in attrs.fields(state_type) if f.eq and f.name != "events")
    getter = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda state: _Key((getter(state),))
    return lambda state: _Key(getter(state))


def _exact(value: Any, what: str, state: Any) -> Fraction:
    """``value`` as a Fraction, exactly: an int (a bool counts 1 or 0) or a Fraction as
    it is, a float at its exact binary value."""
    if type(value) is Fraction:
        return value
    if not isinstance(value, (Rational, float)):
        raise UnsolvableError(
            f"{what} must be an exact number (a Fraction or an int), not {value!r}", state
        )
    return Fraction(value)


@attrs.frozen
class Solution(Generic[A]):
    """What the solver found for one position.

    Attributes:
        value: the expected value of the position for ``player`` under best play (and
            the given policies for the seats that have one), as an exact ``Fraction``.
        player: the seat whose value is maximised.
        actions: at a decision, each legal action with its value (the value of the
            state it leads to, played on at best), in the game's order; empty at a
            chance event or at the end of the game.
        nodes: how many states this search valued (found in the table of an earlier
            search of the same :class:`Solver` they do not count).
        seconds: how long the search took (not compared: it varies from run to run).

    Examples:
        The first decision of a one-round game of Escape from Haydes whose Build deck
        is stacked (see :func:`solve`): a *lower* call from the Black Joker, worth 0,
        can never be right (H-6), so it costs all that a *higher* call is worth.

        >>> import cardcrawl
        >>> from cardcrawl.solve import solve
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
        >>> state = game.initial_state(
        ...     seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]})
        >>> solution = solve(game, state, hidden=True)
        >>> lower, higher = game.parse_action("lower 1,0"), game.parse_action("higher 1,0")
        >>> solution.action_values[higher], solution.action_values[lower]
        (Fraction(13, 18), Fraction(0, 1))
        >>> solution.action_costs[lower], solution.regret(higher)
        (Fraction(13, 18), Fraction(0, 1))
        >>> len(solution.actions), solution.nodes > 0
        (9, True)
    """

    value: Fraction
    player: int
    actions: tuple[tuple[A, Fraction], ...]
    nodes: int
    seconds: float = attrs.field(eq=False, repr=False)

    @property
    def action_values(self) -> Mapping[A, Fraction]:
        """Each legal action's value, read-only (empty unless at a decision)."""
        return MappingProxyType(dict(self.actions))

    @property
    def best_actions(self) -> tuple[A, ...]:
        """The legal actions of greatest value, in the game's order (empty unless at a
        decision)."""
        if not self.actions:
            return ()
        best = max(v for _, v in self.actions)
        return tuple(a for a, v in self.actions if v == best)

    def regret(self, action: A) -> Fraction:
        """What ``action`` costs against the best: the best action's value minus its own.

        Args:
            action: one of the legal actions of the solved position.

        Returns:
            A Fraction from 0 (a best action) up.

        Raises:
            IllegalActionError: ``action`` is not a legal action of the position.
        """
        for listed, value in self.actions:
            if listed == action:
                return max(v for _, v in self.actions) - value
        raise IllegalActionError(
            None,
            action,
            "an action of the solved position",
            [a for a, _ in self.actions],
            "it is not one of the legal actions"
            if self.actions
            else "the solved position is not a decision",
        )

    @property
    def action_costs(self) -> Mapping[A, Fraction]:
        """Each legal action's :meth:`regret`, read-only (0 for every best action)."""
        if not self.actions:
            return MappingProxyType({})
        best = max(v for _, v in self.actions)
        return MappingProxyType({a: best - v for a, v in self.actions})


class Solver(Generic[S, A]):
    """An exact expectimax solver for one game, one seat and one set of policies.

    The solver keeps the value of every state it has solved, so that later calls of
    :meth:`solve` on related positions reuse them. See :func:`solve` for the arguments
    and for what is solved.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.solve import Solver
        >>> game = cardcrawl.load("mapless-house", max_turns=1)
        >>> spades = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH".split()
        >>> state = game.initial_state(seed=1, explicit_chance=True, stack={"narrative": spades})
        >>> while not state.is_hunting:
        ...     state = game.step(state, game.legal_actions(state)[0])
        >>> solver = Solver(game)
        >>> first = solver.solve(state)
        >>> again = solver.solve(state)
        >>> first.value == again.value, again.nodes
        (True, 0)
    """

    def __init__(
        self,
        game: Any,
        *,
        player: int = 0,
        policies: Mapping[int, Policy] | None = None,
        utility: Callable[[S], Any] | None = None,
        max_nodes: int | None = DEFAULT_MAX_NODES,
        seconds: float | None = None,
        hidden: bool = False,
    ) -> None:
        _check_seat(game, player, "player")
        policies = dict(policies or {})
        for seat, policy in policies.items():
            _check_seat(game, seat, "a seat of policies")
            if not callable(policy):
                raise OptionsError(f"policies[{seat}] is a function of a state, not {policy!r}")
        if max_nodes is not None and (
            type(max_nodes) is not int or max_nodes < 1  # bool is refused too
        ):
            raise OptionsError(
                f"max_nodes is None (no limit) or an integer >= 1, not {max_nodes!r}"
            )
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0
        ):
            raise OptionsError(f"seconds is None (no limit) or a number > 0, not {seconds!r}")
        if utility is not None and not callable(utility):
            raise OptionsError(f"utility is a function of a terminal state, not {utility!r}")
        self.game = game
        self.player = player
        self.policies: Mapping[int, Policy] = MappingProxyType(policies)
        self.max_nodes = max_nodes
        self.seconds = seconds
        self.hidden = bool(hidden)
        self._utility = utility
        self._key: Callable[[Any], Hashable] | None = None
        self._values: dict[Hashable, Fraction] = {}

    def __repr__(self) -> str:
        return (
            f"Solver({self.game!r}, player={self.player}, policies={sorted(self.policies)}, "
            f"max_nodes={self.max_nodes}, seconds={self.seconds})"
        )

    @property
    def table_size(self) -> int:
        """How many states' values the solver keeps."""
        return len(self._values)

    def solve(self, state: S) -> Solution[A]:
        """Solve one position: its value, and at a decision each legal action's value.

        Args:
            state: a state of this solver's game, in explicit-chance play.

        Returns:
            The :class:`Solution`.

        Raises:
            InvalidStateError: ``state`` is not a sound state of the game.
            UnsolvableError: the position cannot be solved soundly; the message says why
                and what would work.
            SolverBudgetError: the node or time budget ran out.
            IllegalActionError: a policy chose an action that is not legal.
        """
        game = self.game
        self._check_root(state)
        started = time.perf_counter()
        search = _Search(self, started)
        to_move = game.current_player(state)
        actions: tuple[tuple[A, Fraction], ...] = ()
        if to_move >= 0:
            legal = game.legal_actions(state)
            if not legal:
                raise UnsolvableError(
                    f"the state waits for seat {to_move} but no action is legal", state
                )
            policy = self.policies.get(to_move)
            if policy is None and to_move != self.player:
                raise _unfixed_seat(game, state, to_move, self.player)
            root_key = search.key(state)
            search.on_path.add(root_key)
            values = [search.value(game.step(state, action)) for action in legal]
            search.on_path.discard(root_key)
            actions = tuple(zip(legal, values, strict=True))
            if policy is None:
                value = max(values)
            else:
                value = _policy_value(game, state, policy(state), actions)
            if root_key not in self._values:
                search.nodes += 1
                search.over_budget()
                self._values[root_key] = value
        else:
            value = search.value(state)
        return Solution(
            value=value,
            player=self.player,
            actions=actions,
            nodes=search.nodes,
            seconds=time.perf_counter() - started,
        )

    def _check_root(self, state: Any) -> None:
        game = self.game
        validate = getattr(game, "validate", None)
        if validate is not None:
            validate(state)  # InvalidStateError for another game's state, or junk
        if not getattr(state, "explicit_chance", False):
            raise UnsolvableError(
                "the state is in sampled play: its generator decides every draw, so a "
                "search from it would know the future. Start from "
                "initial_state(seed, explicit_chance=True) and step there",
                state,
            )
        if not self.hidden:
            self._check_nothing_hidden(state)

    def _check_nothing_hidden(self, state: Any) -> None:
        """Refuse a state that hides something from the player that the search would see.

        ``determinize`` draws afresh everything the player cannot know; in explicit play
        with nothing hidden (no stacked card, no private hand) it gives the same position
        back, with only a new generator. Anything else that differs is information the
        chance tree would reveal to the search as certain.
        """
        game = self.game
        key = self._key_for(state)
        redrawn = game.determinize(state, self.player, 0)
        names: list[str] | None = None
        if attrs.has(type(state)):
            names = [f.name for f in attrs.fields(type(state)) if f.eq]
        elif hasattr(state, "__dict__"):
            names = [n for n in vars(state) if not n.startswith("_")]
        if names is not None:
            differ = [
                n
                for n in names
                if n not in ("rng", "events") and getattr(state, n) != getattr(redrawn, n, None)
            ]
        else:
            differ = [] if key(redrawn) == key(state) else ["rules data"]
        if differ:
            verb = "differs" if len(differ) == 1 else "differ"
            raise UnsolvableError(
                f"the state hides from player {self.player} what the search would see as "
                f"certain (its {', '.join(differ)} {verb} from what determinize draws: a "
                "stacked deck, say). Solve determinize(state, player, seed) for the "
                "player's information, or pass hidden=True to solve the position with "
                "the hidden parts known",
                state,
            )

    def _key_for(self, state: Any) -> Callable[[Any], Hashable]:
        """The memo key of this game's states (see the module's documentation)."""
        if self._key is None:
            self._key = _key_function(type(state))
        return self._key

    def utility(self, state: S) -> Fraction:
        """The value of a finished game for the solver's player, exactly.

        By default the game's return for the player: ``returns`` are floats, taken at
        their exact binary value (1.0 and 0.0, the returns of the games here, are 1 and
        0 exactly). A ``utility`` given to the solver replaces it.
        """
        if self._utility is not None:
            return _exact(self._utility(state), "the utility", state)
        return _exact(self.game.returns(state)[self.player], "a return", state)


def _check_seat(game: Any, seat: Any, what: str) -> None:
    n = game.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise PlayerError(
            f"{what} is a seat of {getattr(game, 'name', game)}, an integer from 0 to "
            f"{n - 1}; not {seat!r}"
        )


class _Search:
    """One call's walk: the budget, the path (for cycles) and the explicit stack."""

    def __init__(self, solver: Solver[Any, Any], started: float) -> None:
        self.solver = solver
        self.started = started
        self.nodes = 0
        self.deepest = 1
        self.on_path: set[Hashable] = set()
        self._deadline = None if solver.seconds is None else started + solver.seconds
        self._key: Callable[[Any], Hashable] | None = None

    def key(self, state: Any) -> Hashable:
        if self._key is None:
            self._key = self.solver._key_for(state)
        return self._key(state)

    def over_budget(self) -> None:
        solver = self.solver
        if solver.max_nodes is not None and self.nodes > solver.max_nodes:
            raise SolverBudgetError(
                f"the solver valued {self.nodes} states, over its budget of "
                f"max_nodes={solver.max_nodes}{self._hint()}",
                budget="max_nodes",
                limit=solver.max_nodes,
                nodes=self.nodes,
            )
        if (
            self._deadline is not None
            and self.nodes % _CLOCK_EVERY == 0
            and time.perf_counter() > self._deadline
        ):
            raise SolverBudgetError(
                f"the solver ran out of its budget of seconds={solver.seconds} after "
                f"valuing {self.nodes} states{self._hint()}",
                budget="seconds",
                limit=solver.seconds or 0,
                nodes=self.nodes,
            )

    def _hint(self) -> str:
        """What to try, after a budget ran out: the game's length limit, if it has none."""
        game = self.solver.game
        hint = (
            f" (its deepest path was {self.deepest} states long): give a larger budget, "
            "or a smaller position (a shorter limit, stacked decks, a later position)"
        )
        limit = tools_for(game).limit
        if limit is not None and getattr(game.options, limit[0], 0) is None:
            hint += (
                f"; {getattr(game, 'name', 'the game')} is loaded without {limit[0]}, so "
                f"it need not end: load it with {limit[0]}=N"
            )
        return hint

    def value(self, root: Any) -> Fraction:
        """The value of ``root``, every state below it valued and kept in the table."""
        solver = self.solver
        game = solver.game
        values = solver._values
        on_path = self.on_path
        key_of = self.key
        policies = solver.policies
        player = solver.player
        step = game.step
        current_player = game.current_player

        def open_frame(state: Any, key: Hashable) -> list[Any] | Fraction:
            """A frame for a state not valued yet, or its value when it is terminal."""
            self.nodes += 1
            self.over_budget()
            to_move = current_player(state)
            if to_move == TERMINAL:
                value = values[key] = solver.utility(state)
                return value
            if to_move == CHANCE:
                outcomes = game.chance_outcomes(state)
                if not outcomes:
                    raise UnsolvableError("a chance event lists no outcome", state)
                children = [o for o, _ in outcomes]
                weights = [_exact(p, "a chance probability", state) for _, p in outcomes]
                if sum(weights) != 1:
                    raise UnsolvableError("the chance probabilities do not sum to 1", state)
                on_path.add(key)
                # [state, key, children, weights (None: a decision, take the maximum),
                #  next child, accumulated value]
                return [state, key, children, weights, 0, _ZERO]
            legal = game.legal_actions(state)
            if not legal:
                raise UnsolvableError(
                    f"the state waits for seat {to_move} but no action is legal", state
                )
            policy = policies.get(to_move)
            if policy is not None:
                chosen = policy(state)
                if isinstance(chosen, Mixed):
                    children, weights = _mixed(state, chosen)
                    on_path.add(key)
                    return [state, key, children, weights, 0, _ZERO]
                children = [chosen]
            elif to_move == player:
                children = list(legal)
            else:
                raise _unfixed_seat(game, state, to_move, player)
            on_path.add(key)
            return [state, key, children, None, 0, None]

        root_key = key_of(root)
        known = values.get(root_key)
        if known is not None:
            return known
        if root_key in on_path:
            raise _cycle(root)
        first = open_frame(root, root_key)
        if not isinstance(first, list):
            return first
        stack: list[list[Any]] = [first]
        result: Fraction = _ZERO
        while stack:
            frame = stack[-1]
            state, key, children, _weights, index, acc = frame
            if index == len(children):
                stack.pop()
                on_path.discard(key)
                result = values[key] = acc
                if stack:
                    _fold(stack[-1], result)
                continue
            child = step(state, children[index])
            if current_player(child) == TERMINAL:
                # A finished game is valued at once, and not kept: most states of a
                # small tree are leaves, and their keys would cost more than their value.
                self.nodes += 1
                self.over_budget()
                _fold(frame, solver.utility(child))
                continue
            child_key = key_of(child)
            known = values.get(child_key)
            if known is not None:
                _fold(frame, known)
                continue
            if child_key in on_path:
                raise _cycle(child)
            opened = open_frame(child, child_key)
            if isinstance(opened, list):
                stack.append(opened)
                if len(stack) > self.deepest:
                    self.deepest = len(stack)
            else:
                _fold(frame, opened)
        return result


def _mixed(state: Any, chosen: Mixed) -> tuple[list[Any], list[Fraction]]:
    """A mixed choice's actions and their exact weights, checked."""
    children = [a for a, _ in chosen.actions]
    weights = [_exact(p, "a mixed policy's probability", state) for _, p in chosen.actions]
    if not children or sum(weights) != 1 or min(weights) < 0:
        raise UnsolvableError(
            "a mixed policy's probabilities must be exact, not negative, and sum to 1", state
        )
    return children, weights


def _policy_value(
    game: Any, state: Any, chosen: Any, actions: tuple[tuple[Any, Fraction], ...]
) -> Fraction:
    """The value of a policy's choice at the root, from each legal action's value."""
    values = dict(actions)
    picks = _mixed(state, chosen) if isinstance(chosen, Mixed) else ([chosen], [Fraction(1)])
    total = _ZERO
    for action, weight in zip(*picks, strict=True):
        if action not in values:
            game.check(state, action)  # raises IllegalActionError
        total += weight * values[action]
    return total


def _fold(frame: list[Any], value: Fraction) -> None:
    """Take one child's value into its parent's frame and move on to the next child."""
    weights = frame[3]
    index = frame[4]
    if weights is not None:
        frame[5] += weights[index] * value
    elif frame[5] is None or value > frame[5]:
        frame[5] = value
    frame[4] = index + 1


def _unfixed_seat(game: Any, state: Any, seat: int, player: int) -> UnsolvableError:
    return UnsolvableError(
        f"seat {seat} decides here ({game.describe(state)}), and the solver maximises "
        f"the value of seat {player} alone: another seat's choices are not its to make, "
        "and a best reply to them is not defined until they are fixed. Give the seat a "
        f"policy (policies={{{seat}: a function of the state}}), or solve a solo position",
        state,
    )


def _cycle(state: Any) -> UnsolvableError:
    return UnsolvableError(
        "the game comes back to a state it left (a cycle of the chance tree): the game "
        "need not end, and expectimax has no exact value for it. Use a variant with a "
        "turn or round limit (such as max_turns or max_rounds)",
        state,
    )


def solve(
    game: Any,
    state: Any,
    *,
    player: int = 0,
    policies: Mapping[int, Policy] | None = None,
    utility: Callable[[Any], Any] | None = None,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    seconds: float | None = None,
    hidden: bool = False,
) -> Solution[Any]:
    """The exact value of a position under best play, and what each legal action costs.

    Expectimax over the explicit chance tree: at a decision of ``player`` the best
    action's value, at a chance event the probability-weighted mean of its outcomes'
    values, at a seat with a policy the value of the action the policy picks, at the end
    the ``utility``. Values are exact Fractions, states are memoised on their rules data
    (every field but ``events``), and the walk is kept on an explicit stack.

    What is solved: a position of a solo game, or of a game where every seat but
    ``player`` that decides has a fixed policy. Refused, with an
    :class:`~cardcrawl.errors.UnsolvableError` that says what would work: a state of
    sampled play; a state that hides something from ``player`` (a stacked deck, found
    with ``determinize``) unless ``hidden=True``; a decision of another seat without a
    policy; a tree that comes back to a state on its own path (a game with no turn
    limit, M-22, H-13).

    Args:
        game: the game (any game of the protocol, any variant).
        state: a state of the game in explicit-chance play.
        player: the seat whose value is maximised.
        policies: a fixed choice for some seats, each a function of the state to a legal
            action, or to a :class:`Mixed` choice among legal actions (its seat plays
            each with its probability); it must be deterministic, and is asked once per
            state.
        utility: the value of a terminal state; by default ``game.returns(state)[player]``
            (see :meth:`Solver.utility`).
        max_nodes: the most states to value (``None``: no limit).
        seconds: the most time to search (``None``: no limit).
        hidden: solve even a state that hides something from the player, with the
            hidden parts known (the value of a clairvoyant player).

    Returns:
        The :class:`Solution`: its value, and at a decision each action's value.

    Raises:
        PlayerError: ``player`` or a seat of ``policies`` is not a seat of the game.
        OptionsError: a budget is not a positive number, or a policy not a function.
        InvalidStateError: ``state`` is not a sound state of the game.
        UnsolvableError: the position cannot be solved soundly (see above).
        SolverBudgetError: a budget ran out.

    Examples:
        Escape from Haydes in its only round, the Build deck stacked so that the
        first card turned is the 5♠, the second a Q♥ (a creature, H-8) and then the
        Red Joker. The solver knows the stacked cards (``hidden=True``); the roll
        against the queen is the one chance left: with 8, a total of 8 or less wins,
        26 ways in 36 (H-8). Ending the turn at once forgoes it all:

        >>> import cardcrawl
        >>> from cardcrawl.solve import solve
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
        >>> state = game.initial_state(
        ...     seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]})
        >>> solution = solve(game, state, hidden=True)
        >>> solution.value
        Fraction(13, 18)
        >>> [game.format_action(a) for a in solution.best_actions]
        ['higher -1,0', 'higher 0,-1', 'higher 0,1', 'higher 1,0']
        >>> solution.regret(game.parse_action("end"))
        Fraction(13, 18)
    """
    solver: Solver[Any, Any] = Solver(
        game,
        player=player,
        policies=policies,
        utility=utility,
        max_nodes=max_nodes,
        seconds=seconds,
        hidden=hidden,
    )
    return solver.solve(state)
