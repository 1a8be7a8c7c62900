"""cardcrawl's performance suite: one command, its tables (run on demand, never a test).

Usage:
    python benchmarks/bench.py [--quick] [--scale F] [--repeat R] [--ratio-repeat R]
                               [--ratios-only] [--markdown-out FILE] [--update-docs]

For each game (The Mapless House; Escape from Haydes solo and with four players), with a
uniform-random policy, it measures:

* decisions and complete games per second on one core, with sampled chance;
* the cost of explicit chance: the same number of games from the same seeds played with
  ``explicit_chance=True``, every chance event resolved by the caller sampling from
  ``chance_outcomes`` (time per game, explicit over sampled);
* serialization round trips per second: state -> ``state_to_data`` -> JSON text ->
  ``state_from_data`` -> state, over every state of a few games;
* memory per state: every object reachable from a mid-game state, counted once, leaving
  out what all states share (cards, enum members, small integers, the interned actions,
  and whatever the game object itself holds, such as Haydes' layout), and what one step
  adds to the state before it (the cost per step of storing a whole history);
* throughput of :func:`cardcrawl.simulate.simulate` with random bots on process pools of
  one and of two workers (started before the clock), and the speed-up of two over one.

A second table measures cardcrawl against the yardstick of the project's speed targets,
a plain mutable simulator of the same rules (``plain_mapless.py``, ``plain_haydes.py``
beside this file; ``check_plain.py`` shows they play the same games): games per second
of (a) the plain simulator, (b) cardcrawl's public API loop (``legal_actions`` and
``step``, each decision drawn with ``random.Random(seed)``, as the plain simulator
draws its own), (c) ``simulate(game, "random", workers=1)``, in this process, and the
ratios (b)/(a) and (c)/(a). The three take turns, the order rotating, and each counts
the least CPU time of ``--ratio-repeat`` runs, so that noise hits every side alike. A
third table gives the time per decision of Escape from Haydes on a 418-cell board (16
decks) against the standard 106 cells, for the plain simulator and the public API.

One-core figures are CPU time (``time.process_time``), the best of ``--repeat`` runs, so
that other work on a shared machine inflates them less; worker figures are wall-clock,
since that is what more workers buy. Beside the table go the load average and the
machine's ceiling at the time: how much faster a pure-Python loop runs on two processes
than on one (about 2x on an idle 2-core machine; any speed-up of the simulation is
bounded by it).

``--update-docs`` rewrites the tables in ``docs/performance.md`` between their markers;
``--ratios-only`` measures (and rewrites) the ratio tables alone. Run from a virtual
environment where ``CARDCRAWL_COMPILE=1 pip install .`` installed cardcrawl compiled (see
``hatch_build.py``), the suite measures the compiled kernels, says so in its notes, and
``--update-docs`` writes their ratio tables to the page's section on the compiled build.
"""

from __future__ import annotations

import argparse
import datetime
import enum
import functools
import gc
import json
import math
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import plain_haydes
import plain_mapless
from check_plain import cardcrawl_game, play_from

import cardcrawl
from cardcrawl import CHANCE, TERMINAL, Card, rng_below, rng_choice_weighted, rng_derive
from cardcrawl.core._compiled import build_name
from cardcrawl.simulate import simulate

DOCS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "performance.md"
START_MARKER = "<!-- bench:start -->"
END_MARKER = "<!-- bench:end -->"
RATIO_START_MARKER = "<!-- ratios:start -->"
RATIO_END_MARKER = "<!-- ratios:end -->"
# The ratio tables of a compiled installation (`CARDCRAWL_COMPILE=1 pip install .`).
COMPILED_START_MARKER = "<!-- compiled:start -->"
COMPILED_END_MARKER = "<!-- compiled:end -->"


# ------------------------------------------------------------------ what is measured
@dataclass(frozen=True)
class Subject:
    """One row of the table: a game, its options and how many games to play for it."""

    label: str
    name: str
    options: dict[str, Any]
    games: int  #: games per timed one-core run
    sim_games: int  #: games per simulate() run (the worker columns)


