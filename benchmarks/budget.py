"""Where a game's time goes, decision by decision, against the plain simulator (run on
demand, never a test).

Usage:
    python benchmarks/budget.py [--games N] [--repeat R]

``bench.py`` gives the ratios against the plain simulators. This script splits
them into parts one can reason about, for each row of that table (the same games and
options). For each it measures, in one run and taking turns:

* the plain simulator: its time per game and how much of it is the deal (Escape from
  Haydes shuffles its two decks before play, H-3; The Mapless House's plain simulator
  shuffles as it goes, so its deal is not told apart);
* the rollout kernel that ``simulate`` plays random games with: its time per game and
  per decision, and its generator outputs per decision, the bots' (one per decision)
  and the game's own. Those are counted exactly: SplitMix64 moves its state by one fixed
  odd step per output, so the outputs between two states are their difference divided
  by that step, modulo 2**64;
* the public API loop (``legal_actions``, ``step``), per game.

and three unit costs: one SplitMix64 output taken below ``n`` as the kernels inline it,
one ``random.Random.choice`` (what the plain simulators draw with), and the frame of a
public loop with no rules at all (its three calls, and a new two-slot object as the
state of each step).

From these come two budgets a design can be held to:

* ``simulate()`` at 1.0x: what the kernel may spend per decision besides its draws,
  beside what it spends now;
* the public API loop at its goal (pure Python 0.5x The Mapless House, 0.5x Escape
  from Haydes solo, 0.4x four players; compiled 1.0x, 1.0x and 0.8x): what a step may
  cost beyond the kernel's own play of it, beside the bare frame.

Example:
    python benchmarks/budget.py --games 200 --repeat 3
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import plain_haydes
from bench import SUBJECTS, Subject, api_player, interleaved, plain_player

import cardcrawl
from cardcrawl.core._compiled import build_name
from cardcrawl.core._random import _GAMMA

#: The public API loop's goal per row of bench.py's ratio table, for the pure-Python
#: build and the compiled one: the goals set for the rules stated once, over a position.
API_GOALS = {
    "pure": {
        "The Mapless House": 0.5,
        "Escape from Haydes, solo": 0.5,
        "Escape from Haydes, 4 players": 0.4,
    },
    "compiled": {
        "The Mapless House": 1.0,
        "Escape from Haydes, solo": 1.0,
        "Escape from Haydes, 4 players": 0.8,
    },
}
#: The bots' generator outputs per decision: RandomBot draws once at every decision,
#: even from one legal action (its rejections, below 2**-54 a draw, are not counted).
BOT_DRAWS = 1.0
_INVERSE_GAMMA = pow(_GAMMA, -1, 1 << 64)


def outputs_between(before: int, after: int) -> int:
    """How many outputs a SplitMix64 generator drew to go from state ``before`` to
    ``after``.

    Examples:
        >>> from cardcrawl import rng_below
        >>> state = 12345
        >>> for n in (6, 52, 2):
        ...     state, _ = rng_below(state, n)
        >>> outputs_between(12345, state)
        3
    """
    return ((after - before) * _INVERSE_GAMMA) % (1 << 64)


@dataclass(frozen=True)
class UnitCosts:
    """Seconds per SplitMix64 draw, per ``random.Random.choice``, and per step of the
    bare loop less its choice (the frame: three calls and a new state)."""

    splitmix: float
    choice: float
    frame: float


# The draw exactly as the kernels write it inline (not a call to rng_below, whose call
# costs about as much again): timed as text, so the kernels' lines are repeated here.
_DRAW = """
b = (b + gamma) & mask
z = ((b ^ (b >> 30)) * mul1) & mask
z = ((z ^ (z >> 27)) * mul2) & mask
z ^= z >> 31
if z <= top:
    k = z % n
