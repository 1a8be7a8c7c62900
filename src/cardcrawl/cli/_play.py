"""``cardcrawl play GAME``: a game played by people at the keyboard and by bots.

Seats are people unless given to a bot (``--bot random`` for every seat, ``--bot
SEAT=random`` for one); options come from ``-o NAME=VALUE`` and the shortcut flags the
game declares; ``--record FILE`` saves the game as a :class:`~cardcrawl.Record`.
A game starts from ``--seed N`` or from ``--position TEXT``, a position in the game's
notation (see :meth:`~cardcrawl.GameBase.position`); its record keeps the position.

At a terminal the game explains itself, from what it declares in its
:class:`~cardcrawl.GameTools` (``terminal``, a
:class:`~cardcrawl.core._terminal.TerminalPlay`), so this module names no game: the map
has its coordinates and the legal choices numbered on it, cropped to ``--width``
columns (``--view`` chooses; piped input gets the plain ``render``); answers are read
leniently (:mod:`cardcrawl.cli._input`); ``help`` says what each choice means,
``rules`` gives the rules in short, ``hint`` asks the game's hint bot, ``undo`` takes a
choice back through :class:`~cardcrawl.Match`'s fair undo, and ``map`` shows the whole
map. With people at the table each bot decision is said before its events, paced by
``--pace``. ``--bot engine`` seats a program over the engine protocol: the one
``--engine "COMMAND ARGS"`` names (``--engine SEAT=COMMAND`` for one seat), else
``$CARDCRAWL_ENGINE``. When the game ends, or is abandoned, every bot is told (an
engine hears the outcome); a bot that fails its seat abandons the game, said in a
sentence.

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> out = io.StringIO()
    >>> main(["play", "mapless-house", "--bot", "random", "--seed", "7"], stdout=out)
    0
    >>> out.getvalue().splitlines()[-1].startswith("Result: ")
    True
"""

from __future__ import annotations

import argparse
import re
import shutil
import textwrap
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardcrawl.bots import Bot, bot_names, make_bot, notify_game_over
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
    add_import_option,
    add_option_arguments,
    add_start_arguments,
    check_output_path,
    game_options,
    start_position,
)
from cardcrawl.cli._input import columns, match_answer, normalize
from cardcrawl.cli._simulate import engine_command
from cardcrawl.core._random import rng_from_seed
from cardcrawl.core._registry import load, tools_for
from cardcrawl.core._terminal import TerminalPlay
from cardcrawl.errors import CardcrawlError, UndoError
from cardcrawl.play._match import Match
from cardcrawl.play._record import Agent


# Like KeyboardInterrupt, this is a signal, not an error.
class _Quit(Exception):  # noqa: N818
    """The person at the keyboard typed ``q``."""


def add_parser(commands: Commands, shortcuts: Shortcuts) -> Parser:
    """Add the ``play`` command to ``commands``, with the shortcut flags; its parser."""
    play = commands.add_parser(
        "play",
        help="play a game, with people and bots",
        description="Play a game. Seats are people at the keyboard unless given to a bot.",
    )
    # No `choices`: the names plug-ins register are only known once they are loaded,
    # and listing them all would load every plug-in even to play a built-in game.
    play.add_argument("game", metavar="GAME", help=GAME_HELP)
    add_start_arguments(
        play,
        seed_help="the game's seed (default: 0 when bots play every seat, else from the clock)",
    )
    play.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="[SEAT=]NAME",
        help="a bot for every seat, or for one seat (repeatable); see cardcrawl.bots for names",
    )
    add_option_arguments(play, shortcuts)
    play.add_argument(
        "--view",
        choices=("auto", "numbered", "plain"),
        default="auto",
        help="numbered: the map with coordinates and the choices numbered on it, cropped "
        "to --width; plain: the game's render (default: numbered when the input is a "
        "terminal)",
    )
    play.add_argument(
        "--width",
        type=int,
        default=None,
        metavar="COLUMNS",
        help="the widest a numbered map, the story and the rules may be; a wider map is "
        "cropped around the action, and text is wrapped (default: the terminal's width, "
        "else 80)",
    )
    play.add_argument(
        "--pace",
        type=float,
        metavar="SECONDS",
        help="the pause before each bot decision when people play too (default: 0.6 in a "
        "terminal, else 0)",
    )
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE at the end")
    play.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="[SEAT=]COMMAND",
        help='the program an engine seat runs, split as a shell would ("node my.js"), for '
        "every engine seat or for one (repeatable; default: $CARDCRAWL_ENGINE)",
    )
    add_import_option(play)
    play.set_defaults(run=run)
    return play


