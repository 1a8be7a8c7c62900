"""The working position of Escape from Haydes: the one thing the rules change.

A :class:`~cardcrawl.haydes.HaydesState` is an immutable value, made for its users. The
rules (:mod:`cardcrawl.haydes._play`) do not build states: they change a
:class:`Position` in place, a small mutable record with the state's own field names,
and a state is made from it once, when the rules are done (the pattern of Clojure's
transients or pyrsistent's ``evolver``):

- ``step`` thaws the state it is given (:func:`thaw`), runs the rules with their chance
  settled, and freezes the result (:func:`freeze`);
- ``simulate``, the bots' playouts and IS-MCTS rollouts run the very same rules on one
  position for a whole game, and freeze only the last one, if anything.

Most fields hold immutable values (tuples, frozensets, figures, decks), which a rule
replaces rather than changes; a frozen state therefore shares every one the step did not
touch with the state it was thawed from. The exception is what changes at almost every
step, by cell: ``_card_at`` (the index of each cell's face-up card, ``DOWN`` for a
face-down one, a byte each, so that the rules read a cell's card as one byte, a C read
in the compiled build) and ``_pools`` (the pool each face-down cell's card came from, by
cell, in parts of ``POOL_PART`` cells, a part copied only when one of its cells
changes). A frozen state holds its own compact form of its ``face_up`` and ``pool_of``
(see :mod:`cardcrawl.haydes._state`): the face-up cards by cell index, the few that the
position's ``shown`` and ``_unshown`` name (:attr:`Position._up`), and the same parts of
the pools, so that a step on a board of 418 cells costs about what it costs on the
standard 106. And what the players know of the unseen cards, which
changes at every card turned: while a single belief holds it (almost always, see
:mod:`cardcrawl.haydes._unseen`), a pool a card was drawn from is a sorted list of its
cards, changed in place, and the :class:`~cardcrawl.haydes.Belief` is made from the
lists only when asked for (:attr:`Position.beliefs`).

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("escape-from-haydes")
    >>> state = game.initial_state(seed=1)
    >>> position = thaw(state, game._index, list(state.events))
    >>> position.current, position.phase.name, position._up == state._up
    (0, 'TURN', True)
    >>> freeze(position, game._legal_key, None) == state
    True
"""

from __future__ import annotations

from bisect import bisect_left
from operator import attrgetter
from typing import Any

from cardcrawl.haydes._actions import Action, Guess
from cardcrawl.haydes._creatures import Characteristic
from cardcrawl.haydes._state import (
    DOWN,
    FACE_UP,
    POOL_MASK,
    POOL_SHIFT,
    Aim,
    Belief,
    Ending,
    Figure,
    HaydesState,
    Mix,
    Phase,
    UnseenForm,
    belief_of,
    flat_pools,
    is_seat_codes,
    pool_parts,
)
from cardcrawl.kit._cards import Card, standard_deck
from cardcrawl.kit._deck import Deck, _make
from cardcrawl.kit._grid import Cell

__all__ = ["Position", "Unseen", "cards_by_cell", "freeze", "rethaw", "thaw"]

#: The unseen cards of a pool under a single belief, in a position: the state's deck; or,
#: once a card was drawn from it, its sorted rest, a tuple of cards after one draw and a
#: list of their indices, changed in place, after more.
Unseen = Deck | tuple[Card, ...] | list[int]

_CARDS = standard_deck(jokers=True)  # by index


def _deck(cards: Unseen) -> Deck:
    """The deck of a pool's unseen cards (see :data:`Unseen`)."""
    if isinstance(cards, Deck):
        return cards
    if isinstance(cards, tuple):
        return _make((), cards)
    return _make((), tuple([_CARDS[i] for i in cards]))


def _cards_of(indices: list[int]) -> tuple[Card, ...]:
    """The unseen cards of a pool held as the sorted list of their indices (see
    :data:`Unseen`), as the sorted tuple of the cards."""
    return tuple([_CARDS[i] for i in indices])


def _face_up(pos: Position) -> dict[int, Card]:
    """The face-up cards of ``pos`` by cell index, made anew (see :attr:`Position._up`):
    those of ``_unshown``, then those of ``shown``."""
    card_at = pos._card_at
    up: dict[int, Card] = {}
    for i in pos._unshown:
        up[i] = _CARDS[card_at[i]]
    for i in pos.shown:
        up[i] = _CARDS[card_at[i]]
    return up


