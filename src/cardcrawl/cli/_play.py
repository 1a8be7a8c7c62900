"""``cardcrawl play GAME``: a game played by people at the keyboard and by bots.

Seats are people unless given to a bot (``--bot random`` for every seat, ``--bot
SEAT=random`` for one); options come from ``-o NAME=VALUE`` and the shortcut flags the
game declares; ``--record FILE`` saves the game as a :class:`~cardcrawl.Record`.

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
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardcrawl.bots import Bot, bot_names, make_bot
from cardcrawl.cli._common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    GAME_HELP,
    AnyGame,
    Console,
    Parser,
    UsageError,
    add_import_option,
    add_option_arguments,
    check_output_path,
    game_options,
)
from cardcrawl.core._random import rng_from_seed
from cardcrawl.core._registry import load
from cardcrawl.errors import CardcrawlError
from cardcrawl.play._record import Record


# Like KeyboardInterrupt, this is a signal, not an error.
class _Quit(Exception):  # noqa: N818
    """The person at the keyboard typed ``q``."""


def add_parser(
    commands: argparse._SubParsersAction[Parser],
    shortcuts: Mapping[str, Mapping[str, Sequence[str]]],
) -> Parser:
    """Add the ``play`` command to ``commands``, with the shortcut flags; its parser."""
    play = commands.add_parser(
        "play",
        help="play a game, with people and bots",
        description="Play a game. Seats are people at the keyboard unless given to a bot.",
    )
    # No `choices`: the names plug-ins register are only known once they are loaded,
    # and listing them all would load every plug-in even to play a built-in game.
    play.add_argument("game", metavar="GAME", help=GAME_HELP)
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
    add_option_arguments(play, shortcuts)
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE at the end")
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


def say_events(console: Console, state: Any) -> None:
    """Tell the events of the step that made ``state`` (each is ``str(event)``)."""
    for event in state.events:
        console.say(str(event))


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


def _choose(console: Console, game: AnyGame, state: Any, player: int) -> Any:
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
    console: Console, game: AnyGame, state: Any, bots: Mapping[int, Bot], actions: list[Any]
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
            say_events(console, state)
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
    console.say(result_line(game, state))
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
        raise UsageError(f"--seed: {exc}") from None
    bots = {seat: make_bot(name, game, seed, seat) for seat, name in seats.items()}

    state = game.initial_state(seed)
    say_events(console, state)
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
