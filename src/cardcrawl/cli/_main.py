"""The ``cardcrawl`` command line (also ``python -m cardcrawl``): the parser and dispatch.

Nine commands, each in a module of its own and all written against the
:class:`~cardcrawl.Game` protocol alone, so they work unchanged for every game and
every variant in the registry: the built-in ones, those of installed plug-ins (entry
points in the group ``cardcrawl.games``, loaded when a name is not found among the
others), and those of the modules named with ``--import MODULE`` (repeatable, before or
after the command), imported first:

* ``cardcrawl play GAME`` plays a game (:mod:`cardcrawl.cli._play`);
* ``cardcrawl replay RECORD.json`` verifies a record and tells its story, or writes an
  HTML page of it with ``--html FILE`` (:mod:`cardcrawl.cli._replay`);
* ``cardcrawl analyze RECORD.json`` values every decision of a record and marks the
  mistakes (:mod:`cardcrawl.cli._analyze`);
* ``cardcrawl render RECORD.json [--step K] [--output FILE]`` draws a state as SVG
  (:mod:`cardcrawl.cli._render`);
* ``cardcrawl simulate GAME`` plays many games with bots and summarizes them
  (:mod:`cardcrawl.cli._simulate`);
* ``cardcrawl games`` lists the registered games and variants
  (:mod:`cardcrawl.cli._games`);
* ``cardcrawl tournament GAME --bot A --bot B`` rates bots on duplicate deals
  (:mod:`cardcrawl.cli._tournament`);
* ``cardcrawl compare GAME VARIANT...`` compares games or variants on the same seeds
  (:mod:`cardcrawl.cli._compare`);
* ``cardcrawl tree GAME`` draws the solver's tree of a small position, or IS-MCTS's
  search of any (:mod:`cardcrawl.cli._tree`);
* ``cardcrawl best-response GAME`` gives each seat's gain from best-responding to the
  other seats' bots (:mod:`cardcrawl.cli._best_response`);
* ``cardcrawl tune GAME --bot NAME`` fits a bot's declared parameters to a game or
  variant (:mod:`cardcrawl.cli._tune`);
* ``cardcrawl analyze RECORD.json`` values a game's decisions and marks the costly ones
  (:mod:`cardcrawl.cli._analyze`);
* ``cardcrawl engine --bot NAME`` plays a bot over the engine protocol on standard input
  and output (:mod:`cardcrawl.cli._engine`);
* ``cardcrawl serve`` plays games in a browser, with the ``web`` extra
  (:mod:`cardcrawl.cli._serve`).

``-o NAME=VALUE`` sets a game option wherever there is one (``play``, ``simulate``).
The shortcut flags, such as ``--max-turns N`` for ``-o max_turns=N``, are those the
registered games declare in their :class:`~cardcrawl.GameTools`; a flag the chosen
game does not declare is a usage error.

Exit codes: 0 on success (and when a person quits with ``q``), 1 when something fails
or the input ends mid-game, 2 for bad arguments or options, 130 after Ctrl-C.

Examples:
    >>> import io
    >>> out = io.StringIO()
    >>> main(["play", "mapless-house", "--bot", "random", "--seed", "7"], stdout=out)
    0
    >>> out.getvalue().splitlines()[-1].startswith("Result: ")
    True
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from cardcrawl._version import __version__
from cardcrawl.cli import (
    _analyze,
    _best_response,
    _compare,
    _engine,
    _games,
    _play,
    _render,
    _replay,
    _serve,
    _simulate,
    _tournament,
    _tree,
    _tune,
)
from cardcrawl.cli._common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Console,
    Parser,
    ParserExit,
    UsageError,
    add_import_option,
    import_modules,
    imports_in,
    registered_shortcuts,
)
from cardcrawl.core._compiled import build_name
from cardcrawl.core._registry import PluginError, _known_names, game_names

__all__ = ["EXIT_FAILURE", "EXIT_INTERRUPTED", "EXIT_USAGE", "main"]


class _VersionAction(argparse.Action):
    """``--version``: argparse's own version action writes straight to ``sys.stdout``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        raise ParserExit(0, f"cardcrawl {__version__} ({build_name()})\n")


