"""What every command of the command line shares: exit codes, streams, parsing, errors.

* the exit codes and :class:`UsageError`, the error of bad arguments found after
  parsing, which :func:`cardcrawl.cli.main` reports like argparse's own errors;
* :class:`Parser`, an ``ArgumentParser`` that raises :class:`ParserExit` instead of
  exiting, and :class:`Console`, the streams of one run;
* ``--import MODULE`` (:func:`add_import_option`, :func:`imports_in`,
  :func:`import_modules`);
* the arguments the commands that play many games share: a command with its GAME
  (:func:`add_command`), ``--bot`` (:func:`add_bot_option`), ``--workers``,
  ``--output`` and ``--plot``, ``--progress`` (:func:`add_run_options`);
* game options: ``-o NAME=VALUE`` and the shortcut flags that registered games declare
  in their :class:`~cardcrawl.GameTools` (:func:`registered_shortcuts`,
  :func:`add_option_arguments`, :func:`game_options`);
* the start of a game: ``--seed N`` or ``--position TEXT``, one or the other, or
  both for the commands that re-seed a position for each game
  (:func:`add_start_arguments`, :func:`start_position`, :func:`sampled_position`);
* records: :func:`read_record` and :func:`record_states` read and verify a record file,
  saying clearly why one cannot be used, and :func:`verification_note` says whether it
  was checked against claims.

Examples:
    >>> from cardcrawl.cli._common import parse_option
    >>> parse_option("max_turns=30"), parse_option("name=Alice")
    (('max_turns', 30), ('name', 'Alice'))
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeAlias

from cardcrawl.bots import bot_names
from cardcrawl.core._codec import saved_fields
from cardcrawl.core._protocol import Game, GameState
from cardcrawl.core._registry import PluginError, _import_module, _known_names, get_spec
from cardcrawl.errors import CardcrawlError, UnknownGameError
from cardcrawl.play._formats import unreadable as _unreadable
from cardcrawl.play._match import Match
from cardcrawl.play._record import Record
from cardcrawl.simulate._run import start_from_position

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

#: Exit code when something failed, or the input ended in the middle of a game.
EXIT_FAILURE = 1
#: Exit code for bad arguments or options (the code argparse uses).
EXIT_USAGE = 2
#: Exit code after Ctrl-C (128 + SIGINT, the shell convention).
EXIT_INTERRUPTED = 130

#: The help of every GAME argument.
GAME_HELP = (
    "a game or variant: `cardcrawl games` lists them, those of installed plug-ins "
    "included; for one of your own, name its module with --import"
)

AnyGame = Game[Any, Any, Any]


# ------------------------------------------------------------ errors, exits
class UsageError(CardcrawlError, ValueError):
    """Bad arguments found after parsing, reported with the command's usage line.

    Examples:
        >>> from cardcrawl.cli._common import UsageError, parse_option
        >>> try:
        ...     parse_option("max_turns")
        ... except UsageError as error:
        ...     print(error)
        -o takes NAME=VALUE, not 'max_turns'
    """


# Like SystemExit, this is a signal, not an error.
class ParserExit(Exception):  # noqa: N818
    """argparse wanted to exit: raised instead, so that ``main`` returns a code.

    Attributes:
        status: the exit code argparse meant.
        message: what it meant to write (to stdout when ``status`` is 0, else stderr).
        final: ``False`` when parsing again with the shortcut flags of games that are
            registered later (by plug-ins) may change the outcome: an error, or help.
    """

    def __init__(self, status: int, message: str, *, final: bool = True) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message
        self.final = final


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting or writing to ``sys`` streams.

    ``main`` must return codes and write to the streams it was given, so that tests and
    embedding programs can drive it; argparse on its own calls ``sys.exit`` and writes
    to ``sys.stdout`` and ``sys.stderr``.

    Examples:
        >>> from cardcrawl.cli._common import Parser, ParserExit
        >>> parser = Parser(prog="cardcrawl")
        >>> try:
        ...     parser.parse_args(["--colour"])
        ... except ParserExit as exc:
        ...     print(exc.status, exc.message.splitlines()[-1])
        2 cardcrawl: error: unrecognized arguments: --colour
    """

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise ParserExit(status, message or "")

    def error(self, message: str) -> NoReturn:
        text = f"{self.format_usage()}{self.prog}: error: {message}\n"
        raise ParserExit(EXIT_USAGE, text, final=False)

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        if file is not None:
            super().print_help(file)
            return
        # The help action calls print_help() and then exit(); raising here carries the
        # text to main(), which writes it to its own stdout.
        raise ParserExit(0, self.format_help(), final=False)


