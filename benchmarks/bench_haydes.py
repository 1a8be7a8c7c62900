"""Benchmark of Escape from Haydes, run on demand (never part of the test suite).

Usage:
    python benchmarks/bench_haydes.py [--games N] [--repeat R] [--max-rounds M]

Reports, on one core, with a uniform-random policy and sampled chance, for 1 and for 4
players: complete games per second, decisions per second, and the rough size in memory
of a mid-game state (every object reachable from it, counted once, leaving out what all
states share: cards, enum members, small integers, interned actions, the layout tuple).
Timings are the best of ``--repeat`` runs, since a shared machine only ever makes a run
slower; each is given in wall-clock time and in CPU time (``time.process_time``), which
a busy machine inflates less.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bench import deep_size  # the one memory measure, shared by every benchmark

import cardcrawl
from cardcrawl import rng_below, rng_derive


def play(game: Any, seed: int) -> tuple[int, Any]:
    """One random game: (decisions taken, a mid-game state)."""
    state = game.initial_state(seed)
    rng = rng_derive(seed, 0xBE7C)
    decisions = 0
    middle = state
    legal_actions, step, is_terminal = game.legal_actions, game.step, game.is_terminal
    while not is_terminal(state):
        actions = legal_actions(state)
        rng, i = rng_below(rng, len(actions))
        state = step(state, actions[i])
        decisions += 1
        if decisions == 20:
            middle = state
    return decisions, middle


def bench(players: int, games: int, repeat: int, max_rounds: int) -> None:
    game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=max_rounds)
    best = best_cpu = float("inf")
    decisions = 0
    middle = None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        decisions = 0
        for seed in range(games):
            d, middle = play(game, seed)
            decisions += d
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    # The layout tuple (and its cells) is one object shared by every state of a game.
    layout = middle.layout
    shared = {id(layout), *(id(cell) for cell in layout)}
    size = deep_size(middle, shared)
    print(
        f"{players} player{'s' if players > 1 else ' '} (max_rounds {max_rounds}): "
        f"{games / best:8.0f} games/s, {decisions / best:9.0f} decisions/s, "
        f"{decisions / games:6.1f} decisions/game, mid-game state ~{size / 1024:.1f} KiB\n"
        f"{'':27}{games / best_cpu:8.0f} games/s, {decisions / best_cpu:9.0f} decisions/s "
        "of CPU time (time.process_time)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-rounds", type=int, default=50)
    args = parser.parse_args()
    for players in (1, 4):
        bench(players, args.games, args.repeat, args.max_rounds)


if __name__ == "__main__":
    main()
