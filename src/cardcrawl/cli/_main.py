"""The ``cardcrawl`` command line (also ``python -m cardcrawl``): play, replay, draw, list.

Five commands, all written against the :class:`~cardcrawl.Game` protocol alone, so they
work unchanged for every game and every variant in the registry: the built-in ones,
those of installed plug-ins (entry points in the group ``cardcrawl.games``, loaded when
a name is not found among the others), and those of the modules named with
``--import MODULE`` (repeatable, before or after the command), imported first:

* ``cardcrawl play GAME`` plays a game. Seats are people at the keyboard unless given
  to a bot (``--bot random`` for every seat, ``--bot SEAT=random`` for one); options
  come from ``-o NAME=VALUE`` and the shortcuts ``--max-turns``, ``--max-rounds`` and
  ``--players``; ``--record FILE`` saves the game as a :class:`~cardcrawl.Record`.
* ``cardcrawl replay RECORD.json [--step K]`` verifies a record and tells its story;
  with ``--html FILE`` it writes instead one self-contained HTML page that steps
  through the game picture by picture.
* ``cardcrawl render RECORD.json [--step K] [-o FILE]`` draws the state after K
  actions (default: the last) as SVG.
* ``cardcrawl simulate GAME`` plays many games with bots and summarizes them (see
  :mod:`cardcrawl.cli._simulate`).
* ``cardcrawl games`` lists the registered games and variants.

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
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from cardcrawl._version import __version__
from cardcrawl.bots import Bot, bot_names, make_bot
from cardcrawl.cli import _simulate as _cli_simulate
from cardcrawl.cli._simulate import (
    _UsageError,
    add_import_option,
    import_modules,
    parse_option_value,
    unknown_game_hint,
)
from cardcrawl.core._codec import _fields
from cardcrawl.core._protocol import Game
from cardcrawl.core._random import rng_from_seed
from cardcrawl.core._registry import PluginError, _known_names, game_names, get_spec, load
from cardcrawl.errors import CardcrawlError
from cardcrawl.kit._svg import NoRendererError, svg
from cardcrawl.play._html import replay_html
from cardcrawl.play._match import Match
from cardcrawl.play._record import Record

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["EXIT_FAILURE", "EXIT_INTERRUPTED", "EXIT_USAGE", "main"]

#: Exit code when something failed, or the input ended in the middle of a game.
EXIT_FAILURE = 1
#: Exit code for bad arguments or options (the code argparse uses).
EXIT_USAGE = 2
#: Exit code after Ctrl-C (128 + SIGINT, the shell convention).
EXIT_INTERRUPTED = 130

#: The help of every GAME argument.
_GAME_HELP = (
    "a game or variant: `cardcrawl games` lists them, those of installed plug-ins "
    "included; for one of your own, name its module with --import"
)

#: Option shortcuts: the option each sets and the flag that sets it.
_SHORTCUTS = {"max_turns": "--max-turns", "max_rounds": "--max-rounds", "players": "--players"}

AnyGame = Game[Any, Any, Any]


# ------------------------------------------------------------- plumbing
# _UsageError (from _cli_simulate, shared by every command): bad arguments found after
# parsing, reported like argparse's own errors.


# Like SystemExit and KeyboardInterrupt, these two are signals, not errors.
class _ParserExit(Exception):  # noqa: N818
    """argparse wanted to exit: raised instead, so that :func:`main` returns a code."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message


class _Quit(Exception):  # noqa: N818
    """The person at the keyboard typed ``q``."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting or writing to ``sys`` streams.

    :func:`main` must return codes and write to the streams it was given, so that tests
    and embedding programs can drive it; argparse on its own calls ``sys.exit`` and
    writes to ``sys.stdout`` and ``sys.stderr``.
    """

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _ParserExit(status, message or "")

    def error(self, message: str) -> NoReturn:
        raise _ParserExit(EXIT_USAGE, f"{self.format_usage()}{self.prog}: error: {message}\n")

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        if file is not None:
            super().print_help(file)
            return
        # The help action calls print_help() and then exit(); raising here carries the
        # text to main(), which writes it to its own stdout.
        raise _ParserExit(0, self.format_help())