class Console:
    """The streams of one run of the command line.

    Examples:
        >>> import io
        >>> from cardcrawl.cli._common import Console
        >>> console = Console(io.StringIO("2\\n"), io.StringIO(), io.StringIO())
        >>> console.ask("Your choice: ")
        '2'
        >>> console.stdout.getvalue()
        'Your choice: 2\\n'
    """

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


# --------------------------------------------------------- shared arguments
#: What every command's ``add_parser`` is given: the subcommands to add to, and the
#: shortcut flags of the registered games (:func:`registered_shortcuts`).
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"
Shortcuts: TypeAlias = Mapping[str, Mapping[str, Sequence[str]]]

#: The help of ``--progress``.
PROGRESS_HELP = "the progress display on standard error (auto: rich on a terminal if installed)"


def add_command(commands: Commands, name: str, *, help: str, description: str) -> Parser:
    """Add the command ``name`` to ``commands`` with its GAME argument and ``--import``."""
    parser = commands.add_parser(name, help=help, description=description)
    # No `choices`: the names plug-ins register are only known once they are loaded.
    parser.add_argument("game", metavar="GAME", help=GAME_HELP)
    add_import_option(parser)
    return parser


def add_bot_option(
    parser: argparse.ArgumentParser, help: str, metavar: str = "[SEAT=]NAME"
) -> None:
    """Add ``--bot`` (repeatable, collected in order) with ``help`` and the bots' names."""
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar=metavar,
        help=f"{help}; bots: {', '.join(bot_names())}",
    )


def add_run_options(
    parser: argparse.ArgumentParser,
    *,
    workers: str = "worker processes (default: the CPUs)",
    output: str | None = None,
    plot: str | None = None,
    progress: str | None = None,
) -> None:
    """Add ``--workers``, and where a help is given ``--output`` (``--out``), ``--plot``
    and ``--progress``: the options of a command that plays many games."""
    parser.add_argument("--workers", type=int, metavar="N", help=workers)
    if output is not None:
        parser.add_argument("--output", "--out", dest="out", metavar="FILE", help=output)
    if plot is not None:
        parser.add_argument("--plot", metavar="FILE", help=plot)
    if progress is not None:
        parser.add_argument(
            "--progress", choices=("auto", "rich", "plain", "none"), default="auto", help=progress
        )


# ----------------------------------------------------------------- --import
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


