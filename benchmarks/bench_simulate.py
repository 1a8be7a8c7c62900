"""Simulation throughput with 1 and 2 worker processes, run on demand (never in the tests).

Usage:
    python benchmarks/bench_simulate.py [--games N] [--repeat R] [--bot NAME ...]

For each bot it plays the same games (The Mapless House, ``max_turns=200``) three ways:
in this process (``workers=1``), and on a process pool of 1 and of 2 workers (an
explicit :class:`~concurrent.futures.ProcessPoolExecutor`, started before the clock so
that process start-up is not counted), checks that all three give the same results, and
reports games per second and the speed-up of 2 workers over 1. Beside it goes the
machine's own ceiling at the time: the speed-up of a pure-Python loop on two processes
(measured before and after, averaged), since other work on a shared machine lowers every
speed-up. Times are the best of ``--repeat`` runs: a shared machine only makes runs slower.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardcrawl
from cardcrawl.simulate import simulate

#: Games per bot by default: about the same wall-clock time for each.
DEFAULT_GAMES = {"random": 4000, "shortest-path": 4000, "heuristic": 1200, "search": 400}


def _spin(n: int) -> int:
    """A pure-Python loop: what two processes can gain on this machine at best."""
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def ceiling(pool: ProcessPoolExecutor, n: int = 4_000_000, repeat: int = 3) -> float:
    """The speed-up of two processes over one for a trivially parallel loop, now.

    On an idle 2-core machine it is close to 2; when other work holds the cores it falls,
    and so will any simulation's.
    """
    one = two = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        _spin(n)
        _spin(n)
        one = min(one, time.perf_counter() - start)
        start = time.perf_counter()
        list(pool.map(_spin, [n, n]))
        two = min(two, time.perf_counter() - start)
    return one / two


def _warm(_: int) -> int:
    import cardcrawl.bots  # noqa: F401  (import in the worker before timing)

    return os.getpid()


def timed(
    game: Any, bot: str, games: int, repeat: int, pool: ProcessPoolExecutor | None, workers: int
) -> Any:
    """(best seconds, results) over ``repeat`` runs; ``workers`` sizes the batches."""
    best = float("inf")
    results = None
    for _ in range(repeat):
        start = time.perf_counter()
        run = simulate(game, bot, games=games, seed=1, workers=workers, executor=pool)
        best = min(best, time.perf_counter() - start)
        assert results is None or run.results == results, "results depend on the workers"
        results = run.results
    return best, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games per bot (default: per bot)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bot", action="append", choices=sorted(DEFAULT_GAMES))
    args = parser.parse_args(argv)
    game = cardcrawl.load("mapless-house", max_turns=200)
    bots = args.bot or ["random", "heuristic"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"cardcrawl {cardcrawl.__version__}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, load average {load:.2f} at start"
    )
    head = f"{'bot':<14}{'games':>7}{'in-process':>12}{'1 worker':>10}{'2 workers':>11}"
    head += f"{'speed-up':>10}"
    print(head)
    print("-" * len(head))
    with ProcessPoolExecutor(1) as one, ProcessPoolExecutor(2) as two:
        for pool in (one, two):
            list(pool.map(_warm, range(4)))
        limit = ceiling(two)
        for bot in bots:
            games = args.games or DEFAULT_GAMES[bot]
            serial, expected = timed(game, bot, games, args.repeat, None, 1)
            single, r1 = timed(game, bot, games, args.repeat, one, 1)
            double, r2 = timed(game, bot, games, args.repeat, two, 2)
            if r1 != expected or r2 != expected:
                raise AssertionError("results depend on the number of workers")
            print(
                f"{bot:<14}{games:>7}{games / serial:>12.0f}{games / single:>10.0f}"
                f"{games / double:>11.0f}{single / double:>9.2f}x"
            )
        limit = (limit + ceiling(two)) / 2
    print("(games per second; speed-up = 2 workers over 1 worker)")
    print(
        f"machine ceiling now: a pure-Python loop runs {limit:.2f}x faster on 2 processes "
        "than on 1 (about 2x on an idle 2-core machine)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