"""
_DRAW_SETUP = (
    "from cardcrawl.core._random import _GAMMA as gamma, _MASK as mask, _MUL1 as mul1, "
    "_MUL2 as mul2, _TOPS; b, n = 12345, 7; top = _TOPS[n]"
)


class _Frame:
    """The state of the bare loop: a new object per step, as a public step makes (and,
    like a cardcrawl state, holding no reference to the state before it)."""

    __slots__ = ("action", "events")

    def __init__(self, action: Any, events: tuple[Any, ...]) -> None:
        self.action = action
        self.events = events


class _NoRules:
    """A game with no rules: five legal actions always, never over."""

    legal = (0, 1, 2, 3, 4)

    def is_terminal(self, state: _Frame) -> bool:
        return state.action is None

    def legal_actions(self, state: _Frame) -> tuple[int, ...]:
        return self.legal

    def step(self, state: _Frame, action: int) -> _Frame:
        return _Frame(action, ())


def _bare_loop(steps: int) -> int:
    """The public API loop of bench.py with no rules: calls, a choice, a new state."""
    game = _NoRules()
    choice = random.Random(1).choice
    legal_actions, step, is_terminal = game.legal_actions, game.step, game.is_terminal
    state, n = _Frame(0, ()), 0
    while n < steps and not is_terminal(state):
        state = step(state, choice(legal_actions(state)))
        n += 1
    return n


def unit_costs(repeat: int) -> UnitCosts:
    """The three unit costs, each the least of ``repeat`` timings."""
    number = 200_000
    splitmix = min(timeit.repeat(_DRAW, _DRAW_SETUP, number=number, repeat=repeat)) / number
    choice = (
        min(
            timeit.repeat(
                "choice(legal)",
                "import random; choice = random.Random(1).choice; legal = [0, 1, 2, 3, 4, 5, 6]",
                number=number,
                repeat=repeat,
            )
        )
        / number
    )
    loop = interleaved({"frame": lambda: _bare_loop(number)}, repeat)["frame"][0] / number
    # The public loop's own choice is counted with the kernel's bot draw (see report).
    return UnitCosts(splitmix, choice, max(loop - choice, 0.0))


@dataclass(frozen=True)
class Row:
    """What one row of the ratio table is made of (seconds per game unless named)."""

    label: str
    goal: float  #: the public API loop's goal
    plain: float
    plain_deal: float | None  #: None: not told apart
    kernel: float
    api: float
    decisions: float  #: per game, the kernel's (the same games as the public API's)
    plain_decisions: float  #: per game, the plain simulator's
    game_draws: float  #: the game generator's outputs per decision, in the kernel


def _kernel_runner(game: Any) -> tuple[Callable[[int], int], Callable[[int], int]]:
    """Two functions of a seed: the kernel's game as ``simulate`` plays it (its
    decisions), and the outputs the game's own generator drew in it."""
    tools = cardcrawl.tools_for(game)
    assert tools.rollout is not None
    assert tools.figures is not None
    kernel = tools.rollout(game)
    assert kernel is not None, "the stock games are played by their kernels"
    figures = tools.figures

    def decisions(seed: int) -> int:
        played = kernel.summary(seed, 10**9, figures)
        assert played is not None
        return int(played[1])

    def draws(seed: int) -> int:
        played = kernel.play(seed, 10**9)
        assert played is not None
        return outputs_between(game.initial_state(seed).rng, played[0].rng)

    return decisions, draws