def imports_in(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """The ``--import`` modules of a command line, before it is parsed, and the rest.

    The parser needs the shortcut flags of the games those modules register, so they
    are imported before it is built; this reading is the parser's own, with nothing
    but ``--import`` known.

    Examples:
        >>> from cardcrawl.cli._common import imports_in
        >>> imports_in(["--import", "a", "play", "house", "--import=b", "--seed", "3"])
        (['a', 'b'], ['play', 'house', '--seed', '3'])
    """
    scan = Parser(add_help=False)
    add_import_option(scan)
    try:
        known, rest = scan.parse_known_args(list(argv))
    except ParserExit:
        # A malformed --import: the real parser says what is wrong with it.
        return [], list(argv)
    return list(known.imports), rest


def import_modules(names: Sequence[str]) -> None:
    """Import each module named by ``--import``, in order.

    Raises:
        UsageError: a module cannot be imported (the message says why).

    Examples:
        >>> from cardcrawl.cli._common import import_modules
        >>> import_modules(["json"])
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
            raise UsageError(f"--import {name}: {exc}") from None


def unknown_game_hint(exc: BaseException) -> str:
    """A hint to add to an error caused by an unknown game name, or ``""``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.cli._common import unknown_game_hint
        >>> unknown_game_hint(cardcrawl.UnknownGameError("no game")).split("?")[0]
        '. A game or variant of your own'
    """
    cause = exc if isinstance(exc, UnknownGameError) else exc.__cause__
    if isinstance(cause, UnknownGameError) and not isinstance(cause, PluginError):
        return (
            ". A game or variant of your own? Name the module that registers it with "
            "--import MODULE, or install it as a plug-in"
        )
    return ""


# ------------------------------------------------------------------ options
def parse_option_value(raw: str, where: str) -> Any:
    """The value of an option given as text: JSON if it parses, else the text itself.

    Args:
        raw: the text given.
        where: how the value was given, for the message (``"-o max_turns=..."``).

    Raises:
        UsageError: the text is JSON Python cannot read (nested too deeply, or an
            integer too long), which must not pass for text.

    Examples:
        >>> from cardcrawl.cli._common import parse_option_value
        >>> parse_option_value("[1, 2]", "-o sizes=..."), parse_option_value("Alice", "-o name")
        ([1, 2], 'Alice')
    """
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        # Plain text need not be quoted: -o name=Alice means the string "Alice".
        return raw
    except (RecursionError, ValueError) as exc:
        raise UsageError(f"{where}: the value is JSON, but {_unreadable(exc)}") from None


def parse_option(text: str) -> tuple[str, Any]:
    """The name and value of ``-o NAME=VALUE``.

    Raises:
        UsageError: the text is not ``NAME=VALUE``, or its value cannot be read.

    Examples:
        >>> from cardcrawl.cli._common import parse_option
        >>> parse_option(" tuybe = true")
        ('tuybe', True)
    """
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise UsageError(f"-o takes NAME=VALUE, not {text!r}")
    return name, parse_option_value(raw, f"-o {name}=...")


# A shortcut is a long flag of its own; anything else would read as a positional.
_FLAG = re.compile(r"--[A-Za-z0-9][-A-Za-z0-9_]*")


def registered_shortcuts() -> dict[str, dict[str, list[str]]]:
    """Each shortcut flag the games registered now declare: the options it sets, each
    with the games (not variants, which share their game's) that declare it.

    Plug-ins not loaded yet are not loaded for this: playing a built-in game must not
    depend on them.

    Examples:
        >>> from cardcrawl.cli._common import registered_shortcuts
        >>> "mapless-house" in registered_shortcuts()["--max-turns"]["max_turns"]
        True
    """
    flags: dict[str, dict[str, list[str]]] = {}
    for name in _known_names():
        spec = get_spec(name)
        if spec.base is not None:
            continue
        for option, flag in spec.tools.shortcuts.items():
            flags.setdefault(flag, {}).setdefault(option, []).append(name)
    return flags


class _Shortcut(argparse.Action):
    """Keeps each shortcut's text by its flag in ``shortcuts``: which option a flag sets
    depends on the game, known only after parsing."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        # A copy: the empty default is shared by every parse.
        given = dict(namespace.shortcuts)
        given[self.option_strings[0]] = values
        namespace.shortcuts = given


def add_option_arguments(
    parser: argparse.ArgumentParser, shortcuts: Mapping[str, Mapping[str, Sequence[str]]]
) -> None:
    """Add ``-o NAME=VALUE`` (repeatable) and the shortcut flags to ``parser``.

    Args:
        parser: a command's parser.
        shortcuts: the flags to offer, as :func:`registered_shortcuts` gives them. A
            flag that is not a long option, or that is one of the command's own, is
            left out: one game's odd declaration must not break the command.
    """
    parser.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable); VALUE is read as JSON if it parses, else as text",
    )
    parser.set_defaults(shortcuts={})
    for flag in sorted(shortcuts):
        options = shortcuts[flag]
        if not _FLAG.fullmatch(flag):
            continue
        metavar = next(iter(options)).upper() if len(options) == 1 else "VALUE"
        sets = " or ".join(f"-o {option}={metavar}" for option in options)
        games = sorted({game for names in options.values() for game in names})
        try:
            parser.add_argument(
                flag,
                action=_Shortcut,
                default=argparse.SUPPRESS,
                metavar=metavar,
                help=f"shortcut for {sets} ({', '.join(games)})",
            )
        except argparse.ArgumentError:
            continue


