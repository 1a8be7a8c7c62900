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

from cardcrawl.core._tools import Panel
from cardcrawl.simulate._results import (
    FORFEIT,
    UNFINISHED,
    GameResult,
    OutcomeRate,
    SimulationResult,
    Summary,
    outcome_order,
    write_results,
)
from cardcrawl.simulate._run import (
    FigureTracker,
    Progress,
    play_game,
    register_figures,
    simulate,
    start_from_position,
)
from cardcrawl.simulate._stats import Z95, Interval, mean_interval, wilson_interval

__all__ = [
    "FORFEIT",
    "UNFINISHED",
    "Z95",
    "FigureTracker",
    "GameResult",
    "Interval",
    "OutcomeRate",
    "Panel",
    "Progress",
    "SimulationResult",
    "Summary",
    "mean_interval",
    "outcome_order",
    "play_game",
    "register_figures",
    "simulate",
    "start_from_position",
    "wilson_interval",
    "write_results",
]