def measure(subject: Subject, games: int, repeat: int, build: str = "pure") -> Row:
    """One row: the plain simulator, its deal, the kernel and the public API loop over
    the same ``games`` seeds, taking turns, the least CPU time of ``repeat`` runs; its
    goal is the one of ``build`` (a key of :data:`API_GOALS`)."""
    game = cardcrawl.load(subject.name, **subject.options)
    seeds = range(games)
    plain, api = plain_player(subject.name, subject.options), api_player(game)
    kernel, draws = _kernel_runner(game)
    runs: dict[str, Callable[[], Any]] = {
        "plain": lambda: sum(map(plain, seeds)),
        "kernel": lambda: sum(map(kernel, seeds)),
        "api": lambda: sum(map(api, seeds)),
    }
    if subject.name == "escape-from-haydes":
        board = plain_haydes.Haydes(subject.options.get("layout"), 4)
        runs["deal"] = lambda: [board.deal(random.Random(seed)) for seed in seeds]
    for seed in range(3):  # imports, caches
        plain(seed), kernel(seed), api(seed)
    timed = interleaved(runs, repeat)
    decisions = timed["kernel"][1] / games
    return Row(
        label=subject.label,
        goal=API_GOALS[build][subject.label],
        plain=timed["plain"][0] / games,
        plain_deal=timed["deal"][0] / games if "deal" in timed else None,
        kernel=timed["kernel"][0] / games,
        api=timed["api"][0] / games,
        decisions=decisions,
        plain_decisions=timed["plain"][1] / games,
        game_draws=sum(map(draws, seeds)) / games / decisions,
    )


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:,.2f} µs"


def report(rows: Sequence[Row], unit: UnitCosts, pure: bool = True) -> list[str]:
    """The tables, in Markdown, and what the budgets mean. A compiled kernel's draws
    cost what its C code costs, not the pure draw measured here: with ``pure`` false
    the kernel's time is not split, and the columns that need the split stay empty."""
    lines = [
        f"Unit costs: a SplitMix64 draw {_us(unit.splitmix)}, random.Random.choice "
        f"{_us(unit.choice)}, the frame of a public step with no rules (three calls and a "
        f"new state) {_us(unit.frame)}.",
        "",
        "| row | plain, per game | of which the deal | kernel, per game | public API, per game "
        "| decisions/game | kernel draws/decision |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        deal = "-" if row.plain_deal is None else _us(row.plain_deal)
        lines.append(
            f"| {row.label} | {_us(row.plain)} | {deal} | {_us(row.kernel)} | {_us(row.api)} "
            f"| {row.decisions:.1f} | {BOT_DRAWS + row.game_draws:.2f} |"
        )
    lines += [
        "",
        "Per decision:",
        "",
        "| row | kernel's draws | kernel's other work | plain's play less its choice "
        "| other work `simulate()` at 1.0x allows | public step beyond the kernel's play "
        "| what the goal allows |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        d = row.decisions
        draws = (BOT_DRAWS + row.game_draws) * unit.splitmix
        split = f"{_us(draws)} | {_us(row.kernel / d - draws)}" if pure else "- | -"
        # The public loop draws its decisions with random.Random.choice, the kernel with
        # SplitMix64 (next to nothing, compiled): the difference is not the step's cost.
        swap = BOT_DRAWS * ((unit.splitmix if pure else 0.0) - unit.choice)
        beyond = (row.api - row.kernel) / d + swap
        allowed = (row.plain / row.goal - row.kernel) / d + swap
        plain = (
            "-"
            if row.plain_deal is None
            else _us((row.plain - row.plain_deal) / row.plain_decisions - unit.choice)
        )
        lines.append(
            f"| {row.label} | {split} | {plain} "
            f"| {_us(row.plain / d - draws) if pure else '-'} | {_us(beyond)} "
            f"| {_us(allowed)} (goal {row.goal}x) |"
        )
    lines += [
        "",
        "A public step costs at least its frame beyond the kernel's play of it: where the "
        "goal allows less than the frame, no public step reaches it before the kernel "
        "itself is faster.",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per row and run")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs, the least kept")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat take a whole number of at least 1")
    pure = not cardcrawl.compiled_modules()
    build = "pure" if pure else "compiled"
    rows = [measure(subject, args.games, args.repeat, build) for subject in SUBJECTS]
    print(
        f"cardcrawl {cardcrawl.__version__} ({build_name()}), "
        f"{platform.python_implementation()} {platform.python_version()}; "
        f"{args.games} games per row, the least CPU time of {args.repeat} runs"
    )
    print("\n".join(report(rows, unit_costs(args.repeat), pure)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
