"""The data of The Mapless House: options, state and observation.

All three are frozen values. The state holds only data; the rules that move it from one
state to the next live in :mod:`cardcrawl.mapless._game`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs

from cardcrawl.core._engine import MemoState, events_of_log
from cardcrawl.core._options import OptionsBase, optional_positive_int
from cardcrawl.errors import OptionsError
from cardcrawl.kit._cards import Card, Suit
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, Grid
from cardcrawl.mapless._dread import STANDARD_DREAD_LINES
from cardcrawl.mapless._events import MaplessEvent

__all__ = [
    "BODY_CARDS",
    "CLUB_STALKER",
    "ENTRANCE",
    "ENTRANCE_CELL",
    "EXIT",
    "MIND_CARDS",
    "NARRATIVE_CARDS",
    "PLACEABLE_CARDS",
    "SPADE_STALKER",
    "Ending",
    "MaplessObservation",
    "MaplessOptions",
    "MaplessState",
    "Phase",
]

#: ♦A, on which the player starts (M-1, M-2).
ENTRANCE = Card.of(1, Suit.DIAMONDS)
#: ♥A (M-1).
EXIT = Card.of(1, Suit.HEARTS)
#: ♠A, the Stalker that starts on the Exit (M-11).
SPADE_STALKER = Card.of(1, Suit.SPADES)
#: ♣A, the Stalker that arrives when a deck first runs dry (M-17).
CLUB_STALKER = Card.of(1, Suit.CLUBS)
#: Where the Entrance lies (M-2).
ENTRANCE_CELL: Cell = (0, 0)

#: The Narrative deck: ♠2-K, ♣2-K and the Exit (M-2).
NARRATIVE_CARDS = tuple(
    sorted([Card.of(r, s) for s in (Suit.SPADES, Suit.CLUBS) for r in range(2, 14)] + [EXIT])
)
#: The Mind deck: ♥2-K (M-2).
MIND_CARDS = tuple(Card.of(r, Suit.HEARTS) for r in range(2, 14))
#: The Body deck: ♦2-K (M-2).
BODY_CARDS = tuple(Card.of(r, Suit.DIAMONDS) for r in range(2, 14))
#: Every card that can lie on the table, so every card that needs a dread line.
PLACEABLE_CARDS = (ENTRANCE, *NARRATIVE_CARDS)


class Phase(enum.Enum):
    """What the state waits for.

    ``DRAW``, ``DRAW_MIND`` and ``DRAW_BODY`` are chance events; ``PLACE``,
    ``PLACE_EXIT`` and ``MOVE`` are the player's decisions; ``OVER`` ends the game. In
    sampled play (the default) ``step`` resolves every chance event itself, so the
    states it returns wait for a decision or are over; only explicit-chance play stops
    at a draw. Each member's value is its name in text.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless import Phase
        >>> game = cardcrawl.load("mapless-house")
        >>> game.initial_state(seed=1).phase
        <Phase.PLACE: 'place'>
        >>> state = game.initial_state(seed=1, explicit_chance=True)
        >>> state.phase, game.current_player(state) == cardcrawl.CHANCE
        (<Phase.DRAW: 'draw'>, True)
        >>> Phase("place-exit") is Phase.PLACE_EXIT
        True
    """

    #: Chance: the top Narrative card (phase one, or Expand in phase two).
    DRAW = "draw"
    #: Decision: where the drawn card goes (M-8).
    PLACE = "place"
    #: Decision: which candidate cell takes the Exit (M-11).
    PLACE_EXIT = "place-exit"
    #: Decision: where to move (the opening Move, or step 2 of a turn).
    MOVE = "move"
    #: Chance: the top Mind card of an Encounter (M-15).
    DRAW_MIND = "draw-mind"
    #: Chance: the top Body card of an Encounter (M-15).
    DRAW_BODY = "draw-body"
    #: The game is over.
    OVER = "over"


class Ending(enum.Enum):
    """How a game of The Mapless House ended (M-21, M-22).

    ``ESCAPED`` is the only win; the value of each member is the label of the game's
    :class:`~cardcrawl.Outcome`.

    Examples:
        With a limit of one turn, this game neither escapes nor is consumed in time:

        >>> import cardcrawl
        >>> from cardcrawl.mapless import Ending
        >>> game = cardcrawl.load("mapless-house", max_turns=1)
        >>> state = game.initial_state(seed=11)
        >>> while not game.is_terminal(state):
        ...     state = game.step(state, game.legal_actions(state)[0])
        >>> state.ending, game.outcome(state).label, game.outcome(state).returns
        (<Ending.LOST: 'lost'>, 'lost', (0.0,))
        >>> [ending.value for ending in Ending]
        ['escaped', 'consumed', 'lost']
    """

    ESCAPED = "escaped"
    CONSUMED = "consumed"
    LOST = "lost"


def _freeze_lines(value: Mapping[str, str] | None) -> Mapping[str, str] | None:
    return None if value is None else MappingProxyType(dict(value))


def _check_lines(_: object, __: object, value: Mapping[str, str] | None) -> None:
    if value is None:
        return
    codes = {c.code for c in PLACEABLE_CARDS}
    missing = sorted(codes - set(value))
    extra = sorted(set(value) - codes)
    if missing or extra:
        raise OptionsError(
            "dread_lines needs one line for each of the 26 cards that can be placed "
            f"({', '.join(sorted(codes))}); "
            f"missing: {missing or 'none'}, unknown: {extra or 'none'}"
        )
    bad = sorted(k for k, v in value.items() if not isinstance(v, str))
    if bad:
        raise OptionsError(f"dread_lines values are strings; not for {bad}")


@attrs.frozen
class MaplessOptions(OptionsBase):
    """Options of The Mapless House. The defaults are the standard rules.

    Attributes:
        max_turns: end the game as *lost in the house* after this many turns of phase two
            (M-22); ``None``, the standard rules, has no limit.
        dread_lines: your own dread-line table, card code to line, for all 26 cards that
            can be placed; ``None`` uses the standard table.

    Examples:
        >>> from cardcrawl.mapless import MaplessOptions
        >>> MaplessOptions(max_turns=200).max_turns
        200
        >>> MaplessOptions(max_turns=0)
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: max_turns is None (no limit) or an integer >= 1, not 0
    """

    max_turns: int | None = attrs.field(default=None, validator=optional_positive_int)
    dread_lines: Mapping[str, str] | None = attrs.field(
        default=None, converter=_freeze_lines, validator=_check_lines, hash=False
    )

    def dread_line(self, card: Card) -> str:
        """The dread line read when ``card`` is placed."""
        table = self.dread_lines if self.dread_lines is not None else STANDARD_DREAD_LINES
        return table[card.code]

    def __reduce__(self) -> tuple[Any, ...]:
        # A frozen mapping (MappingProxyType) cannot be pickled or deep-copied: rebuild
        # the options from their data form instead, as a saved record does.
        return type(self).from_data, (self.to_data(),)


# Not slotted: the engine's replacer copies a state's __dict__ in C, which makes the
# several intermediate states of one step cheap (see cardcrawl.core._engine.replacer).
@attrs.frozen(slots=False)
class MaplessState(MemoState):
    """A position of The Mapless House. Immutable; build it with the game's methods.

    Attributes:
        phase: what the state waits for.
        turn: turns of phase two begun so far (0 in phase one and at the opening Move).
        table: the cards on the table by cell (the Entrance and the Exit included).
        closed: empty cells touching a corridor that already touches two cards (M-6):
            no Narrative card may go there. Kept incrementally so that placement never
            rescans the house.
        last_room: the cell of the room placed most recently (M-7), if any.
        narrative: the Narrative deck, face down.
        mind: the Mind deck, face down.
        body: the Body deck, face down.
        mind_aside: the Mind Aside pile, face up, in the order cards arrived.
        body_aside: the Body Aside pile, face up, in the order cards arrived.
        refused: the Refused pile, face up, in the order cards arrived.
        held: the cards holding the player (M-16), in the order they arrived.
        drawn: the Narrative card waiting to be placed, in phases PLACE and PLACE_EXIT.
        mind_card: the Mind card turned in this Encounter, while the Body card is drawn;
            ``None`` also when the Mind deck had nothing to give.
        player: the player's cell.
        exit_cell: the Exit's cell, once placed.
        spade: the ♠A Stalker's cell, or ``None`` while off the table.
        club: the ♣A Stalker's cell, or ``None`` while off the table.
        spade_left_exit: the ♠A has stepped off the Exit (M-19).
        ran_dry: a Mind or Body deck has run dry at least once (M-17).
        ending: how the game ended, once over.
        rng: the generator state for sampled chance.
        explicit_chance: chance events wait for an outcome from the caller.
        events: what happened in the step that made this state.

    Examples:
        At setup, in sampled play, the first Narrative card (here stacked) is drawn and
        waits to be placed:

        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
        >>> state.phase, state.drawn, state.player, dict(state.table)
        (<Phase.PLACE: 'place'>, Card.parse('KS'), (0, 0), {(0, 0): Card.parse('AD')})
        >>> len(state.narrative), len(state.mind), len(state.body)
        (24, 12, 12)
        >>> state.score, state.is_hunting
        (1, False)

        A state never changes; ``step`` returns a new one:

        >>> state.turn = 3
        Traceback (most recent call last):
        ...
        attr.exceptions.FrozenInstanceError: can't set attribute
        >>> game.step(state, game.parse_action("place 1,0")).score
        2
    """

    phase: Phase
    turn: int
    table: Grid
    closed: frozenset[Cell]
    last_room: Cell | None
    narrative: Deck
    mind: Deck
    body: Deck
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
    events: tuple[MaplessEvent, ...]
    _memo: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    def __repr__(self) -> str:
        # The position notation (see MaplessHouse.notation), which game.position reads.
        return _notation_repr(self, observed=False)

    def __getstate__(self) -> dict[str, Any]:
        # A pickle holds the events themselves, never a step's log of them (see below).
        fields = super().__getstate__()
        if "_log" in fields:
            fields["events"] = self.events
            del fields["_log"]
        return fields

    @property
    def score(self) -> int:
        """The number of cards on the table (M-21)."""
        return len(self.table)

    @property
    def is_hunting(self) -> bool:
        """True once the Exit is on the table (phase two, M-12)."""
        return self.exit_cell is not None


# A state's events in two forms. The public ``events`` is a tuple of event objects. A
# state frozen from a working position (cardcrawl.mapless._position.freeze) holds its
# step's log instead (``_log``): the events the rules made whole, and, for those a step
# makes anew almost every time, a tuple of the event's class and its values, made into
# the event only when ``events`` is first read, then kept in the state's ``__dict__``
# (which Python reads before this descriptor, having no ``__set__``). A step whose
# events nobody reads never builds them. An event is never a tuple.


class _LoggedEvents:
    """``MaplessState.events`` of a state that holds its step's log."""

    def __get__(self, state: Any, owner: Any = None) -> Any:
        if state is None:
            return self
        fields = state.__dict__
        events = fields["events"] = events_of_log(fields["_log"])
        return events


