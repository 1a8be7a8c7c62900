"""The exact solver: the value of a position under best play, and what each action costs.

Expectimax over the explicit chance tree (see :func:`solve`).
"""

from cardcrawl.errors import SolverBudgetError, UnsolvableError
from cardcrawl.solve._solver import DEFAULT_MAX_NODES, Policy, Solution, Solver, solve

__all__ = [
    "DEFAULT_MAX_NODES",
    "Policy",
    "Solution",
    "Solver",
    "SolverBudgetError",
    "UnsolvableError",
    "solve",
]
