"""A comparison drawn with matplotlib (the optional ``cardcrawl[plot]`` extra).

matplotlib is imported only when a plot is drawn (through the simulation plots'
:func:`~cardcrawl.simulate._plot.pyplot`), never by the rest of cardcrawl.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardcrawl.compare._run import Comparison
from cardcrawl.errors import OptionsError
from cardcrawl.simulate._plot import pyplot

__all__ = ["comparison_figure", "plot_comparison"]

_COLUMNS = 4


def plot_comparison(
    comparison: Comparison, path: str | Path, *, keys: Sequence[str] | None = None
) -> None:
    """Draw each measure's paired difference, with its 95% interval, to an image file.

    One small panel per measure: a point per variant at its mean difference from the
    first arm (in percentage points for a rate), its interval as a bar, and a line at
    0. A bar that crosses the line is a difference not shown.

    Args:
        comparison: what :func:`~cardcrawl.compare.compare` found.
        path: the image file (``.png``, ``.svg``, ``.pdf``...).
        keys: the measures to draw (default: every one).

    Raises:
        MissingExtraError: matplotlib is not installed (an ``ImportError``).
        OptionsError: there is nothing to draw, or a key names no measure.

    Examples:
        >>> import tempfile, pathlib
        >>> from cardcrawl.compare import compare, plot_comparison
        >>> found = compare(["mapless-house(max_turns=200)", "mapless-house(max_turns=10)"],
        ...                 games=50, seed=1, workers=1)
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "compare.png"
        >>> plot_comparison(found, path, keys=["rate:escaped", "turns"])
        >>> path.stat().st_size > 0
        True
    """
    fig = comparison_figure(comparison, keys=keys)
    try:
        fig.savefig(str(path), dpi=100)
    finally:
        pyplot().close(fig)


def comparison_figure(comparison: Comparison, *, keys: Sequence[str] | None = None) -> Any:
    """The matplotlib figure :func:`plot_comparison` draws (close it with
    ``pyplot().close``).

    Raises:
        MissingExtraError: matplotlib is not installed.
        OptionsError: there is nothing to draw, or a key names no measure.
    """
    if not comparison.differences:
        raise OptionsError("there is nothing to plot: the comparison has no variant played")
    known = [m.key for m in comparison.measures]
    chosen = list(known if keys is None else keys)
    for key in chosen:
        if key not in known:
            raise OptionsError(f"no measure {key!r}; the measures are {', '.join(known)}")
    if not chosen:
        raise OptionsError("there is nothing to plot: no measure given")
    plt = pyplot()
    columns = min(_COLUMNS, len(chosen))
    rows = math.ceil(len(chosen) / columns)
    fig, axes = plt.subplots(
        rows, columns, figsize=(3.2 * columns, 2.4 * rows + 0.6), squeeze=False
    )
    variants = [arm.label for arm in comparison.arms[1:]]
    for n, key in enumerate(chosen):
        ax = axes[n // columns][n % columns]
        found = [comparison.difference(key, k + 1) for k in range(len(variants))]
        scale = 100.0 if found[0].measure.percent else 1.0
        for k, d in enumerate(found):
            interval = d.difference
            y = len(found) - 1 - k
            color = "tab:red" if d.differs else "tab:gray"
            if not math.isnan(interval.low):
                ax.plot([scale * interval.low, scale * interval.high], [y, y], color=color)
            ax.plot([scale * interval.estimate], [y], "o", color=color)
        ax.axvline(0.0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(found)), [f"v{k + 1}" for k in range(len(found))][::-1])
        ax.set_ylim(-0.7, len(found) - 0.3)
        unit = " (points)" if found[0].measure.percent else ""
        ax.set_title(found[0].measure.label + unit, fontsize=9)
        ax.tick_params(labelsize=8)
    for n in range(len(chosen), rows * columns):
        axes[n // columns][n % columns].axis("off")
    names = "; ".join(f"v{k + 1} = {label}" for k, label in enumerate(variants))
    fig.suptitle(
        f"difference from {comparison.arms[0].label}, {comparison.games:,} games on the "
        f"same seeds, 95% CI (red: different)\n{names}",
        fontsize=9,
    )
    fig.tight_layout()
    return fig
