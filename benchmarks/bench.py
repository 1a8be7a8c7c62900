"""Benchmarks of cardcrawl's hot paths, run on demand (never part of the test suite).

Usage:
    python benchmarks/bench.py [--games N] [--repeat R] [--game NAME ...]

For each game it reports, on one core, with a uniform-random policy and sampled chance:
complete games per second, decisions per second, the size in memory of a typical
mid-game state (every object reachable from it, counted once, except the singletons all
states share: cards, enum members, small integers, interned actions), and how much a
step adds to the state before it (what storing a whole history costs per step, since
consecutive states share their unchanged parts). Timings are the best of
``--repeat`` runs, since a shared machine only ever makes a run slower.
"""

from __future__ import annotations

import argparse
import enum
import gc
import sys
import time
from typing import Any

import cardcrawl
from cardcrawl import Card, rng_below, rng_derive

#: Each game is benchmarked with a turn or round limit, as bots and simulations use.
LIMITS: dict[str, dict[str, Any]] = {
    "mapless-house": {"max_turns": 200},
    "escape-from-haydes": {"max_rounds": 50},
}


def _shared(o: object) -> bool:
    """Objects every state shares, which cost nothing per state: cards, enum members,
    classes, functions, CPython's cached small integers and the interned actions."""
    if isinstance(o, int) and not isinstance(o, bool):
        return -5 <= o <= 256
    return isinstance(o, (Card, enum.Enum, type, bool)) or callable(o) or o is None


def _walk(obj: object, skip: set[int], leave_out: Any = lambda o: False) -> Any:
    """Every object reachable from ``obj`` once, not entering ids in ``skip`` (which
    grows) nor objects for which ``leave_out`` is true."""
    stack = [obj]
    while stack:
        o = stack.pop()
        if id(o) in skip or leave_out(o):
            continue
        skip.add(id(o))
        yield o
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (tuple, list, set, frozenset)):
            stack.extend(o)
        else:
            if hasattr(o, "__dict__"):
                stack.append(vars(o))
            for cls in type(o).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if hasattr(o, slot):
                        stack.append(getattr(o, slot))


def deep_size(obj: object, exclude: set[int] | None = None) -> int:
    """Bytes of every object reachable from ``obj``, each counted once.

    Objects shared by all states (see :func:`_shared`) are left out, and so are the
    objects whose ids are in ``exclude`` (to measure what one state adds to another).
    """
    return sum(sys.getsizeof(o) for o in _walk(obj, set(exclude or ()), _shared))


_INTERNED: set[int] = set()


def reachable_ids(obj: object) -> set[int]:
    """The ids of every object reachable from ``obj``."""
    seen: set[int] = set()
    for _ in _walk(obj, seen):
        pass
    return seen


def play(game: Any, seed: int) -> tuple[int, Any]:
    """One random game; returns (decisions, a state from its middle)."""
    state = game.initial_state(seed)
    rng = rng_derive(seed, 1)
    states = []
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        for action in legal:
            _INTERNED.add(id(action))
        rng, i = rng_below(rng, len(legal))
        state = game.step(state, legal[i])
        states.append(state)
    return len(states), states[len(states) // 2 - 1 : len(states) // 2 + 1]


def bench(name: str, games: int, repeat: int, **options: Any) -> dict[str, float]:
    game = cardcrawl.load(name, **options)
    best = float("inf")
    decisions = 0
    sizes: list[int] = []
    added: list[int] = []
    for _ in range(repeat):
        gc.collect()
        decisions = 0
        start = time.perf_counter()
        for seed in range(games):
            n, middle = play(game, seed)
            decisions += n
            if len(sizes) < 50 and len(middle) == 2:
                before, after = middle
                sizes.append(deep_size(after, _INTERNED))
                added.append(deep_size(after, _INTERNED | reachable_ids(before)))
        best = min(best, time.perf_counter() - start)
    return {
        "games/s": games / best,
        "decisions/s": decisions / best,
        "decisions/game": decisions / games,
        "state KB (mean)": sum(sizes) / len(sizes) / 1024,
        "state KB (max)": max(sizes) / 1024,
        "step adds KB": sum(added) / len(added) / 1024,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", action="append", choices=sorted(LIMITS))
    args = parser.parse_args(argv)
    names = [n for n in (args.game or LIMITS) if n in cardcrawl.game_names()]
    print(f"cardcrawl {cardcrawl.__version__}, Python {sys.version.split()[0]}, one core")
    heads = ("games/s", 10), ("decisions/s", 14), ("dec/game", 10), ("KB mean", 9)
    heads += ("KB max", 8), ("KB/step", 9)
    print(f"{'game':<22}" + "".join(f"{h:>{w}}" for h, w in heads))
    for name in names:
        r = bench(name, args.games, args.repeat, **LIMITS[name])
        print(
            f"{name:<22}{r['games/s']:>10.0f}{r['decisions/s']:>14.0f}{r['decisions/game']:>10.1f}"
            f"{r['state KB (mean)']:>9.1f}{r['state KB (max)']:>8.1f}{r['step adds KB']:>9.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
