"""Simulation at scale: many games played by bots, in parallel, with confidence intervals.

:func:`simulate` plays games in batches on a :class:`concurrent.futures.Executor` (a
process pool by default, or any executor you give it, such as a Dask cluster's); the
per-game seeds all derive from one seed, so the results never depend on how the work
was spread. Each game's :class:`GameResult` is a plain frozen record; the whole
:class:`SimulationResult` writes itself as CSV or JSON and summarizes itself with 95%
confidence intervals (Wilson's for rates, the normal approximation for means).

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.simulate import simulate
    >>> game = cardcrawl.load("mapless-house", max_turns=200)
    >>> result = simulate(game, "heuristic", games=10, seed=7, workers=1)
    >>> len(result.results), result.results[0].outcome in {"escaped", "consumed", "lost"}
    (10, True)
"""

from typing import TYPE_CHECKING

from cardcrawl.core._deprecation import moved_names
from cardcrawl.core._tools import Panel
from cardcrawl.simulate._results import (
    GameResult,
    OutcomeRate,
    SimulationResult,
    Summary,
    outcome_order,
)
from cardcrawl.simulate._run import (
    Progress,
    play_game,
    simulate,
)
from cardcrawl.simulate._stats import Interval, wilson_interval

__all__ = [
    "GameResult",
    "Interval",
    "OutcomeRate",
    "Panel",
    "Progress",
    "SimulationResult",
    "Summary",
    "outcome_order",
    "play_game",
    "simulate",
    "wilson_interval",
]

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "FORFEIT": "cardcrawl.simulate._results",
            "UNFINISHED": "cardcrawl.simulate._results",
            "Z95": "cardcrawl.simulate._stats",
            "FigureTracker": "cardcrawl.simulate._run",
            "mean_interval": "cardcrawl.simulate._stats",
            "register_figures": "cardcrawl.simulate._run",
            "start_from_position": "cardcrawl.simulate._run",
            "write_results": "cardcrawl.simulate._results",
        },
    )
