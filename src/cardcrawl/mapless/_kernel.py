"""A rollout kernel: whole games of the stock Mapless House with uniform-random play.

Issue 14 asks ``simulate`` to play random games faster than a hand-written simulator
without a second copy of the rules that could drift from the first. This module is that
copy, kept honest in two ways:

- it is used only for a game whose class overrides none of the rule hooks and none of
  the rule steps of :class:`~cardcrawl.mapless.MaplessHouse` (:func:`kernel_for`), so
  there is only ever one set of rules it has to match, the stock one;
- :func:`cardcrawl.testing.check_kernel` proves, seed by seed, that it plays the very
  games the public path plays (``legal_actions``, :class:`~cardcrawl.bots.RandomBot`,
  ``step``): the same outcome, the same number of decisions and an equal final state,
  the events of the last step included.

The kernel keeps the whole position in plain mutable lists, dicts and sets and builds
one :class:`~cardcrawl.mapless.MaplessState` at the end (:func:`play_random`), or, for
``simulate``, which keeps only the outcome, the decisions and the figures, builds none
(:func:`random_rollout`; check_kernel proves that path too). Every chance draw and every
choice of the bot is made with the library's own SplitMix64 generator (the body of
:func:`cardcrawl.rng_below`, inlined), in exactly the order the public path makes them:

- a chance draw takes index ``rng_below(len(deck))`` of the deck's cards sorted by card
  index, as :meth:`cardcrawl.Deck.sample` does, even from a deck of one card;
- the bot draws ``rng_below(len(legal))`` on its own generator, ``rng_derive(seed, 0)``,
  at every decision, even with one legal action, and the legal actions are the cells
  sorted, as ``legal_actions`` lists them.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.mapless._kernel import kernel_for
    >>> game = cardcrawl.load("mapless-house", max_turns=200)
    >>> play = kernel_for(game)
    >>> state, decisions, house_at_exit = play(1, 100_000)
    >>> game.is_terminal(state), decisions > 0, house_at_exit <= state.score
    (True, True, True)
"""

from __future__ import annotations

import functools
from bisect import insort
from collections.abc import Callable
from typing import Any

import attrs

from cardcrawl.core._protocol import Outcome
from cardcrawl.core._random import (
    _GAMMA,
    _MASK,
    _MUL1,
    _MUL2,
    _SMALL,
    _TOPS,
    _highest_accepted,
    rng_from_seed,
)
from cardcrawl.core._seeds import derived_seeds
from cardcrawl.core._stock import StockRules
from cardcrawl.core._tools import Figures
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, Grid
from cardcrawl.mapless._events import (
    CardDrawn,
    CardPlaced,
    CardRefused,
    Consumed,
    DeckRanDry,
    Encounter,
    Escaped,
    ExitPlaced,
    ExitShuffledBack,
    LostInTheHouse,
    MaplessEvent,
    Moved,
    MoveSkipped,
    StalkerArrived,
    StalkerStepped,
    StalkerWaited,
    TurnStarted,
)
from cardcrawl.mapless._figures import MaplessFigures
from cardcrawl.mapless._game import MaplessHouse
from cardcrawl.mapless._state import (
    BODY_CARDS,
    CLUB_STALKER,
    ENTRANCE,
    EXIT,
    MIND_CARDS,
    NARRATIVE_CARDS,
    SPADE_STALKER,
    Ending,
    MaplessOptions,
    MaplessState,
    Phase,
)

__all__ = [
    "KernelGame",
    "MaplessKernel",
    "figures_of",
    "kernel_for",
    "play_random",
    "random_rollout",
    "rollout_kernel",
]

#: ``kernel(seed, max_decisions, start=None)``: :func:`play_random` for one game.
KernelGame = Callable[..., "tuple[MaplessState, int, int] | None"]

# Cards are their indices here: suit by suit (spades 0-12, hearts 13-25, diamonds 26-38,
# clubs 39-51), ace to king within a suit, so a sorted list of indices is a Deck's rest.
_CARDS = tuple(Card(i) for i in range(54))
_EXIT = EXIT.index  # the ♥A, 13
_RANKS = tuple(i % 13 + 1 for i in range(52))
# M-1: 2-10 face value, J 11, Q 12, K 13, the aces (Entrance, Exit) 0.
_VALUE = tuple(r if r >= 2 else 0 for r in _RANKS)
# M-3: 2-10 are corridors, J Q K rooms.
_CORRIDOR = tuple(2 <= r <= 10 for r in _RANKS)
_ROOM = tuple(r >= 11 for r in _RANKS)
_OVER = Phase.OVER
_NARRATIVE = tuple(c.index for c in NARRATIVE_CARDS)
_MIND = tuple(c.index for c in MIND_CARDS)
_BODY = tuple(c.index for c in BODY_CARDS)
_SPADE, _CLUB = SPADE_STALKER.index, CLUB_STALKER.index
_ESCAPED, _CONSUMED, _LOST = Ending.ESCAPED, Ending.CONSUMED, Ending.LOST

