"""``cardcrawl engine --bot NAME``: a reference engine, a registered bot played over the
engine protocol on standard input and output.

A program that runs it, such as the library's own ``make_bot("engine", game, seed,
command=["cardcrawl", "engine", "--bot", "random"])``, sends ``hello``, then ``decide``
messages, then ``end``; this answers each with the bot's choice (see
:func:`cardcrawl.bots.serve_engine` and the documentation's page *The engine protocol*).
Nothing but protocol lines is written to standard output; errors go to standard error,
with exit code 1. A ``--bot`` that names no registered bot is a usage error (exit code
2), said before anything is read.

Examples:
    >>> import io, json
    >>> from cardcrawl.cli import main
    >>> hello = {"type": "hello", "protocol": 1, "game": "mapless-house", "seat": 0, "seed": 1}
    >>> stdin = io.StringIO(json.dumps(hello) + "\\n")
    >>> out = io.StringIO()
    >>> main(["engine", "--bot", "random"], stdin=stdin, stdout=out)
    0
    >>> json.loads(out.getvalue())["type"]
    'ready'
    >>> err = io.StringIO()
    >>> main(["engine", "--bot", "nope"], stdin=io.StringIO(""), stderr=err)
    2
    >>> "no bot 'nope'" in err.getvalue()
    True
"""

from __future__ import annotations

import argparse

from cardcrawl.bots._base import bot_names
from cardcrawl.bots._engine_bot import serve_engine
from cardcrawl.cli._common import EXIT_FAILURE, Console, Parser, UsageError, add_import_option
from cardcrawl.errors import CardcrawlError


def add_parser(commands: argparse._SubParsersAction[Parser]) -> Parser:
    """Add the ``engine`` command to ``commands``; its parser."""
    engine = commands.add_parser(
        "engine",
        help="play a bot over the engine protocol (JSON lines on stdin and stdout)",
        description="Play a registered bot over the engine protocol: read hello, decide "
        "and end messages on standard input, answer on standard output, one JSON object "
        "a line.",
    )
    engine.add_argument(
        "--bot",
        default="random",
        metavar="NAME",
        help="the registered bot to play (default: random)",
    )
    engine.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the bot's seed (default: the seed the hello message sends)",
    )
    add_import_option(engine)
    engine.set_defaults(run=run)
    return engine


def run(console: Console, args: argparse.Namespace) -> int:
    """Serve the bot until the game ends; the exit code."""
    known = bot_names()
    if args.bot not in known:
        # Said at once: with no input at all, the bot would never be built.
        raise UsageError(f"--bot: no bot {args.bot!r}; the bots are: {', '.join(known)}")
    try:
        return serve_engine(args.bot, console.stdin, console.stdout, seed=args.seed)
    except CardcrawlError as exc:
        console.error(f"cardcrawl engine: {exc}")
        return EXIT_FAILURE
