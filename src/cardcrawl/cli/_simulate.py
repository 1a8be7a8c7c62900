"""The ``cardcrawl simulate`` command: many games played by bots, summarized.

Two functions, for the command line to wire in: :func:`add_parser` adds the command
to an ``argparse`` subparsers object, and :func:`run` carries it out::

    cardcrawl simulate mapless-house --bot heuristic --games 100000 --workers 2 \\
        --seed 1 --out results.csv --plot report.png

``--import MODULE`` (repeatable) imports a module of your own first, for the games and
variants it registers; installed plug-ins are found without it. Several ``--bot NAME``
(without a seat) compare bots: one simulation each, with the same
seeds. ``--bot SEAT=NAME`` puts a bot on one seat (the others play ``random``). A
progress bar with games/s goes to standard error (with ``rich`` if it is installed),
the summary table to standard output. Results go to ``--out`` as CSV or JSON by the
file's extension; ``--plot`` draws a report with matplotlib (the ``plot`` extra).
Games with a limit option get a default limit (``max_turns`` 200, ``max_rounds`` 100):
simulations always run with one.

Exit codes: 0 on success, 1 when writing the results or the plot fails, 2 for bad
arguments, 130 after Ctrl-C (the games finished so far are still summarized and
written).

Examples:
    >>> import argparse, io
    >>> from cardcrawl.cli import _simulate as _cli_simulate
    >>> parser = argparse.ArgumentParser(prog="cardcrawl")
    >>> _cli_simulate.add_parser(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["simulate", "mapless-house", "--bot", "heuristic",
    ...                           "--games", "10", "--workers", "1", "--progress", "none"])
    >>> out = io.StringIO()
    >>> _cli_simulate.run(args, out, io.StringIO())
    0
    >>> print(out.getvalue().splitlines()[0])
    mapless-house, 10 games per bot, seed 0, options max_turns=200
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from cardcrawl.bots import bot_names, get_bot_spec
from cardcrawl.core._codec import _fields
from cardcrawl.core._registry import PluginError, _import_module, get_spec, load
from cardcrawl.errors import CardcrawlError, UnknownGameError
from cardcrawl.play._record import _unreadable
from cardcrawl.simulate import Progress, SimulationResult, play_game, simulate, write_results
from cardcrawl.simulate._plot import main_outcome, plot_report, rate_by

__all__ = ["EXIT_FAILURE", "EXIT_INTERRUPTED", "EXIT_USAGE", "add_parser", "run"]

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

#: The limit a simulation gets when none is given (M-22, H-13).
DEFAULT_LIMITS = {"max_turns": 200, "max_rounds": 100}
_SHORTCUTS = {"max_turns": "--max-turns", "max_rounds": "--max-rounds", "players": "--players"}
_OUT_SUFFIXES = (".csv", ".json")


class _UsageError(Exception):
    """Bad arguments found after parsing."""


# ------------------------------------------------- --import, for every command
def add_import_option(parser: argparse.ArgumentParser, dest: str = "imports") -> None:
    """Add ``--import MODULE`` (repeatable) to ``parser``, collected in ``dest``."""
    parser.add_argument(
        "--import",
        dest=dest,
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first, for the games and variants it registers (repeatable; "
        "the current directory is searched too)",
    )


def import_modules(names: Sequence[str]) -> None:
    """Import each module named by ``--import``, in order.

    Raises:
        _UsageError: a module cannot be imported (the message says why).
    """
    if not names:
        return
    # The console script's path starts at its own folder, not the current one, where
    # `--import my_variants` most likely means my_variants.py. Appended, not prepended:
    # a file here never hides an installed module, as it would under `python -m`.
    here = os.getcwd()
    if "" not in sys.path and here not in sys.path:
        sys.path.append(here)
    for name in names:
        try:
            _import_module(name)
        except CardcrawlError as exc:
            raise _UsageError(f"--import {name}: {exc}") from None


def unknown_game_hint(exc: BaseException) -> str:
    """A hint to add to an error caused by an unknown game name, or ``""``."""
    cause = exc if isinstance(exc, UnknownGameError) else exc.__cause__
    if isinstance(cause, UnknownGameError) and not isinstance(cause, PluginError):
        return (
            ". A game or variant of your own? Name the module that registers it with "
            "--import MODULE, or install it as a plug-in"
        )
    return ""


def add_parser(subparsers: Any) -> None:
    """Add the ``simulate`` command to ``subparsers`` (from ``add_subparsers``)."""
    p = subparsers.add_parser(
        "simulate",
        help="play many games with bots and summarize them",
        description=(
            "Play many games with bots, in parallel and reproducibly, and summarize the "
            "outcomes with 95% confidence intervals. Several --bot NAME compare bots."
        ),
    )
    # No `choices`: the names --import registers are only known after parsing.
    p.add_argument("game", metavar="GAME", help="a game or variant (`cardcrawl games` lists them)")
    add_import_option(p)
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="[SEAT=]NAME",
        help="a bot for every seat (repeat to compare bots), or SEAT=NAME for one seat "
        f"(default: random); bots: {', '.join(bot_names())}",
    )
    p.add_argument("--games", type=int, default=1000, metavar="N", help="games per bot (1000)")
    p.add_argument("--seed", type=int, default=0, help="the simulation's seed (0)")
    p.add_argument("--workers", type=int, metavar="N", help="worker processes (default: the CPUs)")
    p.add_argument("--batch-size", type=int, metavar="N", help="games per task")
    for option, flag in _SHORTCUTS.items():
        p.add_argument(flag, dest=option, type=int, metavar="N", help=f"shortcut for -o {option}=N")
    p.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable); VALUE is read as JSON if it parses",
    )
    p.add_argument("--out", metavar="FILE", help="write every game to FILE (.csv or .json)")
    p.add_argument(
        "--plot", metavar="FILE", help="draw a report to FILE (.png, .pdf, .svg; needs matplotlib)"
    )
    p.add_argument(
        "--by",
        action="append",
        default=[],
        metavar="FIGURE",
        help="also tabulate the main outcome's rate by a figure, such as house_size (repeatable)",
    )
    p.add_argument(
        "--progress",
        choices=("auto", "rich", "plain", "none"),
        default="auto",
        help="the progress display on standard error (auto: rich on a terminal if installed)",
    )


# ------------------------------------------------------------------ setup
def parse_option_value(name: str, raw: str) -> Any:
    """The value of ``-o NAME=RAW``: JSON if it parses, else the text itself.

    Raises:
        _UsageError: the text is JSON Python cannot read (nested too deeply, or an
            integer too long), which must not pass for text.
    """
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        # Plain text need not be quoted: -o name=Alice means the string "Alice".
        return raw
    except (RecursionError, ValueError) as exc:
        raise _UsageError(f"-o {name}=...: the value is JSON, but {_unreadable(exc)}") from None


def _game(args: argparse.Namespace) -> Any:
    try:
        spec = get_spec(args.game)
    except CardcrawlError as exc:
        raise _UsageError(f"{exc}{unknown_game_hint(exc)}") from None
    known = {f.name for f in _fields(spec.game_class.options_type)}
    options: dict[str, Any] = {}
    for text in args.options:
        name, sep, raw = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise _UsageError(f"-o takes NAME=VALUE, not {text!r}")
        if name not in known:
            raise _UsageError(f"{args.game} has no option {name!r}; its options: {sorted(known)}")
        options[name] = parse_option_value(name, raw)
    for option, flag in _SHORTCUTS.items():
        value = getattr(args, option, None)
        if value is None:
            continue
        if option not in known:
            raise _UsageError(f"{args.game} has no option {option!r} (set by {flag})")
        options[option] = value
    try:
        game = load(args.game, **options)
        # Simulations always run with a limit: the default one unless one is given.
        limits = {
            limit: default
            for limit, default in DEFAULT_LIMITS.items()
            if limit in known and getattr(game.options, limit) is None
        }
        return load(args.game, **options, **limits) if limits else game
    except CardcrawlError as exc:
        raise _UsageError(str(exc)) from None


def _lineups(args: argparse.Namespace, game: Any) -> list[dict[int, str]]:
    """One lineup (seat to bot name) per simulation to run."""
    texts = args.bot or ["random"]
    plain = [t for t in texts if "=" not in t]
    seated = [t for t in texts if "=" in t]
    if plain and seated:
        raise _UsageError("give either bots for every seat (--bot NAME) or SEAT=NAME, not both")
    for text in texts:
        name = text.rpartition("=")[2]
        try:
            get_bot_spec(name, game)
        except CardcrawlError as exc:
            raise _UsageError(str(exc)) from None
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
            raise _UsageError(f"--bot {text}: seats of {game.name} are 0 to {len(seats) - 1}")
        lineup[seat] = name
    return [lineup]


def _check(args: argparse.Namespace) -> None:
    if args.games < 0:
        raise _UsageError(f"--games is a number >= 0, not {args.games}")
    if args.workers is not None and args.workers < 1:
        raise _UsageError(f"--workers is a number >= 1, not {args.workers}")
    if args.batch_size is not None and args.batch_size < 1:
        raise _UsageError(f"--batch-size is a number >= 1, not {args.batch_size}")
    if not 0 <= args.seed < 2**64:
        raise _UsageError(f"--seed is a number from 0 to 2**64 - 1, not {args.seed}")
    for flag, path in (("--out", args.out), ("--plot", args.plot)):
        if path is not None and not Path(path).resolve().parent.is_dir():
            raise _UsageError(f"{flag} {path}: the directory {Path(path).parent} does not exist")
    if args.out is not None and Path(args.out).suffix.lower() not in _OUT_SUFFIXES:
        raise _UsageError(f"--out {args.out}: write to a .csv or a .json file")
    if args.plot is not None:
        try:
            importlib.import_module("matplotlib")
        except ImportError:
            raise _UsageError("--plot needs matplotlib: pip install 'cardcrawl[plot]'") from None


# --------------------------------------------------------------- progress
class _PlainProgress:
    """A one-line progress display: redrawn in place on a terminal, else a line per 10%."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self._stream = stream
        self._label = label
        self._tty = bool(getattr(stream, "isatty", lambda: False)())
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
    if mode in ("auto", "rich"):
        try:
            importlib.import_module("rich")
        except ImportError:
            if mode == "rich":
                raise _UsageError(
                    "--progress rich needs rich: pip install 'cardcrawl[rich]'"
                ) from None
        else:
            if mode == "rich" or getattr(stream, "isatty", lambda: False)():
                return _RichProgress(stream, label)
    return _PlainProgress(stream, label)