# What the kernel's place, move and exit decisions are, by the state's phase.
_PLACE, _EXIT_CHOICE, _MOVE, _SETUP = 0, 1, 2, 3
_DECISION_KINDS = {Phase.PLACE: _PLACE, Phase.PLACE_EXIT: _EXIT_CHOICE, Phase.MOVE: _MOVE}

# The events of the step under way are noted as plain tuples, (kind, *arguments) with
# cards as indices, and only the last step's are made into events, at the end.
(
    _E_DRAWN, _E_PLACED, _E_REFUSED, _E_SHUFFLED, _E_EXIT, _E_TURN, _E_MOVED, _E_SKIPPED,
    _E_DRY, _E_ENCOUNTER, _E_STEPPED, _E_WAITED, _E_ARRIVED, _E_ESCAPED, _E_CONSUMED,
    _E_LOST,
) = range(16)  # fmt: skip


def kernel_for(game: Any) -> KernelGame | None:
    """The rollout kernel for ``game``, or ``None`` when it must be played the public way.

    The kernel plays the stock rules, so it is given only to a
    :class:`~cardcrawl.mapless.MaplessHouse` whose class overrides none of the hooks
    (``card_value``, ``is_corridor``, ``placement_cells``, ``exit_may_open``,
    ``stalker_step``, ...: see the rule hooks' reference) and none of the rule steps or
    engine methods behind ``step``, that shadows none of them on the instance, and
    whose options are :class:`~cardcrawl.mapless.MaplessOptions` (any ``max_turns``, any
    dread lines: they only word the events, which are made with the game's own).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless import MaplessHouse
        >>> from cardcrawl.mapless._kernel import kernel_for
        >>> kernel_for(cardcrawl.load("mapless-house")) is not None
        True
        >>> class Patient(MaplessHouse):
        ...     def stalker_step(self, state, stalker, cell):
        ...         return cell  # the Stalkers wait forever
        >>> print(kernel_for(Patient()))
        None
    """
    return functools.partial(play_random, game) if _stock_game(game) else None


@attrs.frozen
class MaplessKernel:
    """The :class:`~cardcrawl.RolloutKernel` of the stock Mapless House
    (``GameTools.rollout``): :func:`play_random` and :func:`random_rollout` for one game.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> kernel = rollout_kernel(game)
        >>> state, decisions, figures = kernel.play(1, 100_000)
        >>> kernel.summary(1, 100_000, MaplessFigures) == (
        ...     game.outcome(state), decisions, figures)
        True
    """

    game: MaplessHouse

    def play(
        self, seed: int, max_decisions: int, start: Any = None
    ) -> tuple[MaplessState, int, Figures] | None:
        """The game of ``seed`` to its end: final state, decisions, figures."""
        played = play_random(self.game, seed, max_decisions, start)
        if played is None:
            return None
        state, decisions, house_at_exit = played
        return state, decisions, figures_of(self.game, state, house_at_exit)

    def summary(
        self, seed: int, max_decisions: int, figures: Any
    ) -> tuple[Outcome, int, Figures] | None:
        """What a simulation keeps of the game of ``seed`` (see :func:`random_rollout`)."""
        return random_rollout(self.game, seed, max_decisions, figures)


def rollout_kernel(game: Any) -> MaplessKernel | None:
    """The kernel of ``game``, or ``None`` when it must be played the public way (see
    :func:`kernel_for`)."""
    return MaplessKernel(game) if _stock_game(game) else None


def _stock_game(game: Any) -> bool:
    """kernel_for's question: does ``game`` play the stock rules with options the kernel
    knows?"""
    return _STOCK.plays(game) and type(game.options) is MaplessOptions


# The stock rules as the kernel was written for them (see cardcrawl.core._stock).
_STOCK = StockRules(MaplessHouse, MaplessState)


def random_rollout(
    game: Any, seed: int, max_decisions: int, figures: Any
) -> tuple[Outcome, int, tuple[tuple[str, int], ...]] | None:
    """One game of ``simulate(game, "random")`` from the seed's own setup, by the kernel:
    what a simulation keeps of it.

    ``figures`` is the figure tracker's factory that the simulation would use; the
    kernel knows how :class:`~cardcrawl.mapless.MaplessFigures` counts, and no other.

    Returns:
        ``(outcome, decisions, figures)``, as ``game.outcome`` and the tracker give them
        of the final state, which is not built; or ``None`` when the game has no kernel
        (:func:`kernel_for`), the figures are another tracker's, or the game is still
        going after ``max_decisions``: then play it the public way.
    """
    if figures is not MaplessFigures or not _stock_game(game):
        return None
    played = _run(game, None, rng_from_seed(seed), _SETUP, max_decisions, build=False)
    if played is None:
        return None
    # The final state is not built: a simulation keeps only the outcome and figures.
    (ending, score, turns, refused, exit_distance), decisions, house_at_exit = played
    # MaplessHouse.outcome (M-21) and MaplessFigures.figures, of the state not built.
    outcome = _OUTCOMES.get((ending, score))
    if outcome is None:
        escaped = ending is _ESCAPED
        outcome = _OUTCOMES[ending, score] = Outcome(
            label=ending.value,
            returns=(1.0 if escaped else 0.0,),
            scores=(score,),
            winners=(0,) if escaped else (),
        )
    return (
        outcome,
        decisions,
        (
            ("turns", turns),
            ("house_size", score),
            ("house_at_exit", house_at_exit),
            ("refused", refused),
            ("exit_distance", exit_distance),
        ),
    )


