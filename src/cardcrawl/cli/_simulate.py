"""``cardcrawl simulate GAME``: many games played by bots, summarized.

::

    cardcrawl simulate mapless-house --bot heuristic --games 100000 --workers 2 \\
        --seed 1 --output results.csv --plot report.png

Several ``--bot NAME`` (without a seat) compare bots: one simulation each, with the
same seeds. ``--position TEXT`` starts every game from that position, its generator
re-seeded for each game from ``--seed`` (its stacked tops kept). ``--bot SEAT=NAME``
puts a bot on one seat (the others play ``random``). A progress bar with games/s goes
to standard error (with ``rich`` if it is installed), the summary table to standard
output. Results go to ``--output`` as CSV or JSON by the
file's extension; ``--plot`` draws a report with matplotlib (the ``plot`` extra).
Simulations always run with a limit: a game that declares one (its
:class:`~cardcrawl.GameTools` ``limit``) gets its default unless one is given.
``--bot engine`` seats a program over the engine protocol, the one ``--engine
"COMMAND ARGS"`` names (else ``$CARDCRAWL_ENGINE``). A bot that fails its seat (an
engine's bad or late answer) stops the simulation with its error, or with
``--on-bot-error forfeit`` ends that game as a ``forfeit``, counted in the tables.

Exit codes: 0 on success, 1 when a bot fails its seat (without ``--on-bot-error
forfeit``) or writing the results or the plot fails, 2 for bad arguments, 130 after
Ctrl-C (the games finished so far are still summarized and written).

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> out = io.StringIO()
    >>> main(["simulate", "mapless-house", "--bot", "heuristic", "--games", "10",
    ...       "--workers", "1", "--progress", "none"], stdout=out)
    0
    >>> print(out.getvalue().splitlines()[0])
    mapless-house, 10 games per bot, seed 0, options max_turns=200
"""

from __future__ import annotations

import argparse
import importlib
import math
import shlex
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from cardcrawl.bots import EngineBot, get_bot_spec
from cardcrawl.cli._common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    MANY_POSITION_HELP,
    PROGRESS_HELP,
    AnyGame,
    Commands,
    Console,
    Parser,
    Shortcuts,
    UsageError,
    add_bot_option,
    add_command,
    add_option_arguments,
    add_run_options,
    add_start_arguments,
    check_output_path,
    game_options,
    sampled_position,
)
from cardcrawl.core._registry import load, tools_for
from cardcrawl.errors import CardcrawlError
from cardcrawl.simulate import (
    Interval,
    Progress,
    SimulationResult,
    outcome_order,
    play_game,
    simulate,
)
from cardcrawl.simulate._plot import main_outcome, panels_for, plot_report, rate_by
from cardcrawl.simulate._results import write_results
from cardcrawl.simulate._run import BOT_ERROR_CHOICES, BotChoice
from cardcrawl.simulate._table import format_table

_OUT_SUFFIXES = (".csv", ".json")


def add_parser(commands: Commands, shortcuts: Shortcuts) -> Parser:
    """Add the ``simulate`` command to ``commands``, with the shortcut flags; its parser."""
    p = add_command(
        commands,
        "simulate",
        help="play many games with bots and summarize them",
        description=(
            "Play many games with bots, in parallel and reproducibly, and summarize the "
            "outcomes with 95% confidence intervals. Several --bot NAME compare bots."
        ),
    )
    add_bot_option(
        p,
        "a bot for every seat (repeat to compare bots), or SEAT=NAME for one seat "
        "(default: random)",
    )
    p.add_argument("--games", type=int, default=1000, metavar="N", help="games per bot (1000)")
    add_start_arguments(
        p,
        seed_help="the simulation's seed (0)",
        seed_default=0,
        position_help=MANY_POSITION_HELP,
        exclusive=False,
    )
    add_run_options(
        p,
        output="write every game to FILE (.csv or .json)",
        plot="draw a report to FILE (.png, .pdf, .svg; needs matplotlib)",
        progress=PROGRESS_HELP,
    )
    p.add_argument("--batch-size", type=int, metavar="N", help="games per task")
    add_option_arguments(p, shortcuts)
    p.add_argument(
        "--by",
        action="append",
        default=[],
        metavar="FIGURE",
        help="also tabulate the main outcome's rate by a figure, such as house_size (repeatable)",
    )
    add_bot_error_arguments(p)
    p.set_defaults(run=run)
    return p


