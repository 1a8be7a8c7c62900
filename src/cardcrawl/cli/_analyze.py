"""``cardcrawl analyze RECORD.json``: every decision of a game valued, and the mistakes marked.

Each decision of the record is replayed from what the deciding seat saw: the legal
actions are valued by the exact solver (:mod:`cardcrawl.solve`) where the position is
small enough (a solo game, within ``--solver-nodes``), else by an IS-MCTS search
(:class:`~cardcrawl.bots.ISMCTSBot`, ``--iterations`` a decision, the action played
always visited enough to be valued). A value is the expected return of the seat that
decides (for the built-in games, its chance of escaping or winning). What the action
played lost against the best is marked as a chess engine marks moves: ``??`` for a
blunder (a loss of 0.20 or more), ``?`` for a mistake (0.10), ``?!`` for an inaccuracy
(0.05). IS-MCTS values are estimates: a mark from a search is as sure as its
iterations make it (a few hundred iterations tell apart differences of about 0.1).

``--html FILE`` also writes the replay page with each marked step's heading carrying
its mark (:func:`~cardcrawl.replay_html`). ``--trees DIR`` writes, for each marked
decision, the page of what valued it (``DIR/step-K.html``): the exact solver's tree
(:func:`~cardcrawl.tree.tree_html`; cut to a few levels when whole it is too big to
draw) or IS-MCTS's root statistics and principal variation
(:func:`~cardcrawl.tree.search_html`), and the report names each page.

Examples:
    >>> import io, pathlib, tempfile
    >>> from cardcrawl.cli import main
    >>> path = str(pathlib.Path(tempfile.mkdtemp()) / "game.json")
    >>> main(["play", "escape-from-haydes-solo-timer", "--bot", "random", "--seed", "3",
    ...       "--record", path], stdout=io.StringIO())
    0
    >>> out = io.StringIO()
    >>> main(["analyze", path, "--iterations", "20"], stdout=out)
    0
    >>> out.getvalue().splitlines()[0]  # doctest: +ELLIPSIS
    'Analysis of escape-from-haydes-solo-timer, seed 3: ... decisions valued ...'
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from cardcrawl.bots._ismcts import ISMCTSBot, SearchResult
from cardcrawl.cli._common import (
    EXIT_FAILURE,
    Console,
    Parser,
    UsageError,
    add_import_option,
    check_output_path,
    record_match,
    verification_note,
    write_file,
)
from cardcrawl.core._random import rng_derive
from cardcrawl.errors import CardcrawlError, SolverBudgetError, UnsolvableError
from cardcrawl.play._html import replay_html
from cardcrawl.play._record import Record
from cardcrawl.solve import Solver
from cardcrawl.tree import search_html, solver_tree, tree_html

__all__ = ["MARKS", "Review", "add_parser", "analyze_match", "run"]

#: The marks, worst first: a decision that lost at least this much value gets the mark.
MARKS = ((0.20, "??", "blunder"), (0.10, "?", "mistake"), (0.05, "?!", "inaccuracy"))


@attrs.frozen
class Review:
    """One decision of a game, valued.

    Attributes:
        step: the step the decision made (1 for the record's first action), as the
            replay page numbers it.
        player: the seat that decided.
        played: the action it took.
        values: each legal action with its value for that seat, in the game's order.
        best: the best action found (the solver's best, or the search's most visited).
        method: ``"solver"`` (exact values) or ``"ismcts"`` (estimates).
        margin: the 95% half-width of the loss estimate (0 for exact values): a loss
            no greater is not marked, since it may be the search's noise.

    Examples:
        >>> from cardcrawl.cli._analyze import Review
        >>> review = Review(4, 0, "hit", (("hit", 0.25), ("stand", 0.6)), "stand", "solver")
        >>> round(review.loss, 2), review.mark, review.label
        (0.35, '??', 'blunder')
        >>> attrs.evolve(review, method="ismcts", margin=0.4).mark
        ''
    """

    step: int
    player: int
    played: Any
    values: tuple[tuple[Any, float], ...]
    best: Any
    method: str
    margin: float = 0.0
    #: What valued the decision, for its tree: the state the solver was given, or the
    #: search's result (with its principal variation).
    source: Any = attrs.field(default=None, eq=False, repr=False)

    def value(self, action: Any) -> float:
        """The value of ``action``."""
        return next(v for a, v in self.values if a == action)

    @property
    def loss(self) -> float:
        """What the action played lost against the best (0 at least)."""
        return max(0.0, self.value(self.best) - self.value(self.played))

    @property
    def mark(self) -> str:
        """``??``, ``?``, ``?!`` or ``""`` (see :data:`MARKS`)."""
        loss = self.loss if self.loss > self.margin else 0.0
        return next((mark for low, mark, _ in MARKS if loss >= low), "")

    @property
    def label(self) -> str:
        """``blunder``, ``mistake``, ``inaccuracy`` or ``""``."""
        loss = self.loss if self.loss > self.margin else 0.0
        return next((label for low, _, label in MARKS if loss >= low), "")


def analyze_match(
    match: Any,
    *,
    seats: Sequence[int] | None = None,
    iterations: int = 400,
    seed: int = 0,
    rollout: str = "random",
    solver_nodes: int = 20_000,
) -> list[Review]:
    """Every decision of ``match`` with more than one legal action, valued, in order.

    The decisions are valued from the last to the first, so that the exact solver (solo
    games only) meets the small positions first; once a position is too big for it
    (``solver_nodes`` states) or cannot be solved, the earlier ones go to IS-MCTS.

    Args:
        match: a :class:`~cardcrawl.Match`, such as ``Match.from_record(record)``.
        seats: the seats whose decisions are valued (default: every seat).
        iterations: IS-MCTS iterations per decision.
        seed: the seed of the searches (and of the states the solver is given).
        rollout: IS-MCTS's rollout bot.
        solver_nodes: the solver's node budget per decision; 0 never uses the solver.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.cli._analyze import analyze_match
        >>> game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=2)
        >>> match = cardcrawl.Match.start(game, seed=2)
        >>> while not game.is_terminal(match.state):
        ...     _ = match.play(game.legal_actions(match.state)[-1])
        >>> reviews = analyze_match(match, iterations=30)
        >>> all(r.played in dict(r.values) for r in reviews)
        True
    """
    game = match.game
    chosen = None if seats is None else set(seats)
    decisions = []
    states = match.states
    for k, entry in enumerate(match.history):
        before = states[k]
        if entry.player < 0 or (chosen is not None and entry.player not in chosen):
            continue
        legal = game.legal_actions(before)
        if len(legal) > 1:
            decisions.append((k, entry.player, entry.action, before, legal))
    solver = _solver_for(game, solver_nodes) if solver_nodes > 0 else None
    reviews: list[Review] = []
    for k, player, played, before, legal in reversed(decisions):
        seen = game.observe(before, player)
        review = None
        if solver is not None:
            try:
                review = _solved(solver, game, k, player, played, seen, seed)
            except (SolverBudgetError, UnsolvableError):
                solver = None
        if review is None:
            review = _searched(game, k, player, played, seen, legal, seed, iterations, rollout)
        reviews.append(review)
    reviews.reverse()
    return reviews


def _solver_for(game: Any, nodes: int) -> Any:
    """The exact solver of a solo game (``None`` for others: it needs every other seat's
    policy), keeping what it solves from one decision to the next."""
    if game.num_players != 1:
        return None
    return Solver(game, player=0, max_nodes=nodes)


def _solved(
    solver: Any, game: Any, k: int, player: int, played: Any, seen: Any, seed: int
) -> Review:
    # One seed for every decision: in explicit chance the generator decides nothing,
    # but it is part of a state, so sharing it lets the solver reuse what it solved.
    state = game.sample_state(seen, player, seed, explicit_chance=True)
    solution = solver.solve(state)
    values = tuple((a, float(v)) for a, v in solution.actions)
    return Review(k + 1, player, played, values, solution.best_actions[0], "solver", source=state)


def _searched(
    game: Any,
    k: int,
    player: int,
    played: Any,
    seen: Any,
    legal: Sequence[Any],
    seed: int,
    iterations: int,
    rollout: str,
) -> Review:
    bot = ISMCTSBot(game, rng_derive(seed, k), player, iterations=iterations, rollout=rollout)
    # The principal variation is kept for the tree pages; it changes nothing of the search.
    result = bot.search(
        game,
        seen,
        legal,
        ensure=[played],
        min_visits=max(8, iterations // 10),
        principal_variation=True,
    )
    values = tuple((s.action, s.value) for s in result.actions)
    best = result.best
    margin = 0.0
    if best != played:
        # A return between 0 and 1 with mean v has a variance of v(1 - v) at most; v is
        # taken with one win and one loss added (Laplace), lest a few alike returns
        # pass for a sure value.
        pair = [result.stats(best), result.stats(played)]
        if all(s.visits for s in pair):
            spread = 0.0
            for s in pair:
                v = (s.value * s.visits + 1) / (s.visits + 2)
                spread += v * (1 - v) / s.visits
            margin = 1.96 * math.sqrt(max(0.0, spread))
        else:
            margin = math.inf
    return Review(k + 1, player, played, values, best, "ismcts", margin, source=result)


# ------------------------------------------------------------------ the command
def add_parser(commands: argparse._SubParsersAction[Parser]) -> Parser:
    """Add the ``analyze`` command to ``commands``; its parser."""
    analyze = commands.add_parser(
        "analyze",
        help="value every decision of a game record and mark the mistakes",
        description="Value every decision of a game record with the exact solver (small "
        "positions) or IS-MCTS, and mark the decisions that lost the most (?? blunder: "
        "0.20 or more, ? mistake: 0.10, ?! inaccuracy: 0.05).",
    )
    analyze.add_argument("record", metavar="RECORD.json", help="a record saved by play --record")
    analyze.add_argument(
        "--seat", type=int, action="append", metavar="N", help="only this seat's decisions"
    )
    analyze.add_argument(
        "--iterations", type=int, default=400, metavar="N", help="IS-MCTS iterations a decision"
    )
    analyze.add_argument(
        "--rollout",
        default="random",
        metavar="BOT",
        help="IS-MCTS's rollout bot (random; heuristic plays better but slower, and is "
        "needed where random play never wins, as in The Mapless House)",
    )
    analyze.add_argument(
        "--solver-nodes",
        type=int,
        default=20_000,
        metavar="N",
        help="the exact solver's budget per decision (0: never use it)",
    )
    analyze.add_argument("--seed", type=int, default=0, help="the searches' seed")
    analyze.add_argument("--top", type=int, default=5, metavar="K", help="list the K worst")
    analyze.add_argument(
        "--html", metavar="FILE", help="also write the replay page, the marks on its steps"
    )
    analyze.add_argument(
        "--trees",
        metavar="DIR",
        help="write, for each marked decision, the solver's tree or IS-MCTS's search that "
        "valued it to DIR/step-K.html",
    )
    add_import_option(analyze)
    analyze.set_defaults(run=run)
    return analyze


def _format(game: Any, action: Any) -> str:
    return str(game.format_action(action))


def report(
    game: Any,
    record: Record,
    reviews: Sequence[Review],
    top: int,
    trees: Mapping[int, str] | None = None,
) -> list[str]:
    """The analysis as lines of text: a table of every decision, then the worst (each
    with the page of its tree, from ``trees``: the page by step)."""
    solved = sum(1 for r in reviews if r.method == "solver")
    how = f"{solved} by the exact solver, {len(reviews) - solved} by IS-MCTS"
    begun = "from a position" if record.position is not None else f"seed {record.seed}"
    lines = [
        f"Analysis of {game.name}, {begun}: {len(reviews)} decisions valued ({how}).",
        # On a line of its own: a position's notation may run to hundreds of characters.
        *([] if record.position is None else [f"Position: {record.position}"]),
        "Values are the deciding seat's expected return (1: a sure escape or win).",
        "",
    ]
    if not reviews:
        return [*lines, "No decision had more than one legal action."]
    rows = [("step", "seat", "played", "value", "best", "value", "lost", "", "by")]
    for r in reviews:
        rows.append(
            (
                str(r.step),
                str(r.player),
                _format(game, r.played),
                f"{r.value(r.played):.3f}",
                _format(game, r.best),
                f"{r.value(r.best):.3f}",
                f"{r.loss:.3f}"
                + (f" ±{r.margin:.3f}" if r.method != "solver" and r.best != r.played else ""),
                r.mark,
                r.method,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    right = {0, 1, 3, 5, 6}
    for row in rows:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    searched = [v for r in reviews if r.method == "ismcts" for _, v in r.values]
    if searched and not any(searched):
        lines += [
            "",
            "Every value the search found is 0: its rollouts never won. Try --rollout heuristic.",
        ]
    worst = sorted((r for r in reviews if r.mark), key=lambda r: (-r.loss, r.step))[: max(0, top)]
    lines.append("")
    if not worst:
        low = MARKS[-1][0]
        lines.append(f"No decision lost {low:.2f} or more.")
        return lines
    lines.append("The decisions that lost the most:")
    for r in worst:
        seat = f"seat {r.player} " if game.num_players > 1 else ""
        lines.append(
            f"  step {r.step}: {seat}played {_format(game, r.played)}{r.mark} ({r.label}), "
            f"losing {r.loss:.3f} ({r.value(r.best):.3f} -> {r.value(r.played):.3f}); "
            f"best: {_format(game, r.best)}"
            + (f"; tree: {trees[r.step]}" if trees and r.step in trees else "")
        )
    return lines


def tree_page(game: Any, review: Review) -> str:
    """The page of what valued ``review``: the solver's tree of the position (whole, or
    cut to the levels that fit a page), or IS-MCTS's search."""
    title = f"{game.name}, step {review.step}: seat {review.player} played " + _format(
        game, review.played
    )
    if review.method == "solver" and review.source is not None:
        for depth in (None, 4, 3, 2, 1):
            try:
                root = solver_tree(
                    game, review.source, player=review.player, depth=depth, hidden=True
                )
            except SolverBudgetError:
                continue
            return tree_html(root, title=title)
    if isinstance(review.source, SearchResult):
        return search_html(game, review.source, title=title)
    return search_html(game, SearchResult(review.player, 0, ()), title=title)


