"""``cardcrawl replay RECORD.json``: a record verified, and its story told.

``--step K`` stops after K actions; ``--html FILE`` writes instead one self-contained
HTML page that steps through the game picture by picture. ``--seat N`` tells either
as seat N could know it: the events it observed, the pictures of a state it cannot
tell from the true one, no seed and no chance outcome. A record whose claims fail
is refused (exit status 1); one that replays is told, with a line on stderr saying
whether it was verified against claims (a record without claims is not, and its story's
first line says ``unverified`` too). The story on stdout stays the game's alone.

Examples:
    >>> import io, pathlib, tempfile
    >>> from cardcrawl.cli import main
    >>> path = str(pathlib.Path(tempfile.mkdtemp()) / "game.json")
    >>> main(["play", "mapless-house", "--bot", "random", "--record", path],
    ...      stdout=io.StringIO())
    0
    >>> out = io.StringIO()
    >>> main(["replay", path, "--step", "0"], stdout=out)
    0
    >>> out.getvalue().splitlines()[0].startswith("Replaying mapless-house with seed 0")
    True
"""

from __future__ import annotations

import argparse
from typing import Any

from cardcrawl.cli._common import (
    EXIT_FAILURE,
    Console,
    Parser,
    UsageError,
    add_import_option,
    check_output_path,
    check_step,
    read_record,
    record_match,
    record_states,
    verification_note,
    write_file,
)
from cardcrawl.cli._play import result_line, say_events
from cardcrawl.play._html import _VIEW_SEED, replay_html


def add_parser(commands: argparse._SubParsersAction[Parser]) -> Parser:
    """Add the ``replay`` command to ``commands``; its parser."""
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
    replay.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="show only what seat N could know: its observed events, no seed, no "
        "hidden card (default: everything)",
    )
    add_import_option(replay)
    replay.set_defaults(run=run)
    return replay


def _replay_html(console: Console, args: argparse.Namespace) -> int:
    read = record_match(console, args.record)
    if read is None:
        return EXIT_FAILURE
    record, match = read
    step = check_step(0 if args.step is None else args.step, len(record.actions))
    seat = _check_seat(args.seat, match.game)
    if not write_file(console, args.html, replay_html(match, step=step, seat=seat)):
        return EXIT_FAILURE
    console.error(verification_note(args.record, record))
    console.say(f"Replay of {len(record.actions)} actions written to {args.html}.")
    return 0


def _check_seat(seat: int | None, game: Any) -> int | None:
    """``--seat``, checked against the record's game.

    Raises:
        UsageError: the game has no such seat.
    """
    if seat is None or 0 <= seat < game.num_players:
        return seat
    last = game.num_players - 1
    seats = "the only seat is 0" if last == 0 else f"the seats are 0 to {last}"
    raise UsageError(f"--seat {seat}: {game.name} has no seat {seat}; {seats}")


def run(console: Console, args: argparse.Namespace) -> int:
    """Tell the story of the record ``args`` names, or write its page; the exit code."""
    if args.html is not None:
        check_output_path("--html", args.html)
        return _replay_html(console, args)
    record = read_record(console, args.record)
    if record is None:
        return EXIT_FAILURE
    # Verified whole before any of it is told: a story that stops at a broken entry
    # would read as if the game had ended there.
    replayed = record_states(console, args.record, record)
    if replayed is None:
        return EXIT_FAILURE
    game, states = replayed
    last = len(record.actions)
    step = check_step(args.step, last)
    seat = _check_seat(args.seat, game)
    # Said on stderr, as gpg --verify says it: the story on stdout is the game's alone.
    console.error(verification_note(args.record, record))
    unverified = "" if record.verified else ", unverified"
    if seat is None:
        begun = "from a position" if record.seed is None else f"with seed {record.seed}"
        console.say(f"Replaying {game.name} {begun} ({last} actions{unverified}).")
        for state in states[: step + 1]:
            say_events(console, state)
        console.say(game.render(states[step]))
    else:
        console.say(f"Replaying {game.name} as seat {seat} saw it ({last} actions{unverified}).")
        for state in states[: step + 1]:
            for event in getattr(game.observe(state, seat), "events", ()):
                console.say(str(event))
        console.say(game.render(game.determinize(states[step], seat, _VIEW_SEED)))
    if game.is_terminal(states[step]):
        console.say(result_line(game, states[step]))
    else:
        console.say(f"Step {step} of {last}.")
    return 0
