"""Plots of simulations with matplotlib (the optional ``cardcrawl[plot]`` extra).

matplotlib is imported only when a plot is drawn, never by the rest of cardcrawl. Each
game declares the panels of its report (:attr:`cardcrawl.GameTools.panels`); a game
that declares none gets its outcomes by lineup and the distribution of its decisions.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardcrawl.core._registry import tools_for
from cardcrawl.core._tools import Panel
from cardcrawl.errors import CardcrawlError, MissingExtraError, OptionsError
from cardcrawl.simulate._results import GameResult, SimulationResult, outcome_order
from cardcrawl.simulate._stats import Interval, wilson_interval

__all__ = [
    "DEFAULT_PANELS",
    "histogram_bins",
    "main_outcome",
    "panels_for",
    "plot_report",
    "pyplot",
    "rate_by",
    "report_figure",
]

#: The panels of a game that declares none.
DEFAULT_PANELS = (
    Panel("outcomes", title="outcomes by bot"),
    Panel("histogram", "decisions", title="game length", xlabel="decisions"),
)


def main_outcome(results: Sequence[GameResult], declared: Sequence[str] = ()) -> str:
    """The outcome a report's rates are about: the game's first declared outcome, else
    the label of a game player 0 won, else ``"win"``.

    Examples:
        >>> from cardcrawl.simulate import GameResult
        >>> from cardcrawl.simulate._plot import main_outcome
        >>> main_outcome([GameResult(0, 1, "escaped", (1.0,), (9,), (0,), 30)])
        'escaped'
        >>> main_outcome([], ("escaped", "trapped"))
        'escaped'
    """
    if declared:
        return declared[0]
    for r in results:
        if r.returns and r.returns[0] > 0:
            return r.outcome
    return "win"


def figure_value(result: GameResult, name: str) -> float:
    """A figure of a game, ``"decisions"`` included.

    Raises:
        UnknownFigureError: the game has no such figure (a ``KeyError``).
    """
    return result.decisions if name == "decisions" else result.figure(name)


def rate_by(
    results: Sequence[GameResult], figure: str, label: str
) -> list[tuple[float, int, Interval]]:
    """The rate of outcome ``label`` among the games with each value of ``figure``.

    Returns:
        ``(value, games, rate)`` for each value of the figure, in increasing order; the
        rate has its Wilson 95% interval.

    Raises:
        KeyError: the games have no such figure.

    Examples:
        >>> from cardcrawl.simulate import GameResult
        >>> from cardcrawl.simulate._plot import rate_by
        >>> games = [GameResult(i, i, "escaped" if i % 2 else "consumed", (0.0,), None, (),
        ...                     9, (("house_size", 20 + i % 2),)) for i in range(4)]
        >>> [(v, n, r.estimate) for v, n, r in rate_by(games, "house_size", "escaped")]
        [(20, 2, 0.0), (21, 2, 1.0)]
    """
    groups: dict[float, list[bool]] = {}
    for r in results:
        groups.setdefault(figure_value(r, figure), []).append(r.outcome == label)
    return [
        (value, len(hits), wilson_interval(sum(hits), len(hits)))
        for value, hits in sorted(groups.items())
    ]


def histogram_bins(values: Sequence[float], most: int = 60) -> list[float]:
    """Bin edges for counting games: edges on half-integers, each bin holding whole
    values (one value each when there are at most ``most`` of them).

    Examples:
        >>> from cardcrawl.simulate._plot import histogram_bins
        >>> histogram_bins([3, 5, 4])
        [2.5, 3.5, 4.5, 5.5]
        >>> histogram_bins(list(range(100)), most=50)[:3]
        [-0.5, 1.5, 3.5]
    """
    low, high = math.floor(min(values)), math.ceil(max(values))
    step = max(1, math.ceil((high - low + 1) / most))
    return [low - 0.5 + step * i for i in range((high - low) // step + 2)]


def panels_for(game: str) -> tuple[Panel, ...]:
    """The panels a game's report shows: those it declares, else :data:`DEFAULT_PANELS`
    (also for a game no longer registered).

    Examples:
        >>> from cardcrawl.simulate._plot import panels_for
        >>> [p.figure for p in panels_for("escape-from-haydes")]
        [None, 'rounds', 'encounters']
    """
    try:
        return tuple(tools_for(game).panels) or DEFAULT_PANELS
    except CardcrawlError:
        return DEFAULT_PANELS


def pyplot() -> Any:
    """matplotlib's ``pyplot``, drawing to files (the Agg backend).

    Raises:
        MissingExtraError: matplotlib is not installed (an ``ImportError``).
    """
    # Imported when a plot is drawn, not with the module: matplotlib is an optional
    # extra (and slow to import), and cardcrawl must import without it.
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise MissingExtraError(
            "plots need matplotlib: pip install 'cardcrawl[plot]' (or matplotlib)",
            name="matplotlib",
        ) from None
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def _errors(rates: Sequence[Interval]) -> list[list[float]]:
    return [
        [max(0.0, 100 * (r.estimate - r.low)) for r in rates],
        [max(0.0, 100 * (r.high - r.estimate)) for r in rates],
    ]


def _whole_ticks(axis: Any) -> None:
    # Games and figures are whole numbers: no tick at 2.5 games or 25.5 cards.
    ticker = importlib.import_module("matplotlib.ticker")
    axis.set_major_locator(ticker.MaxNLocator(integer=True))


def _draw_rate(
    ax: Any, panel: Panel, simulations: Sequence[SimulationResult], label: str, min_games: int
) -> None:
    assert panel.figure is not None
    outcome = panel.outcome or label
    for sim in simulations:
        points = [p for p in rate_by(sim.results, panel.figure, outcome) if p[1] >= min_games]
        if points:
            ax.errorbar(
                [p[0] for p in points],
                [100 * p[2].estimate for p in points],
                yerr=_errors([p[2] for p in points]),
                marker="o",
                capsize=3,
                label=sim.lineup,
            )
    ax.set_xlabel(panel.xlabel or panel.figure)
    _whole_ticks(ax.xaxis)
    ax.set_ylabel(f"{outcome} rate (%), 95% CI")
    ax.set_title(panel.title or f"{outcome} rate by {panel.figure}")
    if ax.get_legend_handles_labels()[0]:
        ax.legend()
    else:
        ax.text(0.5, 0.5, f"no value in {min_games}+ games", ha="center", transform=ax.transAxes)


def _draw_histogram(ax: Any, panel: Panel, simulations: Sequence[SimulationResult]) -> None:
    assert panel.figure is not None
    everything = [figure_value(r, panel.figure) for s in simulations for r in s.results]
    bins = histogram_bins(everything)
    for sim in simulations:
        values = [figure_value(r, panel.figure) for r in sim.results]
        ax.hist(values, bins=bins, histtype="step", label=sim.lineup)
    ax.set_xlabel(panel.xlabel or panel.figure)
    ax.set_ylabel("games")
    ax.set_title(panel.title or f"distribution of {panel.figure}")
    _whole_ticks(ax.xaxis)
    _whole_ticks(ax.yaxis)
    ax.legend()


def _draw_outcomes(
    ax: Any, panel: Panel, simulations: Sequence[SimulationResult], labels: Sequence[str]
) -> None:
    width = 0.8 / max(1, len(labels))
    for k, label in enumerate(labels):
        rates = [s.summary().rate(label) for s in simulations]
        xs = [i + (k - (len(labels) - 1) / 2) * width for i in range(len(simulations))]
        ys = [100 * r.estimate for r in rates]
        ax.bar(xs, ys, width=width, label=label)
        ax.errorbar(xs, ys, yerr=_errors(rates), fmt="none", ecolor="black", capsize=3)
    ax.set_xticks(range(len(simulations)), [s.lineup for s in simulations])
    ax.set_ylabel("rate (%), 95% CI")
    ax.set_title(panel.title or "outcomes by bot")
    ax.set_ylim(0, 105)
    ax.legend()


def plot_report(
    simulations: Sequence[SimulationResult],
    path: str | Path,
    *,
    min_games: int = 30,
    panels: Sequence[Panel] | None = None,
) -> None:
    """Draw a report of one or more simulations (one per bot lineup) to an image file.

    One panel per :class:`~cardcrawl.Panel` the game declares (see :func:`panels_for`):
    every outcome's rate by lineup in the game's outcome order, an outcome's rate
    against a figure (values seen in fewer than ``min_games`` games are left out), a
    figure's distribution in whole games, each rate with its 95% interval.

    Args:
        simulations: the simulations, all of one game.
        path: the image file (``.png``, ``.pdf``, ``.svg``...).
        min_games: the fewest games a point of a rate panel stands on.
        panels: the panels to draw (default: the game's).

    The game's panels that chart a figure the games do not record (as when a program
    replaced the game's figures) are left out.

    Raises:
        MissingExtraError: matplotlib is not installed (an ``ImportError``).
        OptionsError: there is nothing to plot.
        UnknownFigureError: a panel given names a figure the games do not record.
    """
    fig = report_figure(simulations, min_games=min_games, panels=panels)
    try:
        fig.savefig(str(path), dpi=110)
    finally:
        pyplot().close(fig)


def report_figure(
    simulations: Sequence[SimulationResult],
    *,
    min_games: int = 30,
    panels: Sequence[Panel] | None = None,
) -> Any:
    """The matplotlib figure :func:`plot_report` draws (close it with ``pyplot().close``).

    Raises:
        MissingExtraError: matplotlib is not installed (an ``ImportError``).
        OptionsError: there is nothing to plot.
        UnknownFigureError: a panel names a figure the games do not record.
    """
    simulations = [s for s in simulations if s.results]
    if not simulations:
        raise OptionsError(
            "there is nothing to plot: none of the simulations given has a finished game"
        )
    first = simulations[0].results[0]
    if panels is None:
        # A program may have replaced the game's figures (GameTools.figures): the game's
        # panels whose figures are not recorded are left out.
        recorded = {"decisions", *(name for name, _ in first.figures)}
        declared_panels = panels_for(simulations[0].game)
        chosen = tuple(p for p in declared_panels if p.figure is None or p.figure in recorded)
        chosen = chosen or DEFAULT_PANELS
    else:
        chosen = tuple(panels)
    if not chosen:
        raise OptionsError("there is nothing to plot: no panel given")
    for panel in chosen:
        if panel.figure is not None:
            figure_value(first, panel.figure)  # fail before drawing
    declared = simulations[0].outcomes
    labels = outcome_order(declared, (r.outcome for s in simulations for r in s.results))
    label = main_outcome([r for s in simulations for r in s.results], declared)
    plt = pyplot()
    fig, axes = plt.subplots(1, len(chosen), figsize=(5.4 * len(chosen), 4.8), squeeze=False)
    for ax, panel in zip(axes[0], chosen, strict=True):
        if panel.kind == "rate":
            _draw_rate(ax, panel, simulations, label, min_games)
        elif panel.kind == "histogram":
            _draw_histogram(ax, panel, simulations)
        else:
            _draw_outcomes(ax, panel, simulations, labels)
    played = ", ".join(f"{s.lineup} ({len(s.results):,} games)" for s in simulations)
    fig.suptitle(f"{simulations[0].game}: {played}")
    fig.tight_layout()
    return fig