def _bot_seats(texts: Sequence[str], game: AnyGame) -> dict[int, str]:
    """Each bot seat with the bot's name, from ``--bot`` arguments in order."""
    seats: dict[int, str] = {}
    for text in texts:
        seat_text, sep, name = text.rpartition("=")
        if name not in bot_names(game):
            raise UsageError(f"unknown bot {name!r}; bots: {', '.join(bot_names(game))}")
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
            raise UsageError(
                f"--bot {text}: {seat_text!r} is not a seat of {game.name}; {seats_are}"
            )
        seats[seat] = name
    return seats


def _engine_commands(
    texts: Sequence[str], game: AnyGame, seats: Mapping[int, str]
) -> dict[int, dict[str, Any]]:
    """The ``command`` option of each engine seat, from ``--engine [SEAT=]COMMAND``."""
    engine_seats = [seat for seat, name in seats.items() if name == "engine"]
    if texts and not engine_seats:
        raise UsageError("--engine: no seat plays the engine bot (--bot engine)")
    commands: dict[int, dict[str, Any]] = {}
    for text in texts:
        seat_text, sep, rest = text.partition("=")
        if sep and seat_text.strip().isdigit():
            seat = int(seat_text)
            if seat not in engine_seats:
                raise UsageError(f"--engine {text}: seat {seat} does not play the engine bot")
            commands[seat] = {"command": engine_command(rest)}
        else:
            # For every engine seat not given a command of its own.
            for seat in engine_seats:
                commands.setdefault(seat, {"command": engine_command(text)})
    return commands


def say_events(console: Console, state: Any, width: int | None = None) -> None:
    """Tell the events of the step that made ``state`` (each is ``str(event)``),
    each wrapped to ``width`` columns when given (later lines indented)."""
    for event in state.events:
        text = str(event)
        if width is not None:
            text = textwrap.fill(text, width, subsequent_indent="  ", break_on_hyphens=False)
        console.say(text)


def rewrap(text: str, width: int) -> str:
    """``text`` laid out again for ``width`` columns: a line starting with ``- `` opens
    a point, an indented line goes on with the one before, any other line stands alone;
    each point is filled with its later lines indented under its first word.

    Examples:
        >>> print(rewrap("Title:\\n- one two three\\n  four five six", 14))
        Title:
        - one two
          three four
          five six
    """
    paragraphs: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("  ") and paragraphs:
            paragraphs[-1][1].append(line.strip())
        elif line.startswith("- "):
            paragraphs.append(("- ", [line[2:].strip()]))
        else:
            paragraphs.append(("", [line.strip()]))
    filled = []
    for lead, words in paragraphs:
        filled.append(
            textwrap.fill(
                " ".join(words),
                width,
                initial_indent=lead,
                subsequent_indent=" " * len(lead),
                break_on_hyphens=False,
                break_long_words=False,
            )
            if any(words)
            else ""
        )
    return "\n".join(filled)


def result_line(game: AnyGame, state: Any) -> str:
    """``Result: ...``: the outcome of a finished game in one line."""
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


#: What the ``help`` command says of the commands, after the game's own words.
_COMMANDS = (
    "Commands: help (this), rules (the rules in short), hint (what the {bot} bot "
    "would choose), undo (take back your last choice, unless it revealed a card or a "
    "roll), map (the whole map; map X,Y centres it on a cell), q (quit)."
)