def _shortcut_error(game_name: str, flag: str, known: set[str], allowed: str) -> UsageError:
    """The error of a shortcut flag that the chosen game does not declare."""
    # The flag is another game's: say whether this game has the option it sets.
    meant = list(registered_shortcuts().get(flag, ()))
    usable = [option for option in meant if option in known]
    if usable:
        return UsageError(f"{game_name} has no shortcut {flag}; give -o {usable[0]}=VALUE")
    if not meant:
        return UsageError(f"{game_name} has no shortcut {flag}; {allowed}")
    names = " or ".join(repr(option) for option in meant)
    return UsageError(f"{game_name} has no option {names} (set by {flag}); {allowed}")


def game_options(game_name: str, args: argparse.Namespace) -> dict[str, Any]:
    """The options ``-o`` and the shortcut flags give, checked against the game's.

    Args:
        game_name: the game or variant named on the command line.
        args: the parsed arguments of a command with :func:`add_option_arguments`.

    Raises:
        UsageError: the game is unknown, or an option is not one of its options, is
            not ``NAME=VALUE``, is given twice with two values, or is set by a flag
            the game does not declare.

    Examples:
        >>> import argparse
        >>> from cardcrawl.cli._common import game_options
        >>> args = argparse.Namespace(options=["dread_lines=3"], shortcuts={})
        >>> game_options("mapless-house", args)
        {'dread_lines': 3}
    """
    try:
        spec = get_spec(game_name)
    except CardcrawlError as exc:
        raise UsageError(f"{exc}{unknown_game_hint(exc)}") from None
    known = {f.name for f in saved_fields(spec.game_class.options_type)}
    allowed = f"its options are: {', '.join(sorted(known)) or 'none'}"
    options: dict[str, Any] = {}
    for text in args.options:
        name, value = parse_option(text)
        if name not in known:
            raise UsageError(f"{game_name} has no option {name!r}; {allowed}")
        options[name] = value
    declared = {flag: option for option, flag in spec.tools.shortcuts.items()}
    for flag, raw in args.shortcuts.items():
        option = declared.get(flag)
        if option is None:
            raise _shortcut_error(game_name, flag, known, allowed)
        if option not in known:
            raise UsageError(f"{game_name} has no option {option!r} (set by {flag}); {allowed}")
        value = parse_option_value(raw, flag)
        if option in options and options[option] != value:
            raise UsageError(f"option {option!r} is given both by {flag} and by -o")
        options[option] = value
    return options


# ------------------------------------------------------------------ starts
#: The help of ``--position``.
POSITION_HELP = (
    "start from the position TEXT, in the game's position notation (one argument: quote "
    "it), instead of a seed; it holds the generator and each deck's stacked top"
)


#: The help of ``--position`` in the commands that play many games from it.
MANY_POSITION_HELP = (
    "start every game from the position TEXT, in the game's position notation (one "
    "argument: quote it), its generator re-seeded for each game from --seed; the "
    "decks' stacked tops it holds are kept"
)