def _build_parser() -> tuple[Parser, dict[str, Parser]]:
    """The parser, with the shortcut flags of the games registered now, and the parser
    of each command by name (for its usage line)."""
    parser = Parser(
        prog="cardcrawl",
        description="Play, replay and list the card games of cardcrawl.",
    )
    parser.add_argument(
        "--version", action=_VersionAction, nargs=0, help="print the version and exit"
    )
    # Also accepted after the command, where it reads best; the two lists are kept
    # apart because a command's own default would overwrite this one's.
    add_import_option(parser, dest="imports_first")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    shortcuts = registered_shortcuts()
    return parser, {
        "play": _play.add_parser(commands, shortcuts),
        "replay": _replay.add_parser(commands),
        "analyze": _analyze.add_parser(commands),
        "render": _render.add_parser(commands),
        "games": _games.add_parser(commands),
        "simulate": _simulate.add_parser(commands, shortcuts),
        "tournament": _tournament.add_parser(commands, shortcuts),
        "compare": _compare.add_parser(commands, shortcuts),
        "tree": _tree.add_parser(commands, shortcuts),
        "best-response": _best_response.add_parser(commands, shortcuts),
        "tune": _tune.add_parser(commands, shortcuts),
        "engine": _engine.add_parser(commands),
        "serve": _serve.add_parser(commands),
    }


def _parse(argv: Sequence[str]) -> tuple[Parser, dict[str, Parser], argparse.Namespace]:
    """The parsed arguments, with the parsers that read them.

    Raises:
        ParserExit: the arguments do not parse, or ask for help or the version.
    """
    parser, commands = _build_parser()
    try:
        return parser, commands, parser.parse_args(argv)
    except ParserExit as exc:
        if exc.final:
            raise
        first = exc
    # A flag the parser does not know may be that of a plug-in's game, and help should
    # list those too: load the plug-ins (a failure is told when a game is looked up)
    # and read the arguments again. Arguments that parse never get here, so playing a
    # built-in game never loads them.
    before = _known_names()
    with contextlib.suppress(PluginError):
        game_names()
    if _known_names() == before:
        raise first
    parser, commands = _build_parser()
    return parser, commands, parser.parse_args(argv)


def _usage_error(console: Console, parser: Parser, error: UsageError) -> int:
    console.write(console.stderr, parser.format_usage())
    console.error(f"{parser.prog}: error: {error}")
    return EXIT_USAGE


def _run(argv: Sequence[str], console: Console) -> int:
    # The parser offers the shortcut flags of the games registered when it is built, so
    # the --import modules, which may register games, are imported first.
    scanned, rest = imports_in(argv)
    import_error: UsageError | None = None
    try:
        import_modules(scanned)
    except UsageError as exc:
        import_error = exc
    try:
        parser, commands, args = _parse(argv)
    except ParserExit as exc:
        if exc.status != 0 and import_error is not None:
            # A module that did not import may be what registers the game or the flag
            # the parser could not read: its error is the one that explains.
            parser, commands = _build_parser()
            named = next((word for word in rest if not word.startswith("-")), "")
            return _usage_error(console, commands.get(named, parser), import_error)
        console.write(console.stdout if exc.status == 0 else console.stderr, exc.message)
        return exc.status
    command = commands.get(args.command)
    if command is None:
        console.write(console.stderr, parser.format_usage())
        console.error(f"{parser.prog}: error: choose a command: {', '.join(commands)}")
        return EXIT_USAGE
    try:
        if import_error is not None:
            raise import_error
        # The parser's own reading of --import, which the scan only foresaw; modules
        # imported already are not imported again.
        import_modules([*args.imports_first, *args.imports])
        code: int = args.run(console, args)
    except UsageError as exc:
        return _usage_error(console, command, exc)
    return code


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line and return its exit code.

    Args:
        argv: the arguments after the program name (default: ``sys.argv[1:]``).
        stdin: where a person's choices are read (default: ``sys.stdin``).
        stdout: where the game is told (default: ``sys.stdout``).
        stderr: where errors and usage messages go (default: ``sys.stderr``).

    Returns:
        0 on success or when a person quits, 1 on failure or when the input ends
        mid-game, 2 for bad arguments or options, 130 after Ctrl-C.

    Examples:
        >>> import io
        >>> out = io.StringIO()
        >>> main(["games"], stdout=out)
        0
        >>> "mapless-house" in out.getvalue()
        True
    """
    console = Console(
        sys.stdin if stdin is None else stdin,
        sys.stdout if stdout is None else stdout,
        sys.stderr if stderr is None else stderr,
    )
    try:
        try:
            return _run(sys.argv[1:] if argv is None else argv, console)
        except KeyboardInterrupt:
            console.say()
            console.say("Interrupted.")
            return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`cardcrawl play ... | head`). Point stdout at devnull so
        # that the interpreter's final flush does not fail a second time, as the Python
        # documentation advises.
        if stdout is None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILURE
