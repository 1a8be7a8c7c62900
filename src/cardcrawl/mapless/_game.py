"""The rules of The Mapless House as a :class:`~cardcrawl.GameBase`.

Each method below is one step of the rulebook's procedure; the comments cite the
rulings (``M-x``) of the project's normative reading, RULINGS.md.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar, TypeVar

from cardcrawl.core._compiled import runs_compiled
from cardcrawl.core._engine import GameBase, events_of_log, keep_position, replacer, take_position
from cardcrawl.core._notation import MAX_COUNT
from cardcrawl.core._protocol import CHANCE, TERMINAL, Outcome
from cardcrawl.core._random import rng_from_seed
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, Grid, bounds, cell_text, neighbours
from cardcrawl.mapless._actions import Action, Draw, Move, Place, PlaceExit, parse_action
from cardcrawl.mapless._notation import MaplessNotation
from cardcrawl.mapless._play import Rules
from cardcrawl.mapless._position import (
    Position,
    WorkingDeck,
    freeze,
    setup,
    thaw,
)
from cardcrawl.mapless._render import render
from cardcrawl.mapless._rules import (
    black_suit_exhausted,
    card_value,
    closed_cells,
    club_arrival,
    corridor_cells,
    encounter_threshold,
    encounter_total,
    exit_candidates,
    is_corridor,
    is_room,
    move_cells,
    room_cells,
    stalker_target,
)
from cardcrawl.mapless._state import (
    BODY_CARDS,
    CLUB_STALKER,
    ENTRANCE,
    ENTRANCE_CELL,
    EXIT,
    MIND_CARDS,
    NARRATIVE_CARDS,
    PLACEABLE_CARDS,
    SPADE_STALKER,
    Ending,
    MaplessObservation,
    MaplessOptions,
    MaplessState,
    Phase,
)

__all__ = ["RULES_VERSION", "MaplessHouse"]

#: Changes whenever the behaviour of the rules changes (records carry it).
RULES_VERSION = "2"

# Enum members as module constants: in Python 3.11 ``Phase.DRAW`` is a descriptor call,
# several times slower than reading a global, and the rules name phases constantly.
_DRAW, _PLACE, _PLACE_EXIT, _MOVE = Phase.DRAW, Phase.PLACE, Phase.PLACE_EXIT, Phase.MOVE
_DRAW_MIND, _DRAW_BODY, _OVER = Phase.DRAW_MIND, Phase.DRAW_BODY, Phase.OVER
_ESCAPED = Ending.ESCAPED
_ALL_CARDS = Counter(Card(i) for i in range(52))

Events = list[Any]  # a step's log of its events (see cardcrawl.mapless._state)

_A = TypeVar("_A", Place, Move)


class _Interned(dict[Cell, _A]):
    """The one action of a kind for each cell, made the first time it is asked for."""

    def __init__(self, kind: type[_A]) -> None:
        super().__init__()
        self.kind: type[_A] = kind

    def __missing__(self, cell: Cell) -> _A:
        action = self[cell] = self.kind(cell)
        return action


# Actions are immutable values, so the ones made over and over are made once; looking
# them up with map(table.__getitem__, cells) runs the loop in C.
_DRAWS = tuple(Draw(Card(i)) for i in range(52))
_PLACES: _Interned[Place] = _Interned(Place)
_MOVES: _Interned[Move] = _Interned(Move)


def _actions(phase: Phase, cells: list[Cell]) -> tuple[Action, ...]:
    """The decisions of ``phase`` (a player's) on ``cells``, in their order: the interned
    actions. Interpreted, they are looked up in one C call (an ``itemgetter`` of several
    keys gives a tuple); compiled, by each cell's place in a window of cells around the
    Entrance, read as C, with no cell hashed (a cell outside it is looked up by hash)."""
    if phase is _PLACE_EXIT:
        return tuple([PlaceExit(c) for c in cells])
    table = _PLACES if phase is _PLACE else _MOVES
    if _COMPILED:
        window = _PLACES_AT if phase is _PLACE else _MOVES_AT
        found = []
        for cell in cells:
            x, y = cell
            x += _OFFSET
            y += _OFFSET
            if 0 <= x < _SIDE and 0 <= y < _SIDE:
                code = x * _SIDE + y
                action = window[code]
                if action is None:
                    action = window[code] = table[cell]
            else:
                action = table[cell]
            found.append(action)
        return tuple(found)
    if len(cells) > 1:
        actions: tuple[Action, ...] = itemgetter(*cells)(table)
        return actions
    return (table[cells[0]],) if cells else ()


#: Whether this module runs compiled (see :func:`_actions`).
_COMPILED = runs_compiled(__file__)
# The window of cells whose interned actions _actions reads by place, compiled: the
# cells (x, y) with x and y from -_OFFSET to _SIDE - _OFFSET - 1, each at
# (x + _OFFSET) * _SIDE + y + _OFFSET, filled as they are first asked for.
_SIDE = 64
_OFFSET = 32
_PLACES_AT: list[Action | None] = [None] * (_SIDE * _SIDE)
_MOVES_AT: list[Action | None] = [None] * (_SIDE * _SIDE)


_evolve = replacer(MaplessState)


# The hooks a game binds when it is built (see MaplessHouse._bind_hooks).
_HOOKS = frozenset(
    {
        "card_value", "is_corridor", "is_room", "placement_cells", "corridor_cells",
        "room_cells", "exit_may_open", "exit_cells", "move_cells", "encounter_threshold",
        "encounter_total", "stalker_step", "club_arrival", "score",
    }
)  # fmt: skip


# The public step's frame: functions of the module rather than methods, so that the
# compiled build calls the rules' steps and the position's thaw and freeze in them as
# C (see _game.pxd), where a method of the game's class, a Python class that variants
# subclass, would call them through Python attribute look-ups.


def advance(game: MaplessHouse, state: MaplessState, action: Action) -> MaplessState:
    """``game.step(state, action)`` once ``action`` is checked: the working position of
    ``state`` played by the rules and frozen into the new state.

    The position is the one ``state`` was frozen from, if ``game`` still keeps it (see
    :func:`~cardcrawl.core._engine.keep_position`) and no other step has taken it over:
    freezing shares only immutable values with the state, so the position is the
    state's working position already. Else the state is thawed.
    """
    position = take_position(game._spare, state._memo)
    if position is None:
        position = thaw(state)
    events: Events = []
    rules = game._rules
    rules.act(position, action, events)
    rules.resolve(position, events)
    return frozen(game, position, events, True)


def frozen(game: MaplessHouse, position: Position, events: Events, keep: bool) -> MaplessState:
    """The state of ``position``, its legal actions filled in when the rules know them
    (the cells the hooks gave for the decision it waits on); with ``keep`` (the public
    step's own positions, which nothing changes afterwards), ``position`` is kept for
    the next step from the state (see :func:`advance`)."""
    cells = position.choices
    if cells is None:
        return freeze(position, events)
    state = freeze(position, events, game._legal_key, _actions(position.phase, cells))
    if keep:
        position.choices = None  # asked again by the next step, as if thawed
        keep_position(game._spare, state._memo, position)
    return state


class MaplessHouse(GameBase[MaplessState, Action, MaplessObservation]):
    """The Mapless House, solo: build the house card by card, then reach the Exit.

    Load it by name with ``cardcrawl.load("mapless-house", max_turns=...)``.

    Stacked decks: ``initial_state(seed, stack={...})`` takes the sources
    ``"narrative"``, ``"mind"`` and ``"body"``, each a sequence of cards (or card codes)
    from that deck, drawn first and in that order; the rest of each deck stays shuffled.

    The rules are stated once, as the methods of :class:`~cardcrawl.mapless._play.Rules`
    over a working :class:`~cardcrawl.mapless._position.Position`: ``step`` thaws a
    state into a position, plays the action and the chance that follows, and freezes
    the result; ``simulate`` and the bots' playouts (the rollout kernel) play whole
    games on one position with the very same methods. The game makes its ``Rules``
    when it is built, binding its hooks there, so every path honours a variant's hooks.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=100)
        >>> state = game.initial_state(seed=1)
        >>> game.current_player(state), state.phase.value
        (0, 'place')
        >>> state = game.step(state, game.legal_actions(state)[0])
        >>> [type(e).__name__ for e in state.events][:2]
        ['CardPlaced', 'CardDrawn']
    """

    game_name: ClassVar[str] = "mapless-house"
    title: ClassVar[str] = "The Mapless House"
    rules_version: ClassVar[str] = RULES_VERSION
    options_type: ClassVar[type[Any]] = MaplessOptions
    state_type: ClassVar[type[Any]] = MaplessState
    action_type: ClassVar[Any] = (Place, PlaceExit, Move, Draw)
    notation_format: ClassVar[Any] = MaplessNotation()  # the position notation's hook
    rule_hooks: ClassVar[tuple[str, ...]] = (
        "card_value", "is_corridor", "is_room", "placement_cells", "corridor_cells",
        "room_cells", "exit_may_open", "exit_cells", "move_cells", "encounter_threshold",
        "encounter_total", "stalker_step", "club_arrival", "score",
    )  # fmt: skip
    #: The chance sources a stack may name, each with the cards of its deck.
    stack_sources: ClassVar[Mapping[str, tuple[Card, ...]]] = {
        "narrative": NARRATIVE_CARDS,
        "mind": MIND_CARDS,
        "body": BODY_CARDS,
    }

    options: MaplessOptions

    def __init__(self, options: Any = None, *, name: str | None = None) -> None:
        super().__init__(options, name=name)
        self._bind_hooks()

    def _bind_hooks(self) -> None:
        """Bind the rule hooks, the stock ones or a variant's: the rules call these."""
        # The hooks of a card alone are asked once per card, and their answers kept.
        cards = [Card(i) for i in range(52)]
        self._values = tuple(self.card_value(card) for card in cards)
        self._corridor = tuple(self.is_corridor(card) for card in cards)
        self._room = tuple(self.is_room(card) for card in cards)
        # The rule steps, with the hooks that read a state bound (see _play).
        self._rules = Rules(self)

    def _stock_hooks(self) -> frozenset[str]:
        """The rule hooks of this game that are the stock game's own, overridden neither
        by a subclass nor on the instance: the rules ask the rule function each of
        these states itself with directly (see :class:`~cardcrawl.mapless._play.Rules`)."""
        own, kind = vars(self), type(self)
        return frozenset(
            name for name in _HOOKS if name not in own and getattr(kind, name) is _STOCK_HOOKS[name]
        )

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name in _HOOKS and "_rules" in vars(self):
            self._bind_hooks()  # an instance's own hook counts on every path too

    @functools.cached_property
    def _made_outcomes(self) -> dict[tuple[str, int], Outcome]:
        """The outcomes made so far, by ending's name and score (see :meth:`_outcome`)."""
        return {}

    @functools.cached_property
    def _dread_lines(self) -> dict[int, str]:
        """The options' dread line of each card that can be placed, by card index."""
        return {card.index: self.options.dread_line(card) for card in PLACEABLE_CARDS}

    @property
    def num_players(self) -> int:
        """Always 1: The Mapless House is a solo game."""
        return 1

    # ------------------------------------------------------------- setup
    def _setup(
        self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]
    ) -> Position:
        if not stack:
            # The setup of every unstacked game: immutable values, made once and shared
            # by every game (a rollout plays thousands of them).
            decks, table = self._unstacked
        else:
            decks, table = self._decks(stack), Grid({ENTRANCE_CELL: ENTRANCE})
        return setup(rng, explicit_chance, decks, table)

    def _decks(self, stack: Mapping[str, Sequence[Any]]) -> dict[str, Deck]:
        # The engine has refused any source not in stack_sources already.
        return {
            name: Deck.stacked_from(name, cards, stack.get(name, ()))
            for name, cards in self.stack_sources.items()
        }

    @functools.cached_property
    def _unstacked(self) -> tuple[dict[str, Deck], Grid]:
        """The decks and the table of a game set up with no stack (M-2: the Entrance at
        (0, 0) with the player on it; Stalkers off the table)."""
        return self._decks({}), Grid({ENTRANCE_CELL: ENTRANCE})

    def _new_state(
        self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]
    ) -> MaplessState:
        return freeze(self._setup(rng, explicit_chance, stack), [])

    def _begin(
        self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]
    ) -> MaplessState:
        position = self._setup(rng, explicit_chance, stack)
        events: Events = []
        self._resolve(position, events)
        return self._frozen(position, events, keep=True)

    # The engine's step, once the action is checked, is the module's step frame itself
    # (a function, bound as a method: no call more at every step).
    _advance = advance

    def _frozen(self, position: Position, events: Events, keep: bool = False) -> MaplessState:
        """The state of ``position``, its legal actions filled in when the rules know
        them (the cells the hooks gave for the decision it waits on); with ``keep``
        (the public step's own positions, which nothing changes afterwards),
        ``position`` is kept for the next step from the state (see :func:`advance`)."""
        return frozen(self, position, events, keep)

    # ---------------------------------------------------- protocol hooks
    def is_terminal(self, state: MaplessState) -> bool:
        """True once the game is over."""
        if not isinstance(state, MaplessState):
            raise self._not_a_state(state)
        return state.phase is _OVER

    def _to_move(self, state: MaplessState) -> int:
        # Identity tests: hashing an enum member is a Python-level call, and this is hot.
        phase = state.phase
        if phase is _MOVE or phase is _PLACE or phase is _PLACE_EXIT:
            return 0
        return TERMINAL if phase is _OVER else CHANCE

    def _decisions(self, state: MaplessState) -> tuple[Action, ...]:
        return _actions(state.phase, self._decision_cells(state))

    def _decision_cells(self, view: MaplessState | Position) -> list[Cell]:
        """The cells of the decision a state or position waits on, as the hooks give them."""
        return self._rules.decision_cells(view)

    def _chances(self, state: MaplessState) -> tuple[tuple[Action, int], ...]:
        position = thaw(state)
        outcomes = self._outcomes(position, position.drawing())
        return tuple((_DRAWS[card.index], w) for card, w in outcomes)

    def _describe(self, state: MaplessState) -> str:
        phase = state.phase
        return {
            _DRAW: "the chance draw of the top Narrative card",
            _PLACE: f"the player to choose where {getattr(state.drawn, 'symbol', '')} goes "
            "(place X,Y)",
            _PLACE_EXIT: "the player to choose the Exit's cell (exit X,Y)",
            _MOVE: "the player to move to a touching card (move X,Y)",
            _DRAW_MIND: "the chance draw of the top Mind card",
            _DRAW_BODY: "the chance draw of the top Body card",
        }[phase]

    def _apply(self, state: MaplessState, action: Action, events: Events) -> MaplessState:
        # The engine's ``events`` are events: the rules' log is made into them.
        position = thaw(state)
        log: Events = []
        self._act(position, action, log)
        events.extend(events_of_log(log))
        return self._frozen(position, log)

    # ------------------------------------------------------------ rules
    # The public hooks. Each decides one rule of the rulebook, cites its ruling and is
    # the only place that rule is decided: the rule steps below, legal_actions, the
    # pictures and the bots all ask it. A variant overrides the hooks it changes.
    #
    # A hook that depends on a card alone (card_value, is_corridor, is_room) is asked
    # once per card when the game is built, and its answers are kept in tables. The
    # others are asked every time. Called by the rules, a hook is given the working
    # position as the rules have left it so far in the step (or the rollout): a
    # read-only view that answers the state's attribute names (see
    # cardcrawl.mapless._position). A hook reads it; it keeps none of it (the position
    # changes next) and changes none of it. Called by anyone else, it is given a state.

    def card_value(self, card: Card | None) -> int:
        """A card's value (M-1): 2-10 face value, J 11, Q 12, K 13; the aces 0.

        ``None`` stands for a draw that yields no card (M-17), worth 0. Asked once per
        card when the game is built.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.card_value(cardcrawl.Card.parse("QH")), game.card_value(None)
            (12, 0)
        """
        return card_value(card)

    def is_corridor(self, card: Card) -> bool:
        """Whether a Narrative card is a corridor (M-3): the 2 to 10.

        Asked once per card when the game is built. Corridors are placed by
        :meth:`corridor_cells`, and close their empty neighbours to Narrative cards once
        they touch two cards (M-6).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> [game.is_corridor(c) for c in cardcrawl.parse_cards("2C 10S JC")]
            [True, True, False]
        """
        return is_corridor(card)

    def is_room(self, card: Card) -> bool:
        """Whether a Narrative card is a room (M-3): J, Q and K.

        Asked once per card when the game is built. The room placed last may pull the
        corridors drawn after it (M-7).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> [game.is_room(c) for c in cardcrawl.parse_cards("JC KH 9S")]
            [True, True, False]
        """
        return is_room(card)

    def placement_cells(self, state: MaplessState, card: Card) -> list[Cell]:
        """Where the drawn Narrative card ``card`` may go, sorted (M-4 to M-7).

        The player chooses one of them (M-8); with none, the card is refused. By
        default a corridor goes where :meth:`corridor_cells` says and any other card
        where :meth:`room_cells` says.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> game.placement_cells(state, state.drawn)
            [(-1, 0), (0, -1), (0, 1), (1, 0)]
        """
        return self._rules.placement(state, card)

    def corridor_cells(self, state: MaplessState) -> list[Cell]:
        """Where a corridor may go, sorted (M-4, M-6, M-7).

        Empty cells touching exactly one card and closed to no Narrative card (M-6),
        next to the last room while it touches fewer than two cards (M-7). See
        :func:`cardcrawl.mapless.corridor_cells`.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS", "5C"]})
            >>> state = game.step(state, game.parse_action("place 1,0"))
            >>> game.corridor_cells(state)  # pulled next to the king (M-7)
            [(1, -1), (1, 1), (2, 0)]
        """
        return corridor_cells(state.table, state.closed, state.last_room)

    def room_cells(self, state: MaplessState) -> list[Cell]:
        """Where a room may go, sorted (M-5, M-6): any empty cell touching the house
        that is not closed to Narrative cards. See :func:`cardcrawl.mapless.room_cells`.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> game.room_cells(state)
            [(-1, 0), (0, -1), (0, 1), (1, 0)]
        """
        return room_cells(state.table, state.closed)

    def exit_may_open(self, state: MaplessState) -> bool:
        """Whether the ♥A, just drawn, may open the Exit (M-10).

        ``state.narrative`` no longer holds the ♥A. By default the Exit opens once a
        black suit is exhausted: all twelve of its cards have left the Narrative deck.
        Otherwise the ♥A is shuffled back in (a chance event) and the next card drawn.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.exit_may_open(game.initial_state(seed=1))
            False
        """
        return black_suit_exhausted(state.narrative)

    def exit_cells(self, state: MaplessState) -> list[Cell]:
        """The cells where the Exit may open, sorted and never empty (M-11).

        By default the empty cells one farther from the Entrance than the farthest
        card, touching a card (:func:`cardcrawl.mapless.exit_candidates`). With one
        cell the Exit opens there; with several the player chooses.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> state = game.step(state, game.parse_action("place 1,0"))
            >>> game.exit_cells(state)
            [(1, -1), (1, 1), (2, 0)]
        """
        return exit_candidates(state.table)

    def move_cells(self, state: MaplessState) -> list[Cell]:
        """Where the player may move, sorted (M-14): the table cards touching theirs.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.move_cells(game.initial_state(seed=1))
            []
        """
        return move_cells(state.table, state.player)

    def encounter_threshold(self, state: MaplessState) -> int:
        """What an Encounter's total must reach (M-15): the value of the player's card.

        The Entrance and the Exit are worth 0, so the player always holds their nerve
        there, although both cards are still turned.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.encounter_threshold(game.initial_state(seed=1))  # on the Entrance
            0
        """
        return encounter_threshold(self._values, state.table, state.player)

    def encounter_total(self, state: MaplessState, cards: tuple[Card, ...]) -> int:
        """An Encounter's total (M-15): the values of the turned Mind and Body cards and
        of every card already holding the player, all in ``cards``.

        A draw that yields no card (M-17) is not among ``cards``: it adds 0.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1)
            >>> game.encounter_total(state, tuple(cardcrawl.parse_cards("5H 9D")))
            14
        """
        return encounter_total(self._values, cards)

    def stalker_step(self, state: MaplessState, stalker: Card, cell: Cell) -> Cell:
        """Where the Stalker ``stalker`` (♠A or ♣A), on ``cell``, steps (M-18, M-19).

        By default one cell toward the player along the wider gap (up or down on a
        tie), through empty space as freely as through cards; the ♠A never steps back
        onto the Exit once it has left it (:func:`cardcrawl.mapless.stalker_step`).
        Returning ``cell`` itself means the Stalker waits.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.mapless import CLUB_STALKER
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1)  # the player on (0, 0)
            >>> game.stalker_step(state, CLUB_STALKER, (2, -1))
            (1, -1)
        """
        return stalker_target(stalker, cell, state.player, state.spade_left_exit, state.exit_cell)

    def club_arrival(self, state: MaplessState) -> Cell | None:
        """Where the ♣A appears at the end of this turn, or ``None`` (M-17).

        Asked at the end of every turn while the ♣A is off the table. By default it
        appears on the Entrance at the end of the turn in which a deck first ran dry.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> print(game.club_arrival(game.initial_state(seed=1)))
            None
        """
        return club_arrival(state.ran_dry)

    def score(self, state: MaplessState) -> int:
        """The score (M-21): the cards on the table, Entrance and Exit included.

        The rules give ``state`` as their working position, which reads as a state
        does: read it, never keep or change it (see the how-to *Write a variant*).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.score(game.initial_state(seed=1))
            1
        """
        return state.score

    # -------------------------------------------------------------- play
    # The rules, each stated once, over a working position ``p``: the methods of
    # :class:`~cardcrawl.mapless._play.Rules`, with this game's hooks bound. ``step``
    # runs them on a position thawed from a state, the rollout kernel on one position
    # for a whole game. ``ev`` is the list the step's events go to, or ``None`` when
    # nobody will read them (a rollout keeping only the outcome).

    def _act(self, p: Position, action: Action, ev: Events | None) -> None:
        """A legal decision, or at a chance event one of its outcomes."""
        self._rules.act(p, action, ev)

    def _decide(self, p: Position, cell: Cell, ev: Events | None) -> None:
        """The decision the position waits on, by its cell: one of ``p.choices``."""
        self._rules.decide(p, cell, ev)

    def _resolve(self, p: Position, ev: Events | None) -> None:
        """Play the chance events that follow (see ``Rules.resolve``)."""
        self._rules.resolve(p, ev)

    def _outcomes(self, p: Position, deck: WorkingDeck) -> tuple[tuple[Card, int], ...]:
        """What the chance draw from ``deck`` can bring, each card with its weight."""
        return self._rules.outcomes(p, deck)

    # ------------------------------------------------------- the rest
    def outcome(self, state: MaplessState) -> Outcome | None:
        """``escaped`` (return 1), ``consumed`` or ``lost`` (return 0), with the score."""
        if not isinstance(state, MaplessState):
            raise self._not_a_state(state)
        return self._outcome(state)

    def _outcome(self, view: Any) -> Outcome | None:
        """The outcome of a state, or of a working position that answers as its state
        would (the rollout kernel's, which it need not freeze)."""
        ending = view.ending
        if ending is None:
            return None
        score = self.score(view)
        # An outcome is an immutable value: the one of each ending and score is made once.
        # Keyed by the ending's name: hashing an enum member is a call of Python code.
        key = (ending._name_, score)
        outcome = self._made_outcomes.get(key)
        if outcome is None:
            escaped = ending is _ESCAPED
            outcome = self._made_outcomes[key] = Outcome(
                label=ending.value,
                returns=(1.0 if escaped else 0.0,),
                scores=(score,),
                winners=(0,) if escaped else (),
            )
        return outcome

    def observe(self, state: MaplessState, player: int) -> MaplessObservation:
        """What the player knows: everything but the generator and the decks' order."""
        if not isinstance(state, MaplessState):
            raise self._not_a_state(state)
        self.check_player(player)
        return MaplessObservation(
            phase=state.phase, turn=state.turn, table=state.table, last_room=state.last_room,
            narrative_left=state.narrative.cards, mind_left=state.mind.cards,
            body_left=state.body.cards, mind_aside=state.mind_aside,
            body_aside=state.body_aside, refused=state.refused, held=state.held,
            drawn=state.drawn, mind_card=state.mind_card, player=state.player,
            exit_cell=state.exit_cell, spade=state.spade, club=state.club,
            spade_left_exit=state.spade_left_exit, ran_dry=state.ran_dry, ending=state.ending,
            events=state.events,
        )  # fmt: skip

    def determinize(self, state: MaplessState, player: int, seed: int) -> MaplessState:
        """The same position with the decks' order forgotten and a fresh generator.

        This is the exact posterior: the player knows which cards each deck holds and
        nothing of their order, and every order is equally likely.
        """
        if not isinstance(state, MaplessState):
            raise self._not_a_state(state)
        self.check_player(player)
        return _evolve(
            state,
            narrative=state.narrative.unstacked(),
            mind=state.mind.unstacked(),
            body=state.body.unstacked(),
            rng=rng_from_seed(seed),
        )

    def sample_state(
        self,
        observation: MaplessObservation,
        player: int,
        seed: int,
        *,
        explicit_chance: bool = False,
    ) -> MaplessState:
        """The state of ``observation`` with the decks unordered and a fresh generator:
        the exact posterior, as :meth:`determinize` (see
        :func:`~cardcrawl.mapless.state_from_observation`)."""
        # Imported here: the bot model imports this module.
        from cardcrawl.mapless._bot_model import state_from_observation

        self.check_player(player)
        return state_from_observation(observation, seed, explicit_chance=explicit_chance, game=self)

    def card_census(self, state: MaplessState) -> Mapping[str, tuple[Card, ...]]:
        """All 52 cards by where they are; the ♠A and ♣A count as Stalkers wherever they stand."""
        return {
            "table": tuple(state.table.values()),
            "narrative": state.narrative.cards,
            "mind": state.mind.cards,
            "body": state.body.cards,
            "mind_aside": state.mind_aside,
            "body_aside": state.body_aside,
            "refused": state.refused,
            "held": state.held,
            "in_hand": tuple(c for c in (state.drawn, state.mind_card) if c is not None),
            "stalkers": (SPADE_STALKER, CLUB_STALKER),
        }

    def render(self, state: MaplessState) -> str:
        """The state as a text map with its piles (see :func:`cardcrawl.mapless.render`)."""
        places = {a.cell for a in self.legal_actions(state) if isinstance(a, (Place, PlaceExit))}
        return render(state, places)

    def parse_action(self, text: str) -> Action:
        """The action named by ``text`` (``"place 1,0"``, ``"exit 3,-1"``, ``"move 0,1"``,
        ``"draw QS"``)."""
        return parse_action(text)

    def state_problems(self, state: MaplessState) -> list[str]:
        """Every invariant of The Mapless House that ``state`` breaks (see
        :meth:`cardcrawl.GameBase.state_problems`): each of the 52 cards exactly once,
        each pile holding only cards the rules can bring there, the closed cells those
        of the table's corridors (M-6), and phases, pieces and pending cards that agree.

        Examples:
            >>> import attrs, cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1)
            >>> game.state_problems(attrs.evolve(state, player=(5, 5)))
            ['the player is not on a table card']
        """
        if not isinstance(state, MaplessState):
            raise self._not_a_state(state)
        problems = self.census_problems(state, _ALL_CARDS)
        if any(card.index >= len(self._corridor) for card in state.table.values()):
            # A joker on the table, which the census has reported, has no entry in the
            # tables of the 52 cards that the checks below read.
            return problems
        problems.extend(_inconsistencies(state, self._corridor, self._room))
        return problems