class _VersionAction(argparse.Action):
    """``--version``: argparse's own version action writes straight to ``sys.stdout``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        raise _ParserExit(0, f"cardcrawl {__version__}\n")


class _Console:
    """The streams of one run of :func:`main`."""

    def __init__(self, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        # Piped input is not echoed by a terminal; echoing it keeps transcripts readable.
        isatty = getattr(stdin, "isatty", None)
        self.echo = not (isatty() if isatty is not None else False)

    @staticmethod
    def write(stream: TextIO, text: str) -> None:
        """Write ``text`` as is, replacing what the stream's encoding cannot hold."""
        # Card symbols (♠) cannot be encoded on every console (cp1252, ASCII pipes);
        # a replaced character beats a UnicodeEncodeError in the middle of a game.
        encoding = getattr(stream, "encoding", None)
        if encoding:
            try:
                text.encode(encoding)
            except UnicodeEncodeError:
                text = text.encode(encoding, errors="replace").decode(encoding)
            except LookupError:
                pass
        stream.write(text)

    def say(self, text: str = "") -> None:
        """Write a line to stdout."""
        self.write(self.stdout, text + "\n")

    def error(self, text: str) -> None:
        """Write a line to stderr."""
        self.write(self.stderr, text + "\n")

    def ask(self, prompt: str) -> str:
        """Prompt and read one line, without its line end.

        Raises:
            EOFError: the input has ended.
        """
        self.write(self.stdout, prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        answer = line.rstrip("\r\n")
        if self.echo:
            self.write(self.stdout, answer + "\n")
        return answer


# --------------------------------------------------------------- parser
def _build_parser() -> tuple[_Parser, dict[str, _Parser]]:
    """The parser, and the parser of each command by name (for its usage line)."""
    parser = _Parser(
        prog="cardcrawl",
        description="Play, replay and list the card games of cardcrawl.",
    )
    parser.add_argument(
        "--version", action=_VersionAction, nargs=0, help="print the version and exit"
    )
    # Also accepted after the command, where it reads best; the two lists are kept
    # apart because a command's own default would overwrite this one's.
    add_import_option(parser, dest="imports_first")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = commands.add_parser(
        "play",
        help="play a game, with people and bots",
        description="Play a game. Seats are people at the keyboard unless given to a bot.",
    )
    # No `choices`: the names --import registers are only known after parsing, and
    # listing them all would load every plug-in even to play a built-in game.
    play.add_argument("game", metavar="GAME", help=_GAME_HELP)
    play.add_argument(
        "--seed",
        type=int,
        help="the game's seed (default: 0 when bots play every seat, else from the clock)",
    )
    play.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="[SEAT=]NAME",
        help="a bot for every seat, or for one seat (repeatable); see cardcrawl.bots for names",
    )
    for option, flag in _SHORTCUTS.items():
        play.add_argument(
            flag, dest=option, type=int, metavar="N", help=f"shortcut for -o {option}=N"
        )
    play.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable); VALUE is read as JSON if it parses, else as text",
    )
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE at the end")
    add_import_option(play)

    replay = commands.add_parser(
        "replay",
        help="verify a game record and tell its story",
        description="Replay a game record, verifying every action, and tell its story.",
    )
    replay.add_argument("record", metavar="RECORD.json", help="a record saved by play --record")
    replay.add_argument(
        "--step", type=int, metavar="K", help="stop after K actions (0 is the initial state)"
    )
    replay.add_argument(
        "--html",
        metavar="FILE",
        help="write a self-contained HTML page that steps through the game (opening at "
        "--step, default 0) instead of telling the story",
    )
    add_import_option(replay)

    render = commands.add_parser(
        "render",
        help="draw a state of a game record as SVG",
        description="Draw the state of a game record after K actions as an SVG picture.",
    )
    render.add_argument("record", metavar="RECORD.json", help="a record saved by play --record")
    render.add_argument(
        "--step",
        type=int,
        metavar="K",
        help="draw the state after K actions (0 is the initial state; default: the last)",
    )
    render.add_argument(
        "-o", "--output", metavar="FILE", help="write the SVG to FILE (default: standard output)"
    )
    add_import_option(render)

    games = commands.add_parser(
        "games",
        help="list the games and variants",
        description="List the registered games and variants, those of plug-ins included.",
    )
    add_import_option(games)
    _cli_simulate.add_parser(commands)
    return parser, {
        "play": play,
        "replay": replay,
        "render": render,
        "games": games,
        "simulate": commands.choices["simulate"],
    }