# Outcomes are values: each ending with each score is made once.
_OUTCOMES: dict[tuple[Ending, int], Outcome] = {}


def figures_of(game: Any, state: MaplessState, house_at_exit: int) -> tuple[tuple[str, int], ...]:
    """The figures :class:`~cardcrawl.mapless.MaplessFigures` reports of a game that the
    kernel played to ``state``."""
    tracker = MaplessFigures(game)
    # What MaplessFigures.step would have noted, seeing every state of the game.
    tracker._at_exit = house_at_exit
    return tracker.figures(state)


def play_random(
    game: MaplessHouse, seed: int, max_decisions: int, start: MaplessState | None = None
) -> tuple[MaplessState, int, int] | None:
    """Play a game to its end as ``simulate(game, "random")`` plays it with ``seed``.

    The game is ``game.initial_state(seed)``'s, or with ``start`` that position (a state
    of sampled play waiting for a decision or over, with no stacked deck, such as a
    reseeded position). The random bot's generator starts at ``rng_derive(seed, 0)``.
    Only call this through :func:`kernel_for`, which checks that ``game`` plays the
    stock rules.

    Returns:
        ``(final state, decisions, house_at_exit)``, house_at_exit being the cards on the
        table just after the Exit opened (0 if it never did), as
        :class:`~cardcrawl.mapless.MaplessFigures` counts it; or ``None`` if ``start``
        is a state the kernel does not start from, or the game is still going after
        ``max_decisions`` decisions: then play it the public way.
    """
    if start is None:
        return _run(game, None, rng_from_seed(seed), _SETUP, max_decisions)
    if start.phase is _OVER:
        return start, 0, len(start.table) if start.exit_cell is not None else 0
    kind = _DECISION_KINDS.get(start.phase)
    if kind is None or start.explicit_chance or not _codable(start):
        return None
    if start.narrative.stacked or start.mind.stacked or start.body.stacked:
        return None
    return _run(game, start, seed, kind, max_decisions)


# Cells are single integers here, (x + _OFF) * _W + (y + _OFF): sorting them sorts the
# cells as tuples sort (x first, then y), the four neighbours are code -+ _W (left,
# right) and -+ 1 (down, up), and an int hashes and compares faster than a tuple. A
# house holds at most 26 cards and the Stalkers stay within its bounds (M-18), so a
# start position within _REACH of the Entrance never leaves the coded range.
_W = 1024
_OFF = 512
_REACH = 400
_ORIGIN = _OFF * _W + _OFF  # the Entrance, (0, 0) (M-2)


def _code(cell: Cell) -> int:
    return (cell[0] + _OFF) * _W + cell[1] + _OFF


class _Decoded(dict[int, Any]):
    """A value worked out from a cell's code once, the first time it is asked for: then
    decoding is a dictionary lookup in C. A pure memo, like the grid's cache of
    neighbours, and it stops growing at a size no game reaches."""

    def __init__(self, decode: Callable[[int], Any]) -> None:
        super().__init__()
        self.decode = decode

    def __missing__(self, code: int) -> Any:
        value = self.decode(code)
        if len(self) < 1 << 16:
            self[code] = value
        return value


def _decode(code: int) -> Cell:
    x, y = divmod(code, _W)
    return (x - _OFF, y - _OFF)


#: The cell of a code, and its distance from the Entrance.
_CELL: _Decoded = _Decoded(_decode)
_FAR: _Decoded = _Decoded(lambda code: abs(_decode(code)[0]) + abs(_decode(code)[1]))


#: The codes of the four cells touching a code's cell, sorted (as placement_cells sorts
#: them): made once per cell, so that a step looks its neighbours up instead of building
#: four new integers and a tuple.
_AROUND: _Decoded = _Decoded(lambda code: (code - _W, code - 1, code + 1, code + _W))


def _cell(code: int) -> Cell:
    cell: Cell = _CELL[code]
    return cell


