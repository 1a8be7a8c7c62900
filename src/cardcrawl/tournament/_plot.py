"""A tournament's plot with matplotlib (the optional ``cardcrawl[plot]`` extra), imported
only when the plot is drawn."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from cardcrawl.core._tools import Panel
from cardcrawl.errors import OptionsError
from cardcrawl.simulate._plot import _draw_outcomes, pyplot
from cardcrawl.simulate._results import outcome_order
from cardcrawl.tournament._results import TournamentResult

__all__ = ["plot_tournament", "tournament_figure"]


def plot_tournament(result: TournamentResult, path: str | Path) -> None:
    """Draw a tournament to an image file (``.png``, ``.pdf``, ``.svg``...): the ratings
    with their 95% intervals, the cross-table, and each bot's outcomes (one seat) or win
    share by seat (several).

    Args:
        result: the tournament.
        path: the image file; its extension chooses the format.

    Raises:
        MissingExtraError: matplotlib is not installed (an ``ImportError``).
        OptionsError: no game was finished.

    Examples:
        >>> import importlib.util, tempfile
        >>> from pathlib import Path
        >>> import cardcrawl
        >>> from cardcrawl.tournament import plot_tournament, tournament
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> result = tournament(game, ["random", "shortest-path"], games=4, workers=1)
        >>> path = Path(tempfile.mkdtemp()) / "tournament.png"
        >>> if importlib.util.find_spec("matplotlib"):  # the plot extra
        ...     plot_tournament(result, path)
        ...     assert path.stat().st_size > 0
    """
    fig = tournament_figure(result)
    try:
        fig.savefig(str(path), dpi=110)
    finally:
        pyplot().close(fig)


def tournament_figure(result: TournamentResult) -> Any:
    """The matplotlib figure :func:`plot_tournament` draws.

    Raises:
        MissingExtraError: matplotlib is not installed (an ``ImportError``).
        OptionsError: no game was finished.
    """
    if not any(s.results for s in result.simulations):
        raise OptionsError("there is nothing to plot: the tournament finished no game")
    plt = pyplot()
    fig, (by_bot, cross, last) = plt.subplots(1, 3, figsize=(17, 5.2), layout="constrained")
    _ratings(by_bot, result)
    _cross(cross, result)
    if result.seats == 1:
        labels = outcome_order(
            result.outcomes, (r.outcome for s in result.simulations for r in s.results)
        )
        _draw_outcomes(last, Panel("outcomes"), result.simulations, labels)
    else:
        _seats(last, result)
    fig.suptitle(
        f"{result.game}: {result.kind}, {result.games:,} deals per lineup, seed {result.seed}"
    )
    return fig


def _ratings(ax: Any, result: TournamentResult) -> None:
    standings = [r for r in result.standings() if not math.isnan(r.rating)]
    ys = list(range(len(standings)))[::-1]
    ax.errorbar(
        [r.rating for r in standings],
        ys,
        xerr=[[r.rating - r.low for r in standings], [r.high - r.rating for r in standings]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(ys, [r.bot for r in standings])
    ax.set_ylim(-0.7, len(standings) - 0.3)
    ax.axvline(1500, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("Bradley-Terry rating (Elo scale), 95% CI")
    ax.set_title("ratings")


def _cross(ax: Any, result: TournamentResult) -> None:
    table = result.cross_table()
    k = len(result.bots)
    values = [[math.nan if cell is None else 100 * cell.score for cell in row] for row in table]
    image = ax.imshow(values, vmin=0, vmax=100, cmap="RdBu")
    for i in range(k):
        for j in range(k):
            if not math.isnan(values[i][j]):
                # Light text on the dark ends of the colour map.
                colour = "white" if abs(values[i][j] - 50) > 30 else "black"
                ax.text(j, i, f"{values[i][j]:.0f}", ha="center", va="center", color=colour)
    ax.set_xticks(range(k), result.bots, rotation=30, ha="right")
    ax.set_yticks(range(k), result.bots)
    ax.set_title("score % of row vs column")
    ax.figure.colorbar(image, ax=ax)


def _seats(ax: Any, result: TournamentResult) -> None:
    shares = result.seat_shares()
    width = 0.8 / len(result.bots)
    for b, bot in enumerate(result.bots):
        xs = [s + (b - (len(result.bots) - 1) / 2) * width for s in range(result.seats)]
        ys = [100 * share.estimate for share in shares[b]]
        errors = [
            [max(0.0, 100 * (s.estimate - s.low)) for s in shares[b]],
            [max(0.0, 100 * (s.high - s.estimate)) for s in shares[b]],
        ]
        ax.bar(xs, ys, width=width, label=bot)
        ax.errorbar(xs, ys, yerr=errors, fmt="none", ecolor="black", capsize=3)
    ax.set_xticks(range(result.seats), [f"seat {s}" for s in range(result.seats)])
    ax.set_ylabel("games won (%), 95% CI")
    ax.set_title("win share by seat")
    ax.legend()
