"""Milliseconds to read and to write a record of a 104-action match (run on demand,
never a test).

Usage:
    python benchmarks/record_read.py [--number N] [--repeat R]

The record is a four-player Escape from Haydes match played by seeded random bots, with
its claims, as ``Match.to_record`` makes it. ``Record.from_json`` reads it through the
codec's readers (one per declared type) and checks it; ``Record.to_json`` writes it.
Each time is the least of ``R`` runs of ``N`` calls.

Example:
    python benchmarks/record_read.py --number 300 --repeat 5
"""

from __future__ import annotations

import argparse
import timeit

import cardcrawl
from cardcrawl.bots import make_bot

#: The seed whose match, so played, has 104 actions.
SEED = 37


def match_record() -> cardcrawl.Record:
    """The record of the match measured (see the module docstring)."""
    game = cardcrawl.load("escape-from-haydes", players=4)
    match = cardcrawl.Match.start(game, seed=SEED)
    bots = [make_bot("random", game, seed=SEED, seat=seat) for seat in range(4)]
    while not game.is_terminal(match.state):
        match.play_bot(bots[max(0, game.current_player(match.state))])
    return match.to_record()


def measure(number: int, repeat: int) -> dict[str, float]:
    """Actions in the record, and milliseconds a call of ``from_json`` and ``to_json``."""
    record = match_record()
    text = record.to_json()
    reading = min(
        timeit.repeat(lambda: cardcrawl.Record.from_json(text), number=number, repeat=repeat)
    )
    writing = min(timeit.repeat(record.to_json, number=number, repeat=repeat))
    return {
        "actions": len(record.actions),
        "from_json_ms": reading / number * 1000,
        "to_json_ms": writing / number * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=300, help="calls a run (300)")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the least counts (5)")
    args = parser.parse_args()
    found = measure(args.number, args.repeat)
    print(
        f"{found['actions']:.0f} actions: from_json {found['from_json_ms']:.3f} ms, "
        f"to_json {found['to_json_ms']:.3f} ms"
    )


if __name__ == "__main__":
    main()