def _answers_help(game: AnyGame, legal: Sequence[Any]) -> str:
    """How a choice may be typed, with the first legal action as the example."""
    example = game.format_action(legal[0]) if legal else ""
    cell = re.search(r"-?[0-9]+,-?[0-9]+", example)
    if cell is None:
        return (
            "Answer with the number of a choice (on the map or in the list) or the action "
            "as listed."
        )
    spaced = cell[0].replace(",", ", ")
    return (
        "Answer with the number of a choice (on the map or in the list), or the action "
        f"as listed, spaced and bracketed as you like ({example}, "
        f"{example.replace(cell[0], spaced)} or {example.replace(cell[0], f'({spaced})')}), "
        f"or only its cell ({cell[0]}) when a single choice goes there."
    )


class _Table:
    """One game at the keyboard: the match, who plays each seat, and how to show it."""

    def __init__(
        self,
        console: Console,
        match: Match[Any],
        bots: Mapping[int, Bot],
        bot_names: Mapping[int, str],
        *,
        numbered: bool,
        width: int,
        pace: float,
    ) -> None:
        self.console = console
        self.match = match
        self.game: AnyGame = match.game
        self.bots = bots
        self.bot_names = bot_names
        self.numbered = numbered
        # The seconds the last bot took to choose, for the record (None for a person).
        self.seconds: float | None = None
        self.width = width
        self.pace = pace
        self.terminal = tools_for(self.game).terminal or TerminalPlay()
        self.people = len(bots) < self.game.num_players

    # ------------------------------------------------------------- showing
    def show(self, state: Any, legal: Sequence[Any], player: int) -> None:
        """The state and the numbered choices, before a person's decision."""
        console, game = self.console, self.game
        items = [f"{i}) {game.format_action(a)}" for i, a in enumerate(legal, 1)]
        if self.numbered:
            console.say(self.terminal.show(game, state, legal, width=self.width))
        else:
            console.say(game.render(state))
        if game.num_players > 1:
            console.say(f"Player {player} to move.")
        lines = columns(items, self.width) if self.numbered else items
        for line in lines:
            console.say(line)

    def _map(self, state: Any, legal: Sequence[Any], argument: str) -> None:
        if not argument:
            self.console.say(self.terminal.show(self.game, state, legal, width=None))
            return
        cell = _cell(argument)
        if cell is None:
            self.console.say(f"map takes a cell such as map 2,-1, not {argument!r}.")
            return
        self.console.say(self.terminal.show(self.game, state, legal, width=self.width, focus=cell))

    def say_wrapped(self, text: str) -> None:
        """Say ``text``, wrapped to the table's width with later lines indented when the
        view is numbered (a terminal); piped transcripts keep one line per message."""
        if self.numbered:
            text = textwrap.fill(text, self.width, subsequent_indent="  ", break_on_hyphens=False)
        self.console.say(text)

    def _help(self, state: Any, legal: Sequence[Any]) -> None:
        for line in self.terminal.explain(self.game, state, legal):
            self.say_wrapped(line)
        self.say_wrapped(_answers_help(self.game, legal))
        self.say_wrapped(_COMMANDS.format(bot=self.terminal.hint_bot or "hint"))

    def _rules(self) -> None:
        rules = self.terminal.rules
        if not rules:
            self.console.say(f"There is no summary of the rules of {self.game.name}.")
        elif self.numbered:
            self.console.say(rewrap(rules, self.width))
        else:
            self.console.say(rules)

    def say_events(self, state: Any) -> None:
        """Tell the events of the step that made ``state``, wrapped to the table's
        width when the view is numbered (a terminal)."""
        say_events(self.console, state, self.width if self.numbered else None)

    def hint(self, state: Any, legal: Sequence[Any], player: int) -> str:
        """What the game's hint bot would choose, seeded by the match's seed (0 for a
        match from a position) and the seat, so that the same position always gets the
        same hint."""
        game, name = self.game, self.terminal.hint_bot
        if name is None or name not in bot_names(game):
            return f"There is no hint bot for {game.name}."
        seed = self.match.seed
        bot = make_bot(name, game, 0 if seed is None else seed, player)
        action = bot.choose(game, game.observe(state, player), legal)
        number = list(legal).index(action) + 1
        return f"Hint: the {name} bot would choose {number}) {game.format_action(action)}."

    def undo(self) -> str | None:
        """Take back the last choice made at the keyboard, with the bots' choices made
        since, through the match's fair undo; ``None`` when done, else why not."""
        match = self.match
        mine = [i for i, e in enumerate(match.history) if e.player not in self.bots]
        if not mine:
            return "There is nothing to undo: no choice has been made at the keyboard yet."
        undone: list[Any] = []
        try:
            while len(match.history) > mine[-1]:
                undone.append(match.undo())
        except UndoError:
            blocked = match.history[-1]
            for _ in undone:
                match.redo()
            return (
                f"Cannot undo: {self.game.format_action(blocked.action)} revealed what chance "
                "gave (a card drawn or turned, a roll), and fair undo never goes back across "
                "that, so nobody can see what chance gives and then choose again."
            )
        taken = ", ".join(self.game.format_action(e.action) for e in reversed(undone))
        self.console.say(f"Undone: {taken}.")
        return None

    # ------------------------------------------------------------ choosing
    def choose(self, state: Any, player: int) -> Any:
        """A person's choice among the legal actions, or :data:`_UNDONE`.

        Raises:
            _Quit: the person typed ``q``.
            EOFError: the input ended.
        """
        console, game = self.console, self.game
        legal = game.legal_actions(state)
        self.show(state, legal, player)
        hint = (
            f"Type a number from 1 to {len(legal)}, an action as shown, or q to quit. "
            "Type help to learn what the choices mean."
        )
        while True:
            answer = console.ask(f"Your choice (1-{len(legal)}, help, q): ").strip()
            word, _, argument = normalize(answer).partition(" ")
            if word in ("q", "quit") and not argument:
                raise _Quit
            if word in ("help", "?") and not argument:
                self._help(state, legal)
                continue
            if word == "rules" and not argument:
                self._rules()
                continue
            if word == "hint" and not argument:
                console.say(self.hint(state, legal, player))
                continue
            if word == "map":
                self._map(state, legal, argument)
                continue
            if word == "undo" and not argument:
                problem = self.undo()
                if problem is None:
                    return _UNDONE
                self.say_wrapped(problem)
                continue
            found = match_answer(game, legal, answer)
            if found.action is not None:
                return found.action
            self.say_wrapped(f"{found.problem} {hint}".lstrip())

    def bot_turn(self, state: Any, player: int, bot: Bot) -> Any:
        """A bot's choice; with people at the table, said and paced, step by step."""
        game = self.game
        # A bot sees what its seat may know, never the state itself; the record keeps
        # the time it took to choose, without the pace.
        clock = time.perf_counter()
        action = bot.choose(game, game.observe(state, player), game.legal_actions(state))
        self.seconds = time.perf_counter() - clock
        if self.people:
            if self.pace > 0:
                self.console.stdout.flush()
                time.sleep(self.pace)
            who = f"Player {player}" if game.num_players > 1 else "The bot"
            self.console.say(f"{who} ({self.bot_names[player]}): {game.format_action(action)}")
        return action


