"""A Monte Carlo study of The Mapless House: how often each bot escapes, and when.

Shows ``cardcrawl.simulate`` at work: it plays the same seeded games with three of
the library's bots (``random``, ``shortest-path`` and ``heuristic``), prints each
escape rate with its 95% confidence interval, tabulates the heuristic bot's escape
rate against how far from the Entrance the Exit opened, and draws both as a PNG plot.

The plot needs matplotlib (``python -m pip install "cardcrawl[plot]"``). Without it the
script still runs the study and prints the tables, and says that it drew no plot.

Run it from the repository root:

    python examples/monte_carlo.py                          # 1000 games per bot
    python examples/monte_carlo.py --games 100 --out study.png --workers 2

The numbers depend only on --games and --seed, never on --workers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import cardcrawl
from cardcrawl.simulate import Interval, SimulationResult, simulate, wilson_interval

BOTS = ("random", "shortest-path", "heuristic")


def rate_by_exit_distance(result: SimulationResult) -> list[tuple[int, int, Interval]]:
    """``(exit distance, games, escape rate)`` for each distance the Exit opened at."""
    groups: dict[int, list[bool]] = {}
    for game in result.results:
        distance = int(game.figure("exit_distance"))
        groups.setdefault(distance, []).append(game.outcome == "escaped")
    return [(d, len(g), wilson_interval(sum(g), len(g))) for d, g in sorted(groups.items())]


def error_bars(rates: Sequence[Interval]) -> list[list[float]]:
    """Lengths of the error bars below and above each rate, in percent."""
    # max(0, ...): rounding may put an estimate a hair outside its own interval.
    below = [max(0.0, 100 * (r.estimate - r.low)) for r in rates]
    above = [max(0.0, 100 * (r.high - r.estimate)) for r in rates]
    return [below, above]


def plot(results: Sequence[SimulationResult], path: Path) -> bool:
    """Draw the study to ``path``; False (after saying why) if matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        print(
            'no plot drawn: matplotlib is not installed (python -m pip install "cardcrawl[plot]")',
            file=sys.stderr,
        )
        return False
    matplotlib.use("Agg")  # files only: no window, works without a display
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, (by_bot, by_distance) = plt.subplots(1, 2, figsize=(11, 4.2))
    rates = [r.summary().rate("escaped") for r in results]
    xs = range(len(results))
    by_bot.bar(xs, [100 * r.estimate for r in rates], color="#4c72b0")
    by_bot.errorbar(
        xs,
        [100 * r.estimate for r in rates],
        yerr=error_bars(rates),
        fmt="none",
        ecolor="black",
        capsize=4,
    )
    by_bot.set_xticks(list(xs), [r.lineup for r in results])
    by_bot.set_ylabel("escape rate (%), 95% CI")
    by_bot.set_title("escape rate by bot")
    rows = rate_by_exit_distance(results[-1])
    by_distance.errorbar(
        [d for d, _, _ in rows],
        [100 * r.estimate for _, _, r in rows],
        yerr=error_bars([r for _, _, r in rows]),
        marker="o",
        linestyle="none",
        capsize=3,
    )
    by_distance.xaxis.set_major_locator(MaxNLocator(integer=True))
    by_distance.set_xlabel("distance from the Entrance to the Exit")
    by_distance.set_ylabel("escape rate (%), 95% CI")
    by_distance.set_title(f"{results[-1].lineup} bot: escape rate by Exit distance")
    fig.suptitle(f"The Mapless House, {len(results[0].results)} games per bot")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def main(argv: Sequence[str] | None = None) -> None:
    """Run the study, print its tables and draw its plot."""
    parser = argparse.ArgumentParser(description="A Monte Carlo study of three bots.")
    parser.add_argument("--games", type=int, default=1000, help="games per bot (1000)")
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed (0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--out", type=Path, default=Path("monte_carlo.png"), help="the plot")
    args = parser.parse_args(argv)

    game = cardcrawl.load("mapless-house", max_turns=200)
    results = [
        simulate(game, bot, games=args.games, seed=args.seed, workers=args.workers) for bot in BOTS
    ]
    print(f"escape rates over {args.games} games per bot (seed {args.seed}):")
    for result in results:
        rate = result.summary().rate("escaped")
        print(f"  {result.lineup:<14} {rate.format(percent=True)}")
    print(f"{results[-1].lineup} bot, escape rate by distance from the Entrance to the Exit:")
    for distance, games, rate in rate_by_exit_distance(results[-1]):
        print(f"  {distance:>3}  {games:>5} games  {rate.format(percent=True)}")
    if plot(results, args.out):
        print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
