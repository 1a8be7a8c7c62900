"""Are the plain simulators the same games as cardcrawl's? A statistical check.

Usage:
    python benchmarks/check_plain.py [--games N] [--seed S]

The plain simulators (``plain_mapless.py``, ``plain_haydes.py``) are the yardsticks the
speed ratios of ``bench.py`` are measured against, so they must play the same games.
They cannot match cardcrawl draw for draw (each has its own generator), so this plays
``N`` seeded games of each configuration on both sides, every decision uniformly
random, and compares what the rules determine: how often each ending happens, how
many decisions a game takes, how big the house grows, how far the Exit lies, how often
the player is held (Mapless), how many rounds a game lasts, how many creatures are met
and overcome, how often a move onto the Red Joker fails (Haydes). Each figure is printed
with its 95% interval (Wilson's for rates, the normal approximation for means), with the
difference and how many standard errors it is; a rule played differently shows up as
differences of many standard errors.

The configurations: The Mapless House with ``max_turns=200``; Escape from Haydes with
``max_rounds=100``, solo and with 4 players; and, since random play almost never meets
those limits, The Mapless House with ``max_turns=10`` and Haydes with 4 players and
``max_rounds=15``, where the limits (M-22, H-13) end many games. cardcrawl's side is the
public API loop, ``legal_actions`` and ``step``, choosing with ``random.Random(seed)``.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import plain_haydes
import plain_mapless

import cardcrawl
from cardcrawl.haydes import AlmostThere, EncounterBegan, Overcame
from cardcrawl.mapless import Encounter

Z95 = 1.959963984540054


def cardcrawl_game(game: Any, seed: int, events: list[Any] | None = None) -> tuple[Any, int]:
    """One game through cardcrawl's public API, every decision uniformly random from
    ``random.Random(seed)``: the final state and the decisions taken. Every event of
    the game is appended to ``events``, when given."""
    return play_from(game, game.initial_state(seed), random.Random(seed), events)


def play_from(
    game: Any, state: Any, rng: random.Random, events: list[Any] | None = None
) -> tuple[Any, int]:
    """The rest of a game from ``state`` through cardcrawl's public API, every decision
    uniformly random from ``rng``: the final state and the decisions taken (see
    :func:`cardcrawl_game`)."""
    choice = rng.choice
    legal_actions, step, is_terminal = game.legal_actions, game.step, game.is_terminal
    decisions = 0
    if events is None:
        while not is_terminal(state):
            state = step(state, choice(legal_actions(state)))
            decisions += 1
        return state, decisions
    while not is_terminal(state):
        state = step(state, choice(legal_actions(state)))
        events.extend(state.events)
        decisions += 1
    return state, decisions


def _count(events: list[Any], kind: type) -> int:
    return sum(1 for e in events if type(e) is kind)


# ------------------------------------------------------------------ one game, as a record
#: A game's record: its ending and the figures compared, by name.
Record = tuple[str, dict[str, float]]


def plain_mapless_record(max_turns: int, seed: int) -> Record:
    r = plain_mapless.play(seed, max_turns)
    figures = {
        "decisions": r.decisions,
        "house size": r.score,
        "turns": r.turns,
        "refused": r.refused,
        "exit distance": r.exit_distance,
        "♣A out": r.club_out,
        "encounters lost": r.encounters_lost,
    }
    return r.ending, figures


def cardcrawl_mapless_record(game: Any, seed: int) -> Record:
    events: list[Any] = []
    state, decisions = cardcrawl_game(game, seed, events)
    outcome = game.outcome(state)
    x, y = state.exit_cell
    figures = {
        "decisions": decisions,
        "house size": outcome.scores[0],
        "turns": state.turn,
        "refused": len(state.refused),
        "exit distance": abs(x) + abs(y),
        "♣A out": state.club is not None,
        "encounters lost": sum(1 for e in events if type(e) is Encounter and e.held),
    }
    return outcome.label, figures


def plain_haydes_record(board: plain_haydes.Haydes, players: int, rounds: int, seed: int) -> Record:
    r = board.play(seed, players, rounds)
    figures = {
        "decisions": r.decisions,
        "rounds": r.rounds,
        "encounters": r.encounters,
        "overcome": r.overcome,
        "Red Joker misses": r.almost_there,
    }
    return r.ending, figures


def cardcrawl_haydes_record(game: Any, seed: int) -> Record:
    events: list[Any] = []
    state, decisions = cardcrawl_game(game, seed, events)
    figures = {
        "decisions": decisions,
        "rounds": state.round,
        "encounters": _count(events, EncounterBegan),
        "overcome": _count(events, Overcame),
        "Red Joker misses": _count(events, AlmostThere),
    }
    return game.outcome(state).label, figures


@dataclass(frozen=True)
class Config:
    """One game configuration and how to play a seeded game of it on each side."""

    label: str
    endings: tuple[str, ...]
    plain: Callable[[int], Record]
    cardcrawl: Callable[[int], Record]


def mapless_config(max_turns: int) -> Config:
    game = cardcrawl.load("mapless-house", max_turns=max_turns)
    return Config(
        f"The Mapless House, max_turns={max_turns}",
        ("escaped", "consumed", "lost"),
        functools.partial(plain_mapless_record, max_turns),
        functools.partial(cardcrawl_mapless_record, game),
    )


def haydes_config(players: int, max_rounds: int) -> Config:
    game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=max_rounds)
    who = "solo" if players == 1 else f"{players} players"
    return Config(
        f"Escape from Haydes, {who}, max_rounds={max_rounds}",
        ("escaped", "trapped", "time-up"),
        functools.partial(plain_haydes_record, plain_haydes.Haydes(), players, max_rounds),
        functools.partial(cardcrawl_haydes_record, game),
    )


def configs(short_limits: bool = True) -> list[Config]:
    """The configurations compared: the limits that bots and simulations use, and (with
    ``short_limits``) limits short enough for the limit itself to end many games, since
    random play hardly ever reaches the long ones."""
    found = [mapless_config(200), haydes_config(1, 100), haydes_config(4, 100)]
    if short_limits:
        found += [mapless_config(10), haydes_config(4, 15)]
    return found


# ------------------------------------------------------------------ statistics
@dataclass(frozen=True)
class Estimate:
    """A rate or a mean over ``n`` games, with its standard error."""

    value: float
    se: float
    n: int
    low: float
    high: float


def rate(hits: int, n: int) -> Estimate:
    """A rate with Wilson's 95% interval."""
    p = hits / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return Estimate(p, math.sqrt(p * (1 - p) / n), n, centre - half, centre + half)