# The stock hooks' own functions (and ``outcome``'s, which the rollout kernel reads off
# a position), as the class defines them: a hook is the stock one only if it is still
# this function (a class patched later, MaplessHouse itself included, has its patch
# called).
_STOCK_HOOKS = {name: vars(MaplessHouse)[name] for name in _HOOKS | {"outcome"}}


def _unreachable(table: Grid) -> bool:
    """Whether some table card cannot be reached from the Entrance over touching cards."""
    if ENTRANCE_CELL not in table:
        return True  # with no Entrance (reported already), no card is reached
    seen = {ENTRANCE_CELL}
    todo = [ENTRANCE_CELL]
    while todo:
        for n in neighbours(todo.pop()):
            if n in table and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) != len(table)


def _inconsistencies(
    state: MaplessState, corridors: Sequence[bool], rooms: Sequence[bool]
) -> list[str]:
    problems = []
    table = state.table
    if table.get(ENTRANCE_CELL) != ENTRANCE:
        problems.append("the Entrance is not at (0, 0)")
    # Every card is placed touching the house (M-4, M-5, M-11), so the house is one
    # piece around the Entrance; and the Stalkers only ever step toward the player from
    # a card (M-18), so they stay within the house's bounds. Both keep a loaded state
    # as small as the cards it holds, whatever coordinates a save names.
    if _unreachable(table):
        problems.append("the house is not one piece: a table card touches no path to (0, 0)")
    else:
        low_x, low_y, high_x, high_y = bounds(table)
        for name, where in (("♠A", state.spade), ("♣A", state.club)):
            if where is not None and not (
                low_x <= where[0] <= high_x and low_y <= where[1] <= high_y
            ):
                problems.append(f"the {name} Stalker at {where} is outside the house's bounds")
    if state.closed != closed_cells(table, corridors):
        problems.append("closed cells do not match the table")
    if state.player not in table:
        problems.append("the player is not on a table card")
    if (state.drawn is not None) != (state.phase in (Phase.PLACE, Phase.PLACE_EXIT)):
        problems.append("a drawn card must wait exactly in phases place and place-exit")
    if (state.ending is not None) != (state.phase is Phase.OVER):
        problems.append("an ending must be set exactly when the phase is over")
    if state.exit_cell is not None and table.get(state.exit_cell) != EXIT:
        problems.append("the Exit is not on its cell")
    if (state.exit_cell is None) != (state.spade is None):
        problems.append("the ♠A is on the table exactly once the Exit is")
    if state.phase in (_MOVE, _DRAW_MIND, _DRAW_BODY) and state.exit_cell is None:
        problems.append("the hunt (move, draw-mind, draw-body) begins once the Exit is placed")
    drawn_from = {_DRAW: state.narrative, _DRAW_MIND: state.mind, _DRAW_BODY: state.body}
    if not drawn_from.get(state.phase, True):
        # M-13, M-17: a turn skips the Narrative draw when that deck is out, and an empty
        # Mind or Body deck takes its Aside pile, or yields no card, before any draw.
        problems.append(f"phase {state.phase.value} draws from an empty deck")
    if state.club is not None and not state.ran_dry:
        problems.append("the ♣A is on the table although no deck has run dry")
    if state.last_room is not None and (
        state.last_room not in table or not rooms[table[state.last_room].index]
    ):
        problems.append("last_room is not a room on the table")
    if not 0 <= state.turn <= MAX_COUNT or (state.turn > 0 and state.exit_cell is None):
        problems.append(f"turn must be 0 before the hunt, and a count up to {MAX_COUNT:,}")
    if state.rng < 0 or state.rng >= 1 << 64:
        problems.append("rng must be an integer from 0 to 2**64 - 1")
    problems.extend(_misplaced_cards(state))
    return problems


