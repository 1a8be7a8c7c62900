"""What the rollout kernel buys a variant of Escape from Haydes (run on demand, never a test).

Usage:
    python benchmarks/variant_kernel.py [--games N] [--repeat R]

The Haydes kernel drives the game's own rules, in which the game binds its hooks when it
is built, so ``simulate(variant, "random")`` plays every variant on the kernel. For the
stock game and two variants made of hooks, solo and with four players, this times
``simulate`` on one worker twice from the same seeds: on the kernel, and on the public
path (the kernel switched off). It prints the games per second of both, their ratio,
and whether the two runs gave the same results, which they must.

The runs take turns and count the least CPU time of ``--repeat`` (``bench.interleaved``),
so that other work on the machine slows both alike.

Example:
    python benchmarks/variant_kernel.py --games 40 --repeat 2
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

import cardcrawl
from cardcrawl.haydes import EscapeFromHaydes, Guess, _kernel
from cardcrawl.simulate import simulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import interleaved


class EqualCounts(EscapeFromHaydes):
    """An equal value is a correct guess (H-7), as in docs/how-to/write-a-variant.md."""

    rules_version = f"{EscapeFromHaydes.rules_version}-equal.1"

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        return value == from_value or super().guess_is_correct(guess, from_value, value)


class Backwards(EscapeFromHaydes):
    """Turns go the other way round the table (H-5, H-13)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-backwards.1"

    def next_seat(
        self, current: int, first: int, seats_in: tuple[bool, ...]
    ) -> tuple[int, bool] | None:
        players = len(seats_in)
        for step in range(1, players + 1):
            seat = (current - step) % players
            if seats_in[seat]:
                return seat, (first - seat) % players <= (first - current) % players
        return None


GAMES: tuple[tuple[str, type[EscapeFromHaydes]], ...] = (
    ("stock rules", EscapeFromHaydes),
    ("an equal value counts", EqualCounts),
    ("turns go backwards", Backwards),
)


def _results(game: Any, games: int, kernel: bool) -> tuple[Any, ...]:
    summary = _kernel.HaydesKernel.summary
    if not kernel:
        _kernel.HaydesKernel.summary = lambda self, *args: None  # type: ignore[method-assign]
    try:
        return simulate(game, "random", games=games, seed=1, workers=1).results
    finally:
        _kernel.HaydesKernel.summary = summary  # type: ignore[method-assign]


def measure(games: int, repeat: int) -> list[tuple[str, int, float, float, bool]]:
    """Per game and player count: (name, players, kernel games/s, public games/s, same
    results)."""
    rows = []
    for players, n in ((1, games), (4, max(1, games // 4))):
        options = cardcrawl.load("escape-from-haydes", players=players, max_rounds=50).options
        for name, cls in GAMES:
            game = cls(options)
            timed = interleaved(
                {
                    "kernel": functools.partial(_results, game, n, True),
                    "public": functools.partial(_results, game, n, False),
                },
                repeat,
            )
            (fast, fast_results), (slow, slow_results) = timed["kernel"], timed["public"]
            rows.append((name, players, n / fast, n / slow, fast_results == slow_results))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=600, help="solo games per run (a quarter with four players)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per figure (best counts)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be >= 1")
    print("| rules | players | kernel, games/s | public path, games/s | kernel / public | same |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, players, fast, slow, same in measure(args.games, args.repeat):
        print(
            f"| {name} | {players} | {fast:,.0f} | {slow:,.0f} | {fast / slow:.2f}x | "
            f"{'yes' if same else 'NO'} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