# ---------------------------------------------------------------- games
def _games(console: _Console, args: argparse.Namespace) -> int:
    failure: PluginError | None = None
    try:
        names = game_names()
    except PluginError as exc:
        # List what did load, then say what did not: one broken plug-in must not hide
        # every other game.
        failure = exc
        names = _known_names()
    width = max(map(len, names), default=0)
    for name in names:
        spec = get_spec(name)
        text = spec.description or "(no description)"
        if spec.base is not None:
            text += f" (a variant of {spec.base})"
        console.say(f"{name:<{width}}  {text}")
    if failure is not None:
        console.error(f"cardcrawl: {failure}")
        return EXIT_FAILURE
    return 0


# ----------------------------------------------------------------- play
def _parse_option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise _UsageError(f"-o takes NAME=VALUE, not {text!r}")
    return name, parse_option_value(name, raw)


def _collect_options(game_name: str, args: argparse.Namespace) -> dict[str, Any]:
    try:
        spec = get_spec(game_name)
    except CardcrawlError as exc:
        raise _UsageError(f"{exc}{unknown_game_hint(exc)}") from None
    known = {f.name for f in _fields(spec.game_class.options_type)}
    allowed = f"its options are: {', '.join(sorted(known)) or 'none'}"
    options: dict[str, Any] = {}
    for text in args.options:
        name, value = _parse_option(text)
        if name not in known:
            raise _UsageError(f"{game_name} has no option {name!r}; {allowed}")
        options[name] = value
    for option, flag in _SHORTCUTS.items():
        value = getattr(args, option)
        if value is None:
            continue
        if option not in known:
            raise _UsageError(f"{game_name} has no option {option!r} (set by {flag}); {allowed}")
        if option in options and options[option] != value:
            raise _UsageError(f"option {option!r} is given both by {flag} and by -o")
        options[option] = value
    return options


def _bot_seats(texts: Sequence[str], game: AnyGame) -> dict[int, str]:
    """Each bot seat with the bot's name, from ``--bot`` arguments in order."""
    seats: dict[int, str] = {}
    for text in texts:
        seat_text, sep, name = text.rpartition("=")
        if name not in bot_names(game):
            raise _UsageError(f"unknown bot {name!r}; bots: {', '.join(bot_names(game))}")
        if not sep:
            seats.update(dict.fromkeys(range(game.num_players), name))
            continue
        try:
            seat = int(seat_text)
        except ValueError:
            seat = -1
        if not 0 <= seat < game.num_players:
            last = game.num_players - 1
            seats_are = "the only seat is 0" if last == 0 else f"the seats are 0 to {last}"
            raise _UsageError(
                f"--bot {text}: {seat_text!r} is not a seat of {game.name}; {seats_are}"
            )
        seats[seat] = name
    return seats


def _check_record_path(path: str | None) -> None:
    # Fail before a long game rather than after it.
    if path is not None and not Path(path).resolve().parent.is_dir():
        raise _UsageError(f"--record {path}: the directory {Path(path).parent} does not exist")


def _say_events(console: _Console, state: Any) -> None:
    # A state's events are those of the step that made it; the narration is str(event).
    for event in state.events:
        console.say(str(event))


def _result_line(game: AnyGame, state: Any) -> str:
    outcome = game.outcome(state)
    if outcome is None:
        return "Result: the game is not over"
    parts = [outcome.label]
    if outcome.scores is not None:
        if len(outcome.scores) == 1:
            parts.append(f"score {outcome.scores[0]}")
        else:
            scores = ", ".join(f"player {i} {s}" for i, s in enumerate(outcome.scores))
            parts.append(f"scores {scores}")
    if game.num_players > 1:
        winners = ", ".join(f"player {w}" for w in outcome.winners)
        parts.append(f"winners {winners}" if winners else "no winner")
    return "Result: " + " · ".join(parts)