def _codable(state: MaplessState) -> bool:
    cells = [*state.table, *state.table.frontier, state.player]
    cells += [c for c in (state.spade, state.club, state.exit_cell, state.last_room) if c]
    return all(abs(x) <= _REACH and abs(y) <= _REACH for x, y in cells)


def _run(
    game: MaplessHouse,
    state: MaplessState | None,
    seed: int,
    kind: int,
    max_decisions: int,
    build: bool = True,
) -> tuple[Any, int, int] | None:
    w = _W
    if state is None:
        # The setup (MaplessHouse._new_state, M-2): the Entrance on (0, 0) with the
        # player on it, the three decks whole, the generator the seed itself
        # (rng_from_seed), and phase one's first draw to come.
        table: dict[int, int] = {_ORIGIN: ENTRANCE.index}
        frontier: dict[int, int] = dict.fromkeys(
            (_ORIGIN - w, _ORIGIN + w, _ORIGIN - 1, _ORIGIN + 1), 1
        )
        closed: set[int] = set()
        open_cells = set(frontier)
        corridor_open = set(frontier)
        last_room = None
        narrative, mind, body = list(_NARRATIVE), list(_MIND), list(_BODY)
        mind_aside: list[int] = []
        body_aside: list[int] = []
        refused: list[int] = []
        held: list[int] = []
        drawn = None
        player = _ORIGIN
        exit_cell = spade = club = None
        spade_left_exit = ran_dry = False
        turn = 0
        rng = seed
    else:
        # A position, unpacked into mutable pieces.
        grid = state.table
        table = {_code(cell): card.index for cell, card in grid.items()}
        frontier = {_code(cell): n for cell, n in grid.frontier.items()}
        closed = {_code(cell) for cell in state.closed}
        # Kept with the frontier so that no placement scans it: the open cells (frontier
        # cells not closed, where a room may go, M-5, M-6) and among them those touching
        # one card (where a corridor may go, M-4).
        open_cells = frontier.keys() - closed
        corridor_open = {c for c in open_cells if frontier[c] == 1}
        last_room = None if state.last_room is None else _code(state.last_room)
        narrative = [c.index for c in state.narrative.rest]
        mind = [c.index for c in state.mind.rest]
        body = [c.index for c in state.body.rest]
        mind_aside = [c.index for c in state.mind_aside]
        body_aside = [c.index for c in state.body_aside]
        refused = [c.index for c in state.refused]
        held = [c.index for c in state.held]
        drawn = None if state.drawn is None else state.drawn.index
        player = _code(state.player)
        exit_cell = None if state.exit_cell is None else _code(state.exit_cell)
        spade = None if state.spade is None else _code(state.spade)
        club = None if state.club is None else _code(state.club)
        spade_left_exit, ran_dry = state.spade_left_exit, state.ran_dry
        turn = state.turn
        rng = state.rng
    # The random bot's generator (RandomBot: rng_derive(seed, seat), the one seat 0).
    bot = derived_seeds(seed, 1)[0]
    limit = game.options.max_turns
    # M-11 needs the greatest distance of a card from the Entrance: it only grows.
    far = _FAR
    if state is None:
        farthest, far_cards, at_exit = 0, [_ORIGIN], 0
    else:
        farthest = max([far[c] for c in table])
        far_cards = [c for c in table if far[c] == farthest]  # the cards that far out
        at_exit = len(table) if exit_cell is not None else 0
    ending: Ending | None = None
    stalker = -1  # the Stalker that consumed the player
    # The events of the step under way, for the final state; the frequent ones are
    # only noted when that state is built (``build``).
    events: list[tuple[Any, ...]] = []
    decisions = 0
    # SplitMix64 inlined (a call per draw would cost more than the draw), on the core
    # generator's own constants and rejection test (as ``z <= limit - 1``, see
    # _highest_accepted: the compiled build keeps z in a 64-bit word), so the same rejections.
    mask, gamma, mul1, mul2, limits, small = _MASK, _GAMMA, _MUL1, _MUL2, _TOPS, _SMALL
    corridor, room, value, around = _CORRIDOR, _ROOM, _VALUE, _AROUND

    # ``stage`` is where play goes next: 0 a decision, its ``kind`` and ``cells`` known;
    # 1 a Narrative draw; -1 the Exit opens on ``cell``; 2 step 2 of a turn (Move,
    # M-14); 3 an Encounter and the Stalkers (M-15 to M-20); 4 a new turn (M-12).
    # Phase one is stage 1 over and over until the Exit opens.
    stage = 0
    if kind == _PLACE:
        assert drawn is not None
        cells = _placement_cells(table, open_cells, corridor_open, last_room, drawn)
    elif kind == _EXIT_CHOICE:
        cells = _exit_candidates(table, far_cards, farthest)
    elif kind == _MOVE:
        cells = [c for c in around[player] if c in table]
    else:
        stage = 1  # the setup (M-2): phase one's first draw

    # Each pass of this loop runs the rule steps and chance draws up to the next
    # decision, in the order of MaplessHouse's rule steps, each chance draw where the
    # engine's _settle makes it (at the chance phase a rule step leaves), and then the
    # decision, as the random bot makes it.
    while True:
        while stage:
            if stage == 1:
                # A Narrative draw (M-9, M-13): index rng_below(len(deck)) of the sorted
                # deck, as Deck.sample draws it.
                n = len(narrative)
                if n == 1:
                    rng = (rng + gamma) & mask
                    card = narrative.pop()
                else:
                    top = limits[n]
                    while True:
                        rng = (rng + gamma) & mask
                        z = ((rng ^ (rng >> 30)) * mul1) & mask
                        z = ((z ^ (z >> 27)) * mul2) & mask
                        z ^= z >> 31
                        if z <= top:
                            card = narrative.pop(z % n)
                            break
                if build:
                    events.append((_E_DRAWN, card))
                if card == _EXIT:
                    # M-10: only once a black suit has left the deck entirely (spades
                    # are indices 1-12 here, clubs 40-51); before that it is shuffled
                    # back, and the engine draws again from the same generator.
                    if narrative and narrative[0] <= 12 and narrative[-1] >= 39:
                        events.append((_E_SHUFFLED,))
                        insort(narrative, _EXIT)
                        continue
                    cells = _exit_candidates(table, far_cards, farthest)
                    if len(cells) == 1:
                        cell = cells[0]
                        stage = -1  # M-11: one candidate, the Exit opens there at once
                    else:
                        kind, stage = _EXIT_CHOICE, 0  # M-11: the player breaks the tie
                    continue
                # MaplessHouse.placement_cells (M-4 to M-7), _placement_cells inlined:
                # it runs at every draw.
                if corridor[card]:
                    r = last_room
                    if r is None:
                        cells = sorted(corridor_open)
                    else:
                        # The touching cells written out, here and below: before Python
                        # 3.12 a list comprehension is a function call, and this runs at
                        # every draw.
                        left, below, above, right = around[r]
                        touching = (left in table) + (below in table) + (above in table)
                        if touching + (right in table) < 2:  # M-7: pulled to the room
                            cells = [c for c in around[r] if c in corridor_open]
                        else:
                            cells = sorted(corridor_open)
                else:
                    cells = sorted(open_cells)
                if cells:
                    kind, drawn, stage = _PLACE, card, 0  # M-8: even with one cell
                    continue
                events.append((_E_REFUSED, card))  # M-8: nowhere to go
                refused.append(card)
                stage = 1 if exit_cell is None else 2
            elif stage == 2:
                # _move_step: a held player skips the Move (M-16).
                if held:
                    events.append((_E_SKIPPED, player))
                    stage = 3
                else:
                    kind, stage = _MOVE, 0
                    left, below, above, right = around[player]  # written out, as above
                    cells = []
                    if left in table:
                        cells.append(left)
                    if below in table:
                        cells.append(below)
                    if above in table:
                        cells.append(above)
                    if right in table:
                        cells.append(right)
            elif stage == 3:
                # _enter_mind_draw, _enter_body_draw (M-15, M-17): an empty deck takes
                # its Aside pile (Deck.of: sorted), and an empty pile gives no card. The
                # Mind card is drawn before the Body deck is looked at.
                if not mind:
                    events.append((_E_DRY, "Mind", len(mind_aside)))
                    mind_aside.sort()
                    mind, mind_aside = mind_aside, []
                    ran_dry = True
                mind_card = body_card = None
                if mind:
                    n = len(mind)
                    if n == 1:
                        rng = (rng + gamma) & mask
                        mind_card = mind.pop()
                    else:
                        top = limits[n]
                        while True:
                            rng = (rng + gamma) & mask
                            z = ((rng ^ (rng >> 30)) * mul1) & mask
                            z = ((z ^ (z >> 27)) * mul2) & mask
                            z ^= z >> 31
                            if z <= top:
                                mind_card = mind.pop(z % n)
                                break
                if not body:
                    events.append((_E_DRY, "Body", len(body_aside)))
                    body_aside.sort()
                    body, body_aside = body_aside, []
                    ran_dry = True
                if body:
                    n = len(body)
                    if n == 1:
                        rng = (rng + gamma) & mask
                        body_card = body.pop()
                    else:
                        top = limits[n]
                        while True:
                            rng = (rng + gamma) & mask
                            z = ((rng ^ (rng >> 30)) * mul1) & mask
                            z = ((z ^ (z >> 27)) * mul2) & mask
                            z ^= z >> 31
                            if z <= top:
                                body_card = body.pop(z % n)
                                break
                # _encounter (M-15, M-16): the turned cards and those already holding
                # the player, against the value of the player's card.
                threshold = value[table[player]]
                if held:
                    holding = tuple(held)
                    if mind_card is not None:
                        held.append(mind_card)
                    if body_card is not None:
                        held.append(body_card)
                    total = 0
                    for c in held:
                        total += value[c]
                    kept = total < threshold
                    if not kept:
                        # To the Aside piles in the order they came: hearts are Mind
                        # cards (indices 13-25), diamonds Body cards (26-38).
                        mind_aside.extend([c for c in held if c < 26])
                        body_aside.extend([c for c in held if c >= 26])
                        held = []
                else:
                    # The usual Encounter, nothing holding the player yet: the same
                    # steps with at most the two turned cards.
                    holding = ()
                    total = (0 if mind_card is None else value[mind_card]) + (
                        0 if body_card is None else value[body_card]
                    )
                    kept = total < threshold
                    if kept:
                        held = [c for c in (mind_card, body_card) if c is not None]
                    else:
                        if mind_card is not None:
                            mind_aside.append(mind_card)
                        if body_card is not None:
                            body_aside.append(body_card)
                if build:
                    events.append(
                        (_E_ENCOUNTER, mind_card, body_card, holding, total, threshold, kept)
                    )
                # _stalkers (M-18, M-19, M-20): the ♠A first, along the wider gap (up or
                # down on a tie), never back onto the Exit once it has left it.
                px, py = divmod(player, w)
                if spade is not None:
                    # cardcrawl.mapless.stalker_step on codes (a step along x is -+ w,
                    # along y -+ 1), inlined: it runs every turn.
                    sx, sy = divmod(spade, w)
                    dx, dy = px - sx, py - sy
                    if (dy if dy >= 0 else -dy) >= (dx if dx >= 0 else -dx):
                        target = spade + (dy > 0) - (dy < 0)
                        if spade_left_exit and target == exit_cell:  # M-19
                            target = spade + w * ((dx > 0) - (dx < 0))
                    else:
                        target = spade + w * ((dx > 0) - (dx < 0))
                        if spade_left_exit and target == exit_cell:  # M-19
                            target = spade + (dy > 0) - (dy < 0)
                    if target == spade:
                        events.append((_E_WAITED, _SPADE, spade))
                    else:
                        if build:
                            events.append((_E_STEPPED, _SPADE, spade, target))
                        spade, spade_left_exit = target, True
                    if target == player:
                        ending, stalker = _CONSUMED, _SPADE
                        break
                if club is not None:
                    sx, sy = divmod(club, w)
                    dx, dy = px - sx, py - sy
                    if (dy if dy >= 0 else -dy) >= (dx if dx >= 0 else -dx):
                        target = club + (dy > 0) - (dy < 0)
                    else:
                        target = club + w * ((dx > 0) - (dx < 0))
                    if target == club:
                        events.append((_E_WAITED, _CLUB, club))
                    else:
                        if build:
                            events.append((_E_STEPPED, _CLUB, club, target))
                        club = target
                    if target == player:
                        ending, stalker = _CONSUMED, _CLUB
                        break
                elif ran_dry:
                    # M-17: the ♣A arrives on the Entrance at the end of the turn the
                    # first deck ran dry (club_arrival).
                    club = _ORIGIN
                    events.append((_E_ARRIVED, _CLUB, club))
                    if club == player:
                        ending, stalker = _CONSUMED, _CLUB
                        break
                if limit is not None and turn >= limit:
                    ending = _LOST  # M-22
                    break
                stage = 4
            elif stage == -1:
                # _open_exit (M-11): the ♠A waits on the Exit; M-12: the hunt opens with
                # a lone Move. The Exit may lie on a closed cell, which it reopens.
                # ``cells`` are still the candidates: the one, or those the bot chose from.
                events.append((_E_EXIT, cell, tuple(cells)))
                _place(table, frontier, closed, open_cells, corridor_open, cell, _EXIT)
                closed.discard(cell)
                # The farthest card no longer matters: the Exit opens once (M-11).
                exit_cell = spade = cell
                at_exit = len(table)
                kind, stage = _MOVE, 0
                cells = [c for c in around[player] if c in table]
            else:
                # _begin_turn (M-12, M-13): Expand while the Narrative deck lasts.
                turn += 1
                if build:
                    events.append((_E_TURN, turn))
                stage = 1 if narrative else 2
        if ending is not None:
            break
        if decisions >= max_decisions:
            return None
        # The bot: RandomBot.choose, rng_below(len(legal)) on its own generator.
        n = len(cells)
        if n == 1:  # rng_below(1) accepts every output: only the state advances
            bot = (bot + gamma) & mask
            cell = cells[0]
        elif n:
            top = limits[n] if n < small else _highest_accepted(n)
            while True:
                bot = (bot + gamma) & mask
                z = ((bot ^ (bot >> 30)) * mul1) & mask
                z = ((z ^ (z >> 27)) * mul2) & mask
                z ^= z >> 31
                if z <= top:
                    cell = cells[z % n]
                    break
        else:
            return None  # rng_below(0) refuses: let the public path say so
        decisions += 1
        if build:
            events.clear()  # a new step: the final state keeps the last step's events only

        if kind == _PLACE:
            # _place: the card goes down, may close cells (M-6) and pull (M-7).
            assert drawn is not None
            if build:
                events.append((_E_PLACED, drawn, cell))
            # _place, inlined: Grid.place and newly_closed (M-6).
            table[cell] = drawn
            del frontier[cell]  # every cell offered is on the frontier
            open_cells.discard(cell)
            corridor_open.discard(cell)
            for near in around[cell]:
                other = table.get(near)
                if other is None:
                    k = frontier[near] = frontier.get(near, 0) + 1
                    if near not in closed:
                        if k == 1:
                            open_cells.add(near)
                            corridor_open.add(near)
                        elif k == 2:
                            corridor_open.discard(near)
                elif corridor[other]:
                    left, below, above, right = around[near]  # written out, as above
                    empty = []
                    if left not in table:
                        empty.append(left)
                    if below not in table:
                        empty.append(below)
                    if above not in table:
                        empty.append(above)
                    if right not in table:
                        empty.append(right)
                    if len(empty) <= 2:
                        closed.update(empty)
                        open_cells.difference_update(empty)
                        corridor_open.difference_update(empty)
            d = far[cell]
            if d > farthest:
                farthest, far_cards = d, [cell]
            elif d == farthest:
                far_cards.append(cell)
            if room[drawn]:
                last_room = cell
            drawn = None
            stage = 1 if exit_cell is None else 2  # _after_narrative (M-9, M-12)
        elif kind == _EXIT_CHOICE:
            stage = -1  # _open_exit, below, and then the opening Move
        else:
            # _move (M-14, M-20): onto a Stalker is fatal, onto the Exit is the escape;
            # the ♠A is looked at before the ♣A.
            if build:
                events.append((_E_MOVED, player, cell))
            player = cell
            if cell == spade:
                ending, stalker = _CONSUMED, _SPADE
                break
            if cell == club:
                ending, stalker = _CONSUMED, _CLUB
                break
            if cell == exit_cell:
                ending = _ESCAPED
                break
            stage = 4 if turn == 0 else 3  # M-12: the opening Move is a turn of its own

    # _finish (M-21): the score is the cards on the table.
    score = len(table)
    if not build:
        # What an outcome and the figures are made of (_summary), for a caller that
        # keeps nothing else of the game.
        exit_far = -1 if exit_cell is None else far[exit_cell]
        return (ending, score, turn, len(refused), exit_far), decisions, at_exit
    if ending is _ESCAPED:
        events.append((_E_ESCAPED, player, score))
    elif ending is _CONSUMED:
        events.append((_E_CONSUMED, stalker, player, score))
    else:
        events.append((_E_LOST, turn, score))
    cards = _CARDS
    final = MaplessState(
        phase=_OVER, turn=turn, table=_grid(table, frontier),
        closed=frozenset(map(_CELL.__getitem__, closed)), last_room=_maybe_cell(last_room),
        narrative=_deck(narrative), mind=_deck(mind), body=_deck(body),
        mind_aside=tuple([cards[i] for i in mind_aside]),
        body_aside=tuple([cards[i] for i in body_aside]),
        refused=tuple([cards[i] for i in refused]), held=tuple([cards[i] for i in held]),
        drawn=None, mind_card=None, player=_cell(player), exit_cell=_maybe_cell(exit_cell),
        spade=_maybe_cell(spade), club=_maybe_cell(club), spade_left_exit=spade_left_exit,
        ran_dry=ran_dry, ending=ending, rng=rng, explicit_chance=False,
        events=tuple([_event(game, record) for record in events]),
    )  # fmt: skip
    return final, decisions, at_exit


