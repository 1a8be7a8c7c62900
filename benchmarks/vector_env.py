"""Env-steps per second of the native vector environment against Gymnasium's
``SyncVectorEnv`` over single environments (run on demand, never a test).

Usage:
    python benchmarks/vector_env.py [--envs N] [--steps S] [--repeat R]

For each registered id of a single-player game it plays ``S`` batched steps of random
legal actions with ``N`` environments, autoreset on, and prints env-steps per second of
``make_vec(id, vectorization_mode="sync")``, of the native environment with compact and
with flat observations, and their ratios. The actions are the policy's, not the
environment's: every side draws them the same way, for the whole batch at once from the
action masks with one seeded numpy generator, and off the clock, which counts the CPU
time spent in ``reset`` and ``step`` only. The sides take turns and each keeps the least
of ``R`` runs (``bench.interleaved``), so that other work slows them alike.
It also prints the memory of a batch of 1,024 native environments' arrays and states.

Example:
    python benchmarks/vector_env.py --envs 64 --steps 200 --repeat 2
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import cardcrawl.adapters.gymnasium  # noqa: F401  (registers the ids)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import interleaved

IDS = ("cardcrawl/EscapeFromHaydesSoloTimer-v0", "cardcrawl/MaplessHouse-v0")


def make(env_id: str, envs: int, how: str) -> Any:
    if how == "sync":
        return gymnasium.make_vec(env_id, num_envs=envs, vectorization_mode="sync")
    return gymnasium.make_vec(
        env_id, num_envs=envs, vectorization_mode="vector_entry_point", observation=how
    )


def random_legal(mask: Any, rng: np.random.Generator) -> Any:
    """One legal action per row of ``mask``, each uniformly; 0 for a row with none."""
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=mask.shape[0])
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(mask.shape[0]) * counts).astype(np.int64)
    return np.where(counts > 0, cols[np.minimum(picks, len(cols) - 1)], 0)


def play(env: Any, steps: int) -> float:
    """``steps`` batched steps of random legal actions; the CPU seconds spent in the
    environment (drawing the actions is off the clock)."""
    rng = np.random.default_rng(0)
    clock = time.process_time
    start = clock()
    _, info = env.reset(seed=1)
    spent = clock() - start
    for _ in range(steps):
        actions = random_legal(info["action_mask"], rng)
        start = clock()
        _, _, _, _, info = env.step(actions)
        spent += clock() - start
    return spent


def env_seconds(envs: dict[str, Any], steps: int, repeat: int) -> dict[str, float]:
    """By side, the least of ``repeat`` runs of :func:`play`, the sides taking turns."""
    best = dict.fromkeys(envs, float("inf"))

    def run(how: str) -> None:
        best[how] = min(best[how], play(envs[how], steps))

    interleaved({how: functools.partial(run, how) for how in envs}, repeat)
    return best


def batch_memory(env_id: str, envs: int = 1024) -> float:
    """MB held by a native batch of ``envs`` after a reset and a few steps."""
    tracemalloc.start()
    env = make(env_id, envs, "compact")
    play(env, 5)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return size / 2**20


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if args.envs < 1 or args.steps < 1 or args.repeat < 1:
        parser.error("--envs, --steps and --repeat are at least 1")
    print(
        "| id | sync, env-steps/s | native compact | native flat | compact / sync "
        "| flat / sync | 1,024 envs, MB |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for env_id in IDS:
        envs = {how: make(env_id, args.envs, how) for how in ("sync", "compact", "vector")}
        best = env_seconds(envs, args.steps, args.repeat)
        rate = {how: args.steps * args.envs / max(seconds, 1e-9) for how, seconds in best.items()}
        print(
            f"| {env_id} | {rate['sync']:,.0f} | {rate['compact']:,.0f} | "
            f"{rate['vector']:,.0f} | {rate['compact'] / rate['sync']:.1f}x | "
            f"{rate['vector'] / rate['sync']:.1f}x | {batch_memory(env_id):.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
