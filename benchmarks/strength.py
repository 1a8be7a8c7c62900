"""How much stronger one bot plays than another, on paired games (run on demand, never a test).

Usage:
    python benchmarks/strength.py GAME [-o NAME=VALUE ...] [--bot ismcts] [--baseline heuristic]
                                  [--iterations N] [--seconds S] [--rollout NAME]
                                  [-b NAME=VALUE ...] [--games N] [--seed S]

Each game ``i`` is played twice from the same seed, ``rng_derive(seed, i)``: once with
the baseline in every seat, once with the candidate bot in seat ``i % players`` and the
baseline in the others. The tested seat's return (1 for an escape or a win, 0 otherwise,
for the built-in games) is compared pair by pair, so that the luck of the deal that the
two games share cancels out of the difference: the script prints both rates, the mean
paired difference with its normal-approximation 95% interval, and the pairs that only
one bot won. With several players the rates are each seat's win share (the seats take
turns being tested, so each seat is tested as often, give or take one game).

``--iterations`` and ``--seconds`` set IS-MCTS's budget per decision (``--iterations``
keeps every figure reproducible: the same command prints the same figures anywhere).

Examples:
    python benchmarks/strength.py escape-from-haydes-solo-timer --games 60 --iterations 100
    python benchmarks/strength.py escape-from-haydes -o players=3 -o max_rounds=30 --games 30
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

import cardcrawl
from cardcrawl import rng_derive
from cardcrawl.bots import make_bot

_LIMIT = 100_000  # decisions: no built-in game with its limit comes near


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def play(game: Any, seed: int, bots: list[Any]) -> tuple[float, ...]:
    """The returns of one game played by ``bots`` (one per seat) from ``seed``."""
    state = game.initial_state(seed=seed)
    for _ in range(_LIMIT):
        seat = game.current_player(state)
        if seat < 0:
            break
        legal = game.legal_actions(state)
        state = game.step(state, bots[seat].choose(game, game.observe(state, seat), legal))
    return tuple(game.returns(state))


def paired_interval(diffs: list[float]) -> tuple[float, float, float]:
    """The mean of ``diffs`` and its normal-approximation 95% interval."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, -math.inf, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("-o", dest="options", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--baseline", default="heuristic")
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--rollout", help="IS-MCTS's rollout bot (default: random)")
    parser.add_argument(
        "-b",
        dest="bot_options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the tested bot (such as -b go_on=0.5 for lookahead)",
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    options = dict(item.split("=", 1) for item in args.options)
    game = cardcrawl.load(args.game, **{k: _value(v) for k, v in options.items()})
    bot_options: dict[str, Any] = {}
    if args.bot == "ismcts":
        if args.iterations is not None:
            bot_options["iterations"] = args.iterations
        if args.seconds is not None:
            bot_options["seconds"] = args.seconds
        if args.rollout is not None:
            bot_options["rollout"] = args.rollout
    for item in args.bot_options:
        name, value = item.split("=", 1)
        bot_options[name] = _value(value)
    players = game.num_players
    base_scores: list[float] = []
    bot_scores: list[float] = []
    started = time.process_time()
    bot_time = 0.0
    for i in range(args.games):
        seed = rng_derive(args.seed, i)
        seat = i % players
        baseline = [make_bot(args.baseline, game, seed, s) for s in range(players)]
        base_scores.append(play(game, seed, baseline)[seat])
        lineup = [make_bot(args.baseline, game, seed, s) for s in range(players)]
        lineup[seat] = make_bot(args.bot, game, seed, seat, **bot_options)
        before = time.process_time()
        bot_scores.append(play(game, seed, lineup)[seat])
        bot_time += time.process_time() - before
    n = args.games
    diffs = [b - a for a, b in zip(base_scores, bot_scores, strict=True)]
    mean, low, high = paired_interval(diffs)
    only_bot = sum(1 for d in diffs if d > 0)
    only_base = sum(1 for d in diffs if d < 0)
    what = "escape/win rate" if players == 1 else "win share of the tested seat"
    budget = ", ".join(f"{k}={v}" for k, v in bot_options.items()) or "defaults"
    print(f"{game.name}: {game.options}")
    print(f"{n} paired games, seed {args.seed}; {args.bot} ({budget}) vs {args.baseline}; {what}")
    print(f"  {args.baseline:>12}: {100 * sum(base_scores) / n:6.2f}%")
    print(f"  {args.bot:>12}: {100 * sum(bot_scores) / n:6.2f}%")
    print(
        f"  difference: {100 * mean:+.2f} points, 95% paired interval "
        f"[{100 * low:+.2f}, {100 * high:+.2f}]"
    )
    print(f"  pairs won by {args.bot} only: {only_bot}; by {args.baseline} only: {only_base}")
    print(
        f"  CPU: {time.process_time() - started:.1f} s in all, "
        f"{bot_time / n:.2f} s per game with {args.bot}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
