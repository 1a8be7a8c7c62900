"""The exact solver: the value of a position under best play, and what each action costs.

:func:`solve` runs expectimax over the explicit chance tree of any game of the
protocol: the best action at each decision of the chosen seat, the action its policy
picks at each decision of another seat (every other seat that decides needs one), the
probability-weighted mean at each chance event, and a terminal state's utility (by
default the seat's return) at the end. Values are exact ``Fraction``\\ s.

- **Memo.** Each distinct state is valued once. Its key is its rules data: the tuple of
  the compared fields of its attrs class without ``events`` (what the last step did,
  not what can happen next), hashed once; a state of any other class is its own key.
  A finished game is valued at once and not kept.
- **Stack.** The walk keeps its path on an explicit stack, never Python's: a deep tree
  cannot raise ``RecursionError``. A state met again on its own path (a cycle) is
  refused, since the game need not end.
- **Budget.** ``max_nodes`` (``DEFAULT_MAX_NODES`` unless given) and ``seconds``
  bound the search; :class:`~cardcrawl.errors.SolverBudgetError` says which ran out.
- **Refused**, with :class:`~cardcrawl.errors.UnsolvableError`: a state of sampled play
  (its generator knows the draws to come); a state that hides something from the seat
  (what ``determinize`` would draw afresh, such as a stacked deck) unless
  ``hidden=True``; another seat's decision without a policy; a cycle. What is hidden
  is asked of the position solved: in the games here nothing new is hidden further
  down the tree (a chance event only ever reveals), but a game that dealt a private
  card at a chance event would have it seen by the search.

:class:`Solver` keeps the values it found between calls; :class:`Solution` holds a
position's value and, at a decision, each legal action's value and regret.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.solve import solve
    >>> game = cardcrawl.load("escape-from-haydes", max_rounds=1)
    >>> state = game.initial_state(
    ...     seed=1, explicit_chance=True, stack={"build": ["5S", "QH", "2C", "RJ"]})
    >>> solve(game, state, hidden=True).value
    Fraction(13, 18)
    >>> solve(game, state)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardcrawl.errors.UnsolvableError: the state hides from player 0 what the search ...
"""

from typing import TYPE_CHECKING

from cardcrawl.core._deprecation import moved_names
from cardcrawl.errors import SolverBudgetError, UnsolvableError
from cardcrawl.solve._gain import BestResponseGains, SeatGain, best_response_gains, bot_policy
from cardcrawl.solve._solver import Mixed, Policy, Solution, Solver, solve

__all__ = [
    "BestResponseGains",
    "Mixed",
    "Policy",
    "SeatGain",
    "Solution",
    "Solver",
    "SolverBudgetError",
    "UnsolvableError",
    "best_response_gains",
    "bot_policy",
    "solve",
]

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "DEFAULT_MAX_NODES": "cardcrawl.solve._solver",
        },
    )