class Position:
    """A position of Escape from Haydes that the rules change in place.

    Its attributes are the state's fields of the same names (see
    :class:`~cardcrawl.haydes.HaydesState`), but for the cards by cell, kept as the
    rules read them (``_card_at``, ``_pools``, see the module docstring), for
    the seats, kept by seat as lists (``at``, the index of the figure's cell, -1 once
    out; ``charisma``; ``endurance``), for ``shown``, a list of cell indices, and for
    ``events``, a list the rules append to (``None``: a rollout that keeps no events).
    ``frozen_seats`` is the seats as the state holds them (either form, see
    :mod:`cardcrawl.haydes._state`), ``None`` once the rules change a figure: a freeze
    then makes them again from the lists. ``_changed`` has a bit set for each seat whose
    figure the rules changed since the state was thawed (or last frozen).
    ``aimed`` is the move aimed at as the rules code it (see
    :meth:`~cardcrawl.haydes._play.Rules.code_of`), -1 for none. ``_unshown`` holds the
    face-up cells that ``shown`` does not (the Black Joker's), so that the face-up
    cards by cell index (:attr:`_up`, as a state holds them) are made from a few cells,
    on any board. ``_stood`` counts the first cells of ``shown`` that stayed at the
    end of the last turn, and ``_began_on`` is the cell the player's figure began this
    turn on (-1 for none or not known): the rules' end of a turn asks again only the
    cells whose cards could change (see ``Rules._replace_cards``). The counters are what
    a simulation reports of a game (see :class:`~cardcrawl.haydes.HaydesFigures`): the
    rules count as they go, so a rollout needs no events to report them.

    A position is private to the code that thawed it: the rules' hooks are never given
    one (every Haydes hook takes plain values), and a frozen state never shares its
    mutable parts.
    """

    __slots__ = (
        "_began_on",
        "_beliefs",
        "_card_at",
        "_changed",
        "_held",
        "_mask",
        "_mixed",
        "_pools",
        "_pools_frozen",
        "_seats_in",
        "_stood",
        "_thawed",
        "_unseen",
        "_unshown",
        "_up_frozen",
        "aim",
        "aimed",
        "at",
        "charisma",
        "chosen",
        "correct",
        "current",
        "discard",
        "encounters",
        "ending",
        "endurance",
        "events",
        "explicit_chance",
        "first",
        "frozen_seats",
        "guesses",
        "layout",
        "mixes",
        "overcame",
        "overcome",
        "phase",
        "removed",
        "replacement_left",
        "rng",
        "round",
        "shown",
        "stacked_first",
        "stacked_rolls",
        "turns",
        "winner",
    )  # fmt: skip

    phase: Phase
    at: list[int]
    charisma: list[int]
    endurance: list[int]
    # The figures, or the rules' form of them, a tuple of integers (see _state).
    frozen_seats: tuple[Figure, ...] | tuple[int, ...] | None
    _changed: int
    current: int
    first: int
    round: int
    layout: tuple[Cell, ...]
    _card_at: bytearray
    _unshown: tuple[int, ...]
    _up_frozen: dict[int, Card] | None
    _pools: list[Any]
    _pools_frozen: tuple[tuple[int, ...], ...] | None
    _seats_in: tuple[bool, ...] | None
    _mask: int
    _thawed: dict[str, Any]
    shown: list[int]
    _stood: int
    _began_on: int
    mixes: tuple[Mix, ...]
    _beliefs: tuple[Belief, ...] | None
    _unseen: list[Unseen] | None
    # The unseen cards by pool as the state thawed held them (its ``UnseenForm``'s), or
    # None: a pool's tuple that is still the state's own is copied at its first draw.
    _held: tuple[Unseen, ...] | None
    _mixed: tuple[tuple[int, ...], ...]
    replacement_left: int
    discard: tuple[Card, ...] | list[Card]
    removed: tuple[Card, ...]
    overcome: frozenset[Cell]
    aim: Aim | None
    aimed: int
    chosen: Characteristic | None
    stacked_first: int | None
    stacked_rolls: tuple[int, ...]
    ending: Ending | None
    winner: int | None
    rng: int
    explicit_chance: bool
    events: list[Any] | None
    turns: int
    guesses: int
    correct: int
    encounters: int
    overcame: int

    @property
    def _up(self) -> dict[int, Card]:
        """The face-up cards by cell index, as a state holds them: those of
        ``_unshown`` (the Black Joker's), then those of ``shown``. Never changed: the
        state's own while no card was turned or replaced since it was thawed (a rule
        that does either sets ``_up_frozen`` to ``None``), else made anew."""
        up = self._up_frozen
        if up is None:
            up = self._up_frozen = _face_up(self)
        return up

    @property
    def beliefs(self) -> tuple[Belief, ...]:
        """What the unseen cards can be, as the state holds it (see :class:`Belief`)."""
        beliefs = self._beliefs
        if beliefs is None:
            assert self._unseen is not None
            unseen = tuple(map(_deck, self._unseen))
            beliefs = self._beliefs = (_belief(unseen, self._mixed),)
        return beliefs

    @beliefs.setter
    def beliefs(self, beliefs: tuple[Belief, ...]) -> None:
        self._beliefs = beliefs
        self._unseen = None

    def copy(self) -> Position:
        """A position of its own, the same as this one: its mutable parts are copied,
        its immutable values shared. A rollout starts from a copy of the setup's
        position, which its game thaws once (see ``EscapeFromHaydes._started``)."""
        new: Position = Position.__new__(Position)
        new._began_on = self._began_on
        new._beliefs = self._beliefs
        new._card_at = self._card_at[:]
        new._held = self._held
        new._mask = self._mask
        new._mixed = self._mixed
        # A part of the pools that is a list is changed in place (see face_down).
        new._pools = [part if type(part) is tuple else part[:] for part in self._pools]
        new._pools_frozen = self._pools_frozen
        new._seats_in = self._seats_in
        new._thawed = self._thawed
        unseen = self._unseen
        # A pool's unseen cards that are a list are changed in place (see take).
        new._unseen = None if unseen is None else [u[:] if type(u) is list else u for u in unseen]
        new._unshown = self._unshown
        new._up_frozen = self._up_frozen
        new.aim = self.aim
        new.aimed = self.aimed
        new.at = self.at[:]
        new.charisma = self.charisma[:]
        new.chosen = self.chosen
        new.correct = self.correct
        new.current = self.current
        discard = self.discard
        new.discard = discard if type(discard) is tuple else discard[:]
        new.encounters = self.encounters
        new.ending = self.ending
        new.endurance = self.endurance[:]
        events = self.events
        new.events = None if events is None else events[:]
        new.explicit_chance = self.explicit_chance
        new.first = self.first
        new.frozen_seats = self.frozen_seats
        new._changed = self._changed
        new.guesses = self.guesses
        new.layout = self.layout
        new.mixes = self.mixes
        new.overcame = self.overcame
        new.overcome = self.overcome
        new.phase = self.phase
        new.removed = self.removed
        new.replacement_left = self.replacement_left
        new.rng = self.rng
        new.round = self.round
        new.shown = self.shown[:]
        new._stood = self._stood
        new.stacked_first = self.stacked_first
        new.stacked_rolls = self.stacked_rolls
        new.turns = self.turns
        new.winner = self.winner
        return new

    def pool_count(self) -> int:
        """How many pools there are: the Build deck's, then one per Replacement deck."""
        unseen = self._unseen
        return len(self.beliefs[0].unseen) if unseen is None else len(unseen)

    def single_pool(self, pool: int) -> Unseen | None:
        """The unseen cards of ``pool`` under the single belief (see :data:`Unseen`);
        ``None`` under several beliefs."""
        unseen = self._unseen
        if unseen is None:
            beliefs = self.beliefs
            if len(beliefs) != 1:
                return None
            unseen = self._unseen = list(beliefs[0].unseen)
            self._mixed = beliefs[0].mixed
        return unseen[pool]

    def listed(self) -> None:
        """Keep each pool's unseen cards as a list of their indices from now on, where a
        single belief holds them: a rollout, which draws many cards from one position,
        does so before it starts (a step, which draws one, keeps the state's decks)."""
        if self.single_pool(0) is None:
            return
        unseen = self._unseen
        assert unseen is not None
        for pool, cards in enumerate(unseen):
            if type(cards) is Deck and not cards.stacked:
                unseen[pool] = list(_indices(cards.rest))
            elif type(cards) is tuple:
                unseen[pool] = [card.index for card in cards]

    def plain_unseen(self, index: int) -> Unseen | None:
        """The unseen cards that face-down cell ``index`` is drawn from, where that is
        all there is to it: a cell of a pool, under a single belief (see
        :data:`Unseen`); else ``None``."""
        # pool_at and single_pool, inlined: a card is turned at almost every move.
        pool = self._pools[index >> POOL_SHIFT][index & POOL_MASK]
        unseen = self._unseen
        if pool < 0 or self._card_at[index] != DOWN:
            return None
        if unseen is None:
            return self.single_pool(pool)
        cards: Unseen = unseen[pool]
        return cards

    def draw(self, index: int, card: Card) -> bool:
        """Take ``card``, turned on face-down cell ``index``, out of the unseen cards of
        its pool, where a single belief holds them; ``False`` (and nothing changed)
        otherwise."""
        cards = self.plain_unseen(index)
        if cards is None:
            return False
        if type(cards) is list:
            k = bisect_left(cards, card.index)
            assert cards[k] == card.index, f"{card} is not among the unseen cards"
        elif type(cards) is Deck and cards.stacked:
            # A stacked card comes first (Deck.take).
            assert cards.stacked[0].index == card.index, f"{card} is not the stacked card"
            k = 0
        else:
            rest: tuple[Card, ...] = cards.rest if type(cards) is Deck else cards  # type: ignore[assignment]
            k = bisect_left(rest, card.index, key=_INDEX)
            assert rest[k].index == card.index, f"{card} is not among the unseen cards"
        self.take(index, k)
        return True

    def take(self, index: int, k: int) -> int:
        """Take the ``k``-th of the unseen cards that face-down cell ``index`` is drawn
        from, in order (a stacked card first), where that is a pool under a single
        belief (:meth:`plain_unseen` says so); the index of the card taken."""
        unseen = self._unseen
        assert unseen is not None
        pool = self._pools[index >> POOL_SHIFT][index & POOL_MASK]
        cards = unseen[pool]
        self._beliefs = None
        if type(cards) is list:
            listed: list[int] = cards
            taken: int = listed.pop(k)
            return taken
        if type(cards) is Deck:
            stacked = cards.stacked
            if stacked:
                unseen[pool] = _make(stacked[1:], cards.rest)
                return stacked[0].index
            rest = cards.rest
            # The first draw from this pool: one copy, as a step makes one.
            unseen[pool] = rest[:k] + rest[k + 1 :]
            return rest[k].index
        first: tuple[Card, ...] = cards
        held = self._held
        if held is not None and pool < len(held) and held[pool] is first:
            # The tuple a state holds (frozen after a first draw): its first draw here
            # copies it, as a deck's does.
            unseen[pool] = first[:k] + first[k + 1 :]
            index_taken: int = first[k].index
            return index_taken
        # The second: many may follow, so a list, changed in place.
        listed = [c.index for c in first]
        del listed[k]
        unseen[pool] = listed
        return first[k].index

    def add_pool(self, cards: list[Card]) -> int:
        """A new pool of ``cards``, in every belief (H-12: the discard pile shuffled into
        a new Replacement deck); its index. Under a single belief kept as lists, the pool
        is one more list (see :data:`Unseen`), where the beliefs would be made again."""
        unseen = self._unseen
        if unseen is not None:
            unseen.append(sorted([card.index for card in cards]))
            self._mixed = tuple([(*row, 0) for row in self._mixed])
            self._beliefs = None
            return len(unseen) - 1
        new = Deck.of(cards)
        beliefs = self.beliefs = tuple(
            [
                Belief(b.weight, (*b.unseen, new), tuple([(*row, 0) for row in b.mixed]))
                for b in self.beliefs
            ]
        )
        return len(beliefs[0].unseen) - 1

    def add_mix(self, counts: list[int]) -> None:
        """Record, in every belief, how many cells of a new mix each pool fills (``counts``
        by pool, the pools after them none; H-10, H-12)."""
        pools = self.pool_count()
        row = tuple(counts) + (0,) * (pools - len(counts))
        if self._unseen is not None:
            self._mixed = (*self._mixed, row)
            self._beliefs = None
            return
        self.beliefs = tuple([Belief(b.weight, b.unseen, (*b.mixed, row)) for b in self.beliefs])

    @property
    def seats(self) -> tuple[Figure, ...]:
        """Each player's characteristics and figure, as the state holds them."""
        seats = self.frozen_seats
        if seats is None or is_seat_codes(seats):
            layout = self.layout
            figures = []
            for i, c, e in zip(self.at, self.charisma, self.endurance, strict=True):
                figures.append(_figure(None if i < 0 else layout[i], c, e))
            made = self.frozen_seats = tuple(figures)
            return made
        return seats  # type: ignore[return-value]

    def seats_in(self) -> tuple[bool, ...]:
        """For each seat, whether that player is still in (H-11)."""
        seats_in = self._seats_in
        if seats_in is None:
            seats_in = self._seats_in = tuple([i >= 0 for i in self.at])
        return seats_in

    def seats_mask(self) -> int:
        """:meth:`seats_in` as bits: bit ``s`` set while seat ``s`` is in."""
        mask = self._mask
        if mask < 0:
            mask = 0
            for s, i in enumerate(self.at):
                if i >= 0:
                    mask |= 1 << s
            self._mask = mask
        return mask

    def out(self) -> None:
        """A player has just gone out (H-11): :meth:`seats_in` changes."""
        self._seats_in = None
        self._mask = -1

    def pile(self) -> list[Card]:
        """The discard pile, as the position's own list, to put cards on in order (H-12)."""
        pile = self.discard
        if type(pile) is tuple:
            pile = self.discard = list(pile)
        return pile  # type: ignore[return-value]

    def pool_at(self, index: int) -> int:
        """The pool of cell ``index``'s face-down card, ``MIXED`` in a mix, ``FACE_UP``."""
        if self._card_at[index] != DOWN:
            return FACE_UP
        result: int = self._pools[index >> POOL_SHIFT][index & POOL_MASK]
        return result

    def face_down(self, cells: list[int], pool: int) -> None:
        """Deal a card face down from ``pool`` on each of these face-up ``cells``."""
        parts = self._pools
        card_at = self._card_at
        for index in cells:
            k = index >> POOL_SHIFT
            part = parts[k]
            if type(part) is tuple:
                part = parts[k] = list(part)
            part[index & POOL_MASK] = pool
            card_at[index] = DOWN
        self._pools_frozen = None
        self._up_frozen = None

    def pools_anew(self) -> None:
        """The pools by cell are set anew (H-12: a deal is over): a new list of the same
        parts, so that a reader that writes only what changed since it last read the
        position (``cardcrawl.haydes._compact``) reads every cell's pool again."""
        self._pools = self._pools[:]
        self._pools_frozen = None

    def flat_pools(self) -> list[int]:
        """The pools by cell as one list (face-up cells' entries are stale)."""
        return flat_pools(tuple(self._pools))

    def set_flat_pools(self, pools: list[int]) -> None:
        """Set the pools by cell from one list, as :meth:`flat_pools` gives them."""
        self._pools = list(pool_parts(pools))
        self._pools_frozen = None


_new = object.__new__
#: ``Belief(1, unseen, mixed)``, made without its constructor (see _state.belief_of).
_belief = belief_of


#: A cell's entry in a position's cards by cell, face down, repeated by thaw.
_DOWNS = bytearray([DOWN])
_INDEX = attrgetter("index")

# The indices of the cards of the last few decks listed (Position.listed), by the
# identity of the deck's cards (kept, so that an id is never mistaken for a later
# tuple's). Every game dealt by ``initial_state`` starts from the same decks, so a
# simulation reads them once, not at every game.
_INDICES: dict[int, tuple[tuple[Card, ...], tuple[int, ...]]] = {}


def _indices(cards: tuple[Card, ...]) -> tuple[int, ...]:
    kept = _INDICES.get(id(cards))
    if kept is not None and kept[0] is cards:
        return kept[1]
    indices = tuple(map(_INDEX, cards))
    if len(_INDICES) >= 16:
        _INDICES.clear()
    _INDICES[id(cards)] = (cards, indices)
    return indices


#: Figures are immutable values of a small set: each is made once and shared.
_FIGURES: dict[tuple[Cell | None, int, int], Figure] = {}


def _figure(cell: Cell | None, charisma: int, endurance: int) -> Figure:
    key = (cell, charisma, endurance)
    figure = _FIGURES.get(key)
    if figure is None:
        if len(_FIGURES) >= 100_000:
            _FIGURES.clear()
        # Made without attrs' constructor, from values of the right types (as _belief).
        figure = _new(Figure)
        _set_charisma(figure, charisma)
        _set_endurance(figure, endurance)
        _set_cell(figure, cell)
        _FIGURES[key] = figure
    return figure


def figures_of(codes: tuple[int, ...], layout: tuple[Cell, ...]) -> tuple[Figure, ...]:
    """The figures of seats held as the rules keep them (see cardcrawl.haydes._state):
    ``codes``, the cell indices in ``layout`` (-1 once out), the Charismas, the
    Endurances, each by seat."""
    n = len(codes) // 3
    return tuple(
        [
            _figure(None if codes[s] < 0 else layout[codes[s]], codes[n + s], codes[2 * n + s])
            for s in range(n)
        ]
    )


_set_charisma = Figure.__dict__["charisma"].__set__
_set_endurance = Figure.__dict__["endurance"].__set__
_set_cell = Figure.__dict__["cell"].__set__


def cards_by_cell(state: HaydesState) -> bytearray:
    """The cards of ``state`` by cell, as a position holds them (its ``_card_at``):
    the index of each face-up card, :data:`~cardcrawl.haydes._state.DOWN` for a
    face-down one."""
    card_at = _DOWNS * len(state.layout)
    for i, card in state._up.items():
        card_at[i] = card.index
    return card_at


def _hold_unseen(pos: Position, beliefs: Any) -> None:
    """What the unseen cards can be, held as a state holds them: its beliefs if it
    holds them, else its single belief as the rules keep one (see
    cardcrawl.haydes._state)."""
    if type(beliefs) is UnseenForm:
        form: UnseenForm = beliefs
        pos._beliefs = None
        held = pos._held = form.unseen
        pos._unseen = list(held)
        pos._mixed = form.mixed
    else:
        pos._beliefs = beliefs
        pos._unseen = None
        pos._held = None
        pos._mixed = ()  # read with _unseen only (see single_pool)