def add_start_arguments(
    parser: argparse.ArgumentParser,
    *,
    seed_help: str,
    seed_default: int | None = None,
    position_help: str = POSITION_HELP,
    exclusive: bool = True,
) -> None:
    """Add ``--seed N`` and ``--position TEXT`` to ``parser``, one or the other.

    A game starts from a seed or from a position, which holds the generator itself, so
    the two are mutually exclusive: given both, argparse says so with the usage line.
    A command that plays many games re-seeds the position for each game from the
    seed, so there (``exclusive=False``) both may be given.

    Args:
        parser: a command's parser.
        seed_help: the help of ``--seed``.
        seed_default: the value of ``args.seed`` when ``--seed`` is not given.
        position_help: the help of ``--position``.
        exclusive: whether ``--seed`` and ``--position`` exclude each other.

    Examples:
        >>> from cardcrawl.cli._common import Parser, ParserExit, add_start_arguments
        >>> parser = Parser(prog="cardcrawl play")
        >>> add_start_arguments(parser, seed_help="the seed")
        >>> parser.parse_args(["--position", "AD phase=move"]).position
        'AD phase=move'
        >>> try:
        ...     parser.parse_args(["--seed", "1", "--position", "AD phase=move"])
        ... except ParserExit as exc:
        ...     print(exc.message.splitlines()[-1])
        cardcrawl play: error: argument --position: not allowed with argument --seed
    """
    start: Any = parser.add_mutually_exclusive_group() if exclusive else parser
    start.add_argument("--seed", type=int, default=seed_default, help=seed_help)
    start.add_argument("--position", metavar="TEXT", help=position_help)


def start_position(game: AnyGame, text: str) -> Any:
    """The state ``--position TEXT`` writes, read and validated by ``game.position``.

    Raises:
        UsageError: the text is malformed or writes no legal position; the message is
            the :class:`~cardcrawl.errors.NotationError`'s, which names the field at
            fault, after ``--position:``. The game may have no notation at all.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.cli._common import UsageError, start_position
        >>> game = cardcrawl.load("mapless-house")
        >>> start_position(game, "AD phase=place:KS player=0,0 rng=0000000000000001")
        <MaplessState 'AD phase=place:KS player=0,0 rng=0000000000000001'>
        >>> try:
        ...     start_position(game, "AD phase=draw player=4,0 rng=0000000000000001")
        ... except UsageError as error:
        ...     print(error)
        --position: player: not a legal position: the player is not on a table card
    """
    # The protocol does not promise a notation: GameBase has one, a bare Game may not.
    read = getattr(game, "position", None)
    if read is None:
        raise UsageError(f"--position: {game.name} has no position notation")
    try:
        return read(text)
    except CardcrawlError as exc:
        raise UsageError(f"--position: {exc}") from None


def sampled_position(command: str, game: AnyGame, text: str) -> Any:
    """The state ``--position TEXT`` writes, for a command whose bots play it in
    sampled play, many times re-seeded (``simulate``, ``tournament``).

    Raises:
        UsageError: as :func:`start_position`, or the position cannot be played so:
            it has explicit chance, or the game cannot re-seed it.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.cli._common import UsageError, sampled_position
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> try:
        ...     sampled_position("simulate", game, "AD phase=draw player=0,0 rng=0000000000000001 "
        ...                      "explicit_chance")
        ... except UsageError as error:
        ...     print(str(error)[:66])
        --position: explicit_chance: simulate resolves chance itself (samp
    """
    state = start_position(game, text)
    if state.explicit_chance:
        raise UsageError(
            f"--position: explicit_chance: {command} resolves chance itself (sampled play); "
            "write the position without the explicit_chance flag"
        )
    try:
        return start_from_position(game, state)
    except CardcrawlError as exc:
        raise UsageError(f"--position: {exc}") from None


# ------------------------------------------------------------------ records
def read_record(console: Console, path: str) -> Record | None:
    """The record in ``path``, or ``None`` after saying why it cannot be read.

    Examples:
        >>> import io
        >>> from cardcrawl.cli._common import Console, read_record
        >>> console = Console(io.StringIO(), io.StringIO(), io.StringIO())
        >>> read_record(console, "no-such-record.json") is None
        True
        >>> console.stderr.getvalue().startswith("cardcrawl: cannot read no-such-record.json")
        True
    """
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


