"""The time each bot of the bots table takes per decision (run on demand, never a test).

Usage:
    python benchmarks/decision_time.py [--games N] [--seed S] [--only GAME]

Each bot plays ``N`` solo games, game ``i`` from ``rng_derive(seed, i)``: The Mapless
House with ``max_turns=200`` (M-22) and Escape from Haydes with the solo timer
(``max_rounds=30``, H-13), the line-ups of docs/bots-table.md. Every decision is timed
in CPU time (``time.process_time``) around the bot's ``choose`` alone, so the rules'
own work (legal actions, observations, steps) is left out; the script prints, per bot,
the decisions timed, their total and their mean. An oracle (The Mapless House's
``oracle``) is timed with the others, marked: it cheats, and is shown the true state.

Unlike the bots' rates, the times depend on the machine and on what else it runs:
give the machine and the date with them.

Example:
    python benchmarks/decision_time.py --games 20
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any

import cardcrawl
from cardcrawl import rng_derive
from cardcrawl.bots import make_bot
from cardcrawl.bots._oracles import make_oracle, oracle_names

# The paired script's play loop and clock, so that both scripts time the same thing.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength import Clock, play

#: The table's games, as loaded, and their bots in the table's order.
TABLE: tuple[tuple[str, dict[str, Any], tuple[str, ...]], ...] = (
    (
        "mapless-house",
        {"max_turns": 200},
        ("random", "shortest-path", "heuristic", "search", "planner", "oracle"),
    ),
    ("escape-from-haydes-solo-timer", {}, ("random", "heuristic", "lookahead")),
)


def _processor() -> str:
    """The processor's model and how many this process may use, where Linux says."""
    cpuinfo = Path("/proc/cpuinfo")
    lines = cpuinfo.read_text().splitlines() if cpuinfo.exists() else []
    models = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    model = models[0] if models else platform.processor() or "processor unknown"
    return f"{model}, {len(models) or '?'} cores"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="time only this game's bots")
    args = parser.parse_args(argv)
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"{python} on {platform.machine()} {platform.system()} ({_processor()}), {when}")
    print(f"{args.games} games per bot, seed {args.seed}; CPU time of choose() per decision")
    for name, options, bots in TABLE:
        if args.only is not None and args.only != name:
            continue
        game = cardcrawl.load(name, **options)
        for bot in bots:
            oracle = bot in oracle_names(game)
            build = make_oracle if oracle else make_bot
            clock = Clock()
            for i in range(args.games):
                seed = rng_derive(args.seed, i)
                play(game, seed, [build(bot, game, seed, 0)], 0, clock)
            mark = " (ORACLE: cheats, sees the state)" if oracle else ""
            print(
                f"  {name:>29} {bot:>13}: {clock.per_decision():>9} per decision, "
                f"{clock.decisions} decisions, {clock.seconds:.1f} s{mark}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