def thaw(state: HaydesState, index: dict[Cell, int], events: list[Any] | None = None) -> Position:
    """A working position of ``state``, which stays as it is.

    Args:
        state: a state of Escape from Haydes.
        index: the index of each cell of the state's layout.
        events: the list the rules append this step's events to, or ``None``.

    Returns:
        A new position; its counters start at 0.
    """
    pos: Position = Position.__new__(Position)
    # The fields are read from the state's instance dict, where attrs keeps them (a
    # dict read is cheaper than an attribute's); the rules' form of the cards by cell
    # through the state's attributes, which make it if the state holds only the public
    # form (see cardcrawl.haydes._state).
    fields = state.__dict__
    pos.phase = fields["phase"]
    seats = pos.frozen_seats = fields["seats"]
    pos._changed = 0
    if is_seat_codes(seats):
        # The rules' form of them (see cardcrawl.haydes._state): the lists, copied.
        n = len(seats) // 3
        pos.at = list(seats[:n])
        pos.charisma = list(seats[n : 2 * n])
        pos.endurance = list(seats[2 * n :])
    else:
        at = pos.at = []
        charisma = pos.charisma = []
        endurance = pos.endurance = []
        for figure in seats:
            cell = figure.cell
            at.append(-1 if cell is None else index[cell])
            charisma.append(figure.charisma)
            endurance.append(figure.endurance)
    pos.current = fields["current"]
    pos.first = fields["first"]
    pos.round = fields["round"]
    pos.layout = fields["layout"]
    pos._thawed = fields
    shown_indices = fields.get("_shown")  # the rules' form, if the state holds it
    shown = pos.shown = (
        [index[cell] for cell in fields["shown"]] if shown_indices is None else list(shown_indices)
    )
    # Which cells shown stayed at the end of the last turn, and the cell the player's
    # figure began this turn on, are not known from a state: every cell shown is asked
    # again at the end of this turn (see Rules._replace_cards).
    pos._stood = 0
    pos._began_on = -1
    pos._card_at = cards_by_cell(state)
    up = pos._up_frozen = state._up
    pos._unshown = tuple([i for i in up if i not in shown])
    pools = state._pools
    pos._pools = list(pools)
    pos._pools_frozen = pools
    pos._seats_in = None
    pos._mask = -1
    pos.mixes = fields["mixes"]
    _hold_unseen(pos, fields["beliefs"])
    pos.replacement_left = fields["replacement_left"]
    pos.discard = fields["discard"]
    pos.removed = fields["removed"]
    pos.overcome = fields["overcome"]
    aim = pos.aim = fields["aim"]
    # The code of the move aimed (see cardcrawl.haydes._play.Rules.code_of).
    pos.aimed = (
        -1 if aim is None else index[aim.cell] << 3 | (aim.guess is Guess.LOWER) | aim.tuybe << 1
    )
    pos.chosen = fields["chosen"]
    pos.stacked_first = fields["stacked_first"]
    pos.stacked_rolls = fields["stacked_rolls"]
    pos.ending = fields["ending"]
    pos.winner = fields["winner"]
    pos.rng = fields["rng"]
    pos.explicit_chance = fields["explicit_chance"]
    pos.events = events
    pos.turns = pos.guesses = pos.correct = pos.encounters = pos.overcame = 0
    return pos


