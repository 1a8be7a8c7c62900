"""``cardcrawl tournament GAME``: bots against each other on duplicate deals, rated.

::

    cardcrawl tournament mapless-house --bot heuristic --bot search --bot random \\
        --games 500 --seed 1 --workers 2 --output games.csv --plot tournament.png

Two or more ``--bot NAME`` play a round robin (``--kind gauntlet``: the first bot
against each other), every lineup on the same ``--games`` deals, seats rotated (see
:func:`cardcrawl.tournament.tournament`). The standings with Bradley-Terry ratings and
their 95% intervals, a cross-table and each bot's outcomes (one-seat games) or win share
by seat go to standard output; a progress display to standard error. ``--output``
writes every game (``.csv``) or everything (``.json``); ``--plot`` draws the ratings,
the cross-table and the outcomes (the ``plot`` extra). ``--bot engine`` enters the
program ``--engine "COMMAND ARGS"`` names (else ``$CARDCRAWL_ENGINE``); with
``--on-bot-error forfeit`` a bot that fails its seat loses that game instead of
stopping the tournament. ``--position TEXT`` starts every deal from that position, its
generator re-seeded for each deal from ``--seed``.

Exit codes: 0 on success, 1 when a bot fails its seat (without ``--on-bot-error
forfeit``) or writing the results or the plot fails, 2 for bad arguments (an unknown
bot, a bot that does not play the game, one bot only, fewer than one game), 130 after
Ctrl-C (the deals every lineup finished are still rated).

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> out = io.StringIO()
    >>> main(["tournament", "mapless-house", "--bot", "heuristic", "--bot", "random",
    ...       "--games", "6", "--workers", "1", "--progress", "none"], stdout=out)
    0
    >>> print(out.getvalue().splitlines()[0])
    mapless-house, round-robin of 2 bots, 2 lineups of 6 deals, seed 0
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from cardcrawl.bots import get_bot_spec
from cardcrawl.cli._common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    MANY_POSITION_HELP,
    PROGRESS_HELP,
    AnyGame,
    Commands,
    Console,
    Parser,
    Shortcuts,
    UsageError,
    add_bot_option,
    add_command,
    add_option_arguments,
    add_run_options,
    add_start_arguments,
    sampled_position,
)
from cardcrawl.cli._simulate import (
    _game,
    _progress,
    add_bot_error_arguments,
    check_run_arguments,
    engine_bot,
    forfeit_note,
    save_outputs,
)
from cardcrawl.errors import CardcrawlError
from cardcrawl.tournament import TournamentResult, plot_tournament, schedule, tournament
from cardcrawl.tournament._schedule import KINDS

_OUT_SUFFIXES = (".csv", ".json")


def add_parser(commands: Commands, shortcuts: Shortcuts) -> Parser:
    """Add the ``tournament`` command to ``commands``, with the shortcut flags; its parser."""
    p = add_command(
        commands,
        "tournament",
        help="play bots against each other on the same deals and rate them",
        description=(
            "Play two or more bots against each other, every lineup on the same deals and "
            "seats rotated, and rate them (Bradley-Terry, Elo scale, 95% intervals)."
        ),
    )
    add_bot_option(p, "a bot to enter (two or more)", metavar="NAME")
    p.add_argument("--games", type=int, default=100, metavar="N", help="deals per lineup (100)")
    add_start_arguments(
        p,
        seed_help="the tournament's seed (0)",
        seed_default=0,
        position_help=MANY_POSITION_HELP,
        exclusive=False,
    )
    p.add_argument(
        "--kind",
        choices=KINDS,
        default="round-robin",
        help="every pair meets, or the first bot meets each other (round-robin)",
    )
    add_run_options(
        p,
        output="write every game (.csv) or everything (.json) to FILE",
        plot="draw the results to FILE (.png, .pdf, .svg; needs matplotlib)",
        progress=PROGRESS_HELP,
    )
    p.add_argument("--batch-size", type=int, metavar="N", help="games per task")
    add_option_arguments(p, shortcuts)
    add_bot_error_arguments(p)
    p.set_defaults(run=run)
    return p


def _check(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise UsageError(f"--games is a number >= 1 (deals per lineup), not {args.games}")
    check_run_arguments(args)
    if args.engine is not None and "engine" not in args.bot:
        raise UsageError("--engine: no bot is the engine bot (--bot engine)")


def _bots(args: argparse.Namespace, game: AnyGame) -> list[str]:
    names = list(args.bot)
    if len(names) < 2:
        raise UsageError(
            f"a tournament needs two bots or more (--bot NAME --bot NAME ...), not {len(names)}"
        )
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(f"each bot plays once; given twice: {', '.join(twice)}")
    for name in names:
        try:
            get_bot_spec(name, game)
        except CardcrawlError as exc:
            raise UsageError(f"--bot {name}: {exc}") from None
    return names


def run(console: Console, args: argparse.Namespace) -> int:
    """Carry out ``cardcrawl tournament`` with parsed ``args``; the exit code.

    Raises:
        UsageError: the arguments are bad; nothing has been played.
    """
    _check(args)
    game = _game(args)
    if args.position is not None:
        sampled_position("tournament", game, args.position)
    bots = _bots(args, game)
    lineups = len(schedule(len(bots), game.num_players, args.kind))
    options = ", ".join(f"{k}={v}" for k, v in game.options.to_data().items() if v is not None)
    head = (
        f"{game.name}, {args.kind} of {len(bots)} bots, {lineups} lineups of "
        f"{args.games:,} deals, seed {args.seed}"
    )
    if args.position is not None:
        head += ", from a position"
    console.say(head)
    if options:
        console.say(f"options {options}")
    console.stdout.flush()
    progress = _progress(args.progress, console.stderr, args.kind)
    try:
        result = tournament(
            game,
            [engine_bot(args, name) for name in bots],
            games=args.games,
            seed=args.seed,
            kind=args.kind,
            workers=args.workers,
            batch_size=args.batch_size,
            progress=progress,
            on_bot_error=args.on_bot_error,
            position=args.position,
        )
    except CardcrawlError as exc:
        # A bot failed its seat: a typed error, said in a sentence, not a traceback.
        console.error(f"cardcrawl tournament: {exc}")
        console.error("(--on-bot-error forfeit counts such a game as a loss instead)")
        return EXIT_FAILURE
    finally:
        if progress is not None:
            progress.close()
    for sim in result.simulations:
        note = forfeit_note(sim)
        if note is not None:
            console.error(note)
    if result.interrupted:
        console.error("Interrupted: only the deals every lineup finished are rated.")
    console.say()
    console.say(result.format())
    code = EXIT_INTERRUPTED if result.interrupted else 0
    return _save(console, args, result) or code


def _save(console: Console, args: argparse.Namespace, result: TournamentResult) -> int:
    jobs: list[tuple[str, Callable[[], None]]] = []
    if args.out is not None:
        jobs.append((args.out, lambda: result.write(args.out)))
    if args.plot is not None and any(s.results for s in result.simulations):
        jobs.append((args.plot, lambda: plot_tournament(result, args.plot)))
    return save_outputs(console, "tournament", jobs)