SUBJECTS = (
    Subject("The Mapless House", "mapless-house", {"max_turns": 200}, 2000, 20000),
    Subject(
        "Escape from Haydes, solo",
        "escape-from-haydes",
        {"players": 1, "max_rounds": 50},
        3000,
        20000,
    ),
    Subject(
        "Escape from Haydes, 4 players",
        "escape-from-haydes",
        {"players": 4, "max_rounds": 50},
        800,
        5000,
    ),
)


@dataclass(frozen=True)
class Column:
    """A column of the table: its heading and how its numbers are written."""

    key: str
    heading: str
    fmt: Callable[[float], str]


def _count(x: float) -> str:
    return f"{x:,.0f}"


def _one(x: float) -> str:
    return f"{x:,.1f}"


def _ratio(x: float) -> str:
    return f"{x:.2f}x"


COLUMNS = (
    Column("decisions_per_s", "decisions/s", _count),
    Column("games_per_s", "games/s", _count),
    Column("decisions_per_game", "decisions/game", _one),
    Column("explicit_cost", "explicit chance, time/game", _ratio),
    Column("round_trips_per_s", "round trips/s", _count),
    Column("kb_per_state", "KB/state", _one),
    Column("kb_per_step", "KB added/step", _one),
    Column("workers_1", "games/s, 1 worker", _count),
    Column("workers_2", "games/s, 2 workers", _count),
    Column("speedup", "2 workers / 1", _ratio),
)


@dataclass(frozen=True)
class Target:
    """A goal for one cell of the table (see the performance page's goals)."""

    label: str  #: the row
    key: str  #: the column
    goal: float
    at_most: bool  #: the figure must stay below ``goal`` (else reach at least ``goal``)
    text: str

    def check(self, table: Table) -> str:
        """One line: the goal, the figure measured and whether it is met."""
        value = dict(table.rows)[self.label][self.key]
        met = value < self.goal if self.at_most else value >= self.goal
        column = next(c for c in COLUMNS if c.key == self.key)
        return f"- {self.text}: {column.fmt(value)}, {'met' if met else '**not met**'}"


TARGETS = (
    Target("The Mapless House", "games_per_s", 1500, False, "Mapless House, 1,500 games/s"),
    Target("The Mapless House", "kb_per_state", 10, True, "Mapless House, state under 10 KB"),
    Target("Escape from Haydes, solo", "games_per_s", 3000, False, "Haydes solo, 3,000 games/s"),
    Target(
        "The Mapless House",
        "speedup",
        1.8,
        False,
        "2 workers at least 1.8x as fast as 1 (bounded by the machine ceiling)",
    ),
)


@dataclass(frozen=True)
class Settings:
    """How much to measure: game counts are the subjects' times ``scale`` (at least 2);
    ``repeat`` timed runs per one-core figure, ``ratio_repeat`` per ratio figure."""

    scale: float = 1.0
    repeat: int = 3
    ratio_repeat: int = 5

    def games(self, n: int) -> int:
        return max(2, round(n * self.scale))


QUICK = Settings(scale=0.05, repeat=1, ratio_repeat=2)