def rethaw(pos: Position, state: HaydesState, events: list[Any] | None) -> None:
    """Make ``pos``, the position ``state`` was frozen from, the working position of
    ``state`` again: what :func:`thaw` would make of ``state``, without reading it.

    :func:`freeze` gives the state immutable values only: everything the position
    holds is its own or immutable, and agrees with the state already (its unseen cards
    are the very values the state holds, or its own lists of them).

    Args:
        pos: the position :func:`freeze` made ``state`` of, used by nothing since.
        state: that state.
        events: the list the rules append this step's events to, or ``None``.
    """
    fields = state.__dict__
    pos._thawed = fields
    pos._up_frozen = fields["_up"]
    pools = fields["_pools"]
    if pos._pools_frozen is not pools:
        # Changed by the step that made ``state``: the position's own list of them
        # again. (Else the list holds the state's very parts: every change to it
        # forgets ``_pools_frozen``, see Position.face_down.)
        pos._pools = list(pools)
        pos._pools_frozen = pools
    # The unseen cards are the state's already: freeze left the position holding the
    # very values it gave the state (see freeze).
    pos.events = events
    pos._changed = 0
    pos.turns = pos.guesses = pos.correct = pos.encounters = pos.overcame = 0


# The setter of a state's instance dict: the class's own ``__dict__`` descriptor, called
# directly (``object.__setattr__`` would look it up by name at every freeze).
_set_fields = next(
    vars(kind)["__dict__"] for kind in HaydesState.__mro__ if "__dict__" in vars(kind)
).__set__