def add_bot_error_arguments(p: Parser) -> None:
    """``--engine`` and ``--on-bot-error``, for ``simulate`` and ``tournament``."""
    p.add_argument(
        "--engine",
        metavar="COMMAND",
        help='the program the engine bot runs, as a shell would split it ("node my.js"; '
        "default: $CARDCRAWL_ENGINE)",
    )
    p.add_argument(
        "--on-bot-error",
        choices=BOT_ERROR_CHOICES,
        default="raise",
        help="a bot that fails its seat (an engine's bad or late answer) stops everything "
        "with its error (raise, the default) or forfeits that game (forfeit)",
    )


def check_run_arguments(args: argparse.Namespace) -> None:
    """The checks ``simulate`` and ``tournament`` share: workers, batch size, seed, the
    output and plot files, the extras they need, and ``--engine``'s command line.

    Raises:
        UsageError: naming the argument at fault.
    """
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers is a number >= 1, not {args.workers}")
    if args.batch_size is not None and args.batch_size < 1:
        raise UsageError(f"--batch-size is a number >= 1, not {args.batch_size}")
    if not 0 <= args.seed < 2**64:
        raise UsageError(f"--seed is a number from 0 to 2**64 - 1, not {args.seed}")
    check_output_path("--output", args.out)
    check_output_path("--plot", args.plot)
    if args.out is not None and Path(args.out).suffix.lower() not in _OUT_SUFFIXES:
        raise UsageError(f"--output {args.out}: write to a .csv or a .json file")
    if args.plot is not None and not _installed("matplotlib"):
        raise UsageError("--plot needs matplotlib: pip install 'cardcrawl[plot]'")
    if args.progress == "rich" and not _installed("rich"):
        raise UsageError("--progress rich needs rich: pip install 'cardcrawl[rich]'")
    if args.engine is not None:
        engine_command(args.engine)


def save_outputs(
    console: Console, command: str, jobs: Sequence[tuple[str, Callable[[], None]]]
) -> int:
    """Run each ``(path, write)`` job, saying what was written; the exit code (1 when a
    file could not be written, after trying every one)."""
    code = 0
    for path, job in jobs:
        try:
            job()
        except (OSError, ValueError, ImportError) as exc:
            console.error(f"cardcrawl {command}: cannot write {path}: {exc}")
            code = EXIT_FAILURE
            continue
        console.say(f"Wrote {path}.")
    return code


def engine_command(text: str) -> tuple[str, ...]:
    """``--engine COMMAND`` as the engine's command line, split as a POSIX shell would.

    Raises:
        UsageError: the text does not split (an open quote) or is empty.
    """
    try:
        command = tuple(shlex.split(text))
    except ValueError as exc:
        raise UsageError(f"--engine {text!r}: {exc}") from None
    if not command:
        raise UsageError("--engine: give the engine's command line")
    return command


def engine_bot(args: argparse.Namespace, name: str) -> BotChoice:
    """The bot ``name`` stands for: the engine bot with ``--engine``'s command for
    ``engine``, if one is given, else the name itself."""
    if name == "engine" and args.engine is not None:
        return EngineBot.factory(command=engine_command(args.engine))
    return name


def forfeit_note(sim: SimulationResult) -> str | None:
    """A line telling how many games of ``sim`` were forfeited and why the first was."""
    forfeits = [r for r in sim.results if r.forfeited is not None]
    if not forfeits:
        return None
    first = forfeits[0]
    games = "game" if len(forfeits) == 1 else "games"
    return (
        f"{sim.lineup}: {len(forfeits):,} {games} forfeited; the first, game {first.index}, "
        f"by seat {first.forfeited}: {first.error}"
    )


# ------------------------------------------------------------------ setup
def _game(args: argparse.Namespace) -> AnyGame:
    options = game_options(args.game, args)
    try:
        game: AnyGame = load(args.game, **options)
        # Simulations always run with a limit: the game's default unless one is given.
        declared = tools_for(game).limit
        if declared is not None:
            limit, default = declared
            if hasattr(game.options, limit) and getattr(game.options, limit) is None:
                game = load(args.game, **{**options, limit: default})
    except CardcrawlError as exc:
        raise UsageError(str(exc)) from None
    return game


def _lineups(args: argparse.Namespace, game: AnyGame) -> list[dict[int, str]]:
    """One lineup (seat to bot name) per simulation to run."""
    texts = args.bot or ["random"]
    plain = [t for t in texts if "=" not in t]
    seated = [t for t in texts if "=" in t]
    if plain and seated:
        raise UsageError("give either bots for every seat (--bot NAME) or SEAT=NAME, not both")
    for text in texts:
        name = text.rpartition("=")[2]
        try:
            get_bot_spec(name, game)
        except CardcrawlError as exc:
            raise UsageError(str(exc)) from None
    seats = range(game.num_players)
    if plain:
        return [dict.fromkeys(seats, name) for name in dict.fromkeys(plain)]
    lineup = dict.fromkeys(seats, "random")
    for text in seated:
        seat_text, _, name = text.partition("=")
        try:
            seat = int(seat_text)
        except ValueError:
            seat = -1
        if seat not in seats:
            raise UsageError(f"--bot {text}: seats of {game.name} are 0 to {len(seats) - 1}")
        lineup[seat] = name
    return [lineup]


