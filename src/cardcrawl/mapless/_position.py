"""The working position of The Mapless House: what the rules change in place.

A :class:`~cardcrawl.mapless.MaplessState` is an immutable value, and a step of play
makes many small changes (a card drawn, placed, a Stalker stepping...). The rules make
them to a :class:`Position`, a mutable working copy of one state (:func:`thaw`), and a
new state is made of it once, when the step is done (:func:`freeze`). ``step`` does
that at every step; a rollout (``simulate``, the bots' playouts) plays a whole game on
one position and freezes it at the end, or never.

A position answers every field name of a state, and ``score`` and ``is_hunting``, so a
rule hook reads it as it would read a state: ``table`` is a
:class:`~cardcrawl.Grid` (``frontier``, ``degree``, ``cards``, ``touching_cards``...),
each deck answers as a :class:`~cardcrawl.Deck` does (``cards``, ``len``, ``in``,
``outcomes``), the piles are tuples. Its parts change as play goes on: a hook reads
them and keeps none of them.

Freezing shares with the state a position was thawed from every part that did not
change (the table, a deck), so the states of one game share most of their data.
"""

from __future__ import annotations

import operator
from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from cardcrawl.core._random import _below
from cardcrawl.kit._cards import Card
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import _NEIGHBOURS, Cell, Grid, neighbours
from cardcrawl.mapless._events import MaplessEvent
from cardcrawl.mapless._state import Ending, MaplessState, Phase

__all__ = ["Position", "WorkingDeck", "WorkingGrid", "freeze", "put_card", "setup", "thaw"]

_INDEX = operator.attrgetter("index")
_DRAW, _DRAW_MIND = Phase.DRAW, Phase.DRAW_MIND


class WorkingGrid(Grid):
    """A :class:`~cardcrawl.Grid` that a position changes in place (:meth:`put`).

    It reads as any grid does; :func:`freeze` hands its cards and frontier to a frozen
    grid, after which the position makes itself a new working copy if it places again.
    """

    # ``cards`` and ``frontier`` are slots here, the very dicts of ``_cards`` and
    # ``_frontier``, rather than the grid's properties: the rules and the hooks read them
    # at every placement, and reading a slot is no Python call.
    __slots__ = ("cards", "frontier")
    cards: dict[Cell, Card]
    frontier: dict[Cell, int]

    def __init__(self, cards: Mapping[Cell, Card] | Iterable[tuple[Cell, Card]] = ()) -> None:
        # As a grid is made (a copy or a pickle of a working grid is made so too).
        super().__init__(cards)
        self.cards = self._cards
        self.frontier = self._frontier

    @classmethod
    def copy_of(cls, grid: Grid) -> WorkingGrid:
        """A working copy of ``grid``."""
        working: WorkingGrid = cls.__new__(cls)
        working._cards = working.cards = grid._cards.copy()
        working._frontier = working.frontier = grid._frontier.copy()
        working._hash = None
        return working

    def put(self, cell: Cell, card: Card) -> None:
        """Lay ``card`` on the empty ``cell``, keeping the frontier (as ``Grid.place``)."""
        put_card(self._cards, self._frontier, cell, card)

    def __hash__(self) -> int:
        raise TypeError("a working grid changes: it has no hash")


def put_card(cards: dict[Cell, Card], frontier: dict[Cell, int], cell: Cell, card: Card) -> None:
    """Lay ``card`` on the empty ``cell`` of the cards ``cards`` of a working grid, and
    keep its frontier ``frontier`` (:meth:`WorkingGrid.put`; the compiled build types
    the two dicts, so the rules call this as C)."""
    cards[cell] = card
    frontier.pop(cell, None)
    # The grid's own cache of neighbours, read directly: a lookup costs less than a
    # call, and this runs at every placement of every game.
    cache = _NEIGHBOURS
    around = cache.get(cell)
    if around is None:
        around = neighbours(cell)
    for n in around:
        if n not in cards:
            frontier[n] = frontier.get(n, 0) + 1