def _choose(console: _Console, game: AnyGame, state: Any, player: int) -> Any:
    """A person's choice among the legal actions.

    Raises:
        _Quit: the person typed ``q``.
        EOFError: the input ended.
    """
    legal = game.legal_actions(state)
    texts = [game.format_action(a) for a in legal]
    console.say(game.render(state))
    if game.num_players > 1:
        console.say(f"Player {player} to move.")
    width = len(str(len(legal)))
    for i, text in enumerate(texts, 1):
        console.say(f"{i:>{width}}) {text}")
    by_text = {" ".join(t.lower().split()): a for t, a in zip(texts, legal, strict=True)}
    hint = f"Type a number from 1 to {len(legal)}, an action as shown, or q to quit."
    while True:
        answer = console.ask(f"Your choice (1-{len(legal)}, or q): ").strip()
        key = " ".join(answer.lower().split())
        if key in ("q", "quit"):
            raise _Quit
        if key.isdigit() and 1 <= int(key) <= len(legal):
            return legal[int(key) - 1]
        if key in by_text:
            return by_text[key]
        try:
            # Other spellings of an action (extra spaces, other case) may still parse.
            action = game.parse_action(answer)
        except CardcrawlError:
            console.say(hint)
            continue
        if action in legal:
            return action
        console.say(f"{game.format_action(action)} is not legal now. {hint}")


def _play_loop(
    console: _Console, game: AnyGame, state: Any, bots: Mapping[int, Bot], actions: list[Any]
) -> int:
    """Play to the end from ``state``, appending each action to ``actions``; the exit code."""
    try:
        while not game.is_terminal(state):
            player = game.current_player(state)
            if not game.legal_actions(state):
                # Sampled play only stops at decisions; a game that does otherwise is broken.
                console.error(f"cardcrawl: {game.name} stopped with no legal action to take")
                return EXIT_FAILURE
            bot = bots.get(player)
            # A bot sees what its seat may know, never the state itself.
            action = (
                bot.choose(game, game.observe(state, player), game.legal_actions(state))
                if bot is not None
                else _choose(console, game, state, player)
            )
            state = game.step(state, action)
            actions.append(action)
            _say_events(console, state)
    except _Quit:
        console.say("Game abandoned.")
        return 0
    except EOFError:
        console.say()
        console.say("Game abandoned: the input ended.")
        return EXIT_FAILURE
    except KeyboardInterrupt:
        console.say()
        console.say("Game abandoned.")
        return EXIT_INTERRUPTED
    console.say(game.render(state))
    console.say(_result_line(game, state))
    return 0


def _play(console: _Console, args: argparse.Namespace) -> int:
    options = _collect_options(args.game, args)
    try:
        game: AnyGame = load(args.game, **options)
    except CardcrawlError as exc:
        raise _UsageError(str(exc)) from None
    seats = _bot_seats(args.bot, game)
    _check_record_path(args.record)
    people = [p for p in range(game.num_players) if p not in seats]
    if args.seed is not None:
        seed: int = args.seed
    elif people:
        # People get a fresh game each time, with the seed shown so that a memorable
        # game can be played again; bot-only games are reproducible by default.
        seed = time.time_ns() % 2**32
        console.say(f"Seed {seed} (play this game again with --seed {seed}).")
    else:
        seed = 0
    try:
        rng_from_seed(seed)
    except CardcrawlError as exc:
        raise _UsageError(f"--seed: {exc}") from None
    bots = {seat: make_bot(name, game, seed, seat) for seat, name in seats.items()}

    state = game.initial_state(seed)
    _say_events(console, state)
    actions: list[Any] = []
    code = _play_loop(console, game, state, bots, actions)
    if args.record is not None:
        try:
            Path(args.record).write_text(
                Record.of(game, seed, actions).to_json() + "\n", encoding="utf-8"
            )
        except OSError as exc:
            console.error(f"cardcrawl: cannot write the record to {args.record}: {exc}")
            return code or EXIT_FAILURE
        console.say(f"Record saved to {args.record}.")
    return code


