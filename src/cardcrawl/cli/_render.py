"""``cardcrawl render RECORD.json``: the state after K actions of a record, as SVG.

``--step K`` picks the state (default: the last); ``--output FILE`` writes the picture
to a file instead of standard output.

Examples:
    >>> import io, pathlib, tempfile
    >>> from cardcrawl.cli import main
    >>> path = str(pathlib.Path(tempfile.mkdtemp()) / "game.json")
    >>> main(["play", "mapless-house", "--bot", "random", "--record", path],
    ...      stdout=io.StringIO())
    0
    >>> out = io.StringIO()
    >>> main(["render", path, "--step", "1"], stdout=out)
    0
    >>> out.getvalue().startswith("<svg")
    True
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from cardcrawl.cli._common import (
    EXIT_FAILURE,
    Console,
    Parser,
    add_import_option,
    check_output_path,
    check_step,
    read_record,
    record_states,
    write_file,
)
from cardcrawl.errors import NoRendererError
from cardcrawl.kit._svg import svg


class _NotOutput(argparse.Action):
    """``-o`` given to ``render``: a usage error that names ``--output``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        raise argparse.ArgumentError(
            self, "render takes no game options; write the SVG to a file with --output FILE"
        )


def add_parser(commands: argparse._SubParsersAction[Parser]) -> Parser:
    """Add the ``render`` command to ``commands``; its parser."""
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
        "--output", metavar="FILE", help="write the SVG to FILE (default: standard output)"
    )
    # -o is a game option (-o NAME=VALUE) in every command that has one; here, where it
    # once meant the output, it says so rather than "unrecognized arguments".
    render.add_argument("-o", nargs="?", action=_NotOutput, help=argparse.SUPPRESS)
    add_import_option(render)
    render.set_defaults(run=run)
    return render


def run(console: Console, args: argparse.Namespace) -> int:
    """Draw the state ``args`` asks for; the exit code."""
    check_output_path("--output", args.output)
    record = read_record(console, args.record)
    if record is None:
        return EXIT_FAILURE
    replayed = record_states(console, args.record, record)
    if replayed is None:
        return EXIT_FAILURE
    game, states = replayed
    step = check_step(args.step, len(record.actions))
    try:
        picture = svg(game, states[step])
    except NoRendererError as exc:
        console.error(f"cardcrawl: {exc}")
        return EXIT_FAILURE
    if args.output is None:
        console.write(console.stdout, picture.text + "\n")
        return 0
    if not write_file(console, args.output, picture.text + "\n"):
        return EXIT_FAILURE
    console.say(f"Step {step} of {len(record.actions)} drawn to {args.output}.")
    return 0