class WorkingDeck:
    """A deck that a position draws from in place: a stacked top over a sorted rest.

    It draws exactly as :meth:`cardcrawl.Deck.draw` does (the stacked top first, else
    index ``rng_below(len(rest))`` of the rest sorted by card index), and reads as a
    :class:`~cardcrawl.Deck` does. Until something is drawn it only holds the frozen
    deck it was made from (``source``), which freezing then shares.

    Examples:
        >>> from cardcrawl import Deck, parse_cards
        >>> deck = Deck.of(parse_cards("2S 3S 4S"))
        >>> working = WorkingDeck.of(deck)
        >>> card, rng = working.draw(7)
        >>> (card, rng) == deck.sample(7), working.freeze() == deck.take(card)
        (True, True)
    """

    __slots__ = ("_rest", "_stacked", "source")

    def __init__(self, stacked: list[Card], rest: list[Card], source: Deck | None) -> None:
        self._stacked = stacked
        self._rest = rest
        self.source = source

    @classmethod
    def of(cls, deck: Deck) -> WorkingDeck:
        """A working copy of ``deck`` (made lazily: its lists at the first change)."""
        working: WorkingDeck = cls.__new__(cls)
        working.source = deck
        return working

    @classmethod
    def shuffled(cls, cards: Iterable[Card]) -> WorkingDeck:
        """A shuffled deck of ``cards`` (``Deck.of``)."""
        return cls([], sorted(cards, key=_INDEX), None)

    def _own(self) -> None:
        """Make the lists of the source, to change them."""
        source = self.source
        if source is not None:
            self._stacked = list(source.stacked)
            self._rest = list(source.rest)
            self.source = None

    @property
    def stacked(self) -> tuple[Card, ...] | list[Card]:
        """The stacked top, drawn first in this order."""
        source = self.source
        return self._stacked if source is None else source.stacked

    @property
    def rest(self) -> tuple[Card, ...] | list[Card]:
        """The unordered rest, sorted by card index."""
        source = self.source
        return self._rest if source is None else source.rest

    def draw(self, rng: int) -> tuple[Card, int]:
        """Draw the next card with the generator state ``rng``: ``(card, new_rng)``."""
        if self.source is not None:
            self._own()
        if self._stacked:
            return self._stacked.pop(0), rng
        rest = self._rest
        rng, k = _below(rng, len(rest))
        return rest.pop(k), rng

    def take(self, card: Card) -> None:
        """Take ``card``, a possible next draw (an outcome of :meth:`outcomes`)."""
        self._own()
        if self._stacked:
            self._stacked.pop(0)
            return
        rest = self._rest
        del rest[bisect_left(rest, card.index, key=_INDEX)]

    def shuffle_in(self, card: Card) -> None:
        """Shuffle ``card`` into the unstacked rest."""
        self._own()
        insort(self._rest, card, key=_INDEX)

    def freeze(self) -> Deck:
        """The frozen deck of these cards."""
        deck = self.source
        if deck is None:
            deck = self.source = Deck._make(tuple(self._stacked), tuple(self._rest))
        return deck

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card in the deck, sorted (as ``Deck.cards``)."""
        source = self.source
        if source is not None:
            return source.cards
        if self._stacked:
            return tuple(sorted(self._stacked + self._rest, key=_INDEX))
        return tuple(self._rest)

    def outcomes(self) -> tuple[tuple[Card, int], ...]:
        """What the next draw can be, each card with its weight (as ``Deck.outcomes``)."""
        return self.freeze().outcomes()

    def __len__(self) -> int:
        source = self.source
        if source is not None:
            return len(source)
        return len(self._stacked) + len(self._rest)

    def __bool__(self) -> bool:
        source = self.source
        if source is not None:
            return bool(source)
        return bool(self._stacked or self._rest)

    def __contains__(self, card: object) -> bool:
        return card in self.stacked or card in self.rest

    def __repr__(self) -> str:
        return f"<WorkingDeck {self.freeze()!r}>"


# What ``attrs.evolve`` reads of a class to copy an instance with changes: the fields of
# a state (but ``events``), so that a hook that asks another hook of a changed copy of
# the position it is given (``attrs.evolve(state, last_room=None)``) is given a position.
_EVOLVED = tuple(a for a in attrs.fields(MaplessState) if a.init and a.name != "events")


class Position:
    """One position of The Mapless House, changed in place by the rules.

    Its attributes are the fields of :class:`~cardcrawl.mapless.MaplessState` (but
    ``events``), with a :class:`WorkingGrid` or frozen grid for ``table``, a
    :class:`WorkingDeck` or frozen deck for each deck (:meth:`drawing` makes the one
    drawn from a working deck), and ``choices``: the cells of the decision the
    position waits for, once the rules have asked the hooks for them (else ``None``).
    A plain class of slots, which the compiled build makes an extension type whose
    fields the rules read as C (``_position.pxd``).

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
        >>> position = thaw(state)
        >>> position.drawn, position.score, len(position.narrative)
        (Card.parse('KS'), 1, 24)
        >>> freeze(position, list(state.events)) == state
        True

        ``attrs.evolve`` copies it with changes, as it does a state, so a hook that
        asks another hook of a changed copy (``attrs.evolve(state, last_room=None)``)
        is given a position too:

        >>> import attrs
        >>> attrs.evolve(position, last_room=(1, 0)).last_room, position.last_room
        ((1, 0), None)
    """

    __slots__ = (
        "body", "body_aside", "choices", "closed", "club", "drawn", "ending", "exit_cell",
        "explicit_chance", "held", "last_room", "mind", "mind_aside", "mind_card",
        "narrative", "phase", "player", "ran_dry", "refused", "rng", "spade",
        "spade_left_exit", "table", "turn",
    )  # fmt: skip
    __attrs_attrs__ = _EVOLVED

    phase: Phase
    turn: int
    table: Grid
    closed: frozenset[Cell]
    last_room: Cell | None
    narrative: Deck | WorkingDeck
    mind: Deck | WorkingDeck
    body: Deck | WorkingDeck
    mind_aside: tuple[Card, ...]
    body_aside: tuple[Card, ...]
    refused: tuple[Card, ...]
    held: tuple[Card, ...]
    drawn: Card | None
    mind_card: Card | None
    player: Cell
    exit_cell: Cell | None
    spade: Cell | None
    club: Cell | None
    spade_left_exit: bool
    ran_dry: bool
    ending: Ending | None
    rng: int
    explicit_chance: bool
    choices: list[Cell] | None

    def __init__(
        self,
        phase: Phase,
        turn: int,
        table: Grid,
        closed: frozenset[Cell],
        last_room: Cell | None,
        narrative: Deck | WorkingDeck,
        mind: Deck | WorkingDeck,
        body: Deck | WorkingDeck,
        mind_aside: tuple[Card, ...],
        body_aside: tuple[Card, ...],
        refused: tuple[Card, ...],
        held: tuple[Card, ...],
        drawn: Card | None,
        mind_card: Card | None,
        player: Cell,
        exit_cell: Cell | None,
        spade: Cell | None,
        club: Cell | None,
        spade_left_exit: bool,
        ran_dry: bool,
        ending: Ending | None,
        rng: int,
        explicit_chance: bool,
        choices: list[Cell] | None = None,
    ) -> None:
        self.phase = phase
        self.turn = turn
        self.table = table
        self.closed = closed
        self.last_room = last_room
        self.narrative = narrative
        self.mind = mind
        self.body = body
        self.mind_aside = mind_aside
        self.body_aside = body_aside
        self.refused = refused
        self.held = held
        self.drawn = drawn
        self.mind_card = mind_card
        self.player = player
        self.exit_cell = exit_cell
        self.spade = spade
        self.club = club
        self.spade_left_exit = spade_left_exit
        self.ran_dry = ran_dry
        self.ending = ending
        self.rng = rng
        self.explicit_chance = explicit_chance
        self.choices = choices

    @property
    def score(self) -> int:
        """The number of cards on the table (M-21), as ``MaplessState.score``."""
        return len(self.table)

    @property
    def is_hunting(self) -> bool:
        """True once the Exit is on the table (M-12), as ``MaplessState.is_hunting``."""
        return self.exit_cell is not None

    def drawing(self) -> WorkingDeck:
        """The deck the chance event of the position draws from, made a working deck."""
        phase = self.phase
        if phase is _DRAW:
            deck = self.narrative
            if isinstance(deck, Deck):
                deck = self.narrative = WorkingDeck.of(deck)
        elif phase is _DRAW_MIND:
            deck = self.mind
            if isinstance(deck, Deck):
                deck = self.mind = WorkingDeck.of(deck)
        else:
            deck = self.body
            if isinstance(deck, Deck):
                deck = self.body = WorkingDeck.of(deck)
        return deck

    def working_table(self) -> WorkingGrid:
        """The table, made a working grid of the position's own if it is not one."""
        table = self.table
        if type(table) is not WorkingGrid:
            table = self.table = WorkingGrid.copy_of(table)
        return table  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"<Position of {freeze(self, [])!r}>"


