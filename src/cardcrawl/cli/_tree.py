"""``cardcrawl tree GAME``: the tree behind a position's value, or IS-MCTS's search of it.

::

    cardcrawl tree escape-from-haydes --max-rounds 1 --hidden --position "..." \\
        --svg tree.svg --html tree.html
    cardcrawl tree escape-from-haydes --players 2 --seed 3 --html search.html

The position is ``--position TEXT`` (the game's notation) or the start of the game
``--seed N`` deals. Where the exact solver can value it (a solo position, or every other
seat's decisions fixed), the solver's tree is drawn (:func:`cardcrawl.tree.solver_tree`):
decision and chance nodes with exact values, chance probabilities, the best line; a
position in sampled play is first redrawn, with explicit chance, from what the seat to
move sees. ``--depth`` and ``--max-nodes`` bound the drawing; a tree too big is refused
with a message saying so. Otherwise, or with ``--search``, IS-MCTS searches it from
what the seat to move sees (:func:`cardcrawl.tree.search_position`), and its root
statistics and principal variation are shown. ``--svg`` and ``--html`` write pictures,
the text goes to standard output.

Exit codes: 0 on success, 1 when the position cannot be drawn or a file not written,
2 for bad arguments.

Examples:
    >>> import io
    >>> from cardcrawl.cli import main
    >>> out = io.StringIO()
    >>> main(["tree", "escape-from-haydes", "--max-rounds", "1", "--seed", "1",
    ...       "--search", "--iterations", "50"], stdout=out)
    0
    >>> out.getvalue().splitlines()[0]
    'IS-MCTS, seat 0, 50 iterations'
"""

from __future__ import annotations

import argparse
from typing import Any

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
    add_start_arguments,
    check_output_path,
    start_position,
    write_file,
)
from cardcrawl.core._protocol import CHANCE
from cardcrawl.errors import CardcrawlError, SolverBudgetError, UnsolvableError
from cardcrawl.tree import (
    search_html,
    search_position,
    search_svg,
    search_text,
    solver_tree,
    tree_html,
    tree_svg,
)
from cardcrawl.tree._render import fraction_text
from cardcrawl.tree._solver_tree import DEFAULT_TREE_NODES


def add_parser(commands: Commands, shortcuts: Shortcuts) -> Parser:
    """Add the ``tree`` command to ``commands``, with the shortcut flags; its parser."""
    p = add_command(
        commands,
        "tree",
        help="draw the solver's tree of a small position, or IS-MCTS's search of any",
        description="Draw the exact solver's tree of a position (values and chances as "
        "fractions, the best line), or show IS-MCTS's root statistics and principal "
        "variation where the position is too big or not solvable.",
    )
    add_start_arguments(p, seed_help="the seed of the game's start (0)", seed_default=0)
    add_option_arguments(p, shortcuts)
    p.add_argument("--depth", type=int, metavar="N", help="draw N levels only")
    p.add_argument(
        "--max-nodes",
        type=int,
        default=DEFAULT_TREE_NODES,
        metavar="N",
        help=f"the most nodes to draw ({DEFAULT_TREE_NODES})",
    )
    p.add_argument(
        "--solver-nodes",
        type=int,
        default=20_000,
        metavar="N",
        help="the solver's budget of states (20000); past it, IS-MCTS searches instead",
    )
    p.add_argument(
        "--hidden",
        action="store_true",
        help="solve a position that hides something (a stacked deck) with it known",
    )
    p.add_argument("--search", action="store_true", help="show IS-MCTS's search, not the tree")
    p.add_argument(
        "--iterations", type=int, default=1000, metavar="N", help="IS-MCTS iterations (1000)"
    )
    p.add_argument("--rollout", default="random", metavar="BOT", help="IS-MCTS's rollout bot")
    p.add_argument("--svg", metavar="FILE", help="write the picture to FILE")
    p.add_argument("--html", metavar="FILE", help="write a page to FILE")
    p.set_defaults(run=run)
    return p


def _state(game: Any, args: argparse.Namespace) -> Any:
    if args.position is not None:
        return start_position(game, args.position)
    return game.initial_state(args.seed, explicit_chance=True)


def _solvable(game: Any, state: Any, seed: int) -> Any:
    """The state the solver is given: an explicit-chance state as it is, else the one
    the seat to move sees, redrawn with explicit chance."""
    if getattr(state, "explicit_chance", False):
        return state
    seat = game.current_player(state)
    return game.sample_state(game.observe(state, seat), seat, seed, explicit_chance=True)


def _decided(game: Any, state: Any) -> Any:
    """The first state from ``state`` where a seat decides (explicit chance resolved by
    its likeliest outcome), for a search."""
    for _ in range(10_000):
        if game.current_player(state) != CHANCE:
            return state
        outcomes = game.chance_outcomes(state)
        best = max(p for _, p in outcomes)
        state = game.step(state, next(o for o, p in outcomes if p == best))
    return state


def run(console: Console, args: argparse.Namespace) -> int:
    """Carry out ``cardcrawl tree`` with parsed ``args``; the exit code.

    Raises:
        UsageError: the arguments are bad.
    """
    if args.depth is not None and args.depth < 0:
        raise UsageError(f"--depth is a number >= 0, not {args.depth}")
    if args.max_nodes < 1:
        raise UsageError(f"--max-nodes is a number >= 1, not {args.max_nodes}")
    if args.iterations < 1:
        raise UsageError(f"--iterations is a number >= 1, not {args.iterations}")
    if args.solver_nodes < 1:
        raise UsageError(f"--solver-nodes is a number >= 1, not {args.solver_nodes}")
    check_output_path("--svg", args.svg)
    check_output_path("--html", args.html)
    game = _simulate._game(args)
    state = _state(game, args)
    if game.is_terminal(state):
        raise UsageError("the position is over: nothing is left to decide")
    title = f"{game.name}: {game.describe(state)}"
    if not args.search:
        try:
            root = solver_tree(
                game,
                _solvable(game, state, args.seed),
                player=max(0, game.current_player(state)),
                hidden=args.hidden,
                max_nodes=args.max_nodes,
                depth=args.depth,
                solver_nodes=args.solver_nodes,
            )
        except (SolverBudgetError, UnsolvableError) as exc:
            console.error(f"cardcrawl tree: no solver's tree: {exc}")
            console.error("IS-MCTS searches the position instead.")
        except CardcrawlError as exc:
            console.error(f"cardcrawl tree: {exc}")
            return EXIT_FAILURE
        else:
            console.say(f"Value {fraction_text(root.value)}, {root.size} nodes.")
            line = [n.edge for n in root.best_line()[1:]]
            console.say("Best line: " + (" -> ".join(line) if line else "(nothing to play)"))
            return _write(console, args, tree_svg(root, title=title), tree_html(root, title=title))
    decided = _decided(game, state)
    if game.current_player(decided) < 0:
        raise UsageError("no seat decides from this position on")
    try:
        result = search_position(
            game, decided, iterations=args.iterations, seed=args.seed, rollout=args.rollout
        )
    except CardcrawlError as exc:
        console.error(f"cardcrawl tree: {exc}")
        return EXIT_FAILURE
    for text in search_text(game, result):
        console.say(text)
    return _write(
        console,
        args,
        search_svg(game, result, title=title),
        search_html(game, result, title=f"IS-MCTS: {title}"),
    )


def _write(console: Console, args: argparse.Namespace, svg: str, page: str) -> int:
    for path, text in ((args.svg, svg), (args.html, page)):
        if path is None:
            continue
        if not write_file(console, path, text):
            return EXIT_FAILURE
        console.say(f"Wrote {path}.")
    return 0