def freeze(pos: Position, legal_key: str, legal: tuple[Action, ...] | None) -> HaydesState:
    """The state of ``pos``, which must not be used afterwards but by :func:`rethaw`.

    Args:
        pos: a working position.
        legal_key: the game's key of a state's legal actions in its memo.
        legal: the legal actions of ``pos``, known already, or ``None``.

    Returns:
        A new immutable state, with ``pos``'s events as its ``events`` (``pos.events``
        may log an event as a tuple of its class and values, see
        :mod:`cardcrawl.haydes._state`).
    """
    pools = pos._pools_frozen
    if pools is None:
        pools = tuple([p if type(p) is tuple else tuple(p) for p in pos._pools])
    events = pos.events
    # The state's fields in the rules' form (see cardcrawl.haydes._state): its
    # ``face_up`` and ``pool_of`` are made from them when first read.
    # A copy of the fields of the state thawed, which a step mostly leaves as they are:
    # the copy keeps their compact layout (a state's instance dict shares its keys with
    # the other states', where a new dict would hold its own).
    fields = pos._thawed.copy()
    if "face_up" in fields or "pool_of" in fields:
        # The public form of the cards by cell, read from the state thawed: made again
        # from the rules' form below when read (see cardcrawl.haydes._state).
        fields.pop("face_up", None)
        fields.pop("pool_of", None)
    if "events" in fields:
        # The events of the state thawed, read already: this state's are its log's.
        del fields["events"]
    if "shown" in fields:
        # The same for the cells shown: this state's are its indices'.
        del fields["shown"]
    fields["phase"] = pos.phase
    seats = pos.frozen_seats
    if seats is None:
        # The seats as the rules keep them, in one tuple (see cardcrawl.haydes._state):
        # the figures are made only if read.
        seats = pos.frozen_seats = tuple(pos.at + pos.charisma + pos.endurance)
    fields["seats"] = seats
    pos._changed = 0
    fields["current"] = pos.current
    fields["first"] = pos.first
    fields["round"] = pos.round
    fields["layout"] = pos.layout
    # The properties' own values where they hold them (a property is a Python call).
    up = pos._up_frozen
    if up is None:
        # Position._up's, without the property's call.
        fields["_up"] = pos._up_frozen = _face_up(pos)
        fields["_shown"] = tuple(pos.shown)
    else:
        # No card was turned or replaced since the state was thawed (a rule that does
        # either sets ``_up_frozen`` to None): the cells shown are that state's too,
        # kept if it holds them in the rules' form.
        fields["_up"] = up
        shown = fields.get("_shown")
        fields["_shown"] = tuple(pos.shown) if shown is None else shown
    fields["_pools"] = pools
    fields["mixes"] = pos.mixes
    unseen = pos._unseen
    if unseen is None:
        fields["beliefs"] = pos._beliefs
    else:
        # A single belief holds the unseen cards: the state holds the decks of its
        # pools, the belief made only if read (see cardcrawl.haydes._state); those of
        # the state thawed, if the step drew no card.
        form = fields["beliefs"]
        mixed = pos._mixed
        same = False
        if type(form) is UnseenForm:
            old: UnseenForm = form
            same = old.mixed is mixed and len(old.unseen) == len(unseen)
            if same:
                for i, deck in enumerate(old.unseen):
                    if unseen[i] is not deck:
                        same = False
                        break
        if not same:
            # A pool not drawn from holds its deck already; one drawn from once, the
            # tuple of its cards, kept as it is (its deck is made when the beliefs are
            # read, see cardcrawl.haydes._state); only the list of one drawn from
            # again is the position's own, copied.
            made: UnseenForm = UnseenForm.__new__(UnseenForm)
            held = made.unseen = tuple([_cards_of(u) if isinstance(u, list) else u for u in unseen])
            made.mixed = mixed
            fields["beliefs"] = made
            # The position goes on from the state's own values, as a thaw of the state
            # would: a pool drawn from again (a list of its cards) is not made into a
            # tuple again at the next freeze, and a tuple the state holds is copied at
            # its next draw (see Position.take).
            pos._held = held
            pos._unseen = list(held)
    fields["replacement_left"] = pos.replacement_left
    discard = pos.discard
    fields["discard"] = discard if type(discard) is tuple else tuple(discard)
    fields["removed"] = pos.removed
    fields["overcome"] = pos.overcome
    fields["aim"] = pos.aim
    fields["chosen"] = pos.chosen
    fields["stacked_first"] = pos.stacked_first
    fields["stacked_rolls"] = pos.stacked_rolls
    fields["ending"] = pos.ending
    fields["winner"] = pos.winner
    fields["rng"] = pos.rng
    fields["explicit_chance"] = pos.explicit_chance
    # The step's log of its events, made into them when first read (see
    # cardcrawl.haydes._state).
    fields["_log"] = () if events is None else tuple(events)
    fields["_memo"] = {} if legal is None else {legal_key: legal}
    state: HaydesState = _new(HaydesState)
    # A frozen attrs class refuses assignment: its instance dict is set whole, once.
    _set_fields(state, fields)
    # The position may be left with the new state (see rethaw): it keeps no reference
    # to the state it was thawed from, which may then be freed, nor to the new one (a
    # cycle, which only the garbage collector would free).
    pos._thawed = _NOT_THAWED
    return state


#: What a position frozen already refers to as the state it was thawed from: nothing.
_NOT_THAWED: dict[str, Any] = {}
