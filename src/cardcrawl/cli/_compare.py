"""``cardcrawl compare GAME VARIANT...``: is my variant different, and in what?

::

    cardcrawl compare mapless-house "mapless-house(max_turns=10)" --games 2000
    cardcrawl compare --import my_variants escape-from-haydes escape-from-haydes-equal \\
        --bot heuristic --until rate:escaped=0.02 --plot compare.png

The same bots play the same seeds in every game named (a registered game or variant,
or ``NAME(OPTION=VALUE, ...)``), and each after the first is compared with the first,
game by game (:func:`cardcrawl.compare.compare`): a table per variant of every outcome's
rate, return, score, seat advantage, length and the game's own figures, with the paired
difference's 95% interval and a verdict. ``-o`` and the shortcut flags set options of
every game (a game's own, in parentheses, win); a game that declares a limit gets its
default unless one is given. ``--until KEY=WIDTH`` plays on until that measure's
interval is narrower than ``WIDTH``; ``--output`` writes the comparison as JSON,
``--plot`` draws it (the ``plot`` extra).

Exit codes: 0 on success, 1 when a bot fails its seat or writing fails, 2 for bad
arguments, 130 after Ctrl-C (what every game finished is still compared).

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> out = io.StringIO()
    >>> main(["compare", "escape-from-haydes", "escape-from-haydes(max_rounds=3)",
    ...       "--games", "100", "--workers", "1", "--progress", "none"], stdout=out)
    0
    >>> print(out.getvalue())  # doctest: +ELLIPSIS
    A: escape-from-haydes
    B: escape-from-haydes(max_rounds=3), 100 games on the same seeds, bots random
    measure            A      B  B - A [95% CI]                  indep.
    ...
    Verdicts, B against A:
      escaped rate: -7.0 points [-12.0, -2.0]: different
    ...
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from cardcrawl.cli import _simulate
from cardcrawl.cli._common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    GAME_HELP,
    AnyGame,
    Commands,
    Console,
    Parser,
    Shortcuts,
    UsageError,
    add_bot_option,
    add_import_option,
    add_option_arguments,
    add_run_options,
    check_output_path,
    game_options,
)
from cardcrawl.compare import Comparison, compare, measure_keys, plot_comparison, split_arm
from cardcrawl.compare._run import DEFAULT_MAX_GAMES, check_arms
from cardcrawl.core._registry import load, tools_for
from cardcrawl.errors import CardcrawlError
from cardcrawl.simulate import Progress


def add_parser(commands: Commands, shortcuts: Shortcuts) -> Parser:
    """Add the ``compare`` command to ``commands``, with the shortcut flags; its parser."""
    p = commands.add_parser(
        "compare",
        help="compare games or variants on the same seeds",
        description=(
            "Play the same bots on the same seeds in each game or variant, and compare "
            "each with the first, game by game: paired differences with 95% intervals "
            "and a verdict for every measure."
        ),
    )
    p.add_argument(
        "games",
        nargs="+",
        metavar="GAME",
        help=f"two games or more, each NAME or 'NAME(OPTION=VALUE, ...)'; the first is "
        f"the one the others are compared with. {GAME_HELP}",
    )
    add_import_option(p)
    add_bot_option(
        p,
        "the bot of every seat, or SEAT=NAME for one seat (the others random); "
        "the same in every game (default: random)",
    )
    p.add_argument(
        "--games",
        dest="count",
        type=int,
        default=1000,
        metavar="N",
        help="games per game compared (1000)",
    )
    p.add_argument("--seed", type=int, default=0, help="the seed of every game's games (0)")
    add_run_options(
        p,
        output="write the comparison to FILE (.json)",
        plot="draw the differences to FILE (.png, .svg, .pdf; needs matplotlib)",
        progress="the progress display on standard error",
    )
    p.add_argument(
        "--until",
        metavar="KEY=WIDTH",
        help="play on (as many games again each time) until the 95%% interval of KEY's "
        "difference is narrower than WIDTH for every variant, such as rate:escaped=0.02 "
        "(a rate's width as a fraction: 0.02 is 2 points)",
    )
    p.add_argument(
        "--max-games",
        type=int,
        default=DEFAULT_MAX_GAMES,
        metavar="N",
        help=f"the most games per game compared that --until may play ({DEFAULT_MAX_GAMES:,})",
    )
    add_option_arguments(p, shortcuts)
    _simulate.add_bot_error_arguments(p)
    p.set_defaults(run=run)
    return p


def _games(args: argparse.Namespace) -> list[AnyGame]:
    if len(args.games) < 2:
        raise UsageError("compare needs two games or more: the first, and what to compare with it")
    loaded = []
    for text in args.games:
        try:
            name, own = split_arm(text)
        except CardcrawlError as exc:
            raise UsageError(str(exc)) from None
        common = game_options(name, args)
        try:
            game: AnyGame = load(name, **{**common, **own})
            declared = tools_for(game).limit
            if declared is not None:
                limit, default = declared
                if hasattr(game.options, limit) and getattr(game.options, limit) is None:
                    game = load(name, **{**common, **own, limit: default})
        except CardcrawlError as exc:
            raise UsageError(f"{text}: {exc}") from None
        loaded.append(game)
    try:
        check_arms(loaded)
    except CardcrawlError as exc:
        raise UsageError(str(exc)) from None
    return loaded


def _until(args: argparse.Namespace, game: AnyGame) -> tuple[str, float] | None:
    if args.until is None:
        return None
    key, sep, raw = args.until.rpartition("=")
    try:
        width = float(raw)
    except ValueError:
        width = -1.0
    if not sep or not key or not width > 0:
        raise UsageError(f"--until takes KEY=WIDTH with a width > 0, not {args.until!r}")
    known = measure_keys(game)
    if key not in known:
        raise UsageError(f"--until {key}: no such measure; the measures are {', '.join(known)}")
    return key, width


def _check(args: argparse.Namespace) -> None:
    if args.count < 1:
        raise UsageError(f"--games is a number >= 1, not {args.count}")
    if args.max_games < args.count:
        raise UsageError(f"--max-games is at least --games ({args.count}), not {args.max_games}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers is a number >= 1, not {args.workers}")
    if not 0 <= args.seed < 2**64:
        raise UsageError(f"--seed is a number from 0 to 2**64 - 1, not {args.seed}")
    check_output_path("--output", args.out)
    check_output_path("--plot", args.plot)
    if args.out is not None and Path(args.out).suffix.lower() != ".json":
        raise UsageError(f"--output {args.out}: write the comparison to a .json file")
    if args.plot is not None and not _simulate._installed("matplotlib"):
        raise UsageError("--plot needs matplotlib: pip install 'cardcrawl[plot]'")
    if args.progress == "rich" and not _simulate._installed("rich"):
        raise UsageError("--progress rich needs rich: pip install 'cardcrawl[rich]'")
    if args.engine is not None:
        _simulate.engine_command(args.engine)
        if not any(text.rpartition("=")[2] == "engine" for text in args.bot):
            raise UsageError("--engine: no seat plays the engine bot (--bot engine)")


class _Progress:
    """One progress display per game compared, each closed when the next begins."""

    def __init__(self, mode: str, console: Console) -> None:
        self._mode = mode
        self._console = console
        self._label: str | None = None
        self._shown: Any = None

    def __call__(self, label: str, progress: Progress) -> None:
        if label != self._label or progress.done == 0:
            self.close()
            self._label = label
            self._shown = _simulate._progress(self._mode, self._console.stderr, label)
        if self._shown is not None:
            self._shown(progress)

    def close(self) -> None:
        if self._shown is not None:
            self._shown.close()
            self._shown = None


def run(console: Console, args: argparse.Namespace) -> int:
    """Carry out ``cardcrawl compare`` with parsed ``args``; the exit code.

    Raises:
        UsageError: the arguments are bad; nothing has been played.
    """
    _check(args)
    games = _games(args)
    lineups = _simulate._lineups(args, games[0])
    if len(lineups) > 1:
        raise UsageError("compare plays one line-up of bots in every game: give one --bot NAME")
    for game in games[1:]:
        _simulate._lineups(args, game)  # every game has the bots
    lineup = lineups[0]
    until = _until(args, games[0])
    progress = _Progress(args.progress, console)
    arms: list[Any] = list(games)
    try:
        found = compare(
            arms,
            {seat: _simulate.engine_bot(args, name) for seat, name in lineup.items()},
            games=args.count,
            seed=args.seed,
            workers=args.workers,
            until=until,
            max_games=args.max_games,
            progress=progress,
            on_bot_error=args.on_bot_error,
        )
    except CardcrawlError as exc:
        console.error(f"cardcrawl compare: {exc}")
        return EXIT_FAILURE
    finally:
        progress.close()
    found = _relabel(found, args.games)
    if not found.differences:
        console.error("Interrupted before a second game was played: nothing to compare.")
        return EXIT_INTERRUPTED
    console.say(found.format())
    code = EXIT_INTERRUPTED if found.interrupted else 0
    return _save(console, args, found) or code


def _relabel(found: Comparison, texts: Sequence[str]) -> Comparison:
    """The arms labelled as the command line wrote them."""
    arms = tuple(
        attrs.evolve(arm, label=text) for arm, text in zip(found.arms, texts, strict=False)
    )
    return attrs.evolve(found, arms=arms)


def _save(console: Console, args: argparse.Namespace, found: Comparison) -> int:
    code = 0
    if args.out is not None:
        try:
            Path(args.out).write_text(json.dumps(found.to_data(), indent=1) + "\n", "utf-8")
            console.say(f"Wrote {args.out}.")
        except OSError as exc:
            console.error(f"cardcrawl compare: cannot write {args.out}: {exc}")
            code = EXIT_FAILURE
    if args.plot is not None:
        try:
            plot_comparison(found, args.plot)
            console.say(f"Wrote {args.plot}.")
        except (OSError, ValueError, ImportError) as exc:
            console.error(f"cardcrawl compare: cannot write {args.plot}: {exc}")
            code = EXIT_FAILURE
    return code