def _check(args: argparse.Namespace) -> None:
    if args.games < 0:
        raise UsageError(f"--games is a number >= 0, not {args.games}")
    check_run_arguments(args)
    if args.engine is not None and not any(t.rpartition("=")[2] == "engine" for t in args.bot):
        raise UsageError("--engine: no seat plays the engine bot (--bot engine)")


def _installed(module: str) -> bool:
    # Optional dependencies: imported only when asked for, never at start-up.
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def _figure_names(game: AnyGame) -> list[str]:
    # The figures a game records, from a one-decision probe (cheap, and always right).
    probe = play_game(game, ["random"] * game.num_players, 0, max_decisions=1)
    return [name for name, _ in probe.figures]


def _check_by(args: argparse.Namespace, game: AnyGame) -> None:
    known = _figure_names(game)
    for figure in args.by:
        if figure not in known:
            figures = ", ".join(known) or "none"
            raise UsageError(f"--by {figure}: {game.name} has no such figure; figures: {figures}")


# --------------------------------------------------------------- progress
class _PlainProgress:
    """A one-line progress display: redrawn in place on a terminal, else a line per 10%."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self._stream = stream
        self._label = label
        self._tty = _isatty(stream)
        self._next_tenth = 1
        self._last = 0.0

    def __call__(self, p: Progress) -> None:
        line = f"{self._label}: {p.done:,}/{p.total:,} games, {p.games_per_second:,.0f} games/s"
        if self._tty:
            now = time.monotonic()
            if now - self._last >= 0.2 or p.done == p.total:
                self._last = now
                self._stream.write("\r" + line + ("\n" if p.done == p.total else ""))
                self._stream.flush()
        elif p.total and p.done * 10 >= self._next_tenth * p.total:
            self._next_tenth = p.done * 10 // p.total + 1
            self._stream.write(line + "\n")
            self._stream.flush()

    def close(self) -> None:
        if self._tty:
            self._stream.write("\n")


class _RichProgress:
    def __init__(self, stream: TextIO, label: str) -> None:
        progress = importlib.import_module("rich.progress")
        console = importlib.import_module("rich.console").Console(file=stream)
        self._bar = progress.Progress(
            progress.TextColumn("{task.description}"),
            progress.BarColumn(),
            progress.MofNCompleteColumn(),
            progress.TextColumn("games"),
            progress.TextColumn("{task.fields[rate]} games/s"),
            progress.TimeElapsedColumn(),
            progress.TimeRemainingColumn(),
            console=console,
        )
        self._bar.start()
        self._task = self._bar.add_task(label, total=None, rate="-")

    def __call__(self, p: Progress) -> None:
        self._bar.update(
            self._task, completed=p.done, total=p.total, rate=f"{p.games_per_second:,.0f}"
        )

    def close(self) -> None:
        self._bar.stop()


def _progress(mode: str, stream: TextIO, label: str) -> Any:
    if mode == "none":
        return None
    # _check has made sure that rich is installed when it is asked for.
    if mode == "rich" or (mode == "auto" and _isatty(stream) and _installed("rich")):
        return _RichProgress(stream, label)
    return _PlainProgress(stream, label)


def _isatty(stream: TextIO) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)())


# ----------------------------------------------------------------- report
def _labels(simulations: Sequence[SimulationResult]) -> tuple[str, ...]:
    """Every outcome in the game's declared order (then any other seen): the columns
    are the same from run to run, whatever happened most."""
    declared = simulations[0].outcomes if simulations else ()
    return outcome_order(declared, (r.outcome for s in simulations for r in s.results))


def _length_figures(simulations: Sequence[SimulationResult]) -> list[str]:
    """The figures whose distribution the game's panels chart (turns, rounds...), which
    the table averages."""
    panels = panels_for(simulations[0].game) if simulations else ()
    names = [p.figure for p in panels if p.kind == "histogram" and p.figure]
    return [n for n in dict.fromkeys(names) if n != "decisions"]


def _table(simulations: Sequence[SimulationResult]) -> str:
    """Two tables of one row per bot lineup: each outcome's rate, in the game's order;
    then the mean score, the figures the game charts, decisions and the speed."""
    labels = _labels(simulations)
    head = ["bot", "games", *(f"{label} % [95% CI]" for label in labels)]
    rows = []
    for sim in simulations:
        s = sim.summary()
        row = [sim.lineup, f"{s.games:,}"]
        row += [_percent(s.rate(label)) for label in labels]
        rows.append(row)
    first = format_table(head, rows, right=[1])
    figures = _length_figures(simulations)
    # Unfinished and forfeited games keep no score: any other game tells.
    scored = any(r.scores is not None for s in simulations for r in s.results)
    head = ["bot", *(["mean score"] if scored else []), *(f"mean {n}" for n in figures)]
    head += ["mean decisions", "games/s"]
    rows = []
    for sim in simulations:
        s = sim.summary()
        values: list[Interval | None] = [s.scores[0] if s.scores else None] if scored else []
        values += [dict(s.figures).get(name) for name in figures]
        values.append(s.decisions)
        row = [sim.lineup]
        row += ["-" if v is None or math.isnan(v.estimate) else v.format() for v in values]
        row.append(f"{s.games_per_second:,.0f}")
        rows.append(row)
    second = format_table(head, rows, right=[len(head) - 1])
    return first + "\n\n" + second


def _percent(rate: Interval) -> str:
    # One decimal: an outcome's column stays narrow enough for three or four outcomes
    # in 100 columns, and the interval is wider than the digit dropped.
    return "-" if math.isnan(rate.estimate) else rate.format(percent=True, digits=1)


def _by_table(simulations: Sequence[SimulationResult], figure: str) -> str:
    results = [r for s in simulations for r in s.results]
    label = main_outcome(results, simulations[0].outcomes if simulations else ())
    lines = []
    for sim in simulations:
        lines.append(f"{label} rate by {figure}, {sim.lineup}:")
        for value, n, rate in rate_by(sim.results, figure, label):
            lines.append(f"  {value:>6}  {n:>7,} games  {rate.format(percent=True)}")
    return "\n".join(lines)


def run(console: Console, args: argparse.Namespace) -> int:
    """Carry out ``cardcrawl simulate`` with parsed ``args``; the exit code.

    Raises:
        UsageError: the arguments are bad; nothing has been played.
    """
    _check(args)
    game = _game(args)
    if args.position is not None:
        sampled_position("simulate", game, args.position)
    lineups = _lineups(args, game)
    _check_by(args, game)
    options = ", ".join(f"{k}={v}" for k, v in game.options.to_data().items() if v is not None)
    head = f"{game.name}, {args.games:,} games per bot, seed {args.seed}"
    if args.position is not None:
        head += ", from a position"
    if options:
        # Within the tables' 100 columns: long options go to a line of their own.
        head += ("\n" if len(head) + len(options) > 90 else ", ") + f"options {options}"
    console.say(head)
    # Before the first game: a reader of the pipe sees what is being simulated.
    console.stdout.flush()
    simulations: list[SimulationResult] = []
    interrupted = False
    for lineup in lineups:
        names = [lineup[seat] for seat in sorted(lineup)]
        label = names[0] if len(set(names)) == 1 else ",".join(names)
        progress = _progress(args.progress, console.stderr, label)
        try:
            sim = simulate(
                game,
                {seat: engine_bot(args, name) for seat, name in lineup.items()},
                games=args.games,
                seed=args.seed,
                workers=args.workers,
                batch_size=args.batch_size,
                progress=progress,
                on_bot_error=args.on_bot_error,
                position=args.position,
            )
        except CardcrawlError as exc:
            # A bot failed its seat: a typed error, said in a sentence, not a traceback.
            console.error(f"cardcrawl simulate: {label}: {exc}")
            console.error("(--on-bot-error forfeit records such a game as a forfeit instead)")
            return EXIT_FAILURE
        finally:
            if progress is not None:
                progress.close()
        note = forfeit_note(sim)
        if note is not None:
            console.error(note)
        simulations.append(sim)
        if sim.interrupted:
            interrupted = True
            console.error(f"Interrupted: {len(sim.results):,} games of {label} finished.")
            break
    console.say(_table(simulations))
    for figure in args.by:
        console.say(_by_table(simulations, figure))
    code = EXIT_INTERRUPTED if interrupted else 0
    return _save(console, args, simulations) or code


def _save(
    console: Console, args: argparse.Namespace, simulations: Sequence[SimulationResult]
) -> int:
    jobs: list[tuple[str, Callable[[], None]]] = []
    if args.out is not None:
        jobs.append((args.out, lambda: write_results(args.out, simulations)))
    if args.plot is not None and any(s.results for s in simulations):
        jobs.append((args.plot, lambda: plot_report(simulations, args.plot)))
    return save_outputs(console, "simulate", jobs)
