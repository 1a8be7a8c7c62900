"""The rollout kernel of The Mapless House: whole games of uniform-random play, in place.

The kernel states no rule. It plays a game on one working
:class:`~cardcrawl.mapless._position.Position` with the game's own rule methods, the
very ones ``step`` runs (so every hook of every variant is honoured), and only skips
what a rollout does not need: a frozen state and its events at every decision. The bot
is :class:`~cardcrawl.bots.RandomBot`: ``rng_below(len(legal))`` on its own generator,
``rng_derive(seed, 0)``, at every decision, over the cells in the order the legal
actions list them. :func:`cardcrawl.testing.check_kernel` proves, seed by seed, that it
plays the games of the public path.

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("mapless-house", max_turns=200)
    >>> kernel = rollout_kernel(game)
    >>> state, decisions, figures = kernel.play(1, 100_000)
    >>> game.is_terminal(state), decisions > 0
    (True, True)
"""

from __future__ import annotations

from typing import Any

from cardcrawl.core._protocol import CHANCE, Outcome
from cardcrawl.core._random import _SMALL, _below, rng_below, rng_from_seed
from cardcrawl.core._seeds import derived_seeds
from cardcrawl.core._tools import Figures
from cardcrawl.mapless._events import MaplessEvent
from cardcrawl.mapless._figures import MaplessFigures
from cardcrawl.mapless._game import _STOCK_HOOKS, MaplessHouse
from cardcrawl.mapless._position import BOARDS, Position, freeze, release_board, thaw
from cardcrawl.mapless._state import MaplessState, Phase

__all__ = ["MaplessKernel", "figures_of", "rollout_kernel"]

_OVER = Phase.OVER
# More decisions than any game plays: a cap above it is this one (compiled, a C integer).
_UNLIMITED = 1 << 62
# Whether the rollouts play on a board (see _position.BOARDS); the tests set it to play both.
_BOARDS = BOARDS


class MaplessKernel:
    """The :class:`~cardcrawl.RolloutKernel` of a game of The Mapless House, any variant.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> kernel = MaplessKernel(game)
        >>> state, decisions, figures = kernel.play(1, 100_000)
        >>> kernel.summary(1, 100_000, MaplessFigures) == (
        ...     game.outcome(state), decisions, figures)
        True
    """

    __slots__ = ("game", "stock_outcome")

    def __init__(self, game: MaplessHouse) -> None:
        self.game = game
        # Whether the game's outcome is the stock one, which reads a working position as
        # it reads a state: then summary need not freeze the final position.
        self.stock_outcome = (
            "outcome" not in vars(game) and type(game).outcome is _STOCK_HOOKS["outcome"]
        )

    def play(
        self, seed: int, max_decisions: int, start: MaplessState | None = None
    ) -> tuple[MaplessState, int, Figures] | None:
        """The game of ``seed`` to its end, from its setup or from ``start`` (a state
        of sampled play waiting for a decision, or over): final state, decisions,
        figures; ``None`` for a start at a chance event or in explicit-chance play, or a
        game still going after ``max_decisions`` decisions."""
        events: list[MaplessEvent] = []
        played = _run(self.game, seed, max_decisions, start, events)
        if played is None:
            return None
        position, decisions, at_exit = played
        # With nothing played, the start is the final state, its own events kept.
        state = start if start is not None and decisions == 0 else freeze(position, events)
        return state, decisions, figures_of(self.game, state, at_exit)

    def summary(
        self, seed: int, max_decisions: int, figures: Any
    ) -> tuple[Outcome | None, int, Figures | None] | None:
        """What ``simulate`` keeps of the game of ``seed``: outcome, decisions and the
        figures of :class:`~cardcrawl.mapless.MaplessFigures` (``figures``; ``None``
        for no figures), its events never made; ``None`` as :meth:`play`, or for
        another figure tracker."""
        if figures is not None and figures is not MaplessFigures:
            return None
        played = _run(self.game, seed, max_decisions, None, None)
        if played is None:
            return None
        position, decisions, at_exit = played
        game = self.game
        # The figures read the final position as they would its state.
        kept = None if figures is None else figures_of(game, position, at_exit)
        if self.stock_outcome:
            outcome = game._outcome(position)
        else:
            outcome = game.outcome(freeze(position, []))
        release_board(position.table)  # nothing reads the position any more
        return outcome, decisions, kept


def _run(
    game: MaplessHouse,
    seed: int,
    max_decisions: int,
    start: MaplessState | None,
    events: list[MaplessEvent] | None,
) -> tuple[Position, int, int] | None:
    """Play to the end: the final position, the decisions and the cards on the table
    when the Exit opened (as MaplessFigures notes it; 0 if it never did)."""
    rules = game._rules
    if start is None:
        position = game._setup(rng_from_seed(seed), False, {})
        if _BOARDS:
            position.board_table()
        rules.resolve(position, events)
    else:
        if start.explicit_chance or game._to_move(start) == CHANCE:
            return None
        position = thaw(start)
        if _BOARDS:
            position.board_table()
        position.choices = rules.decision_cells(position)
    position.own()  # nothing else reads its closed cells and decks: changed in place
    bot = derived_seeds(seed, 1)[0]  # RandomBot's generator: rng_derive(seed, seat), seat 0
    at_exit = len(position.table) if position.exit_cell is not None else 0
    limit = min(max_decisions, _UNLIMITED)
    decisions = 0
    while position.phase is not _OVER:
        cells = position.choices
        if decisions >= limit or not cells:
            return None  # cut off; or no legal action, which the public path reports
        # RandomBot.choose: rng_below(bot, n), as the decks draw (C integers, compiled).
        n = len(cells)
        if n < _SMALL:  # a statement of its own: compiled, the C pair is unpacked as C
            bot, index = _below(bot, n)
        else:
            bot, index = rng_below(bot, n)
        decisions += 1
        if events is not None:
            events.clear()  # the final state keeps the last step's events only
        rules.decide(position, cells[index], events)
        rules.resolve(position, events)
        if not at_exit and position.exit_cell is not None:
            at_exit = len(position.table)
    return position, decisions, at_exit


def rollout_kernel(game: Any) -> MaplessKernel | None:
    """The rollout kernel of ``game``: one for every game of The Mapless House, a variant
    included (``GameTools.rollout``)."""
    return MaplessKernel(game) if isinstance(game, MaplessHouse) else None


def figures_of(game: Any, state: MaplessState | Position, house_at_exit: int) -> Figures:
    """The figures :class:`~cardcrawl.mapless.MaplessFigures` reports of a game that
    ended in ``state`` (or a working position, which answers as its state would), the
    Exit having opened with ``house_at_exit`` cards down."""
    tracker = MaplessFigures(game)
    # What MaplessFigures.step would have noted, seeing every state of the game.
    tracker._at_exit = house_at_exit
    return tracker.figures(state)  # type: ignore[arg-type]