def _place(
    table: dict[int, int],
    frontier: dict[int, int],
    closed: set[int],
    open_cells: set[int],
    corridor_open: set[int],
    cell: int,
    card: int,
) -> None:
    """Grid.place and newly_closed (M-6), the open cells kept up to date: a card placed
    next to a corridor that then touches two cards closes the corridor's empty cells."""
    table[cell] = card
    if frontier.pop(cell, None) is not None:
        open_cells.discard(cell)
        corridor_open.discard(cell)
    w, corridor = _W, _CORRIDOR
    for n in (cell - w, cell + w, cell - 1, cell + 1):
        other = table.get(n)
        if other is None:
            k = frontier[n] = frontier.get(n, 0) + 1
            if n not in closed:
                if k == 1:
                    open_cells.add(n)
                    corridor_open.add(n)
                elif k == 2:
                    corridor_open.discard(n)
        elif corridor[other]:
            empty = [m for m in (n - w, n + w, n - 1, n + 1) if m not in table]
            if len(empty) <= 2:  # the corridor touches two cards or more now
                closed.update(empty)
                open_cells.difference_update(empty)
                corridor_open.difference_update(empty)


def _placement_cells(
    table: dict[int, int],
    open_cells: set[int],
    corridor_open: set[int],
    last_room: int | None,
    card: int,
) -> list[int]:
    """MaplessHouse.placement_cells (M-4 to M-7), sorted: a corridor next to the last
    room while that room touches fewer than two cards, otherwise any open cell touching
    one card; a room any open cell."""
    w = _W
    if _CORRIDOR[card]:
        r = last_room
        if (
            r is not None
            and (((r - w) in table) + ((r + w) in table) + ((r - 1) in table) + ((r + 1) in table))
            < 2
        ):
            return [c for c in (r - w, r - 1, r + 1, r + w) if c in corridor_open]
        return sorted(corridor_open)
    return sorted(open_cells)