# --------------------------------------------------------------- replay
def _read_record(console: _Console, path: str) -> Record | None:
    """The record in ``path``, or ``None`` after saying why it cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        console.error(f"cardcrawl: cannot read {path}: {exc}")
        return None
    try:
        return Record.from_json(text)
    except CardcrawlError as exc:
        console.error(f"cardcrawl: {path}: {exc}")
        return None


def _check_output_path(flag: str, path: str | None) -> None:
    if path is not None and not Path(path).resolve().parent.is_dir():
        raise _UsageError(f"{flag} {path}: the directory {Path(path).parent} does not exist")


def _check_step(step: int | None, last: int) -> int:
    chosen = last if step is None else step
    if not 0 <= chosen <= last:
        raise _UsageError(f"--step {chosen}: this record has steps 0 to {last}")
    return chosen


def _write(console: _Console, path: str, text: str) -> bool:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        console.error(f"cardcrawl: cannot write {path}: {exc}")
        return False
    return True


def _replay_html(console: _Console, args: argparse.Namespace) -> int:
    record = _read_record(console, args.record)
    if record is None:
        return EXIT_FAILURE
    try:
        match = Match.from_record(record)
    except CardcrawlError as exc:
        console.error(f"cardcrawl: {args.record}: {exc}{unknown_game_hint(exc)}")
        return EXIT_FAILURE
    step = _check_step(0 if args.step is None else args.step, len(record.actions))
    if not _write(console, args.html, replay_html(match, step=step)):
        return EXIT_FAILURE
    console.say(f"Replay of {len(record.actions)} actions written to {args.html}.")
    return 0


def _replay(console: _Console, args: argparse.Namespace) -> int:
    if args.html is not None:
        _check_output_path("--html", args.html)
        return _replay_html(console, args)
    record = _read_record(console, args.record)
    if record is None:
        return EXIT_FAILURE
    try:
        game: AnyGame = record.load_game()
        # Verify the whole record before telling any of it: a story that stops at a
        # broken entry would read as if the game had ended there.
        states = list(record.states())
    except CardcrawlError as exc:
        console.error(f"cardcrawl: {args.record}: {exc}{unknown_game_hint(exc)}")
        return EXIT_FAILURE
    last = len(record.actions)
    step = _check_step(args.step, last)
    console.say(f"Replaying {game.name} with seed {record.seed} ({last} actions).")
    for state in states[: step + 1]:
        _say_events(console, state)
    console.say(game.render(states[step]))
    if game.is_terminal(states[step]):
        console.say(_result_line(game, states[step]))
    else:
        console.say(f"Step {step} of {last}.")
    return 0


# --------------------------------------------------------------- render
def _render(console: _Console, args: argparse.Namespace) -> int:
    _check_output_path("-o", args.output)
    record = _read_record(console, args.record)
    if record is None:
        return EXIT_FAILURE
    try:
        game: AnyGame = record.load_game()
        # Every entry is verified, even past the step drawn: a picture of a record
        # that does not replay would pass off a broken record as a good one.
        states = list(record.states())
    except CardcrawlError as exc:
        console.error(f"cardcrawl: {args.record}: {exc}{unknown_game_hint(exc)}")
        return EXIT_FAILURE
    step = _check_step(args.step, len(record.actions))
    try:
        picture = svg(game, states[step])
    except NoRendererError as exc:
        console.error(f"cardcrawl: {exc}")
        return EXIT_FAILURE
    if args.output is None:
        console.write(console.stdout, picture.text + "\n")
        return 0
    if not _write(console, args.output, picture.text + "\n"):
        return EXIT_FAILURE
    console.say(f"Step {step} of {len(record.actions)} drawn to {args.output}.")
    return 0


# ----------------------------------------------------------------- main
_COMMANDS: Mapping[str, Callable[[_Console, argparse.Namespace], int]] = {
    "play": _play,
    "replay": _replay,
    "render": _render,
    "games": _games,
    "simulate": lambda console, args: _cli_simulate.run(args, console.stdout, console.stderr),
}


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
    console = _Console(
        sys.stdin if stdin is None else stdin,
        sys.stdout if stdout is None else stdout,
        sys.stderr if stderr is None else stderr,
    )
    parser, commands = _build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except _ParserExit as exc:
            console.write(console.stdout if exc.status == 0 else console.stderr, exc.message)
            return exc.status
        command = commands.get(args.command)
        if command is None:
            console.write(console.stderr, parser.format_usage())
            console.error(f"{parser.prog}: error: choose a command: {', '.join(commands)}")
            return EXIT_USAGE
        try:
            # Before anything looks a game up: the modules register games and variants.
            import_modules([*args.imports_first, *args.imports])
            return _COMMANDS[args.command](console, args)
        except _UsageError as exc:
            console.write(console.stderr, command.format_usage())
            console.error(f"{command.prog}: error: {exc}")
            return EXIT_USAGE
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
