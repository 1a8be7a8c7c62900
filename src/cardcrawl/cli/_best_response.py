"""``cardcrawl best-response GAME``: what each seat gains by best-responding to the others.

::

    cardcrawl best-response escape-from-haydes --max-rounds 1 --bot random \\
        --hidden --position "..."
    cardcrawl best-response escape-from-haydes --players 2 --bot random --games 300

From a position small enough to solve (``--position TEXT``, or the start ``--seed N``
deals, with explicit chance), each seat's exact gain from best-responding to the other
seats' bots, as a fraction (:func:`cardcrawl.solve.best_response_gains`), with the
line-up's NashConv and exploitability. With ``--games N``, a sampled estimate on whole
games instead: each seat in turn plays ``--responder`` (IS-MCTS by default) against the
others' bots on the same seeds, and its gain gets a 95% interval
(:func:`cardcrawl.compare.sampled_best_response_gains`).

Exit codes: 0 on success, 1 when the position cannot be solved, 2 for bad arguments.

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> out = io.StringIO()
    >>> main(["best-response", "escape-from-haydes-solo-timer", "--bot", "random",
    ...       "--games", "20", "--responder", "random", "--workers", "1"], stdout=out)
    0
    >>> out.getvalue().splitlines()[-1]
    '  NashConv 0.000 [0.000, 0.000], exploitability 0.000 [0.000, 0.000]'
"""

from __future__ import annotations

import argparse

from cardcrawl.bots import get_bot_spec
from cardcrawl.cli import _simulate
from cardcrawl.cli._common import (
    EXIT_FAILURE,
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
    start_position,
)
from cardcrawl.compare import sampled_best_response_gains
from cardcrawl.errors import CardcrawlError
from cardcrawl.solve import best_response_gains


def add_parser(commands: Commands, shortcuts: Shortcuts) -> Parser:
    """Add the ``best-response`` command to ``commands``; its parser."""
    p = add_command(
        commands,
        "best-response",
        help="each seat's gain from best-responding to the others' bots",
        description="Each seat's exact gain from best-responding to the other seats' bots "
        "in a position small enough to solve, or with --games a sampled estimate on whole "
        "games, each seat played by --responder in turn.",
    )
    add_bot_option(p, "the bot of every seat, or SEAT=NAME for one (default: random)")
    add_start_arguments(p, seed_help="the seed (0): of the start solved, or of the games")
    add_option_arguments(p, shortcuts)
    p.add_argument(
        "--hidden",
        action="store_true",
        help="solve a position that hides something (a stacked deck) with it known",
    )
    p.add_argument(
        "--solver-nodes",
        type=int,
        default=1_000_000,
        metavar="N",
        help="each exact solve's budget of states (1000000)",
    )
    p.add_argument(
        "--games", type=int, metavar="N", help="estimate on N whole games instead (sampled)"
    )
    p.add_argument(
        "--responder",
        default="ismcts",
        metavar="BOT",
        help="the bot that replaces each seat's in turn, with --games (ismcts)",
    )
    add_run_options(p, workers="worker processes, with --games")
    p.set_defaults(run=run)
    return p


def run(console: Console, args: argparse.Namespace) -> int:
    """Carry out ``cardcrawl best-response`` with parsed ``args``; the exit code.

    Raises:
        UsageError: the arguments are bad.
    """
    if args.solver_nodes < 1:
        raise UsageError(f"--solver-nodes is a number >= 1, not {args.solver_nodes}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers is a number >= 1, not {args.workers}")
    seed = 0 if args.seed is None else args.seed
    game = _simulate._game(args)
    lineups = _simulate._lineups(args, game)
    if len(lineups) > 1:
        raise UsageError("give one line-up of bots: --bot NAME, or SEAT=NAME for each seat")
    lineup = [lineups[0][seat] for seat in range(game.num_players)]
    if args.games is not None:
        if args.games < 2:
            raise UsageError(f"--games is a number >= 2, not {args.games}")
        if args.position is not None:
            raise UsageError("--games plays whole games: give no --position")
        try:
            get_bot_spec(args.responder, game)
            sampled = sampled_best_response_gains(
                game,
                lineup,
                responder=args.responder,
                games=args.games,
                seed=seed,
                workers=args.workers,
            )
        except CardcrawlError as exc:
            raise UsageError(str(exc)) from None
        console.say(sampled.format())
        return 0
    if args.position is not None:
        state = start_position(game, args.position)
    else:
        state = game.initial_state(seed, explicit_chance=True)
    try:
        exact = best_response_gains(
            game, state, lineup, seed=seed, hidden=args.hidden, max_nodes=args.solver_nodes
        )
    except CardcrawlError as exc:
        console.error(f"cardcrawl best-response: {exc}")
        console.error("(--games N estimates the gains on whole games instead)")
        return EXIT_FAILURE
    console.say(exact.format())
    return 0
