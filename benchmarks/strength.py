"""How much stronger one bot plays than another, on paired games (run on demand, never a test).

Usage:
    python benchmarks/strength.py GAME [-o NAME=VALUE ...] [--bot ismcts] [--baseline heuristic]
                                  [--iterations N] [--seconds S] [--rollout NAME]
                                  [-b NAME=VALUE ...] [--games N] [--seed S]
                                  [--progress N]

Each game ``i`` is played twice from the same seed, ``rng_derive(seed, i)``: once with
the baseline in every seat, once with the candidate bot in seat ``i % players`` and the
baseline in the others. The tested seat's return (1 for an escape or a win, 0 otherwise,
for the built-in games) is compared pair by pair, so that the luck of the deal that the
two games share cancels out of the difference: the script prints both rates, the mean
paired difference with its normal-approximation 95% interval, and the pairs that only
one bot won. With several players the rates are each seat's win share (the seats take
turns being tested, so each seat is tested as often, give or take one game).

``--progress N`` prints both rates so far to standard error every ``N`` games, for the
long runs (10,000 IS-MCTS games take about an hour of one core).

``--iterations`` and ``--seconds`` set IS-MCTS's budget per decision (``--iterations``
keeps every figure reproducible: the same command prints the same figures anywhere).

The rates carry Wilson 95% intervals, and with several players each seat's are printed
too. Every decision of the tested seat is timed (CPU time, ``time.process_time``, around
the bot's ``choose`` alone), in both games of each pair, and the mean per decision is
printed for both bots with the number of decisions timed. The times, unlike the rates,
depend on the machine and on what else it runs.

``--bot`` may also name an *oracle* (:mod:`cardcrawl.bots._oracles`, such as The Mapless
House's ``oracle``): a player that cheats, shown the true state where a bot is shown its
observation. Its figures bound the bots' from above and are printed marked as such.

Examples:
    python benchmarks/strength.py escape-from-haydes-solo-timer --games 60 --iterations 100
    python benchmarks/strength.py escape-from-haydes -o players=3 -o max_rounds=30 --games 30
    python benchmarks/strength.py mapless-house -o max_turns=200 --bot oracle --games 20
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
from cardcrawl.bots._oracles import make_oracle, oracle_names
from cardcrawl.simulate import wilson_interval

_LIMIT = 100_000  # decisions: no built-in game with its limit comes near


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


class Clock:
    """The CPU time one seat's bot spent choosing, and how many decisions it made."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.decisions = 0

    def per_decision(self) -> str:
        """The mean time per decision, in the unit that reads best."""
        if not self.decisions:
            return "no decisions"
        mean = self.seconds / self.decisions
        if mean >= 0.1:
            return f"{mean:.2f} s"
        if mean >= 1e-4:
            return f"{1e3 * mean:.2f} ms"
        return f"{1e6 * mean:.1f} µs"


def play(
    game: Any,
    seed: int,
    bots: list[Any],
    timed: int | None = None,
    clock: Clock | None = None,
) -> tuple[float, ...]:
    """The returns of one game played by ``bots`` (one per seat) from ``seed``.

    A bot whose class says ``sees_state`` (an oracle) is given the state itself. The
    decisions of seat ``timed`` are timed on ``clock``.
    """
    state = game.initial_state(seed=seed)
    sees = [getattr(bot, "sees_state", False) is True for bot in bots]
    for _ in range(_LIMIT):
        seat = game.current_player(state)
        if seat < 0:
            break
        legal = game.legal_actions(state)
        shown = state if sees[seat] else game.observe(state, seat)
        if seat == timed and clock is not None:
            before = time.process_time()
            action = bots[seat].choose(game, shown, legal)
            clock.seconds += time.process_time() - before
            clock.decisions += 1
        else:
            action = bots[seat].choose(game, shown, legal)
        state = game.step(state, action)
    return tuple(game.returns(state))


def rate(scores: list[float]) -> str:
    """The rate of wins among ``scores`` (each 0 or 1) with its Wilson 95% interval."""
    interval = wilson_interval(sum(1 for s in scores if s > 0), len(scores))
    return f"{100 * interval.estimate:6.2f}% [{100 * interval.low:.2f}, {100 * interval.high:.2f}]"


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
    parser.add_argument(
        "--progress",
        type=int,
        default=0,
        metavar="N",
        help="every N games, print the rates so far to standard error (0: never)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.progress < 0:
        parser.error(f"--progress is a number of games, 0 or more, not {args.progress}")
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
    oracle = args.bot in oracle_names(game)
    build = make_oracle if oracle else make_bot
    seats: list[int] = []
    base_clock, bot_clock = Clock(), Clock()
    started = time.process_time()
    bot_time = 0.0
    for i in range(args.games):
        seed = rng_derive(args.seed, i)
        seat = i % players
        seats.append(seat)
        baseline = [make_bot(args.baseline, game, seed, s) for s in range(players)]
        base_scores.append(play(game, seed, baseline, seat, base_clock)[seat])
        lineup = [make_bot(args.baseline, game, seed, s) for s in range(players)]
        lineup[seat] = build(args.bot, game, seed, seat, **bot_options)
        before = time.process_time()
        bot_scores.append(play(game, seed, lineup, seat, bot_clock)[seat])
        bot_time += time.process_time() - before
        if args.progress > 0 and (i + 1) % args.progress == 0:
            print(
                f"... {i + 1} games: {args.baseline} {rate(base_scores)}, {args.bot} "
                f"{rate(bot_scores)}, {time.process_time() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    n = args.games
    diffs = [b - a for a, b in zip(base_scores, bot_scores, strict=True)]
    mean, low, high = paired_interval(diffs)
    only_bot = sum(1 for d in diffs if d > 0)
    only_base = sum(1 for d in diffs if d < 0)
    what = "escape/win rate" if players == 1 else "win share of the tested seat"
    budget = ", ".join(f"{k}={v}" for k, v in bot_options.items()) or "defaults"
    print(f"{game.name}: {game.options}")
    print(f"{n} paired games, seed {args.seed}; {args.bot} ({budget}) vs {args.baseline}; {what}")
    if oracle:
        print(f"  {args.bot} is an ORACLE: it sees the true state (it cheats), an upper bound")
    print(f"  {args.baseline:>12}: {rate(base_scores)}")
    print(f"  {args.bot:>12}: {rate(bot_scores)}")
    for seat in range(players) if players > 1 else ():
        mine = [i for i in range(n) if seats[i] == seat]
        base_rate = rate([base_scores[i] for i in mine])
        bot_rate = rate([bot_scores[i] for i in mine])
        print(
            f"  seat {seat} ({len(mine)} games): {args.baseline} {base_rate}, {args.bot} {bot_rate}"
        )
    print(
        f"  difference: {100 * mean:+.2f} points, 95% paired interval "
        f"[{100 * low:+.2f}, {100 * high:+.2f}]"
    )
    print(f"  pairs won by {args.bot} only: {only_bot}; by {args.baseline} only: {only_base}")
    print(
        f"  CPU: {time.process_time() - started:.1f} s in all, "
        f"{bot_time / n:.2f} s per game with {args.bot}"
    )
    for name, clock in ((args.baseline, base_clock), (args.bot, bot_clock)):
        print(
            f"  time per decision, {name}: {clock.per_decision()} "
            f"over {clock.decisions} decisions ({clock.seconds:.1f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