def record_states(console: Console, path: str, record: Record) -> tuple[AnyGame, list[Any]] | None:
    """The game of a record and every state of it, verified; ``None`` after saying why not.

    Every entry and every claim is verified, even past a step the caller shows: a story
    or a picture that stops at a broken entry would pass off a broken record as a good one.

    Examples:
        >>> import io, cardcrawl
        >>> from cardcrawl.cli._common import Console, record_states
        >>> game = cardcrawl.load("mapless-house")
        >>> record = cardcrawl.Record.of(game, 3, game.legal_actions(game.initial_state(3))[:1])
        >>> console = Console(io.StringIO(), io.StringIO(), io.StringIO())
        >>> loaded, states = record_states(console, "game.json", record)
        >>> loaded.name, len(states)
        ('mapless-house', 2)
    """
    try:
        game: AnyGame = record.load_game()
        states = list(record.states())
    except CardcrawlError as exc:
        console.error(f"cardcrawl: {path}: {exc}{unknown_game_hint(exc)}")
        return None
    return game, states


def record_match(console: Console, path: str) -> tuple[Record, Match[GameState]] | None:
    """The record in ``path`` and its match, replayed and verified; ``None`` after saying
    why not (the file does not read, or the record does not replay).

    Examples:
        >>> import io
        >>> from cardcrawl.cli._common import Console, record_match
        >>> console = Console(io.StringIO(), io.StringIO(), io.StringIO())
        >>> record_match(console, "no-such-record.json") is None
        True
    """
    record = read_record(console, path)
    if record is None:
        return None
    try:
        return record, Match.from_record(record)
    except CardcrawlError as exc:
        console.error(f"cardcrawl: {path}: {exc}{unknown_game_hint(exc)}")
        return None


def verification_note(path: str, record: Record) -> str:
    """Whether a record that replayed was checked against claims, as a line for stderr.

    Examples:
        >>> import attrs, cardcrawl
        >>> from cardcrawl.cli._common import verification_note
        >>> game = cardcrawl.load("mapless-house")
        >>> record = cardcrawl.Record.of(game, 3, ["place 1,0"])
        >>> verification_note("game.json", record)  # doctest: +ELLIPSIS
        'cardcrawl: game.json: verified: its 1 action make the states ... it claims...'
        >>> verification_note("old.json", attrs.evolve(record, claims=None))  # doctest: +ELLIPSIS
        'cardcrawl: old.json: not verified: ...'
    """
    claims = record.claims
    if claims is None:
        return (
            f"cardcrawl: {path}: not verified: it is a record without the "
            "claims (length, ending, digest of every state) to check it against, so an "
            "entry cut off or changed to another legal action would go unseen"
        )
    actions = f"{claims.length} action{'' if claims.length == 1 else 's'}"
    ending = "a game not over" if claims.ending is None else f"the ending {claims.ending[0]!r}"
    return (
        f"cardcrawl: {path}: verified: its {actions} make the states and {ending} it claims "
        f"(final digest {claims.digest[:16]})"
    )


def check_step(step: int | None, last: int) -> int:
    """The step to show (``last`` if none is given), checked against the record.

    Raises:
        UsageError: the record has no such step.

    Examples:
        >>> from cardcrawl.cli._common import check_step
        >>> check_step(None, 12), check_step(3, 12)
        (12, 3)
    """
    chosen = last if step is None else step
    if not 0 <= chosen <= last:
        raise UsageError(f"--step {chosen}: this record has steps 0 to {last}")
    return chosen


def check_output_path(flag: str, path: str | None) -> None:
    """Fail before the work rather than after it when ``path`` cannot be written.

    Raises:
        UsageError: the folder ``path`` names does not exist.

    Examples:
        >>> from cardcrawl.cli._common import check_output_path
        >>> check_output_path("--output", None)
    """
    if path is not None and not Path(path).resolve().parent.is_dir():
        raise UsageError(f"{flag} {path}: the directory {Path(path).parent} does not exist")


def write_file(console: Console, path: str, text: str) -> bool:
    """Write ``text`` to ``path``; ``False`` after saying why it could not be written.

    Examples:
        >>> import io
        >>> from cardcrawl.cli._common import Console, write_file
        >>> console = Console(io.StringIO(), io.StringIO(), io.StringIO())
        >>> write_file(console, "/no/such/folder/x.svg", "<svg/>")
        False
    """
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        console.error(f"cardcrawl: cannot write {path}: {exc}")
        return False
    return True
