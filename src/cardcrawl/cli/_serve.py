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
    serve.add_argument(
        "--db",
        metavar="FILE",
        help="the SQLite file that keeps every table as it is played, so that a restart "
        "loses nothing (default: tables.sqlite3 in the user's data folder, "
        "~/.local/share/cardcrawl)",
    )
    serve.add_argument(
        "--expire-days",
        type=float,
        default=30.0,
        metavar="DAYS",
        help="remove a table nobody has touched for this many days (30)",
    )
    serve.add_argument(
        "--max-tables",
        type=int,
        default=1000,
        metavar="N",
        help="the most tables not yet over; a new one beyond is refused (1000)",
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
    if not 0 < args.expire_days <= 36500:
        raise UsageError(f"--expire-days is a number of days above 0, not {args.expire_days}")
    if args.max_tables < 1:
        raise UsageError(f"--max-tables is at least 1, not {args.max_tables}")
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
            db=args.db,
            max_tables=args.max_tables,
            expire_after=args.expire_days * 24 * 3600,
            ready=ready,
        )
    except MissingExtraError as exc:
        console.error(f"cardcrawl: {exc}")
        return EXIT_USAGE
    except OptionsError as exc:
        raise UsageError(str(exc)) from None
    except web.StorageError as exc:
        console.error(f"cardcrawl: --db: {exc}")
        return EXIT_FAILURE
    except OSError as exc:
        console.error(f"cardcrawl: cannot listen on {args.host}:{args.port}: {exc}")
        return EXIT_FAILURE
    return 0
