"""``cardcrawl tune GAME --bot NAME``: fit a bot's declared parameters to a game or variant.

::

    cardcrawl tune --import my_variants escape-from-haydes-equal --bot my-bot \\
        --candidates 8 --games 40 --held-out 400 --output my-bot.json
    cardcrawl simulate escape-from-haydes-equal --bot my-bot:my-bot.json

Candidate values of the bot's parameters race on the same seeds (successive halving);
the winner is checked against the defaults on held-out games, and the parameter file
is written to ``--output`` (``params.json``), which ``--bot NAME:FILE`` loads in every
command (:func:`cardcrawl.tune.tune`). A bot that declares no parameters is refused,
with what it would need to declare.

Exit codes: 0 on success, 1 when the file cannot be written, 2 for bad arguments.

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> err = io.StringIO()
    >>> main(["tune", "escape-from-haydes", "--bot", "random"], stderr=err)
    2
    >>> print(err.getvalue().splitlines()[-1])  # doctest: +ELLIPSIS
    cardcrawl tune: error: bot random declares no parameters to tune: ...
"""

from __future__ import annotations

import argparse

from cardcrawl.bots import bot_names
from cardcrawl.cli import _simulate
from cardcrawl.cli._common import (
    EXIT_FAILURE,
    Commands,
    Console,
    Parser,
    Shortcuts,
    UsageError,
    add_command,
    add_option_arguments,
    check_output_path,
)
from cardcrawl.errors import CardcrawlError
from cardcrawl.tune import tune


def add_parser(commands: Commands, shortcuts: Shortcuts) -> Parser:
    """Add the ``tune`` command to ``commands``; its parser."""
    p = add_command(
        commands,
        "tune",
        help="fit a bot's declared parameters to a game or variant",
        description="Race candidate values of a bot's declared parameters on the same "
        "seeds, check the winner on held-out games, and write a parameter file that "
        "--bot NAME:FILE loads.",
    )
    p.add_argument(
        "--bot",
        required=True,
        metavar="NAME",
        help=f"the bot to tune; bots: {', '.join(bot_names())}",
    )
    p.add_argument("--candidates", type=int, default=8, metavar="K", help="values raced (8)")
    p.add_argument("--games", type=int, default=40, metavar="N", help="first round's games (40)")
    p.add_argument("--held-out", type=int, default=200, metavar="N", help="held-out games (200)")
    p.add_argument("--seed", type=int, default=0, help="the seed (0)")
    p.add_argument(
        "--opponent", metavar="BOT", help="the other seats' bot (default: the bot's defaults)"
    )
    p.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (1)")
    p.add_argument(
        "--search",
        metavar="NAME,...",
        help="the parameters to search, by name (default: all); the others keep their defaults",
    )
    p.add_argument(
        "--output", default="params.json", metavar="FILE", help="the parameter file (params.json)"
    )
    add_option_arguments(p, shortcuts)
    p.set_defaults(run=run)
    return p


def run(console: Console, args: argparse.Namespace) -> int:
    """Carry out ``cardcrawl tune`` with parsed ``args``; the exit code.

    Raises:
        UsageError: the arguments are bad, or the bot declares no parameters.
    """
    if args.workers < 1:
        raise UsageError(f"--workers is a number >= 1, not {args.workers}")
    check_output_path("--output", args.output)
    game = _simulate._game(args)
    try:
        result = tune(
            game,
            args.bot,
            candidates=args.candidates,
            games=args.games,
            held_out=args.held_out,
            seed=args.seed,
            opponent=args.opponent,
            workers=args.workers,
            search=None if args.search is None else args.search.split(","),
        )
    except CardcrawlError as exc:
        raise UsageError(str(exc)) from None
    console.say(result.format())
    try:
        result.save(args.output)
    except OSError as exc:
        console.error(f"cardcrawl tune: cannot write {args.output}: {exc}")
        return EXIT_FAILURE
    console.say(f"Wrote {args.output}: use it as --bot {args.bot}:{args.output}")
    return 0