# ----------------------------------------------------------------- report
def _table(simulations: Sequence[SimulationResult]) -> str:
    """One row per bot lineup: games, each outcome's rate and the mean figures."""
    labels: dict[str, None] = {}
    for sim in simulations:
        labels.update(dict.fromkeys(o.label for o in sim.summary().outcomes))
    # The score and the game's length; every other figure is in --out's file.
    figures: dict[str, None] = {"score": None}
    for sim in simulations:
        if sim.results and "turns" in (name for name, _ in sim.results[0].figures):
            figures["turns"] = None
    figures["decisions"] = None
    head = ["bot", "games", *(f"{label} % [95% CI]" for label in labels)]
    head += [f"mean {name}" for name in figures]
    head.append("games/s")
    rows = [head]
    for sim in simulations:
        s = sim.summary()
        row = [sim.lineup, f"{s.games:,}"]
        row += [s.rate(label).format(percent=True) for label in labels]
        for name in figures:
            if name == "score":
                value = s.scores[0] if s.scores else None
            elif name == "decisions":
                value = s.decisions
            else:
                value = dict(s.figures).get(name)
            row.append("-" if value is None or math.isnan(value.estimate) else value.format())
        row.append(f"{s.games_per_second:,.0f}")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _by_table(simulations: Sequence[SimulationResult], figure: str) -> str:
    results = [r for s in simulations for r in s.results]
    label = main_outcome(results)
    lines = []
    for sim in simulations:
        lines.append(f"{label} rate by {figure}, {sim.lineup}:")
        for value, n, rate in rate_by(sim.results, figure, label):
            lines.append(f"  {value:>6}  {n:>7,} games  {rate.format(percent=True)}")
    return "\n".join(lines)


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Carry out ``cardcrawl simulate`` with parsed ``args``; the exit code."""
    try:
        import_modules(getattr(args, "imports", []))
        _check(args)
        game = _game(args)
        lineups = _lineups(args, game)
        known = _figure_names(game)
        for figure in args.by:
            if figure not in known:
                figures = ", ".join(known) or "none"
                raise _UsageError(
                    f"--by {figure}: {game.name} has no such figure; figures: {figures}"
                )
    except _UsageError as exc:
        stderr.write(f"cardcrawl simulate: error: {exc}\n")
        return EXIT_USAGE
    options = ", ".join(f"{k}={v}" for k, v in game.options.to_data().items() if v is not None)
    stdout.write(
        f"{game.name}, {args.games:,} games per bot, seed {args.seed}"
        + (f", options {options}" if options else "")
        + "\n"
    )
    stdout.flush()
    simulations: list[SimulationResult] = []
    interrupted = False
    for lineup in lineups:
        names = [lineup[seat] for seat in sorted(lineup)]
        label = names[0] if len(set(names)) == 1 else ",".join(names)
        try:
            progress = _progress(args.progress, stderr, label)
        except _UsageError as exc:
            stderr.write(f"cardcrawl simulate: error: {exc}\n")
            return EXIT_USAGE
        try:
            sim = simulate(
                game,
                lineup,
                games=args.games,
                seed=args.seed,
                workers=args.workers,
                batch_size=args.batch_size,
                progress=progress,
            )
        finally:
            if progress is not None:
                progress.close()
        simulations.append(sim)
        if sim.interrupted:
            interrupted = True
            stderr.write(f"Interrupted: {len(sim.results):,} games of {label} finished.\n")
            break
    stdout.write(_table(simulations) + "\n")
    for figure in args.by:
        stdout.write(_by_table(simulations, figure) + "\n")
    code = EXIT_INTERRUPTED if interrupted else 0
    code = _save(args, simulations, stdout, stderr) or code
    return code


def _figure_names(game: Any) -> list[str]:
    # The figures a game records, from a one-decision probe (cheap, and always right).
    probe = play_game(game, ["random"] * game.num_players, 0, max_decisions=1)
    return [name for name, _ in probe.figures]


def _save(
    args: argparse.Namespace,
    simulations: Sequence[SimulationResult],
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    code = 0
    jobs: list[tuple[str, Callable[[], None]]] = []
    if args.out is not None:
        jobs.append((args.out, lambda: write_results(args.out, simulations)))
    if args.plot is not None and any(s.results for s in simulations):
        jobs.append((args.plot, lambda: plot_report(simulations, args.plot)))
    for path, job in jobs:
        try:
            job()
        except (OSError, ValueError, ImportError) as exc:
            stderr.write(f"cardcrawl simulate: cannot write {path}: {exc}\n")
            code = EXIT_FAILURE
            continue
        stdout.write(f"Wrote {path}.\n")
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``simulate`` on its own (``python -m cardcrawl.cli._simulate GAME ...``), for
    use before the command is wired into ``cardcrawl``."""
    parser = argparse.ArgumentParser(prog="cardcrawl")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["simulate", *(sys.argv[1:] if argv is None else argv)])
    try:
        return run(args, sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    raise SystemExit(main())
