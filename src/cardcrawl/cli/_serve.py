"""``cardcrawl serve``: the web app that plays any registered game in a browser.

It listens on 127.0.0.1 (this machine only) unless ``--host`` says otherwise, and
prints the address to open. The app lives in :mod:`cardcrawl.web` and needs the
``web`` extra; without it the command says what to install and exits with status 2.

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> err = io.StringIO()
    >>> main(["serve", "--port", "70000"], stderr=err)
    2
    >>> "--port" in err.getvalue()
    True
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cardcrawl.cli._common import (
    EXIT_FAILURE,
    EXIT_USAGE,
    Console,
    Parser,
    UsageError,
    add_import_option,
)
from cardcrawl.errors import MissingExtraError, OptionsError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def add_parser(commands: argparse._SubParsersAction[Parser]) -> Parser:
    """Add the ``serve`` command to ``commands``; its parser."""
    serve = commands.add_parser(
        "serve",
        help="play any game in a web browser",
        description="Serve a local web app to play any registered game in a browser: each "
        "seat a person or a bot, people in one browser (hot seat) or in several.",
    )
    serve.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"the TCP port (default {DEFAULT_PORT})"
    )
    serve.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="how long a bot waits before each move, so its moves can be followed (0.8)",
    )
    serve.add_argument(
        "--records",
        metavar="DIR",
        help="write the record of every finished game to this folder",
    )
    add_import_option(serve)
    serve.set_defaults(run=run)
    return serve


def run(console: Console, args: argparse.Namespace) -> int:
    """Serve until interrupted; the exit code."""
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port is from 0 to 65535, not {args.port}")
    if args.bot_delay < 0:
        raise UsageError(f"--bot-delay is a number of seconds of at least 0, not {args.bot_delay}")
    if args.records is not None and not Path(args.records).is_dir():
        raise UsageError(f"--records {args.records}: not a folder")
    try:
        # Put off: the web extra is optional, and only this command needs it.
        from cardcrawl import web
    except MissingExtraError as exc:
        console.error(f"cardcrawl: {exc}")
        return EXIT_USAGE

    def ready(url: str) -> None:
        console.say(f"Serving cardcrawl at {url} (Ctrl-C stops)")
        console.stdout.flush()

    try:
        web.serve(
            host=args.host,
            port=args.port,
            bot_delay=args.bot_delay,
            records_dir=args.records,
            ready=ready,
        )
    except MissingExtraError as exc:
        console.error(f"cardcrawl: {exc}")
        return EXIT_USAGE
    except OptionsError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        console.error(f"cardcrawl: cannot listen on {args.host}:{args.port}: {exc}")
        return EXIT_FAILURE
    return 0