@dataclass
class Table:
    """The measured table: one row of numbers per subject, and notes on the conditions."""

    rows: list[tuple[str, dict[str, float]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The ratio tables (against the plain simulators; the board sizes) and their notes.
    ratios: list[tuple[str, dict[str, float]]] = field(default_factory=list)
    boards: list[tuple[str, dict[str, float]]] = field(default_factory=list)
    ratio_notes: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        """The table in Markdown, followed by its notes."""
        lines = _markdown_table("game", COLUMNS, self.rows)
        return "\n".join([*lines, "", *self.notes]) + "\n"

    def ratio_markdown(self) -> str:
        """The ratio tables in Markdown, followed by their notes."""
        lines = _markdown_table("game", RATIO_COLUMNS, self.ratios)
        lines += ["", *_markdown_table("Escape from Haydes", BOARD_COLUMNS, self.boards)]
        return "\n".join([*lines, "", *self.ratio_notes]) + "\n"


def _markdown_table(
    corner: str, columns: Sequence[Column], rows: Sequence[tuple[str, dict[str, float]]]
) -> list[str]:
    lines = [
        f"| {corner} | " + " | ".join(c.heading for c in columns) + " |",
        "| --- |" + " ---: |" * len(columns),
    ]
    for label, values in rows:
        cells = (c.fmt(values[c.key]) for c in columns)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


# ------------------------------------------------------------------ playing
def _weights(outcomes: Sequence[tuple[Any, Fraction]]) -> list[int]:
    """Integer weights proportional to exact probabilities."""
    den = math.lcm(*(p.denominator for _, p in outcomes))
    return [p.numerator * (den // p.denominator) for _, p in outcomes]


def play(game: Any, seed: int, *, explicit: bool = False, keep: list[Any] | None = None) -> int:
    """One uniform-random game; returns the decisions taken.

    With ``explicit``, chance events stop the game and are resolved here by sampling from
    ``chance_outcomes`` with exact weights. Every state after the first is appended to
    ``keep`` when one is given.
    """
    state = game.initial_state(seed, explicit_chance=explicit)
    rng = rng_derive(seed, 0xBE7C)
    decisions = 0
    current_player, legal_actions, step = game.current_player, game.legal_actions, game.step
    chance_outcomes = game.chance_outcomes
    while True:
        seat = current_player(state)
        if seat == TERMINAL:
            return decisions
        if seat == CHANCE:
            outcomes = chance_outcomes(state)
            rng, i = rng_choice_weighted(rng, _weights(outcomes))
            state = step(state, outcomes[i][0])
        else:
            actions = legal_actions(state)
            rng, i = rng_below(rng, len(actions))
            state = step(state, actions[i])
            decisions += 1
        if keep is not None:
            keep.append(state)


def _best_cpu(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """(least CPU seconds over ``repeat`` runs, the last run's result)."""
    best, result = math.inf, None
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        result = run()
        best = min(best, time.process_time() - start)
    return max(best, 1e-9), result


# ------------------------------------------------------------------ memory
def _shared(o: object) -> bool:
    """Objects every state shares, which cost nothing per state: cards, enum members,
    classes, functions, CPython's cached small integers."""
    if isinstance(o, int) and not isinstance(o, bool):
        return -5 <= o <= 256
    return isinstance(o, (Card, enum.Enum, type, bool)) or callable(o) or o is None


def _walk(obj: object, skip: set[int], leave_out: Callable[[object], bool]) -> Iterator[object]:
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


def deep_size(obj: object, exclude: set[int] | frozenset[int] = frozenset()) -> int:
    """Bytes of every object reachable from ``obj``, each counted once, leaving out the
    objects all states share (see :func:`_shared`) and those whose ids are in ``exclude``."""
    return sum(sys.getsizeof(o) for o in _walk(obj, set(exclude), _shared))


def reachable_ids(obj: object) -> set[int]:
    """The ids of every object reachable from ``obj``."""
    seen: set[int] = set()
    for _ in _walk(obj, seen, lambda o: False):
        pass
    return seen


# ------------------------------------------------------------------ workers
def _spin(n: int) -> int:
    """A pure-Python loop: what two processes can gain on this machine at best."""
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def ceiling(pool: ProcessPoolExecutor, n: int = 3_000_000, repeat: int = 3) -> float:
    """The speed-up of two processes over one for a trivially parallel loop, now."""
    one = two = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        _spin(n)
        _spin(n)
        one = min(one, time.perf_counter() - start)
        start = time.perf_counter()
        list(pool.map(_spin, [n, n]))
        two = min(two, time.perf_counter() - start)
    return one / two


def _warm(_: int) -> int:
    import cardcrawl.bots  # noqa: F401  (imported in each worker before any clock starts)

    return os.getpid()


def throughput(game: Any, games: int, pools: Sequence[ProcessPoolExecutor]) -> list[float]:
    """Games per second (wall-clock) of ``simulate`` with random bots on each pool, the
    i-th pool having i + 1 workers; every pool must give the same results."""
    rates: list[float] = []
    expected = None
    for workers, pool in enumerate(pools, start=1):
        # Untimed: each worker loads the game (once per simulation) and warms its caches.
        simulate(game, "random", games=4 * workers, seed=2, workers=workers, executor=pool)
        gc.collect()
        start = time.perf_counter()
        run = simulate(game, "random", games=games, seed=1, workers=workers, executor=pool)
        rates.append(games / (time.perf_counter() - start))
        if expected is not None and run.results != expected:
            raise AssertionError("simulate() gave results that depend on the workers")
        expected = run.results
    return rates


# ------------------------------------------------------------------ against a plain simulator
def _micro(x: float) -> str:
    return f"{x:,.2f} µs"


RATIO_COLUMNS = (
    Column("plain", "plain simulator, games/s", _count),
    Column("api", "public API, games/s", _count),
    Column("simulate", "simulate(), 1 worker, games/s", _count),
    Column("api_ratio", "public API / plain", _ratio),
    Column("simulate_ratio", "simulate() / plain", _ratio),
    Column("variant_ratio", "simulate(), one-hook variant / stock", _ratio),
    Column("plain_decisions", "decisions/game, plain", _one),
    Column("api_decisions", "decisions/game, public API", _one),
)
BOARD_COLUMNS = (
    Column("small", "time/decision, 106 cells", _micro),
    Column("large", "time/decision, 418 cells", _micro),
    Column("ratio", "418 cells / 106", _ratio),
)
#: The big board: 16 decks, 418 cells (417 build cards and the Black Joker's).
BOARD_DECKS = 16
#: Games per timed run on each board: solo, 4 players.
BOARD_GAMES = {1: 1000, 4: 250}


def plain_player(name: str, options: dict[str, Any]) -> Callable[[int], int]:
    """One game of the plain simulator with these cardcrawl options, by seed: its
    decisions."""
    if name == "mapless-house":
        max_turns = options.get("max_turns")
        return lambda seed: plain_mapless.play(seed, max_turns).decisions
    board = plain_haydes.Haydes(options.get("layout"), options.get("deck_count", 4))
    players, rounds = options.get("players", 1), options.get("max_rounds")
    return lambda seed: board.play(seed, players, rounds).decisions


def api_player(game: Any) -> Callable[[int], int]:
    """One game through cardcrawl's public API (``legal_actions`` and ``step``, each
    decision drawn with ``random.Random(seed)``), by seed: its decisions."""
    return lambda seed: cardcrawl_game(game, seed)[1]


def _total(player: Callable[[int], int], seeds: Sequence[int]) -> int:
    return sum(map(player, seeds))


def interleaved(
    runs: dict[Any, Callable[..., Any]],
    repeat: int,
    setups: dict[Any, Callable[[], Any]] | None = None,
) -> dict[Any, tuple[float, Any]]:
    """By name, (least CPU seconds over ``repeat`` runs, the last run's result). The runs
    take turns, the order rotating each time, so that what else the machine does slows
    every one of them alike. A run with a setup in ``setups`` is given what its setup
    returns, made afresh before each of its runs, off the clock."""
    names = list(runs)
    best = dict.fromkeys(names, math.inf)
    results: dict[Any, Any] = {}
    setups = setups or {}
    for r in range(repeat):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            setup = setups.get(name)
            args = () if setup is None else (setup(),)
            gc.collect()
            start = time.process_time()
            results[name] = runs[name](*args)
            best[name] = min(best[name], time.process_time() - start)
    return {name: (max(best[name], 1e-9), results[name]) for name in names}


#: The hook each game's one-hook variant overrides, by registry name: any documented hook
#: will do, and these are asked in every game.
VARIANT_HOOKS = {"mapless-house": "encounter_threshold", "escape-from-haydes": "guess_is_correct"}


def hook_variant(game: Any, hook: str) -> Any:
    """A variant of ``game`` whose ``hook`` asks ``super()`` and returns its answer
    unchanged: it plays the very games of ``game``, so timing it against the stock game
    shows what being a variant costs, and nothing else."""
    base = type(game)

    def same_answer(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(super(variant, self), hook)(*args, **kwargs)

    variant = type(f"Same{base.__name__}", (base,), {hook: same_answer})
    return variant(game.options)


def measure_ratios(subject: Subject, settings: Settings) -> dict[str, float]:
    """One row of the ratio table: the plain simulator, the public API loop and
    ``simulate`` on one worker, the same number of games from the same seeds; and
    ``simulate`` of the game's one-hook variant (:func:`hook_variant`) from the seed of
    the stock game's run."""
    game = cardcrawl.load(subject.name, **subject.options)
    variant = hook_variant(game, VARIANT_HOOKS[subject.name])
    seeds = range(settings.games(subject.games))
    plain, api = plain_player(subject.name, subject.options), api_player(game)
    for seed in range(3):  # warm up: imports, caches
        plain(seed), api(seed)
    simulate(game, "random", games=2, seed=2, workers=1)
    simulate(variant, "random", games=2, seed=2, workers=1)

    def sim(played: Any = game) -> Any:
        run = simulate(played, "random", games=len(seeds), seed=1, workers=1)
        return sum(r.decisions for r in run.results), [r.outcome for r in run.results]

    timed = interleaved(
        {
            "plain": lambda: sum(map(plain, seeds)),
            "api": lambda: sum(map(api, seeds)),
            "simulate": sim,
            "variant": functools.partial(sim, variant),
        },
        settings.ratio_repeat,
    )
    if timed["variant"][1] != timed["simulate"][1]:
        raise AssertionError(f"{subject.label}: the one-hook variant played other games")
    timed["simulate"] = (timed["simulate"][0], timed["simulate"][1][0])
    row = {name: len(seeds) / seconds for name, (seconds, _) in timed.items()}
    row["api_ratio"] = row["api"] / row["plain"]
    row["simulate_ratio"] = row["simulate"] / row["plain"]
    row["variant_ratio"] = row["variant"] / row["simulate"]
    row["plain_decisions"] = timed["plain"][1] / len(seeds)
    row["api_decisions"] = timed["api"][1] / len(seeds)
    return row


def board_options(players: int, decks: int) -> dict[str, Any]:
    """Haydes options for ``players`` on the board of ``decks`` decks."""
    options: dict[str, Any] = {"players": players, "max_rounds": 50}
    if decks != 4:
        options.update(deck_count=decks, layout=plain_haydes.rect_layout(decks))
    return options


def measure_boards(settings: Settings) -> list[tuple[str, dict[str, float]]]:
    """Haydes' time per decision on the 418-cell board against the standard 106, for
    the plain simulator and the public API, solo and with 4 players. Only play is timed:
    each run's games are set up beforehand (the plain simulator's decks dealt, cardcrawl's
    ``initial_state``), untimed, since setting up a game is no step."""
    rows = []
    for players, n in BOARD_GAMES.items():
        seeds = range(settings.games(n))
        runs: dict[Any, Callable[[Any], Any]] = {}
        setups: dict[Any, Callable[[], Any]] = {}
        for decks in (4, BOARD_DECKS):
            options = board_options(players, decks)
            game = cardcrawl.load("escape-from-haydes", **options)
            board = plain_haydes.Haydes(options.get("layout"), decks)
            for seed in range(3):  # warm up
                board.play(seed, players, options["max_rounds"])
                cardcrawl_game(game, seed)
            setups["plain", decks] = functools.partial(_plain_deals, board, seeds)
            runs["plain", decks] = functools.partial(_plain_plays, board, options)
            setups["api", decks] = functools.partial(_api_starts, game, seeds)
            runs["api", decks] = functools.partial(_api_plays, game)
        timed = interleaved(runs, settings.ratio_repeat, setups)
        who = "solo" if players == 1 else f"{players} players"
        for side, label in (("plain", "plain simulator"), ("api", "public API")):
            small, large = (timed[side, d][0] / timed[side, d][1] for d in (4, BOARD_DECKS))
            row = {"small": small * 1e6, "large": large * 1e6, "ratio": large / small}
            rows.append((f"{label}, {who}", row))
    return rows


def _plain_deals(board: plain_haydes.Haydes, seeds: Sequence[int]) -> list[Any]:
    dealt = []
    for seed in seeds:
        rng = random.Random(seed)
        dealt.append((rng, *board.deal(rng)))
    return dealt


def _plain_plays(board: plain_haydes.Haydes, options: dict[str, Any], dealt: list[Any]) -> int:
    players, rounds = options["players"], options["max_rounds"]
    play = board.play_dealt
    return sum(play(rng, card, rest, players, rounds).decisions for rng, card, rest in dealt)


def _api_starts(game: Any, seeds: Sequence[int]) -> list[Any]:
    return [(game.initial_state(seed), random.Random(seed)) for seed in seeds]


def _api_plays(game: Any, starts: list[Any]) -> int:
    return sum(play_from(game, state, rng)[1] for state, rng in starts)


def build() -> str:
    """How the cardcrawl measured was built: compiled, or pure Python."""
    return build_name(cardcrawl.compiled_modules())


def revision() -> str:
    """The commit of the cardcrawl measured, and whether its source has uncommitted
    changes; for an installed (not editable) cardcrawl, the commit of this checkout,
    from which it was presumably built; "unknown" outside a git checkout."""
    where = str(Path(cardcrawl.__file__).resolve().parent)
    if "site-packages" in Path(where).parts:
        return f"installed; this checkout is at {_commit(str(Path(__file__).resolve().parent))}"
    return _commit(where)


def _commit(where: str) -> str:
    try:
        head = subprocess.run(
            ["git", "-C", where, "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=20, check=True,
        ).stdout.strip()  # fmt: skip
        changed = subprocess.run(
            ["git", "-C", where, "status", "--porcelain", "--", "."],
            capture_output=True, text=True, timeout=20, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}, with uncommitted changes to its source" if changed else head


# ------------------------------------------------------------------ the suite
def measure(subject: Subject, settings: Settings) -> dict[str, float]:
    """The one-core columns of one row."""
    game = cardcrawl.load(subject.name, **subject.options)
    shared = reachable_ids(game)  # the rules, and what every state of a game shares
    games = settings.games(subject.games)
    row: dict[str, float] = {}

    def run(explicit: bool) -> int:
        return sum(play(game, seed, explicit=explicit) for seed in range(games))

    seconds, decisions = _best_cpu(lambda: run(False), settings.repeat)
    explicit_seconds, _ = _best_cpu(lambda: run(True), settings.repeat)
    row["decisions_per_s"] = decisions / seconds
    row["games_per_s"] = games / seconds
    row["decisions_per_game"] = decisions / games
    row["explicit_cost"] = explicit_seconds / seconds

    # States of a few games, untimed: the memory and the serialization samples.
    sizes: list[int] = []
    added: list[int] = []
    samples: list[Any] = []
    for seed in range(min(games, 40)):
        states: list[Any] = []
        play(game, seed, keep=states)
        samples.extend(states)
        if len(states) >= 2:
            # Actions are interned (one object per action, shared by every state); the
            # tuples are kept alive so that no id here is reused by another object.
            legal = [game.legal_actions(s) for s in states]
            interned = {id(a) for actions in legal for a in actions}
            before, after = states[len(states) // 2 - 1], states[len(states) // 2]
            sizes.append(deep_size(after, shared | interned))
            added.append(deep_size(after, shared | interned | reachable_ids(before)))
    row["kb_per_state"] = sum(sizes) / len(sizes) / 1024
    row["kb_per_step"] = sum(added) / len(added) / 1024

    to_data, from_data = game.state_to_data, game.state_from_data
    first = samples[len(samples) // 2]
    if from_data(json.loads(json.dumps(to_data(first)))) != first:
        raise AssertionError(f"{subject.name}: a state did not survive a round trip")

    def round_trips() -> int:
        for state in samples:
            from_data(json.loads(json.dumps(to_data(state))))
        return len(samples)

    seconds, trips = _best_cpu(round_trips, settings.repeat)
    row["round_trips_per_s"] = trips / seconds
    return row


def run_suite(
    settings: Settings = Settings(),
    subjects: Sequence[Subject] = SUBJECTS,
    progress: Callable[[str], None] | None = None,
    *,
    main_table: bool = True,
    ratios: bool = True,
) -> Table:
    """Measure every subject and return the tables with their notes: the main table
    unless ``main_table`` is false, the ratio tables unless ``ratios`` is false."""
    say = progress or (lambda message: None)
    table = Table()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    where = (
        f"cardcrawl {cardcrawl.__version__} (commit {revision()}; {build()}), Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, {when}"
    )
    if main_table:
        _main_table(table, settings, subjects, say, where)
    if ratios:
        _ratio_tables(table, settings, subjects, say, where)
    return table


def _load_average() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan


def _main_table(
    table: Table,
    settings: Settings,
    subjects: Sequence[Subject],
    say: Callable[[str], None],
    where: str,
) -> None:
    load_start = _load_average()
    rows = []
    for subject in subjects:
        say(f"{subject.label}: one core")
        rows.append(measure(subject, settings))
    with ProcessPoolExecutor(1) as one, ProcessPoolExecutor(2) as two:
        for pool in (one, two):
            list(pool.map(_warm, range(4)))
        limits = [ceiling(two, repeat=settings.repeat)]
        for subject, row in zip(subjects, rows, strict=True):
            say(f"{subject.label}: workers")
            game = cardcrawl.load(subject.name, **subject.options)
            single, double = throughput(game, settings.games(subject.sim_games), (one, two))
            row.update(workers_1=single, workers_2=double, speedup=double / single)
            table.rows.append((subject.label, row))
        limits.append(ceiling(two, repeat=settings.repeat))
    load_end = _load_average()
    sim = ", ".join(f"{settings.games(s.sim_games):,}" for s in subjects)
    table.notes = [
        f"{where}. One-core columns: CPU time, best of {settings.repeat}, random play; "
        f"worker columns: wall-clock, one run, `simulate()` with random bots ({sim} games).",
        "",
        f"Load average (1 min): {load_start:.2f} at the start, {load_end:.2f} at the end. "
        f"Machine ceiling: a pure-Python loop ran {sum(limits) / len(limits):.2f}x faster "
        "on 2 processes than on 1 (about 2x on an idle 2-core machine).",
    ]
    labels = {s.label for s in subjects}
    checks = [t.check(table) for t in TARGETS if t.label in labels]
    if checks:
        table.notes += ["", "Targets (one core, CPU time; workers, wall-clock):", "", *checks]


def _ratio_tables(
    table: Table,
    settings: Settings,
    subjects: Sequence[Subject],
    say: Callable[[str], None],
    where: str,
) -> None:
    load_start = _load_average()
    for subject in subjects:
        say(f"{subject.label}: against the plain simulator")
        table.ratios.append((subject.label, measure_ratios(subject, settings)))
    say("Escape from Haydes: 418 cells against 106")
    table.boards = measure_boards(settings)
    load_end = _load_average()
    games = ", ".join(f"{settings.games(s.games):,}" for s in subjects)
    options = "; ".join(", ".join(f"`{k}={v}`" for k, v in s.options.items()) for s in subjects)
    board_games = " and ".join(f"{settings.games(n):,}" for n in BOARD_GAMES.values())
    table.ratio_notes = [
        f"{where}. CPU time, one core, the best of {settings.ratio_repeat} runs taking "
        f"turns; {games} games per run (the plain simulator and the public API from the "
        "same seeds, `simulate()` from its own), random play "
        f"(options, row by row: {options}). Load average (1 min): "
        f"{load_start:.2f} at the start, {load_end:.2f} at the end.",
        "",
        "One-hook variant: a subclass whose hook ("
        + ", ".join(f"`{VARIANT_HOOKS[s.name]}`" for s in subjects)
        + ") asks `super()` and returns its answer unchanged, so it plays the same games "
        "(checked); its `simulate()` over the stock game's, from the same seed, in the same "
        "turns.",
        "",
        f"Board sizes: {board_games} games per run (solo, 4 players) on each board; the "
        f"418-cell board is {BOARD_DECKS} decks on a 21 x 20 rectangle, its top corners "
        "left empty (`plain_haydes.rect_layout(16)`). Time per decision: play alone is timed, "
        "each game set up beforehand (the plain simulator's decks dealt; `initial_state`).",
    ]


def update_docs(
    text: str, page: Path = DOCS_PAGE, start: str = START_MARKER, end: str = END_MARKER
) -> None:
    """Replace what lies between the page's markers ``start`` and ``end`` with ``text``.

    Raises:
        ValueError: the page lacks the markers.
    """
    old = page.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(old):
        raise ValueError(f"{page} has no {start} ... {end} markers")
    new = pattern.sub(lambda _: f"{start}\n{text}{end}", old, count=1)
    page.write_text(new, encoding="utf-8")


def ratio_markers() -> tuple[str, str]:
    """Where on the page the ratio tables of the cardcrawl measured go: a compiled
    installation's have their own place, beside the pure-Python reference's."""
    if cardcrawl.compiled_modules():
        return COMPILED_START_MARKER, COMPILED_END_MARKER
    return RATIO_START_MARKER, RATIO_END_MARKER


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds: 5%% of the games")
    parser.add_argument("--scale", type=float, help="multiply every game count by this")
    parser.add_argument("--repeat", type=int, help="timed runs per figure (best counts)")
    parser.add_argument(
        "--ratio-repeat", type=int, help="timed runs per figure of the ratio tables"
    )
    parser.add_argument("--ratios-only", action="store_true", help="measure only the ratio tables")
    parser.add_argument("--markdown-out", type=Path, metavar="FILE", help="write the tables")
    parser.add_argument("--update-docs", action="store_true", help=f"rewrite {DOCS_PAGE.name}")
    args = parser.parse_args(argv)
    base = QUICK if args.quick else Settings()
    settings = Settings(
        scale=base.scale if args.scale is None else args.scale,
        repeat=base.repeat if args.repeat is None else args.repeat,
        ratio_repeat=base.ratio_repeat if args.ratio_repeat is None else args.ratio_repeat,
    )
    if settings.scale <= 0 or settings.repeat < 1 or settings.ratio_repeat < 1:
        parser.error("--scale must be > 0, --repeat and --ratio-repeat >= 1")
    table = run_suite(
        settings,
        progress=lambda m: print(f"... {m}", file=sys.stderr),
        main_table=not args.ratios_only,
    )
    parts = [] if args.ratios_only else [table.markdown()]
    parts.append(table.ratio_markdown())
    text = "\n".join(parts)
    print(text, end="")
    if args.markdown_out is not None:
        args.markdown_out.write_text(text, encoding="utf-8")
    if args.update_docs:
        if not args.ratios_only:
            update_docs(table.markdown())
        start, end = ratio_markers()
        update_docs(table.ratio_markdown(), start=start, end=end)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
