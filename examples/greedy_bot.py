"""A greedy bot for The Mapless House, and its escape rate measured over many games.

Shows how to write a bot: a class built with ``(game, seed, seat)`` whose ``choose``
method sees only the seat's observation and the legal actions, never the state (so it
cannot peek at the decks). The bot is greedy: it builds the house close to the
Entrance, then takes the step that brings it nearest the Exit without landing where a
Stalker stands or will stand. ``cardcrawl.simulate`` then plays it, and the random bot
for comparison, on the same seeds, and reports each escape rate with its 95% interval.

Run it from the repository root:

    python examples/greedy_bot.py                 # 500 games per bot
    python examples/greedy_bot.py --games 50 --workers 2

The numbers depend only on --games and --seed, never on --workers.
"""

from __future__ import annotations

import argparse
from collections import deque
from collections.abc import Sequence
from typing import Any

import cardcrawl
from cardcrawl.mapless import MaplessObservation, Place, PlaceExit, stalker_step
from cardcrawl.simulate import simulate

ENTRANCE = (0, 0)


def steps_to_exit(obs: MaplessObservation) -> dict[cardcrawl.Cell, int]:
    """How many moves each card of the table is from the Exit, walking over cards."""
    assert obs.exit_cell is not None
    steps = {obs.exit_cell: 0}
    queue = deque([obs.exit_cell])
    while queue:
        cell = queue.popleft()
        for nxt in obs.table.touching_cards(cell):
            if nxt not in steps:
                steps[nxt] = steps[cell] + 1
                queue.append(nxt)
    return steps


def stalkers_after(obs: MaplessObservation, cell: cardcrawl.Cell) -> list[cardcrawl.Cell]:
    """Where the Stalkers will stand after their step, if the player is on ``cell``."""
    after = []
    if obs.spade is not None:
        avoid = obs.exit_cell if obs.spade_left_exit else None  # ruling M-19
        after.append(stalker_step(obs.spade, cell, avoid))
    if obs.club is not None:
        after.append(stalker_step(obs.club, cell))
    return after


class GreedyBot:
    """Build close to the Entrance; then walk toward the Exit, avoiding the Stalkers."""

    def __init__(self, game: Any, seed: int, seat: int = 0) -> None:
        pass  # greedy play needs no generator: the same observation, the same choice

    def choose(self, game: Any, obs: MaplessObservation, legal: Sequence[Any]) -> Any:
        """One of ``legal``, chosen from the observation alone."""
        if isinstance(legal[0], Place):
            return min(legal, key=lambda a: cardcrawl.distance(ENTRANCE, a.cell))
        if isinstance(legal[0], PlaceExit):
            return legal[0]
        steps = steps_to_exit(obs)

        def badness(action: Any) -> tuple[int, int]:
            cell = action.cell
            if cell == obs.exit_cell and cell not in (obs.spade, obs.club):
                return (0, 0)  # a free Exit: stepping on it escapes at once
            caught = cell in (obs.spade, obs.club) or cell in stalkers_after(obs, cell)
            return (1 + caught, steps.get(cell, 99))

        return min(legal, key=badness)


def main(argv: Sequence[str] | None = None) -> None:
    """Measure the greedy bot against the random bot and print both escape rates."""
    parser = argparse.ArgumentParser(description="Measure a greedy bot's escape rate.")
    parser.add_argument("--games", type=int, default=500, help="games per bot (500)")
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed (0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    args = parser.parse_args(argv)

    game = cardcrawl.load("mapless-house", max_turns=200)
    for label, bot in (("greedy", GreedyBot), ("random", "random")):
        result = simulate(game, bot, games=args.games, seed=args.seed, workers=args.workers)
        summary = result.summary()
        escaped = sum(r.outcome == "escaped" for r in result.results)
        rate = summary.rate("escaped")
        print(
            f"{label}: escaped {escaped} of {summary.games} games = {rate.estimate:.1%} "
            f"(95% CI {rate.low:.1%} to {rate.high:.1%})"
        )


if __name__ == "__main__":
    main()