def write_trees(
    console: Console, game: Any, reviews: Sequence[Review], folder: str
) -> dict[int, str] | None:
    """Write :func:`tree_page` of each marked review to ``folder/step-K.html``; the
    paths by step, or ``None`` after saying what could not be written."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        console.error(f"cardcrawl: cannot make {folder}: {exc}")
        return None
    written: dict[int, str] = {}
    for review in reviews:
        if not review.mark:
            continue
        path = str(Path(folder) / f"step-{review.step}.html")
        if not write_file(console, path, tree_page(game, review)):
            return None
        written[review.step] = path
    return written


def marks(game: Any, reviews: Sequence[Review]) -> dict[int, str]:
    """The notes the replay page adds to the marked steps' headings."""
    return {
        r.step: f"{r.mark} {r.label}: loses {r.loss:.3f}, best {_format(game, r.best)}"
        for r in reviews
        if r.mark
    }


def run(console: Console, args: argparse.Namespace) -> int:
    """Analyze the record ``args`` names; the exit code."""
    if args.iterations < 1:
        raise UsageError(f"--iterations is at least 1, not {args.iterations}")
    if args.solver_nodes < 0:
        raise UsageError(f"--solver-nodes is at least 0, not {args.solver_nodes}")
    check_output_path("--html", args.html)
    if args.trees is not None and Path(args.trees).exists() and not Path(args.trees).is_dir():
        raise UsageError(f"--trees {args.trees}: not a directory")
    read = record_match(console, args.record)
    if read is None:
        return EXIT_FAILURE
    record, match = read
    game = match.game
    for seat in args.seat or ():
        if not 0 <= seat < game.num_players:
            raise UsageError(f"--seat {seat}: seats of {game.name} are 0 to {game.num_players - 1}")
    console.error(verification_note(args.record, record))
    try:
        reviews = analyze_match(
            match,
            seats=args.seat,
            iterations=args.iterations,
            seed=args.seed,
            rollout=args.rollout,
            solver_nodes=args.solver_nodes,
        )
    except CardcrawlError as exc:
        console.error(f"cardcrawl: {args.record}: {exc}")
        return EXIT_FAILURE
    trees: dict[int, str] = {}
    if args.trees is not None:
        written = write_trees(console, game, reviews, args.trees)
        if written is None:
            return EXIT_FAILURE
        trees = written
    for line in report(game, record, reviews, args.top, trees):
        console.say(line)
    if args.html is not None:
        notes = marks(game, reviews)
        for step, path in trees.items():
            notes[step] += f"; tree: {path}"
        page = replay_html(match, marks=notes)
        if not write_file(console, args.html, page):
            return EXIT_FAILURE
        console.say(f"Replay with the marks written to {args.html}.")
    return 0