_STORY_CARDS = frozenset(NARRATIVE_CARDS) - {EXIT}
_MIND_CARDS = frozenset(MIND_CARDS)
_BODY_CARDS = frozenset(BODY_CARDS)


def _misplaced_cards(state: MaplessState) -> list[str]:
    """Each pile may only hold the cards that the rules can bring there (M-2)."""
    piles: dict[str, tuple[tuple[Card, ...], frozenset[Card]]] = {
        "the Narrative deck": (state.narrative.cards, frozenset(NARRATIVE_CARDS)),
        "the Mind deck": (state.mind.cards, _MIND_CARDS),
        "the Mind Aside pile": (state.mind_aside, _MIND_CARDS),
        "the Body deck": (state.body.cards, _BODY_CARDS),
        "the Body Aside pile": (state.body_aside, _BODY_CARDS),
        "the Refused pile": (state.refused, _STORY_CARDS),
        "the cards holding the player": (state.held, _MIND_CARDS | _BODY_CARDS),
    }
    problems = [
        f"{name} holds {', '.join(sorted(str(c) for c in cards if c not in allowed))}"
        for name, (cards, allowed) in piles.items()
        if any(c not in allowed for c in cards)
    ]
    for cell, card in state.table.items():
        expected_here = (card == ENTRANCE and cell == ENTRANCE_CELL) or (
            card == EXIT and cell == state.exit_cell
        )
        if expected_here:
            continue
        if card not in _STORY_CARDS:
            problems.append(f"{card} cannot lie on the table at {cell_text(cell)}")
    drawn = state.drawn
    if drawn is not None and (drawn == EXIT) != (state.phase is Phase.PLACE_EXIT):
        problems.append("the Exit waits to be placed exactly in phase place-exit")
    if drawn is not None and drawn != EXIT and drawn not in _STORY_CARDS:
        problems.append(f"{drawn} is not a Narrative card to place")
    if state.mind_card is not None and (
        state.phase is not Phase.DRAW_BODY or state.mind_card not in _MIND_CARDS
    ):
        problems.append("a turned Mind card waits only while the Body card is drawn")
    if state.held and state.exit_cell is None:
        problems.append("no card can hold the player before the hunt")
    if state.spade_left_exit and state.exit_cell is None:
        problems.append("the ♠A cannot have left an Exit that is not placed")
    return problems