#: What :meth:`_Table.choose` returns after an undo: nothing to play, look again.
_UNDONE = object()


def _terminal_width(terminal: bool) -> int:
    """The terminal's width in columns (20 at least), or 80 when not at a terminal."""
    if not terminal:
        return 80
    return max(20, shutil.get_terminal_size((80, 24)).columns)


def _cell(text: str) -> tuple[int, int] | None:
    """``"2,-1"`` (already normalized) as ``(2, -1)``; ``None`` for anything else."""
    found = re.fullmatch(r"(-?[0-9]{1,9}),(-?[0-9]{1,9})", text)
    return None if found is None else (int(found[1]), int(found[2]))


def _play_loop(table: _Table) -> int:
    """Play the table's match to its end; the exit code."""
    console, game, match = table.console, table.game, table.match
    try:
        while not game.is_terminal(match.state):
            state = match.state
            player = game.current_player(state)
            if not game.legal_actions(state):
                # Sampled play only stops at decisions; a game that does otherwise is broken.
                console.error(f"cardcrawl: {game.name} stopped with no legal action to take")
                return EXIT_FAILURE
            bot = table.bots.get(player)
            table.seconds = None
            clock = time.perf_counter()
            try:
                action = (
                    table.bot_turn(state, player, bot)
                    if bot is not None
                    else table.choose(state, player)
                )
            except CardcrawlError as exc:
                if bot is None:
                    raise
                # A bot failed its seat (an engine's bad or late answer): the game stops
                # untouched, said in a sentence.
                console.error(f"cardcrawl: player {player}'s bot failed: {exc}")
                console.say("Game abandoned.")
                return EXIT_FAILURE
            if action is _UNDONE:
                continue
            seconds = time.perf_counter() - clock if table.seconds is None else table.seconds
            table.say_events(match.play(action, seconds=max(0.0, seconds)))
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
    console.say(game.render(match.state))
    console.say(result_line(game, match.state))
    return 0