_new = object.__new__
_set = object.__setattr__


def thaw(state: MaplessState) -> Position:
    """A working position of ``state``, which itself never changes."""
    p: Position = Position.__new__(Position)
    fields = state.__dict__
    p.phase = fields["phase"]
    p.turn = fields["turn"]
    p.table = fields["table"]
    p.closed = fields["closed"]
    p.last_room = fields["last_room"]
    p.narrative = fields["narrative"]  # each deck becomes a working deck when drawn from
    p.mind = fields["mind"]
    p.body = fields["body"]
    p.mind_aside = fields["mind_aside"]
    p.body_aside = fields["body_aside"]
    p.refused = fields["refused"]
    p.held = fields["held"]
    p.drawn = fields["drawn"]
    p.mind_card = fields["mind_card"]
    p.player = fields["player"]
    p.exit_cell = fields["exit_cell"]
    p.spade = fields["spade"]
    p.club = fields["club"]
    p.spade_left_exit = fields["spade_left_exit"]
    p.ran_dry = fields["ran_dry"]
    p.ending = fields["ending"]
    p.rng = fields["rng"]
    p.explicit_chance = fields["explicit_chance"]
    p.choices = None
    return p


def setup(rng: int, explicit_chance: bool, decks: Mapping[str, Deck], table: Grid) -> Position:
    """The position at setup: ``table`` and the three decks, the player on (0, 0)."""
    p: Position = Position.__new__(Position)
    p.phase = Phase.DRAW
    p.turn = 0
    p.table = table
    p.closed = frozenset()
    p.last_room = None
    p.narrative = decks["narrative"]
    p.mind = decks["mind"]
    p.body = decks["body"]
    p.mind_aside = p.body_aside = p.refused = p.held = ()
    p.drawn = p.mind_card = None
    p.player = (0, 0)
    p.exit_cell = p.spade = p.club = None
    p.spade_left_exit = p.ran_dry = False
    p.ending = None
    p.rng = rng
    p.explicit_chance = explicit_chance
    p.choices = None
    return p