MaplessState.events = _LoggedEvents()  # type: ignore[assignment]


@attrs.frozen
class MaplessObservation:
    """Everything the player knows: the state without its generator or deck orders.

    The decks appear only as the sorted multisets of cards left in them, which the
    player can always work out from the cards seen so far. Make one with the game's
    ``observe(state, 0)``; the other fields are the state's own (see
    :class:`~cardcrawl.mapless.MaplessState`).

    Attributes:
        narrative_left: the cards left in the Narrative deck, sorted.
        mind_left: the cards left in the Mind deck, sorted.
        body_left: the cards left in the Body deck, sorted.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
        >>> seen = game.observe(state, 0)
        >>> seen.drawn, len(seen.narrative_left), seen.narrative_left[:3]
        (Card.parse('KS'), 24, (Card.parse('2S'), Card.parse('3S'), Card.parse('4S')))
        >>> hasattr(seen, "rng")
        False

        Redrawing what the player cannot see changes the state, not the observation:

        >>> other = game.determinize(state, 0, seed=5)
        >>> other == state, game.observe(other, 0) == seen
        (False, True)
    """

    phase: Phase
    turn: int
    table: Grid
    last_room: Cell | None
    narrative_left: tuple[Card, ...]
    mind_left: tuple[Card, ...]
    body_left: tuple[Card, ...]
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
    events: tuple[MaplessEvent, ...]

    def __repr__(self) -> str:
        # The observation's notation (see MaplessHouse.observation_notation).
        return _notation_repr(self, observed=True)


def _notation_repr(value: Any, *, observed: bool) -> str:
    """``<MaplessState 'notation'>``: short, and the text ``game.position`` reads back."""
    from cardcrawl.mapless._notation import _write

    try:
        text = _write(value, observed=observed)
    except Exception:  # a state edited into junk still has a repr
        return f"<{type(value).__name__} that its notation cannot write>"
    return f"<{type(value).__name__} {text!r}>"
