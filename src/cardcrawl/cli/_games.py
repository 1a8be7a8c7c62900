"""``cardcrawl games``: the registered games and variants, those of plug-ins included.

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> out = io.StringIO()
    >>> main(["games"], stdout=out)
    0
    >>> any(line.startswith("mapless-house ") for line in out.getvalue().splitlines())
    True
"""

from __future__ import annotations

import argparse

from cardcrawl.cli._common import EXIT_FAILURE, Console, Parser, add_import_option
from cardcrawl.core._registry import PluginError, _known_names, game_names, get_spec


def add_parser(commands: argparse._SubParsersAction[Parser]) -> Parser:
    """Add the ``games`` command to ``commands``; its parser."""
    games = commands.add_parser(
        "games",
        help="list the games and variants",
        description="List the registered games and variants, those of plug-ins included.",
    )
    add_import_option(games)
    games.set_defaults(run=run)
    return games


def run(console: Console, args: argparse.Namespace) -> int:
    """List the games, one a line with its description; the exit code."""
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