# The dict of one state, whose copies the new states' dicts are.
_FIELDS: dict[str, Any] = MaplessState(
    phase=Phase.OVER, turn=0, table=Grid(), closed=frozenset(), last_room=None,
    narrative=Deck(), mind=Deck(), body=Deck(), mind_aside=(), body_aside=(), refused=(),
    held=(), drawn=None, mind_card=None, player=(0, 0), exit_cell=None, spade=None,
    club=None, spade_left_exit=False, ran_dry=False, ending=None, rng=0,
    explicit_chance=False, events=(),
).__dict__  # fmt: skip


def freeze(p: Position, events: list[MaplessEvent]) -> MaplessState:
    """The state of position ``p`` with the events ``events``.

    The position stays usable: its table, if it was a working grid, is now the frozen
    grid of the state, and a later placement copies it first.
    """
    table = p.table
    if type(table) is WorkingGrid:
        table = p.table = Grid._build(table._cards, table._frontier)
    # A copy of a state's own dict shares its table of keys: a third of the memory
    # of a dict built afresh, for every state a game keeps.
    fields = _FIELDS.copy()
    fields["phase"] = p.phase
    fields["turn"] = p.turn
    fields["table"] = table
    fields["closed"] = p.closed
    fields["last_room"] = p.last_room
    deck = p.narrative
    fields["narrative"] = deck.freeze() if type(deck) is WorkingDeck else deck
    deck = p.mind
    fields["mind"] = deck.freeze() if type(deck) is WorkingDeck else deck
    deck = p.body
    fields["body"] = deck.freeze() if type(deck) is WorkingDeck else deck
    fields["mind_aside"] = p.mind_aside
    fields["body_aside"] = p.body_aside
    fields["refused"] = p.refused
    fields["held"] = p.held
    fields["drawn"] = p.drawn
    fields["mind_card"] = p.mind_card
    fields["player"] = p.player
    fields["exit_cell"] = p.exit_cell
    fields["spade"] = p.spade
    fields["club"] = p.club
    fields["spade_left_exit"] = p.spade_left_exit
    fields["ran_dry"] = p.ran_dry
    fields["ending"] = p.ending
    fields["rng"] = p.rng
    fields["explicit_chance"] = p.explicit_chance
    fields["events"] = tuple(events)
    fields["_memo"] = {}
    state: MaplessState = _new(MaplessState)
    _set(state, "__dict__", fields)
    return state