def run(console: Console, args: argparse.Namespace) -> int:
    """Play the game ``args`` describe to its end; the exit code."""
    options = game_options(args.game, args)
    try:
        game: AnyGame = load(args.game, **options)
    except CardcrawlError as exc:
        raise UsageError(str(exc)) from None
    seats = _bot_seats(args.bot, game)
    check_output_path("--record", args.record)
    people = [p for p in range(game.num_players) if p not in seats]
    position: str | None = args.position
    if position is not None:
        if start_position(game, position).explicit_chance:
            raise UsageError(
                "--position: explicit_chance: play resolves chance itself (sampled play); "
                "write the position without the explicit_chance flag"
            )
        # The position holds the game's generator; the seed is only the bots'.
        seed: int = 0
    elif args.seed is not None:
        seed = args.seed
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
        raise UsageError(f"--seed: {exc}") from None
    commands = _engine_commands(args.engine, game, seats)
    bots = {
        seat: make_bot(name, game, seed, seat, **commands.get(seat, {}))
        for seat, name in seats.items()
    }
    if args.width is not None and args.width < 20:
        raise UsageError(f"--width: a map needs at least 20 columns, not {args.width}")
    if args.pace is not None and not 0 <= args.pace <= 60:
        raise UsageError(f"--pace: seconds from 0 to 60, not {args.pace}")
    terminal = not console.echo  # the input is a terminal, not a pipe or a file
    numbered = args.view == "numbered" or (args.view == "auto" and terminal)
    pace = args.pace if args.pace is not None else (0.6 if terminal else 0.0)

    agents = [
        Agent.bot(p, seats[p], {"seed": seed}) if p in seats else Agent.human(p)
        for p in range(game.num_players)
    ]
    if position is not None:
        match = Match.start(game, position=position, agents=agents, started=True)
    else:
        match = Match.start(game, seed, agents=agents, started=True)
    width = args.width if args.width is not None else _terminal_width(terminal)
    table = _Table(console, match, bots, seats, numbered=numbered, width=width, pace=pace)
    table.say_events(match.state)
    if numbered and table.people:
        table.say_wrapped(
            "The numbers on the map are the choices listed under it. Type help to learn "
            "what they mean, rules for the rules, hint for a bot's advice, undo to take "
            "a choice back."
        )
    code = _play_loop(table)
    outcome = game.outcome(match.state)
    for seat, bot in bots.items():
        notify_game_over(bot, game, game.observe(match.state, seat), outcome)
    if args.record is not None:
        try:
            Path(args.record).write_text(match.to_record().to_json() + "\n", encoding="utf-8")
        except OSError as exc:
            console.error(f"cardcrawl: cannot write the record to {args.record}: {exc}")
            return code or EXIT_FAILURE
        console.say(f"Record saved to {args.record}.")
    return code