def _exit_candidates(table: dict[int, int], far_cards: list[int], farthest: int) -> list[int]:
    """exit_candidates (M-11), sorted: the empty cells one farther from the Entrance than
    the farthest card, touching a card. A cell that far out can only touch cards at the
    farthest distance, so only their neighbours are looked at."""
    far, d, w = _FAR, farthest + 1, _W
    cells = {
        n for c in far_cards for n in (c - w, c + w, c - 1, c + 1) if far[n] == d and n not in table
    }
    return sorted(cells)


def _maybe_cell(code: int | None) -> Cell | None:
    return None if code is None else _cell(code)


def _grid(table: dict[int, int], frontier: dict[int, int]) -> Grid:
    # The frontier was kept as Grid.place keeps it, so the grid takes it as it is
    # rather than working it out again from the cards.
    cards, cell = _CARDS, _CELL
    return Grid._build(
        {cell[c]: cards[i] for c, i in table.items()}, {cell[c]: n for c, n in frontier.items()}
    )


def _deck(cards: list[int]) -> Deck:
    # Already sorted by index: the deck need not sort its rest again.
    return Deck._make((), tuple([_CARDS[i] for i in cards]))


def _card(index: int | None) -> Card | None:
    return None if index is None else _CARDS[index]


def _placed(game: MaplessHouse, card: int, cell: int) -> MaplessEvent:
    return CardPlaced(_CARDS[card], _CELL[cell], game.options.dread_line(_CARDS[card]))


