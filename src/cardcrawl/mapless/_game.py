"""The rules of The Mapless House as a :class:`~cardcrawl.GameBase`.

Each method below is one step of the rulebook's procedure; the comments cite the
rulings (``M-x``) of the project's normative reading, RULINGS.md.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import attrs

from cardcrawl.core._engine import GameBase, replacer
from cardcrawl.core._notation import MAX_COUNT
from cardcrawl.core._protocol import CHANCE, TERMINAL, Outcome
from cardcrawl.core._random import rng_from_seed
from cardcrawl.errors import HookError
from cardcrawl.kit._cards import Card, Suit
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, Grid, bounds, cell_text, neighbours
from cardcrawl.mapless._actions import Action, Draw, Move, Place, PlaceExit, parse_action
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
from cardcrawl.mapless._notation import MaplessNotation
from cardcrawl.mapless._render import render
from cardcrawl.mapless._rules import (
    card_value,
    corridor_cells,
    exit_candidates,
    is_corridor,
    is_room,
    newly_closed,
    room_cells,
    stalker_step,
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
_ESCAPED, _CONSUMED, _LOST = Ending.ESCAPED, Ending.CONSUMED, Ending.LOST
_SPADES, _CLUBS = Suit.SPADES, Suit.CLUBS
_ALL_CARDS = Counter(Card(i) for i in range(52))

Events = list[MaplessEvent]

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
_EXIT_INDEX = EXIT.index
# Events that depend on the card only are made once too, and so are the most common
# ones with one small number or nothing at all.
_CARDS_DRAWN = tuple(CardDrawn(Card(i)) for i in range(52))
_SHUFFLED_BACK = ExitShuffledBack()
_TURNS = 256
_TURNS_STARTED = tuple(TurnStarted(turn) for turn in range(_TURNS))
# Looked up by card index in every Encounter: which Aside pile a card goes to.
_IS_HEART = tuple(Card(i).suit is Suit.HEARTS for i in range(52))
_IS_DIAMOND = tuple(Card(i).suit is Suit.DIAMONDS for i in range(52))


_evolve = replacer(MaplessState)
_FIELDS = frozenset(a.name for a in attrs.fields(MaplessState) if a.init)
_SIZE = len(_FIELDS) + 1  # the fields and the private _memo
_new = object.__new__
_set = object.__setattr__


def _next(state: MaplessState, events: Events, **changes: Any) -> MaplessState:
    """The state after ``changes``, in the middle of a step whose events are ``events``.

    A step of sampled play runs through several rule steps and chance draws, and each
    rule step used to build a state of its own. Only the step's first state is built
    now: it holds the step's own ``events`` list (a finished state holds a tuple), and
    a state holding that very list was made during this step and has been seen by
    nobody else, so the later changes of the step are made to it in place. The engine
    then finishes it (generator, events tuple) before anyone sees it. The state the
    step was given is never changed: it holds an older events tuple.
    """
    fields = state.__dict__
    if fields["events"] is events:
        fields.update(changes)
        # An unknown name would have added a key (cheaper to test than the names).
        assert len(fields) == _SIZE, f"unknown fields {set(changes) - _FIELDS}"
        if fields["_memo"]:
            fields["_memo"] = {}  # nothing derived from the old values may survive
        return state
    fields = fields.copy()
    fields.update(changes)
    assert len(fields) == _SIZE, f"unknown fields {set(changes) - _FIELDS}"
    fields["events"] = events
    fields["_memo"] = {}
    result: MaplessState = _new(MaplessState)
    _set(result, "__dict__", fields)
    return result


class MaplessHouse(GameBase[MaplessState, Action, MaplessObservation]):
    """The Mapless House, solo: build the house card by card, then reach the Exit.

    Load it by name with ``cardcrawl.load("mapless-house", max_turns=...)``.

    Stacked decks: ``initial_state(seed, stack={...})`` takes the sources
    ``"narrative"``, ``"mind"`` and ``"body"``, each a sequence of cards (or card codes)
    from that deck, drawn first and in that order; the rest of each deck stays shuffled.

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
    # Every rule step below builds its result with _next, never returning a state
    # it was given, so the engine may finish each step's last state in place.
    _fresh_states: ClassVar[bool] = True
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
        # The hooks of a card alone, asked once per card (see "rules" below).
        cards = [Card(i) for i in range(52)]
        self._values = tuple(self.card_value(card) for card in cards)
        self._corridor = tuple(self.is_corridor(card) for card in cards)
        self._room = tuple(self.is_room(card) for card in cards)
        # The rule steps fill in a new state's legal actions when they know them
        # already: only while they are what _decisions would find.
        self._prefill = type(self)._decisions is MaplessHouse._decisions

    @functools.cached_property
    def _dread_lines(self) -> dict[int, str]:
        """The options' dread line of each card that can be placed, by card index."""
        return {card.index: self.options.dread_line(card) for card in PLACEABLE_CARDS}

    @property
    def num_players(self) -> int:
        """Always 1: The Mapless House is a solo game."""
        return 1

    # ------------------------------------------------------------- setup
    def _new_state(
        self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]
    ) -> MaplessState:
        # The engine has refused any source not in stack_sources already.
        decks = {
            name: Deck.stacked_from(name, cards, stack.get(name, ()))
            for name, cards in self.stack_sources.items()
        }
        # M-2: the Entrance at (0, 0) with the player on it; Stalkers off the table.
        return MaplessState(
            phase=_DRAW, turn=0, table=Grid({ENTRANCE_CELL: ENTRANCE}), closed=frozenset(),
            last_room=None, narrative=decks["narrative"], mind=decks["mind"],
            body=decks["body"], mind_aside=(), body_aside=(), refused=(), held=(), drawn=None,
            mind_card=None, player=ENTRANCE_CELL, exit_cell=None, spade=None, club=None,
            spade_left_exit=False, ran_dry=False, ending=None, rng=rng,
            explicit_chance=explicit_chance, events=(),
        )  # fmt: skip

    # ---------------------------------------------------- protocol hooks
    def is_terminal(self, state: MaplessState) -> bool:
        """True once the game is over."""
        return state.phase is _OVER

    def _to_move(self, state: MaplessState) -> int:
        # Identity tests: hashing an enum member is a Python-level call, and this is hot.
        phase = state.phase
        if phase is _MOVE or phase is _PLACE or phase is _PLACE_EXIT:
            return 0
        return TERMINAL if phase is _OVER else CHANCE

    def _decisions(self, state: MaplessState) -> tuple[Action, ...]:
        phase = state.phase
        if phase is _MOVE:
            return tuple(map(_MOVES.__getitem__, self.move_cells(state)))
        if phase is _PLACE:
            assert state.drawn is not None
            return tuple(map(_PLACES.__getitem__, self.placement_cells(state, state.drawn)))
        if phase is _PLACE_EXIT:
            return tuple(PlaceExit(c) for c in self.exit_cells(state))
        return ()

    def _deck_drawn(self, state: MaplessState) -> Deck:
        phase = state.phase
        if phase is _DRAW:
            return state.narrative
        return state.mind if phase is _DRAW_MIND else state.body

    def _chances(self, state: MaplessState) -> tuple[tuple[Action, int], ...]:
        deck = self._deck_drawn(state)
        outcomes = deck.outcomes()
        # M-10 folded: while the Exit may not open, drawing the ♥A only shuffles it back
        # and draws again, so what the draw brings is one of the other cards, each as
        # likely. Listing the ♥A would make the chance tree loop forever.
        if (
            state.phase is _DRAW
            and len(outcomes) > 1
            and any(c == EXIT for c, _ in outcomes)
            and not self.exit_may_open(_evolve(state, narrative=deck.take(EXIT)))
        ):
            outcomes = tuple((c, w) for c, w in outcomes if c != EXIT)
        return tuple((_DRAWS[card.index], w) for card, w in outcomes)

    def _sample(self, state: MaplessState, rng: int) -> tuple[Action, int]:
        # The one sanctioned difference from drawing among _chances: sampled play may
        # draw the ♥A while the Exit may not open. The rule step then shuffles it back
        # (and narrates it) and the engine draws again, so the card that comes out is
        # distributed exactly as _chances says; sampled games stay what they have
        # always been, narration included.
        card, rng = self._deck_drawn(state).sample(rng)
        return _DRAWS[card.index], rng

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
        phase = state.phase
        if phase is _PLACE:
            assert isinstance(action, Place)
            return self._place(state, action.cell, events)
        if phase is _PLACE_EXIT:
            assert isinstance(action, PlaceExit)
            return self._open_exit(state, action.cell, events)
        if phase is _MOVE:
            assert isinstance(action, Move)
            return self._move(state, action.cell, events)
        assert isinstance(action, Draw)
        card = action.card
        return self._drawn(state, card, self._deck_drawn(state).take(card), events)

    def _drawn(self, state: MaplessState, card: Card, deck: Deck, events: Events) -> MaplessState:
        """``card`` was drawn from the deck the state waits on, which ``deck`` now is."""
        phase = state.phase
        if phase is _DRAW:
            return self._narrative_drawn(state, card, deck, events)
        if phase is _DRAW_MIND:
            return self._enter_body_draw(state, events, mind=deck, mind_card=card)
        return self._encounter(state, card, events, body=deck)

    # ------------------------------------------------------------ rules
    # The public hooks. Each decides one rule of the rulebook, cites its ruling and is
    # the only place that rule is decided: the rule steps below, legal_actions, the
    # pictures and the bots all ask it. A variant overrides the hooks it changes.
    #
    # A hook that depends on a card alone (card_value, is_corridor, is_room) is asked
    # once per card when the game is built, and its answers are kept in tables. The
    # others are asked every time, with the state as the rules have left it so far in
    # the step: a hook reads that state and must not keep it.

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

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> game.placement_cells(state, state.drawn)
            [(-1, 0), (0, -1), (0, 1), (1, 0)]
        """
        if self._corridor[card.index]:
            return self.corridor_cells(state)
        return self.room_cells(state)

    def corridor_cells(self, state: MaplessState) -> list[Cell]:
        """Where a corridor may go, sorted (M-4, M-6, M-7).

        Empty cells touching exactly one card and closed to no Narrative card (M-6),
        next to the last room while it touches fewer than two cards (M-7). See
        :func:`cardcrawl.mapless.corridor_cells`.

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

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.exit_may_open(game.initial_state(seed=1))
            False
        """
        return _black_suit_exhausted(state.narrative)

    def exit_cells(self, state: MaplessState) -> list[Cell]:
        """The cells where the Exit may open, sorted and never empty (M-11).

        By default the empty cells one farther from the Entrance than the farthest
        card, touching a card (:func:`cardcrawl.mapless.exit_candidates`). With one
        cell the Exit opens there; with several the player chooses.

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

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.move_cells(game.initial_state(seed=1))
            []
        """
        return sorted(state.table.touching_cards(state.player))

    def encounter_threshold(self, state: MaplessState) -> int:
        """What an Encounter's total must reach (M-15): the value of the player's card.

        The Entrance and the Exit are worth 0, so the player always holds their nerve
        there, although both cards are still turned.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.encounter_threshold(game.initial_state(seed=1))  # on the Entrance
            0
        """
        return self._values[state.table.cards[state.player].index]

    def encounter_total(self, state: MaplessState, cards: tuple[Card, ...]) -> int:
        """An Encounter's total (M-15): the values of the turned Mind and Body cards and
        of every card already holding the player, all in ``cards``.

        A draw that yields no card (M-17) is not among ``cards``: it adds 0.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1)
            >>> game.encounter_total(state, tuple(cardcrawl.parse_cards("5H 9D")))
            14
        """
        values = self._values
        return sum([values[c.index] for c in cards])

    def stalker_step(self, state: MaplessState, stalker: Card, cell: Cell) -> Cell:
        """Where the Stalker ``stalker`` (♠A or ♣A), on ``cell``, steps (M-18, M-19).

        By default one cell toward the player along the wider gap (up or down on a
        tie), through empty space as freely as through cards; the ♠A never steps back
        onto the Exit once it has left it (:func:`cardcrawl.mapless.stalker_step`).
        Returning ``cell`` itself means the Stalker waits.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.mapless import CLUB_STALKER
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1)  # the player on (0, 0)
            >>> game.stalker_step(state, CLUB_STALKER, (2, -1))
            (1, -1)
        """
        forbidden = None
        if stalker == SPADE_STALKER and state.spade_left_exit:
            forbidden = state.exit_cell
        return stalker_step(cell, state.player, forbidden)

    def club_arrival(self, state: MaplessState) -> Cell | None:
        """Where the ♣A appears at the end of this turn, or ``None`` (M-17).

        Asked at the end of every turn while the ♣A is off the table. By default it
        appears on the Entrance at the end of the turn in which a deck first ran dry.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> print(game.club_arrival(game.initial_state(seed=1)))
            None
        """
        return ENTRANCE_CELL if state.ran_dry else None

    def score(self, state: MaplessState) -> int:
        """The score (M-21): the cards on the table, Entrance and Exit included.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.score(game.initial_state(seed=1))
            1
        """
        return state.score

    # ---------------------------------------------------------- building
    def _narrative_drawn(
        self, state: MaplessState, card: Card, narrative: Deck, events: Events
    ) -> MaplessState:
        """``card`` was drawn from the Narrative deck, which ``narrative`` now is."""
        events.append(_CARDS_DRAWN[card.index])
        if card.index == _EXIT_INDEX:
            state = _next(state, events, narrative=narrative)
            if not self.exit_may_open(state):
                # M-10: too early; back into the deck, and the next draw is chance again.
                events.append(_SHUFFLED_BACK)
                return _next(state, events, narrative=narrative.shuffle_in((EXIT,)))
            candidates = self.exit_cells(state)
            if not candidates:
                raise HookError(
                    f"{type(self).__name__}.exit_cells returned no cell: the Exit must open "
                    "somewhere once it may (M-11); return at least one empty cell"
                )
            if len(candidates) == 1:
                state = _next(state, events, drawn=EXIT)
                return self._open_exit(state, candidates[0], events, candidates)
            # M-11: the player breaks the tie.
            state = _next(state, events, drawn=EXIT, phase=_PLACE_EXIT)
            if self._prefill:
                state._memo[self._legal_key] = tuple(PlaceExit(c) for c in candidates)
            return state
        cells = self.placement_cells(state, card)
        if not cells:
            events.append(CardRefused(card))  # M-8
            refused = (*state.refused, card)
            return self._after_narrative(state, events, narrative=narrative, refused=refused)
        # M-8: a decision even when only one cell is legal. The cells are known already,
        # so the new state's legal actions are filled in rather than found again.
        state = _next(state, events, narrative=narrative, drawn=card, phase=_PLACE)
        if self._prefill:
            state._memo[self._legal_key] = tuple(map(_PLACES.__getitem__, cells))
        return state

    def _place(self, state: MaplessState, cell: Cell, events: Events) -> MaplessState:
        card = state.drawn
        assert card is not None
        table = state.table.place(cell, card)
        events.append(CardPlaced(card, cell, self._dread_lines[card.index]))
        closed = state.closed
        closing = newly_closed(table, cell, self._corridor)
        if closing:  # most placements close nothing: then the frozen set is shared
            closed = closed | closing
        return self._after_narrative(
            state,
            events,
            table=table,
            closed=closed,
            last_room=cell if self._room[card.index] else state.last_room,
            drawn=None,
        )

    def _after_narrative(self, state: MaplessState, events: Events, **changes: Any) -> MaplessState:
        """The drawn card is dealt with: apply ``changes`` and go on to what follows."""
        if state.exit_cell is None:  # not hunting yet
            return _next(state, events, phase=_DRAW, **changes)  # M-9: phase one draws again
        return self._move_step(_next(state, events, **changes), events)  # M-12: step 2 follows

    def _open_exit(
        self,
        state: MaplessState,
        cell: Cell,
        events: Events,
        candidates: Sequence[Cell] | None = None,
    ) -> MaplessState:
        if candidates is None:
            candidates = self.exit_cells(state)
        table = state.table.place(cell, EXIT)
        events.append(ExitPlaced(cell, tuple(candidates), self.options.dread_line(EXIT)))
        # M-11: the ♠A waits on the Exit; M-12: the hunt opens with a lone Move.
        return _next(
            state,
            events,
            table=table,
            closed=(state.closed - {cell}) | newly_closed(table, cell, self._corridor),
            drawn=None,
            exit_cell=cell,
            spade=cell,
            phase=_MOVE,
        )

    # ------------------------------------------------------------- hunt
    def _begin_turn(self, state: MaplessState, events: Events, **changes: Any) -> MaplessState:
        turn = state.turn + 1
        events.append(_TURNS_STARTED[turn] if turn < _TURNS else TurnStarted(turn))
        if state.narrative:
            return _next(state, events, turn=turn, phase=_DRAW, **changes)  # M-13: Expand
        return self._move_step(_next(state, events, turn=turn, **changes), events)  # M-13: no draw

    def _move_step(self, state: MaplessState, events: Events) -> MaplessState:
        if state.held:
            events.append(MoveSkipped(state.player))  # M-16
            return self._enter_mind_draw(state, events)
        return _next(state, events, phase=_MOVE)

    # From here on, the steps of a turn hand each other the ``changes`` made so far
    # instead of building a state at every step: one state is built where the turn
    # stops (a decision, a chance event or the end), which keeps ``step`` cheap.

    def _move(self, state: MaplessState, cell: Cell, events: Events) -> MaplessState:
        events.append(Moved(state.player, cell))
        # M-14, M-20: walking into a Stalker is fatal; the Exit is only safe when empty.
        for stalker, where in ((SPADE_STALKER, state.spade), (CLUB_STALKER, state.club)):
            if where == cell:
                return self._finish(state, _CONSUMED, events, stalker, player=cell)
        if cell == state.exit_cell:
            return self._finish(state, _ESCAPED, events, player=cell)
        if state.turn == 0:
            return self._begin_turn(state, events, player=cell)  # M-12: a lone opening Move
        return self._enter_mind_draw(state, events, player=cell)

    def _enter_mind_draw(self, state: MaplessState, events: Events, **changes: Any) -> MaplessState:
        if state.mind:
            return _next(state, events, phase=_DRAW_MIND, **changes)
        mind, aside = _refill(state.mind_aside, "Mind", events)
        state = _next(
            state,
            events,
            mind=mind,
            mind_aside=aside,
            ran_dry=True,
            phase=_DRAW_MIND,
            **changes,
        )
        if not mind:
            return self._enter_body_draw(state, events, mind_card=None)  # M-17: 0
        return state

    def _enter_body_draw(self, state: MaplessState, events: Events, **changes: Any) -> MaplessState:
        if state.body:
            return _next(state, events, phase=_DRAW_BODY, **changes)
        body, aside = _refill(state.body_aside, "Body", events)
        state = _next(
            state,
            events,
            body=body,
            body_aside=aside,
            ran_dry=True,
            phase=_DRAW_BODY,
            **changes,
        )
        if not body:
            return self._encounter(state, None, events)  # M-17: 0
        return state

    def _encounter(
        self, state: MaplessState, body_card: Card | None, events: Events, **changes: Any
    ) -> MaplessState:
        # M-15: the turned cards plus every card already holding the player.
        mind_card, holding = state.mind_card, state.held
        involved = holding
        if mind_card is not None:
            involved += (mind_card,)
        if body_card is not None:
            involved += (body_card,)
        total = self.encounter_total(state, involved)
        threshold = self.encounter_threshold(state)
        held = total < threshold
        events.append(Encounter(mind_card, body_card, holding, total, threshold, held))
        changes["mind_card"] = None
        if held:
            changes["held"] = involved  # M-16
        else:
            changes["held"] = ()
            changes["mind_aside"] = state.mind_aside + tuple(
                [c for c in involved if _IS_HEART[c.index]]
            )
            changes["body_aside"] = state.body_aside + tuple(
                [c for c in involved if _IS_DIAMOND[c.index]]
            )
        return self._stalkers(_next(state, events, **changes), events)

    def _stalkers(self, state: MaplessState, events: Events) -> MaplessState:
        # M-18: each Stalker on the table steps, the ♠A first.
        player = state.player
        spade = state.spade
        if spade is not None:
            target = self.stalker_step(state, SPADE_STALKER, spade)  # M-19 inside
            if target == spade:
                events.append(StalkerWaited(SPADE_STALKER, spade))
            else:
                events.append(StalkerStepped(SPADE_STALKER, spade, target))
                state = _next(state, events, spade=target, spade_left_exit=True)
            if target == player:
                return self._finish(state, _CONSUMED, events, SPADE_STALKER)
        club = state.club
        if club is not None:
            target = self.stalker_step(state, CLUB_STALKER, club)
            if target == club:  # never in the standard rules: the ♣A always closes in
                events.append(StalkerWaited(CLUB_STALKER, club))
            else:
                events.append(StalkerStepped(CLUB_STALKER, club, target))
                state = _next(state, events, club=target)
            if target == player:
                return self._finish(state, _CONSUMED, events, CLUB_STALKER)
        else:
            # M-17: the ♣A arrives at the end of the turn the first deck ran dry.
            arrival = self.club_arrival(state)
            if arrival is not None:
                events.append(StalkerArrived(CLUB_STALKER, arrival))
                state = _next(state, events, club=arrival)
                if arrival == player:
                    return self._finish(state, _CONSUMED, events, CLUB_STALKER)
        limit = self.options.max_turns
        if limit is not None and state.turn >= limit:
            return self._finish(state, _LOST, events)  # M-22
        return self._begin_turn(state, events)

    def _finish(
        self,
        state: MaplessState,
        ending: Ending,
        events: Events,
        stalker: Card | None = None,
        **changes: Any,
    ) -> MaplessState:
        score = self.score(state)  # M-21: the table is never among the changes of a finish
        player = changes.get("player", state.player)
        if ending is _ESCAPED:
            events.append(Escaped(player, score))
        elif ending is _CONSUMED:
            assert stalker is not None
            events.append(Consumed(stalker, player, score))
        else:
            events.append(LostInTheHouse(state.turn, score))
        return _next(state, events, ending=ending, phase=_OVER, **changes)

    # ------------------------------------------------------- the rest
    def outcome(self, state: MaplessState) -> Outcome | None:
        """``escaped`` (return 1), ``consumed`` or ``lost`` (return 0), with the score."""
        if state.ending is None:
            return None
        escaped = state.ending is _ESCAPED
        return Outcome(
            label=state.ending.value,
            returns=(1.0 if escaped else 0.0,),
            scores=(self.score(state),),
            winners=(0,) if escaped else (),
        )

    def observe(self, state: MaplessState, player: int) -> MaplessObservation:
        """What the player knows: everything but the generator and the decks' order."""
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
        problems = self.census_problems(state, _ALL_CARDS)
        if any(card.index >= len(self._corridor) for card in state.table.values()):
            # A joker on the table, which the census has reported, has no entry in the
            # tables of the 52 cards that the checks below read.
            return problems
        problems.extend(_inconsistencies(state, self._corridor, self._room))
        return problems


def _black_suit_exhausted(narrative: Deck) -> bool:
    """M-10: all twelve cards of spades, or of clubs, have left the Narrative deck."""
    # The cards are sorted suit by suit, spades first and clubs last (the Narrative deck
    # holds no joker): spades are left exactly when the lowest card is one, and clubs
    # exactly when the highest is. This is asked at every early draw of the Exit.
    cards = narrative.cards
    return not cards or cards[0].suit is not _SPADES or cards[-1].suit is not _CLUBS


def _refill(aside: tuple[Card, ...], name: str, events: Events) -> tuple[Deck, tuple[Card, ...]]:
    """M-17: an empty deck takes its shuffled Aside pile; returns (new deck, new aside)."""
    events.append(DeckRanDry(name, len(aside)))
    return Deck.of(aside), ()


def _closed_cells(table: Grid, corridors: Sequence[bool]) -> frozenset[Cell]:
    closed: set[Cell] = set()
    for cell, card in table.items():
        if corridors[card.index] and table.degree(cell) >= 2:
            closed.update(n for n in neighbours(cell) if n not in table)
    return frozenset(closed)


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
    if state.closed != _closed_cells(table, corridors):
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