def mean(values: Sequence[float]) -> Estimate:
    """A mean with the normal approximation's 95% interval."""
    n = len(values)
    m = sum(values) / n
    var = sum((v - m) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n)
    return Estimate(m, se, n, m - Z95 * se, m + Z95 * se)


@dataclass(frozen=True)
class Row:
    """One figure compared: plain against cardcrawl."""

    name: str
    plain: Estimate
    cardcrawl: Estimate
    is_rate: bool

    @property
    def difference(self) -> float:
        return self.plain.value - self.cardcrawl.value

    @property
    def se(self) -> float:
        """The standard error of the difference (rates: from the pooled rate, so that two
        rates both at 0 or 1 have none)."""
        a, b = self.plain, self.cardcrawl
        if self.is_rate:
            pooled = (a.value * a.n + b.value * b.n) / (a.n + b.n)
            return math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n))
        return math.hypot(a.se, b.se)

    @property
    def z(self) -> float:
        """The difference in standard errors (0 when both sides agree exactly)."""
        if self.difference == 0:
            return 0.0
        return self.difference / self.se if self.se > 0 else math.inf

    def line(self) -> str:
        def show(e: Estimate) -> str:
            if self.is_rate:
                return f"{e.value:7.2%} [{e.low:6.2%}, {e.high:6.2%}]"
            return f"{e.value:8.2f} [{e.low:7.2f}, {e.high:7.2f}]"

        d, half = self.difference, Z95 * self.se
        diff = f"{d:+.2%} ± {half:.2%}" if self.is_rate else f"{d:+.2f} ± {half:.2f}"
        return (
            f"  {self.name:<22} {show(self.plain)}   {show(self.cardcrawl)}   "
            f"{diff:<18} z={self.z:+.2f}"
        )


def compare(config: Config, seeds: Sequence[int]) -> list[Row]:
    """Play ``seeds`` on both sides and compare every figure."""
    plain = [config.plain(seed) for seed in seeds]
    ours = [config.cardcrawl(seed) for seed in seeds]
    n = len(seeds)
    rows = []
    for ending in config.endings:
        a = sum(1 for e, _ in plain if e == ending)
        b = sum(1 for e, _ in ours if e == ending)
        rows.append(Row(f"{ending} rate", rate(a, n), rate(b, n), True))
    unknown = {e for e, _ in plain + ours} - set(config.endings)
    if unknown:
        raise AssertionError(f"{config.label}: unexpected endings {sorted(unknown)}")
    for name in plain[0][1]:
        rows.append(
            Row(
                f"mean {name}",
                mean([f[name] for _, f in plain]),
                mean([f[name] for _, f in ours]),
                False,
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="seeded games per side")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2")
    seeds = range(args.seed, args.seed + args.games)
    print(f"{args.games:,} seeded games per side (seeds {seeds[0]}-{seeds[-1]}); 95% intervals.")
    worst = 0.0
    for config in configs():
        print(f"\n{config.label}")
        print(f"  {'':<22} {'plain simulator':<27}   {'cardcrawl':<27}   difference")
        for row in compare(config, seeds):
            print(row.line())
            worst = max(worst, abs(row.z))
        sys.stdout.flush()
    print(f"\nLargest difference: {worst:.2f} standard errors.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
