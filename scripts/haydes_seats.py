"""Escape from Haydes with 2-4 players: each bot's win share by seat.

For every player count, one seat at a time is given to the bot being measured and
every other seat to the opponent bot (``--games`` games in all, shared equally among
the seats), so each seat's figure is "this bot, in this
seat, against the others"; a last block plays the measured bot in every seat, which
shows what the seat alone is worth. Every game is capped with ``max_rounds``
(H-13), and the figures are printed as a Markdown table with Wilson 95% intervals.

Run it (a few minutes with two workers)::

    python scripts/haydes_seats.py --games 10000 --workers 2

The table in docs/bots-table.md was made by exactly that command.
"""

from __future__ import annotations

import argparse

import cardcrawl
from cardcrawl.simulate import simulate, wilson_interval


def _percent(wins: int, games: int) -> str:
    interval = wilson_interval(wins, games)
    return f"{100 * wins / games:.1f} [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


def seat_table(
    bot: str, opponent: str, *, players: tuple[int, ...], games: int, seed: int, workers: int
) -> list[str]:
    """The Markdown rows: one per player count and line-up, one column per seat.

    Args:
        bot: the bot measured (a registered name).
        opponent: the bot in every other seat.
        players: the player counts to measure.
        games: games per player count with ``bot`` in one seat, shared among the seats.
        seed: the simulations' seed.
        workers: worker processes for :func:`cardcrawl.simulate.simulate`.

    Returns:
        One Markdown table row per line-up.
    """
    rows = []
    for n in players:
        game = cardcrawl.load("escape-from-haydes", players=n, max_rounds=30)
        per_line = -(-games // n)  # ceil: at least ``games`` games with the bot measured
        for seat in [*range(n), None]:
            lineup = [bot if seat in (None, s) else opponent for s in range(n)]
            result = simulate(game, lineup, games=per_line, seed=seed, workers=workers)
            wins = [sum(s in r.winners for r in result.results) for s in range(n)]
            nobody = sum(not r.winners for r in result.results)
            cells = [_percent(w, per_line) for w in wins] + ["–"] * (4 - n)
            who = f"`{bot}` in every seat" if seat is None else f"`{bot}` in seat {seat}"
            rows.append(
                f"| {n} | {who} | {per_line:,} | "
                + " | ".join(cells)
                + f" | {_percent(nobody, per_line)} |"
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    print(
        f"{args.games:,} games per player count, shared among the seats; "
        f"opponents `{args.opponent}`, max_rounds=30, seed {args.seed}\n"
    )
    print(
        "| players | line-up | games | seat 0 wins % | seat 1 | seat 2 | seat 3 | nobody wins % |"
    )
    print("| --- | --- | ---: | --- | --- | --- | --- | --- |")
    for row in seat_table(
        args.bot,
        args.opponent,
        players=tuple(args.players),
        games=args.games,
        seed=args.seed,
        workers=args.workers,
    ):
        print(row)


if __name__ == "__main__":
    main()
