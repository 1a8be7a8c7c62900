"""Plots of simulations with matplotlib (the optional ``cardcrawl[plot]`` extra).

matplotlib is imported only when a plot is drawn, never by the rest of cardcrawl.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardcrawl.errors import MissingExtraError, OptionsError
from cardcrawl.simulate._results import GameResult, SimulationResult
from cardcrawl.simulate._stats import Interval, wilson_interval

__all__ = ["main_outcome", "plot_report", "rate_by"]


def main_outcome(results: Sequence[GameResult]) -> str:
    """The label of the outcome that means player 0 won (``"escaped"`` in The Mapless
    House), or ``"win"`` if no game was won.

    Examples:
        >>> from cardcrawl.simulate import GameResult
        >>> from cardcrawl.simulate._plot import main_outcome
        >>> main_outcome([GameResult(0, 1, "escaped", (1.0,), (9,), (0,), 30)])
        'escaped'
    """
    for r in results:
        if r.returns and r.returns[0] > 0:
            return r.outcome
    return "win"


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
        groups.setdefault(r.figure(figure), []).append(r.outcome == label)
    return [
        (value, len(hits), wilson_interval(sum(hits), len(hits)))
        for value, hits in sorted(groups.items())
    ]


def _pyplot() -> Any:
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


def _size_figure(results: Sequence[GameResult]) -> str | None:
    names = [name for name, _ in results[0].figures] if results else []
    for name in ("house_size", "score"):
        if name in names:
            return name
    return None


def plot_report(
    simulations: Sequence[SimulationResult],
    path: str | Path,
    *,
    min_games: int = 30,
) -> None:
    """Draw a report of one or more simulations (one per bot lineup) to an image file.

    Three panels: the main outcome's rate against the house size (or the score; sizes
    seen in fewer than ``min_games`` games are left out), the distribution of game
    length (turns where the game counts them, else decisions), and the main outcome's
    rate for each lineup, all with 95% intervals.

    Raises:
        MissingExtraError: matplotlib is not installed (an ``ImportError``).
        OptionsError: there is nothing to plot.
    """
    simulations = [s for s in simulations if s.results]
    if not simulations:
        raise OptionsError(
            "there is nothing to plot: none of the simulations given has a finished game"
        )
    plt = _pyplot()
    label = main_outcome([r for s in simulations for r in s.results])
    fig, (by_size, lengths, by_bot) = plt.subplots(1, 3, figsize=(16, 4.8))
    for sim in simulations:
        size = _size_figure(sim.results)
        if size is not None:
            points = [p for p in rate_by(sim.results, size, label) if p[1] >= min_games]
        else:
            groups: dict[int, list[GameResult]] = {}
            for r in sim.results:
                groups.setdefault(r.scores[0] if r.scores else 0, []).append(r)
            points = [
                (v, len(g), wilson_interval(sum(r.outcome == label for r in g), len(g)))
                for v, g in sorted(groups.items())
                if len(g) >= min_games
            ]
        if points:
            xs = [p[0] for p in points]
            ys = [100 * p[2].estimate for p in points]
            low = [max(0.0, 100 * (p[2].estimate - p[2].low)) for p in points]
            high = [max(0.0, 100 * (p[2].high - p[2].estimate)) for p in points]
            by_size.errorbar(xs, ys, yerr=[low, high], marker="o", capsize=3, label=sim.lineup)
        names = [name for name, _ in sim.results[0].figures]
        length = "turns" if "turns" in names else "decisions"
        values = [r.figure("turns") if length == "turns" else r.decisions for r in sim.results]
        bins = min(60, max(values) - min(values) + 1)
        lengths.hist(values, bins=bins, histtype="step", label=sim.lineup)
        lengths.set_xlabel(f"game length ({length})")
    by_size.set_xlabel(
        "cards on the table at the end (house size)"
        if _size_figure(simulations[0].results) == "house_size"
        else "score"
    )
    by_size.set_ylabel(f"{label} rate (%), 95% CI")
    by_size.set_title(f"{label} rate by house size")
    if by_size.get_legend_handles_labels()[0]:
        by_size.legend()
    lengths.set_ylabel("games")
    lengths.set_title("distribution of game length")
    lengths.legend()
    rates = [s.summary().rate(label) for s in simulations]
    xs = list(range(len(simulations)))
    by_bot.bar(xs, [100 * r.estimate for r in rates], color="#4c72b0")
    by_bot.errorbar(
        xs,
        [100 * r.estimate for r in rates],
        yerr=[
            [max(0.0, 100 * (r.estimate - r.low)) for r in rates],
            [max(0.0, 100 * (r.high - r.estimate)) for r in rates],
        ],
        fmt="none",
        ecolor="black",
        capsize=4,
    )
    for x, rate in zip(xs, rates, strict=True):
        by_bot.annotate(
            f"{100 * rate.estimate:.1f}%", (x, 100 * rate.high), ha="center", va="bottom"
        )
    by_bot.set_xticks(xs, [s.lineup for s in simulations])
    by_bot.set_ylabel(f"{label} rate (%), 95% CI")
    by_bot.set_title(f"{label} rate by bot")
    by_bot.set_ylim(0, 105)
    played = ", ".join(f"{s.lineup} ({len(s.results):,} games)" for s in simulations)
    fig.suptitle(f"{simulations[0].game}: {played}")
    fig.tight_layout()
    fig.savefig(str(path), dpi=110)
    plt.close(fig)
