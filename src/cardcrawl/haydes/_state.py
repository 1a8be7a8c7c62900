"""The data of Escape from Haydes: options, state and observation.

All of them are frozen values. The state holds only data; the rules that move it from
one state to the next live in :mod:`cardcrawl.haydes._play`, over a working position
(:mod:`cardcrawl.haydes._position`) that a state is thawed into and frozen from, and the
bookkeeping of face-down cards in :mod:`cardcrawl.haydes._unseen`.

How face-down cards are kept (the *lazy deal*): shuffling a deck and dealing it face
down is, in distribution, the same as deciding each card only when it is turned,
uniformly among the cards of its deck not seen yet. So a face-down cell stores no card,
only where its card came from: a *pool* (pool 0 is the Build deck; pool 1 the first
Replacement deck; each reshuffle of the discard pile starts a new pool), or a *mix*
(a group of cells holding a shuffled known mixture, such as the Red Joker among the new
cards of H-10). What the state holds is therefore exactly what the players know; see
:mod:`cardcrawl.haydes` for why this is exact.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from types import MappingProxyType
from typing import Any, ClassVar

import attrs

from cardcrawl.core._engine import MemoState, events_of_log
from cardcrawl.core._options import OptionsBase, optional_positive_int
from cardcrawl.errors import OptionsError, short_repr
from cardcrawl.haydes._actions import Guess
from cardcrawl.haydes._creatures import (
    CREATURE_TABLES,
    Characteristic,
    Creature,
    check_table,
)
from cardcrawl.haydes._events import HaydesEvent
from cardcrawl.kit._cards import Card, standard_deck
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._deck import _make as _make_deck
from cardcrawl.kit._grid import Cell

__all__ = [
    "ALLOWED_SPLITS",
    "BLACK_JOKER_CELL",
    "DOWN",
    "Aim",
    "Belief",
    "Ending",
    "Figure",
    "HaydesObservation",
    "HaydesOptions",
    "HaydesState",
    "Mix",
    "Phase",
    "standard_layout",
]

#: Where the Black Joker lies and every figure starts (H-4, H-5).
BLACK_JOKER_CELL: Cell = (0, 0)
#: The starting (Charisma, Endurance) splits a player may take (H-2).
ALLOWED_SPLITS: tuple[tuple[int, int], ...] = ((7, 9), (8, 8), (9, 7))


def standard_layout() -> frozenset[Cell]:
    """The standard layout (H-4): x from -5 to 5, y from -4 to 5, corners left empty.

    Examples:
        >>> from cardcrawl.haydes import standard_layout
        >>> cells = standard_layout()
        >>> len(cells), (0, 0) in cells, (-5, -4) in cells, (5, 4) in cells
        (106, True, False, True)
    """
    corners = {(-5, -4), (5, -4), (-5, 5), (5, 5)}
    return frozenset((x, y) for x in range(-5, 6) for y in range(-4, 6) if (x, y) not in corners)


_STANDARD_LAYOUT = standard_layout()


def setup_cards(deck_count: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The cards of the Build deck and of the Replacement deck, sorted, for ``deck_count``
    standard decks: half of them each, and the Red Joker in the Build deck (H-3).

    Example:
        >>> build, replacement = setup_cards(4)
        >>> len(build), len(replacement), Card.RED_JOKER in build
        (105, 104, True)
    """
    half = standard_deck() * (deck_count // 2)
    return tuple(sorted((*half, Card.RED_JOKER))), tuple(sorted(half))


def _check_players(_: object, __: object, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 4:
        raise OptionsError(f"players is an integer from 1 to 4, not {short_repr(value)}")


def _to_splits(value: Any) -> tuple[tuple[int, int], ...] | None:
    if value is None:
        return None
    try:
        splits = tuple(tuple(item) for item in value)
    except TypeError:
        raise OptionsError(
            f"splits is one (Charisma, Endurance) pair per player, not {short_repr(value)}"
        ) from None
    for split in splits:
        if len(split) != 2 or any(type(v) is not int for v in split):
            raise OptionsError(
                "a player's split is a pair of integers (Charisma, Endurance), "
                f"not {short_repr(split)}"
            )
    return splits


def _check_deck_count(_: object, __: object, value: Any) -> None:
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < 2
        or value % 2
        or value > 16
    ):
        raise OptionsError(
            "deck_count is an even number of decks from 2 to 16, split evenly between the "
            f"Replacement and the Build decks (H-3), not {short_repr(value)}"
        )


def _to_layout(value: Any) -> frozenset[Cell] | None:
    if value is None:
        return None
    cells = []
    try:
        for item in value:
            x, y = item
            if any(not isinstance(v, int) or isinstance(v, bool) for v in (x, y)):
                raise TypeError
            cells.append((x, y))
    except (TypeError, ValueError):
        raise OptionsError(
            f"layout is None or a collection of (x, y) cells, not {short_repr(value)}"
        ) from None
    return frozenset(cells)


def _check_bool(_: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise OptionsError(f"{attribute.name} is true or false, not {short_repr(value)}")


def _to_creatures(value: Any) -> str | Mapping[str, Creature]:
    if isinstance(value, str):
        if value not in CREATURE_TABLES:
            raise OptionsError(
                f"creatures is a table name ({', '.join(map(repr, CREATURE_TABLES))}) or a "
                f"mapping of court ranks or cards to Creature; not {short_repr(value)}"
            )
        return value
    if not isinstance(value, Mapping):
        raise OptionsError(f"creatures is a table name or a mapping, not {short_repr(value)}")
    table = {str(k).upper(): v for k, v in value.items()}
    check_table(table)
    return MappingProxyType(table)


@attrs.frozen
class HaydesOptions(OptionsBase):
    """Options of Escape from Haydes. The defaults are the standard rules, solo.

    Attributes:
        players: 1 to 4 (H-5).
        splits: each player's starting (Charisma, Endurance), one of (7, 9), (8, 8),
            (9, 7) (H-2); ``None`` gives everyone (8, 8).
        deck_count: standard decks used, an even number: half make the Replacement deck,
            half (with the Red Joker) the Build deck (H-3). The standard game uses 4.
        layout: the cells of Haydes, one per build card plus the Black Joker's (0, 0);
            ``None`` is the standard layout (H-4), which needs ``deck_count`` 4.
        max_rounds: end the game with no winner after this many rounds (H-13, the solo
            timer variant); ``None``, the standard rules, has no limit.
        tuybe: the Tuybe variant: moves may aim two cells away in a straight line.
        creatures: the creature table (the "Different Creatures" variant): a built-in
            table's name (``"standard"``, ``"denizens"``) or a mapping from court rank or
            card code to :class:`~cardcrawl.haydes.Creature`.

    Examples:
        >>> from cardcrawl.haydes import HaydesOptions
        >>> HaydesOptions(players=2, splits=[(7, 9), (9, 7)]).character_splits
        ((7, 9), (9, 7))
        >>> HaydesOptions(splits=[(10, 6)])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: a player's split is (Charisma, Endurance), one of ...
    """

    players: int = attrs.field(default=1, validator=_check_players)
    splits: tuple[tuple[int, int], ...] | None = attrs.field(default=None, converter=_to_splits)
    deck_count: int = attrs.field(default=4, validator=_check_deck_count)
    layout: frozenset[Cell] | None = attrs.field(default=None, converter=_to_layout)
    max_rounds: int | None = attrs.field(default=None, validator=optional_positive_int)
    tuybe: bool = attrs.field(default=False, validator=_check_bool)
    creatures: str | Mapping[str, Creature] = attrs.field(
        default="standard", converter=_to_creatures, hash=False
    )

    #: The highest a characteristic can be (H-2): the check of a state's figures uses it.
    max_characteristic: ClassVar[int] = 9
    #: The valid splits in words, for the error a split outside them gets.
    splits_described: ClassVar[str] = (
        "one of (7, 9), (8, 8) or (9, 7) (16 points, neither above 9: H-2)"
    )

    @classmethod
    def split_is_valid(cls, split: tuple[int, int]) -> bool:
        """Whether a player may start with this (Charisma, Endurance) split (H-2).

        The standard rules allow (7, 9), (8, 8) and (9, 7). A variant's options class
        overrides this, together with ``max_characteristic`` and ``splits_described``.

        Args:
            split: (Charisma, Endurance), two integers.

        Returns:
            Whether the split is allowed.

        Examples:
            >>> from cardcrawl.haydes import HaydesOptions
            >>> HaydesOptions.split_is_valid((7, 9)), HaydesOptions.split_is_valid((10, 6))
            (True, False)
        """
        return split in ALLOWED_SPLITS

    def __attrs_post_init__(self) -> None:
        for split in self.splits or ():
            if not self.split_is_valid(split) or max(split) > self.max_characteristic:
                raise OptionsError(
                    f"a player's split is (Charisma, Endurance), {self.splits_described}, "
                    f"not {short_repr(split)}"
                )
        if self.splits is not None and len(self.splits) != self.players:
            raise OptionsError(
                f"splits needs one (Charisma, Endurance) pair for each of the {self.players} "
                f"players, not {len(self.splits)}"
            )
        need = self.build_count + 1
        if self.layout is None:
            if self.deck_count != 4:
                raise OptionsError(
                    f"the standard layout holds the 105 build cards of 4 decks; with "
                    f"deck_count {self.deck_count}, give a layout of {need} cells"
                )
            return
        if BLACK_JOKER_CELL not in self.layout:
            raise OptionsError("a layout must contain (0, 0), the Black Joker's cell (H-4)")
        if len(self.layout) != need:
            raise OptionsError(
                f"a layout must hold every build card (H-4): {need} cells for deck_count "
                f"{self.deck_count} ({self.build_count} build cards and the Black Joker), "
                f"not {len(self.layout)}"
            )

    @property
    def build_count(self) -> int:
        """Cards of the Build deck: half the decks plus the Red Joker (H-3)."""
        return 26 * self.deck_count + 1

    @property
    def replacement_count(self) -> int:
        """Cards of the Replacement deck: half the decks (H-3)."""
        return 26 * self.deck_count

    @property
    def character_splits(self) -> tuple[tuple[int, int], ...]:
        """Each player's starting (Charisma, Endurance)."""
        return self.splits if self.splits is not None else ((8, 8),) * self.players

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The layout's cells in dealing order: by y, then x (H-4)."""
        layout = self.layout if self.layout is not None else _STANDARD_LAYOUT
        return tuple(sorted(layout, key=lambda c: (c[1], c[0])))

    @property
    def creature_table(self) -> Mapping[str, Creature]:
        """The creature table in force."""
        if isinstance(self.creatures, str):
            return CREATURE_TABLES[self.creatures]
        return self.creatures

    def __reduce__(self) -> tuple[Any, ...]:
        # A frozen mapping (MappingProxyType) cannot be pickled or deep-copied: rebuild
        # the options from their data form instead, as a saved record does.
        return type(self).from_data, (self.to_data(),)


class Phase(enum.Enum):
    """What the state waits for.

    Examples:
        In explicit-chance play with two players, the first player is a chance event;
        with the first player stacked, the game waits for a decision:

        >>> import cardcrawl
        >>> from cardcrawl.haydes import Phase
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> game.initial_state(seed=1, explicit_chance=True).phase
        <Phase.FIRST: 'first'>
        >>> state = game.initial_state(seed=1, stack={"build": ["QH"]})
        >>> state.phase
        <Phase.TURN: 'turn'>
        >>> game.step(state, game.parse_action("higher -1,0")).phase
        <Phase.ENCOUNTER: 'encounter'>
    """

    #: Chance: who plays first (H-5).
    FIRST = "first"
    #: Decision: move, step, ride the Tuybe, or end the turn (H-6, H-7).
    TURN = "turn"
    #: Chance: the card under the aimed-at face-down cell.
    REVEAL = "reveal"
    #: Decision: which characteristic faces the creature (H-8).
    ENCOUNTER = "encounter"
    #: Chance: the 2D6 roll of an encounter (H-8).
    ROLL = "roll"
    #: The game is over.
    OVER = "over"


class Ending(enum.Enum):
    """How a game of Escape from Haydes ended (H-9, H-11, H-13).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.haydes import Ending
        >>> game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=1)
        >>> state = game.step(game.initial_state(seed=1), game.parse_action("end"))
        >>> state.ending, state.winner
        (<Ending.TIME_UP: 'time-up'>, None)
    """

    ESCAPED = "escaped"
    TRAPPED = "trapped"
    TIME_UP = "time-up"


@attrs.frozen
class Figure:
    """One player's character and figure.

    Attributes:
        charisma, endurance: the characteristics (H-2); the player is out at 0 (H-11).
        cell: where the figure stands; ``None`` once the player is out.

    Examples:
        Every figure starts on the Black Joker, at the centre:

        >>> import cardcrawl
        >>> from cardcrawl.haydes import Characteristic
        >>> game = cardcrawl.load("escape-from-haydes", players=1)
        >>> figure = game.initial_state(seed=1).seats[0]
        >>> figure
        Figure(charisma=8, endurance=8, cell=(0, 0))
        >>> figure.value(Characteristic.ENDURANCE), figure.is_out
        (8, False)
    """

    charisma: int
    endurance: int
    cell: Cell | None

    @property
    def is_out(self) -> bool:
        """True once the player is out of the game (H-11)."""
        return self.cell is None

    def value(self, characteristic: Characteristic) -> int:
        """The current value of ``characteristic``."""
        return self.charisma if characteristic is Characteristic.CHARISMA else self.endurance


@attrs.frozen
class Aim:
    """The move waiting for its card to be turned: target cell and announcement.

    Attributes:
        cell: the face-down cell aimed at.
        guess: the announcement.
        tuybe: whether the move rides the Tuybe.

    Examples:
        In explicit-chance play a move stops in phase REVEAL with its aim:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=1)
        >>> state = game.initial_state(seed=1, explicit_chance=True)
        >>> state = game.step(state, game.parse_action("lower 0,1"))
        >>> state.phase.name, state.aim
        ('REVEAL', Aim(cell=(0, 1), guess=Guess.LOWER, tuybe=False))
    """

    cell: Cell
    guess: Guess
    tuybe: bool


@attrs.frozen
class Mix:
    """Face-down cells holding a shuffled mixture whose parts are public.

    Made when the Red Joker is shuffled in among new cards (H-10): the cells replaced
    that turn hold the Red Joker and cards from the Replacement deck (maybe from two
    pools, when the deck ran out while dealing), in an order nobody knows. Also made when
    H-12 turns an old card face down where it lies (then one cell, one known card).

    Attributes:
        cells: the cells of the mix still face down, in dealing order.
        known: the known cards among them (the Red Joker), still unturned.

    Examples:
        A new game has no mix; after a failed Red Joker move, one like this:

        >>> import cardcrawl
        >>> from cardcrawl import Card
        >>> from cardcrawl.haydes import Mix
        >>> game = cardcrawl.load("escape-from-haydes", players=1)
        >>> game.initial_state(seed=1).mixes
        ()
        >>> Mix(((1, 0), (2, 0)), (Card.RED_JOKER,))
        Mix(cells=((1, 0), (2, 0)), known=(Card.parse('RJ'),))
    """

    cells: tuple[Cell, ...]
    known: tuple[Card, ...]


@attrs.frozen
class Belief:
    """One way the unseen cards can be split between pools, with its relative weight.

    Almost always a state has exactly one. Only when a mix holds cards of two pools and a
    card turned there could have come from either does the public knowledge become a
    weighted mixture of several (the state keeps it exactly, see
    :mod:`cardcrawl.haydes._unseen`).

    Attributes:
        weight: relative probability (a positive integer).
        unseen: by pool, the cards not seen yet: in the pool's face-down cells, in its
            share of the mixes, and (for the current Replacement deck) in the deck.
        mixed: by mix, by pool, how many of the mix's face-down cells hold that pool's
            cards.

    Examples:
        At setup, one belief: the Build deck (104 cards and the Red Joker) lies face
        down, and the Replacement deck (104 cards) waits:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=1)
        >>> (belief,) = game.initial_state(seed=1).beliefs
        >>> belief.weight, [len(pool) for pool in belief.unseen], belief.mixed
        (1, [105, 104], ())
    """

    weight: int
    unseen: tuple[Deck, ...]
    mixed: tuple[tuple[int, ...], ...]


#: ``pool_of`` entry of a face-up cell.
FACE_UP = -1
#: ``pool_of`` entry of a face-down cell that belongs to a mix.
MIXED = -2
#: A working position's entry for a face-down cell in its cards by cell (see
#: :mod:`cardcrawl.haydes._position`), which are card indices, one byte each.
DOWN = 0xFF


# Not slotted: a frozen position is made into a state by setting its __dict__ whole
# (cardcrawl.haydes._position.freeze), and the engine's replacer copies a state's
# __dict__ in C (see cardcrawl.core._engine.replacer).
@attrs.frozen(slots=False)
class HaydesState(MemoState):
    """A position of Escape from Haydes. Immutable; build it with the game's methods.

    Attributes:
        phase: what the state waits for.
        seats: each player's characteristics and figure.
        current: the seat whose turn it is (-1 before the first player is drawn).
        first: the first player (-1 before it is drawn); rounds start with them.
        round: the current round, from 1 (0 before the first turn) (H-13).
        layout: the cells of Haydes in dealing order (by y, then x); the tuples below
            are indexed like it.
        face_up: by cell, the face-up card, or ``None`` for a face-down one.
        pool_of: by cell, the pool of a plain face-down card, ``-2`` for a face-down
            card of a mix, ``-1`` for a face-up card.
        shown: the face-up cells other than the Black Joker's, in the order they were
            turned. Derivable from ``face_up``, but kept so that the end of a turn (H-12)
            never scans the whole layout.
        mixes: the mixes (see :class:`Mix`).
        beliefs: what the unseen cards can be (see :class:`Belief`); the same for every
            player, since nobody holds private cards.
        replacement_left: cards still in the Replacement deck (the last pool's).
        discard: the discard pile, in the order cards arrived.
        removed: cards removed from the game (overcome creatures, H-12).
        overcome: cells whose face-up court card's creature has been overcome (H-8).
        aim: the move waiting for its card, in phase REVEAL.
        chosen: the characteristic chosen, in phase ROLL.
        stacked_first: a forced first player (from a stack; hidden).
        stacked_rolls: forced 2D6 totals still to come (from a stack; hidden).
        ending: how the game ended, once over.
        winner: the seat that escaped, if any.
        rng: the generator state for sampled chance.
        explicit_chance: chance events wait for an outcome from the caller.
        events: what happened in the step that made this state.

    Examples:
        The standard layout holds 106 cells; only the Black Joker starts face up:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=1)
        >>> state = game.initial_state(seed=1, stack={"build": ["QH"]})
        >>> len(state.layout), len(state.face_down_cells), state.card_at((0, 0))
        (106, 105, Card.parse('BJ'))
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> state.card_at((-1, 0)), state.shown, state.players_in
        (Card.parse('QH'), ((-1, 0),), (0,))
    """

    phase: Phase
    seats: tuple[Figure, ...]
    current: int
    first: int
    round: int
    layout: tuple[Cell, ...]
    face_up: tuple[Card | None, ...]
    pool_of: tuple[int, ...]
    shown: tuple[Cell, ...]
    mixes: tuple[Mix, ...]
    beliefs: tuple[Belief, ...]
    replacement_left: int
    discard: tuple[Card, ...]
    removed: tuple[Card, ...]
    overcome: frozenset[Cell]
    aim: Aim | None
    chosen: Characteristic | None
    stacked_first: int | None
    stacked_rolls: tuple[int, ...]
    ending: Ending | None
    winner: int | None
    rng: int
    explicit_chance: bool
    events: tuple[HaydesEvent, ...]
    _memo: dict[str, Any] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    # The rules' own form of ``face_up`` and ``pool_of`` (see _CELL_FORMS below): the
    # face-up cards by cell index, and by cell the pool a face-down card came from.
    _up: ClassVar[dict[int, Card]]
    _pools: ClassVar[tuple[tuple[int, ...], ...]]

    def __repr__(self) -> str:
        # The position notation (see EscapeFromHaydes.notation), which game.position reads.
        return _notation_repr(self, observed=False)

    def __getstate__(self) -> dict[str, Any]:
        # A pickle holds the events, the shown cells and the beliefs themselves, never
        # the rules' form of them (see below).
        fields = super().__getstate__()
        if "_log" in fields:
            fields["events"] = self.events
            del fields["_log"]
        if "_shown" in fields:
            fields["shown"] = self.shown
            del fields["_shown"]
        if type(fields["beliefs"]) is UnseenForm:
            fields["beliefs"] = self.beliefs
        if is_seat_codes(fields["seats"]):
            fields["seats"] = self.seats
        return fields

    def card_at(self, cell: Cell) -> Card | None:
        """The face-up card on ``cell``, ``None`` if it is face down.

        Raises:
            ValueError: ``cell`` is not a cell of the layout.
        """
        return self.face_up[self.layout.index(cell)]

    @property
    def face_down_cells(self) -> tuple[Cell, ...]:
        """The cells holding a face-down card, in dealing order."""
        return tuple(c for c, card in zip(self.layout, self.face_up, strict=True) if card is None)

    @property
    def joker_cells(self) -> tuple[Cell, ...]:
        """The face-down cells that may hold the Red Joker: every unturned cell of the Build
        deck while it has not been seen, else the cells of the mix it was shuffled into."""
        for mix in self.mixes:
            if Card.RED_JOKER in mix.known:
                return mix.cells
        if Card.RED_JOKER in self.beliefs[0].unseen[0]:
            return tuple(c for c, p in zip(self.layout, self.pool_of, strict=True) if p == 0)
        return ()

    @property
    def players_in(self) -> tuple[int, ...]:
        """The seats still in the game (H-11)."""
        return tuple(i for i, f in enumerate(self.seats) if f.cell is not None)


# Which cards lie face up, and where the face-down ones came from, in two forms.
#
# - The public fields ``face_up`` and ``pool_of`` are tuples by cell: what a user reads,
#   saves and compares.
# - The rules keep ``_up`` and ``_pools`` instead. ``_up`` maps the index of each face-up
#   cell to its card: the Black Joker and the few cards turned or stood on, on any board.
#   ``_pools`` is by cell the pool of a face-down card, or MIXED, in parts of POOL_PART
#   cells (cell ``i`` is ``_pools[i >> POOL_SHIFT][i & POOL_MASK]``); a face-up cell's
#   entry is the one it had when it was turned, and ``_up`` hides it.
#
# Turning a card then copies ``_up``'s few entries and leaves ``_pools`` alone, and the
# end of a turn that deals new cards copies only the parts holding them, where a tuple
# by cell would be copied whole at every card turned: so a step on a board of 418 cells
# costs about what it costs on the standard 106.
#
# A state holds one form or both. A state frozen from the rules' working position holds
# the rules' form (see cardcrawl.haydes._position.freeze), the constructor's the public
# one; each is made from the other when first read, then kept in the state's
# ``__dict__``, where a value comes before these class-level descriptors. Neither form
# is ever changed once a state holds it.


def _face_up_of(fields: dict[str, Any]) -> tuple[Card | None, ...]:
    cards: list[Card | None] = [None] * len(fields["layout"])
    for i, card in fields["_up"].items():
        cards[i] = card
    return tuple(cards)


def _pool_of_of(fields: dict[str, Any]) -> tuple[int, ...]:
    pools = flat_pools(fields["_pools"])
    for i in fields["_up"]:
        pools[i] = FACE_UP
    return tuple(pools)


def _up_of(fields: dict[str, Any]) -> dict[int, Card]:
    return {i: card for i, card in enumerate(fields["face_up"]) if card is not None}


def _pools_of(fields: dict[str, Any]) -> tuple[tuple[int, ...], ...]:
    return pool_parts(fields["pool_of"])


def _shown_of(fields: dict[str, Any]) -> tuple[Cell, ...]:
    # ``shown`` in the rules' form: the indices of the cells, in the layout.
    layout = fields["layout"]
    return tuple([layout[i] for i in fields["_shown"]])


#: Cells per part of the rules' pools by cell (see above): a power of two.
POOL_SHIFT = 5
POOL_PART = 1 << POOL_SHIFT
POOL_MASK = POOL_PART - 1


def pool_parts(pools: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The pools by cell, ``pools``, in parts of POOL_PART cells (the rules' form)."""
    return tuple(tuple(pools[k : k + POOL_PART]) for k in range(0, len(pools), POOL_PART))


def flat_pools(parts: tuple[tuple[int, ...], ...]) -> list[int]:
    """The pools by cell, as a list, from their parts (see :func:`pool_parts`)."""
    return list(chain.from_iterable(parts))


def pool_at(state: HaydesState, index: int) -> int:
    """``state.pool_of[index]``, read from the rules' form: the public tuple is not made
    for one entry (every chance outcome of a move asks for one)."""
    if index in state._up:
        return FACE_UP
    return state._pools[index >> POOL_SHIFT][index & POOL_MASK]


class _OtherForm:
    """A by-cell field of HaydesState read from the state's other form of it, the first
    time it is read; then kept in the state's ``__dict__``, which Python reads first
    (a descriptor without ``__set__``)."""

    def __init__(self, name: str, make: Any) -> None:
        self._name = name
        self._make = make

    def __get__(self, state: Any, owner: Any = None) -> Any:
        if state is None:
            return self
        fields = state.__dict__
        value = fields[self._name] = self._make(fields)
        return value


# A state's events in two forms as well. The public ``events`` is a tuple of event
# objects. A state frozen from a working position holds its step's log instead
# (``_log``, see cardcrawl.haydes._position.freeze): the events the rules made whole,
# and, for those that a step makes anew almost every time, a tuple of the event's class
# and its values, made into the event only when ``events`` is first read (a step
# whose events nobody reads never builds them). An event is never a tuple.


def _events_of(fields: dict[str, Any]) -> tuple[HaydesEvent, ...]:
    return events_of_log(fields["_log"])


_CELL_FORMS = {"face_up": _face_up_of, "pool_of": _pool_of_of, "_up": _up_of, "_pools": _pools_of}
for _name, _make in _CELL_FORMS.items():
    setattr(HaydesState, _name, _OtherForm(_name, _make))
HaydesState.events = _OtherForm("events", _events_of)  # type: ignore[assignment]
# And ``shown`` (a tuple of cells), which a state frozen from the rules holds as the
# indices of its cells (``_shown``), as the rules keep them.
HaydesState.shown = _OtherForm("shown", _shown_of)  # type: ignore[assignment]


# And ``beliefs``. A state frozen from the rules, while a single belief holds the unseen
# cards (almost always), holds them under ``beliefs`` as the rules keep them: an
# ``UnseenForm``: the belief's ``unseen`` (by pool, a deck, or the sorted tuple of the
# cards of a pool a step drew from, its deck made only if read) and ``mixed``. A step that
# turns a card then makes one small object, not a belief and the tuple of it, which
# are made when ``beliefs`` is first read. The
# form is kept under the field's own name, read through a data descriptor, so that a
# state's ``__dict__`` never holds a key more (its key table, shared by every state, is
# full) and a value that the engine's replacer gives ``beliefs`` simply replaces it.


class UnseenForm:
    """A single belief as the rules keep it (see above): its ``unseen`` and ``mixed``.
    Made by the working position's freeze, its two slots set at once; never changed.
    (An extension type in the compiled build, whose fields the freeze sets as C.)"""

    __slots__ = ("mixed", "unseen")

    unseen: tuple[Deck | tuple[Card, ...], ...]
    mixed: tuple[tuple[int, ...], ...]


class _RulesForm:
    """A field of HaydesState that a state frozen from the rules holds under the
    field's own name in the rules' form: made into its public value the first time it
    is read, then kept in its place. A data descriptor, so that a state's ``__dict__``
    never holds a key more, and a value the engine's replacer gives the field simply
    replaces the form."""

    def __init__(self, name: str, held: Any, make: Any) -> None:
        self._name = name
        self._held = held  # whether a value of the field is in the rules' form
        self._make = make  # the public value, from that form and the state's fields

    def __get__(self, state: Any, owner: Any = None) -> Any:
        if state is None:
            return self
        fields = state.__dict__
        value = fields[self._name]
        if self._held(value):
            value = fields[self._name] = self._make(value, fields)
        return value

    def __set__(self, state: Any, value: Any) -> None:
        # Only the constructor sets a field (with object.__setattr__; the frozen class
        # refuses any other assignment): as it would without this descriptor.
        state.__dict__[self._name] = value


def _is_unseen_form(beliefs: Any) -> bool:
    return type(beliefs) is UnseenForm


def _beliefs_of(form: UnseenForm, fields: dict[str, Any]) -> tuple[Belief, ...]:
    unseen = tuple([u if isinstance(u, Deck) else _make_deck((), u) for u in form.unseen])
    return (belief_of(unseen, form.mixed),)


HaydesState.beliefs = _RulesForm("beliefs", _is_unseen_form, _beliefs_of)  # type: ignore[assignment]


# And ``seats``. A state frozen from the rules holds its seats as the rules keep them,
# under the field's own name (as ``beliefs``): one tuple of integers, by seat the index
# of the figure's cell in the layout (-1 once out), then by seat the Charisma, then by
# seat the Endurance. A step that moves a figure then makes one small tuple, not a
# figure and the tuple of them, which are made when ``seats`` is first read. A seat is
# never an integer, so the two forms never look alike.


def is_seat_codes(seats: tuple[Any, ...]) -> bool:
    """Whether ``seats``, a state's field, holds the seats in the rules' form (above)."""
    return len(seats) > 0 and type(seats[0]) is int


def _seats_of(codes: tuple[int, ...], fields: dict[str, Any]) -> tuple[Figure, ...]:
    from cardcrawl.haydes._position import figures_of

    return figures_of(codes, fields["layout"])


HaydesState.seats = _RulesForm("seats", is_seat_codes, _seats_of)  # type: ignore[assignment]

_new = object.__new__
# The slots' own setters of a Belief: a frozen class refuses ordinary assignment, and
# these are the cheapest way around that while a new one is made (as Deck's _make).
_set_weight = Belief.__dict__["weight"].__set__
_set_unseen = Belief.__dict__["unseen"].__set__
_set_mixed = Belief.__dict__["mixed"].__set__


def belief_of(unseen: tuple[Deck, ...], mixed: tuple[tuple[int, ...], ...]) -> Belief:
    """``Belief(1, unseen, mixed)``, made without its constructor, from values of the
    right types: the rules make one whenever the unseen cards change."""
    belief: Belief = _new(Belief)
    _set_weight(belief, 1)
    _set_unseen(belief, unseen)
    _set_mixed(belief, mixed)
    return belief


@attrs.frozen
class HaydesObservation:
    """Everything a player knows: the state without its generator, stacks and deck order.

    Face-down cells appear with where their card came from, never the card; the pools
    appear as the multisets of cards not seen yet, which every player can work out from
    the cards seen so far. Nobody in Haydes holds private cards, so every player's
    observation is the same but for ``player``.

    Its fields are the state's (see :class:`HaydesState`) without ``rng``,
    ``explicit_chance`` and the stacks, plus ``player``, the seat observing.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> state = game.initial_state(seed=1, stack={"first_player": [1]})
        >>> seen = game.observe(state, 0)
        >>> seen.player, seen.current, seen.face_up == state.face_up
        (0, 1, True)
        >>> hasattr(seen, "rng")
        False
    """

    player: int
    phase: Phase
    seats: tuple[Figure, ...]
    current: int
    first: int
    round: int
    layout: tuple[Cell, ...]
    face_up: tuple[Card | None, ...]
    pool_of: tuple[int, ...]
    shown: tuple[Cell, ...]
    mixes: tuple[Mix, ...]
    beliefs: tuple[Belief, ...]
    replacement_left: int
    discard: tuple[Card, ...]
    removed: tuple[Card, ...]
    overcome: frozenset[Cell]
    aim: Aim | None
    chosen: Characteristic | None
    ending: Ending | None
    winner: int | None
    events: tuple[HaydesEvent, ...]

    def __repr__(self) -> str:
        # The observation's notation (see EscapeFromHaydes.observation_notation).
        return _notation_repr(self, observed=True)


def _notation_repr(value: Any, *, observed: bool) -> str:
    """``<HaydesState 'notation'>``: the text ``game.position`` reads back.

    A state does not hold its game, but its layout tells the setup's decks: a layout holds
    every Build card and the Black Joker, 26 cards a deck and two (H-3, H-4).
    """
    from cardcrawl.haydes._notation import write_notation

    try:
        decks, odd = divmod(len(value.layout) - 2, 26)
        if odd:
            raise ValueError(len(value.layout))
        text = write_notation(value, tuple(map(Counter, setup_cards(decks))), observed=observed)
    except Exception:  # a state edited into junk still has a repr
        return f"<{type(value).__name__} that its notation cannot write>"
    return f"<{type(value).__name__} {text!r}>"


def unstacked_beliefs(beliefs: Iterable[Belief]) -> tuple[Belief, ...]:
    """The beliefs with every pool's stacked order forgotten (what players may know)."""
    beliefs = tuple(beliefs)
    # Every observation asks this, and a game without stacks has none to forget: the
    # beliefs themselves are the answer then, found without building anything.
    if not any(d.stacked for b in beliefs for d in b.unseen):
        return beliefs
    return tuple(
        b
        if not any(d.stacked for d in b.unseen)
        else attrs.evolve(b, unseen=tuple(d.unstacked() for d in b.unseen))
        for b in beliefs
    )