def _exit(game: MaplessHouse, cell: int, candidates: tuple[int, ...]) -> MaplessEvent:
    cells = tuple(map(_CELL.__getitem__, candidates))
    return ExitPlaced(_CELL[cell], cells, game.options.dread_line(EXIT))


def _encounter(
    game: MaplessHouse,
    mind: int | None,
    body: int | None,
    holding: tuple[int, ...],
    total: int,
    threshold: int,
    held: bool,
) -> MaplessEvent:
    cards = tuple([_CARDS[i] for i in holding])
    return Encounter(_card(mind), _card(body), cards, total, threshold, held)


# How each kind of record becomes its event, by kind: ``build(game, *arguments)``.
_BUILD: tuple[Callable[..., MaplessEvent], ...] = (
    lambda game, card: CardDrawn(_CARDS[card]),  # _E_DRAWN
    _placed,  # _E_PLACED
    lambda game, card: CardRefused(_CARDS[card]),  # _E_REFUSED
    lambda game: ExitShuffledBack(),  # _E_SHUFFLED
    _exit,  # _E_EXIT
    lambda game, turn: TurnStarted(turn),  # _E_TURN
    lambda game, source, target: Moved(_CELL[source], _CELL[target]),  # _E_MOVED
    lambda game, cell: MoveSkipped(_CELL[cell]),  # _E_SKIPPED
    lambda game, deck, reshuffled: DeckRanDry(deck, reshuffled),  # _E_DRY
    _encounter,  # _E_ENCOUNTER
    lambda game, who, source, target: StalkerStepped(_CARDS[who], _CELL[source], _CELL[target]),
    lambda game, who, cell: StalkerWaited(_CARDS[who], _CELL[cell]),  # _E_WAITED
    lambda game, who, cell: StalkerArrived(_CARDS[who], _CELL[cell]),  # _E_ARRIVED
    lambda game, cell, score: Escaped(_CELL[cell], score),  # _E_ESCAPED
    lambda game, who, cell, score: Consumed(_CARDS[who], _CELL[cell], score),  # _E_CONSUMED
    lambda game, turns, score: LostInTheHouse(turns, score),  # _E_LOST
)


def _event(game: MaplessHouse, record: tuple[Any, ...]) -> MaplessEvent:
    """The event a kernel record stands for, as the rule step would have made it."""
    build: Callable[..., MaplessEvent] = _BUILD[record[0]]
    event: MaplessEvent = build(game, *record[1:])
    return event
