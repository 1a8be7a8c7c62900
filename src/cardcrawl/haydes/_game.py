"""The rules of Escape from Haydes as a :class:`~cardcrawl.GameBase`.

Each method below is one step of the rulebook's procedure; the comments cite the
rulings (``H-x``) of the project's normative reading, RULINGS.md.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs

from cardcrawl.core._engine import GameBase, replacer
from cardcrawl.core._notation import MAX_COUNT
from cardcrawl.core._protocol import CHANCE, TERMINAL, Outcome
from cardcrawl.core._random import rng_below, rng_from_seed
from cardcrawl.errors import StackError, short_repr
from cardcrawl.haydes._actions import (
    Action,
    Choose,
    EndTurn,
    FirstPlayer,
    Guess,
    Move,
    Reveal,
    Roll,
    Step,
    Tuybe,
    parse_action,
)
from cardcrawl.haydes._bots import haydes_state_from_observation
from cardcrawl.haydes._creatures import Characteristic, Creature, creature_for
from cardcrawl.haydes._events import (
    AllTrapped,
    AlmostThere,
    Announced,
    CardsReplaced,
    EncounterBegan,
    Escaped,
    FirstPlayerDrawn,
    HaydesEvent,
    Held,
    JokerShuffledIn,
    Lowered,
    Moved,
    Overcame,
    Released,
    ReplacementReshuffled,
    Revealed,
    Rolled,
    TimeUp,
    Trapped,
    TurnedFaceDown,
    TurnEnded,
    TurnStarted,
)
from cardcrawl.haydes._notation import HaydesNotation
from cardcrawl.haydes._render import render
from cardcrawl.haydes._rules import (
    ROLL_WEIGHTS,
    card_value,
    guess_is_correct,
    is_escape,
    next_seat,
)
from cardcrawl.haydes._state import (
    BLACK_JOKER_CELL,
    FACE_UP,
    MIXED,
    POOL_MASK,
    POOL_SHIFT,
    RULES_FORM,
    Aim,
    Belief,
    Ending,
    Figure,
    HaydesObservation,
    HaydesOptions,
    HaydesState,
    Mix,
    Phase,
    flat_pools,
    pool_parts,
    setup_cards,
    unstacked_beliefs,
)
from cardcrawl.haydes._unseen import Dealer, apply_reveal, reveal_chances, take
from cardcrawl.kit._cards import Card, standard_deck
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, cell_text, neighbours

__all__ = ["RULES_VERSION", "EscapeFromHaydes"]

#: Changes whenever the behaviour of the rules changes (records carry it).
RULES_VERSION = "1"

_TURN, _ENCOUNTER, _REVEAL, _ROLL, _FIRST, _OVER = (
    Phase.TURN,
    Phase.ENCOUNTER,
    Phase.REVEAL,
    Phase.ROLL,
    Phase.FIRST,
    Phase.OVER,
)
_CARDS = standard_deck(jokers=True)
_RED_JOKER_INDEX = Card.RED_JOKER.index
_END = EndTurn()
# Actions are immutable values, so the ones made over and over are made once.
_REVEALS = tuple(Reveal(c) for c in _CARDS)

Events = list[HaydesEvent]

_replace = replacer(HaydesState)


def _evolve(state: HaydesState, **changes: Any) -> HaydesState:
    """``state`` with these fields changed, never the by-cell ones: the copy would keep
    the other form of them (see cardcrawl.haydes._state), so a new state with other
    cards is built by the constructor or by the rules' steps."""
    assert _BY_CELL.isdisjoint(changes), f"by-cell fields replaced: {sorted(changes)}"
    return _replace(state, **changes)


_FIELDS = frozenset(a.name for a in attrs.fields(HaydesState) if a.init)
_new = object.__new__
_set = object.__setattr__
# Frozen, slotted attrs classes refuse assignment; their slots' own setters make a new
# instance faster than the generated __init__ (no validators or converters to skip):
# used for the Belief and Revealed event that every card turned makes anew.
_set_weight, _set_unseen, _set_mixed = (
    Belief.__dict__[name].__set__ for name in ("weight", "unseen", "mixed")
)
_set_cell, _set_card, _set_guess, _set_from, _set_correct = (
    Revealed.__dict__[name].__set__ for name in ("cell", "card", "guess", "from_value", "correct")
)


Fields = dict[str, Any]
#: The fields a state may hold in either form (see cardcrawl.haydes._state._CELL_FORMS).
_BY_CELL = frozenset({"face_up", "pool_of"})
#: The entries of a state's ``__dict__`` every state has: its other fields and ``_memo``.
_ALWAYS = _FIELDS - _BY_CELL | {"_memo"}


def _well_formed(fields: Fields) -> bool:
    """Every field, ``_memo``, and at least one whole form of the by-cell fields."""
    return (
        fields.keys() <= _ALWAYS | _BY_CELL | RULES_FORM
        and fields.keys() >= _ALWAYS
        and (fields.keys() >= _BY_CELL or fields.keys() >= RULES_FORM)
    )


def _cells_changed(fields: Fields, up: dict[int, Card], pools: tuple[tuple[int, ...], ...]) -> None:
    """Set the rules' form of the by-cell fields, and drop the public form the fields
    may hold from the state they were copied from: it is made again when read."""
    fields["_up"] = up
    fields["_pools"] = pools
    fields.pop("face_up", None)
    fields.pop("pool_of", None)


def _finish(fields: Fields) -> HaydesState:
    """The new state whose ``__dict__`` is ``fields``, with an empty ``_memo``.

    The rules work on a copy of the previous state's ``__dict__`` (a C-level copy that
    shares its key table), change the fields the step changes, and hand it over here: no
    keyword unpacking and no field-by-field construction, the hottest path of all. (The
    hottest callers, which fill the new state's memo too, do the same inline.)
    """
    fields["_memo"] = {}
    assert _well_formed(fields), f"fields out of shape: {sorted(fields)}"
    result: HaydesState = _new(HaydesState)
    _set(result, "__dict__", fields)
    return result


def _pending(
    state: HaydesState, phase: Phase, name: str, value: Any, events: Events
) -> HaydesState:
    """The state a decision leads to when it waits for a chance event, in the middle of
    the step whose events are ``events``: ``state`` with ``phase`` (REVEAL, the card of a
    move; ROLL, the roll of an encounter) and its pending field ``name`` (``aim``,
    ``chosen``) set to ``value``.

    It holds the step's own ``events`` list, where a finished state holds a tuple: that
    marks it as made during this step and seen by nobody outside it, so the rule step of
    the chance outcome applied to it next takes its fields as they are (see _working).
    The engine finishes the step's last state (generator, events tuple) before anyone
    else sees it. (_finish, inlined: this is made at every move.)
    """
    fields = state.__dict__.copy()
    fields["phase"] = phase
    fields[name] = value
    fields["events"] = events
    fields["_memo"] = {}
    result: HaydesState = _new(HaydesState)
    _set(result, "__dict__", fields)
    return result


def _working(state: HaydesState, events: Events) -> Fields:
    """The fields a rule step changes to make the state after ``state``, in the step
    whose events are ``events``: a copy of ``state.__dict__`` or, when ``state`` was
    made during this very step (_pending), that dict itself.

    Such a state has been seen only by the engine and the chance hooks it asked about
    it (``_sample``, ``_chances``), which read it and must not keep it: the rule step
    makes the next state out of its fields instead of copying them once more. The
    state given to ``step`` holds a tuple of events, never this list, so it is never
    changed.
    """
    fields = state.__dict__
    return fields if fields["events"] is events else fields.copy()


# Enum members compared by identity (hashing them is a Python-level call).
_LOWER = Guess.LOWER
_CHARISMA = Characteristic.CHARISMA
_CELL_OF = operator.attrgetter("cell")
# TurnStarted events are interned up to this round only: a game without a round limit
# could otherwise grow the table without bound.
_INTERNED_ROUNDS = 1000


class EscapeFromHaydes(GameBase[HaydesState, Action, HaydesObservation]):
    """Escape from Haydes, 1-4 players: guess your way over face-down cards to the Red Joker.

    Load it by name with ``cardcrawl.load("escape-from-haydes", players=..., ...)``.

    Stacked chance (tutorials, puzzles, tests): ``initial_state(seed, stack={...})`` takes
    the sources

    * ``"build"``: cards (or codes) that the next face-down cards of the Build deck turn
      out to be, in the order they are turned;
    * ``"replacement"``: the same for cards dealt from the first Replacement deck;
    * ``"rolls"``: the next 2D6 totals, in order;
    * ``"first_player"``: the first player, as a one-item sequence (or a seat number).

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=20)
        >>> state = game.initial_state(seed=1, stack={"build": ["5S"]})
        >>> game.current_player(state), state.phase.value
        (0, 'turn')
        >>> [str(a) for a in game.legal_actions(state)][:3]
        ['higher -1,0', 'lower -1,0', 'higher 0,-1']
        >>> state = game.step(state, game.parse_action("higher 1,0"))
        >>> for event in state.events:
        ...     print(event)
        Player 0 moves toward (1, 0), announcing higher.
        The card at (1, 0) is turned: 5♠; higher than 0: correct.
        Player 0 moves to (1, 0).
    """

    game_name: ClassVar[str] = "escape-from-haydes"
    title: ClassVar[str] = "Escape from Haydes"
    rules_version: ClassVar[str] = RULES_VERSION
    options_type: ClassVar[type[Any]] = HaydesOptions
    state_type: ClassVar[type[Any]] = HaydesState
    action_type: ClassVar[Any] = (Move, Step, Tuybe, EndTurn, Choose, FirstPlayer, Reveal, Roll)
    #: The chance sources a stack may name.
    stack_sources: ClassVar[tuple[str, ...]] = ("build", "replacement", "rolls", "first_player")
    # States saved before TurnBegan was renamed (to match The Mapless House) still load.
    renamed_types: ClassVar[Mapping[str, str]] = {"TurnBegan": "TurnStarted"}
    rule_hooks: ClassVar[tuple[str, ...]] = (
        "card_value", "creature", "touching_cells", "roll_weights", "guess_is_correct",
        "is_escape", "overcomes", "characteristic_after", "next_seat", "stays_face_up",
    )  # fmt: skip
    # Every path of _apply and _new_state builds a new state (with _finish, _pending or
    # HaydesState(...)), never returning one it was given or kept, and never sharing the
    # fields of one made before the step (_working): the engine may finish a step's last
    # state in place instead of copying it once more.
    _fresh_states: ClassVar[bool] = True
    notation_format: ClassVar[Any] = HaydesNotation()  # the position notation's hook

    options: HaydesOptions

    def __init__(self, options: Any = None, *, name: str | None = None) -> None:
        super().__init__(options, name=name)
        opts: HaydesOptions = self._options
        cells = opts.cells
        index = {cell: i for i, cell in enumerate(cells)}
        self._cells = cells
        self._index = index
        self._bj = index[BLACK_JOKER_CELL]
        # Per cell, its touching cells and (Tuybe) its cells two away over a touching
        # cell, sorted like the actions they become, so legal actions need no sorting.
        self._adj = tuple(
            tuple(index[n] for n in sorted(self.touching_cells(c)) if n in index) for c in cells
        )
        # The Tuybe aims over a touching cell at the next one in the same line, which
        # must touch it in turn: both steps are the game's own (touching_cells).
        self._jumps = tuple(
            tuple(
                index[far]
                # Touching cells come sorted, and so do the cells beyond them.
                for near in (cells[j] for j in adj)
                if (far := (2 * near[0] - c[0], 2 * near[1] - c[1])) in index
                and far in self.touching_cells(near)
            )
            for c, adj in zip(cells, self._adj, strict=True)
        )
        # Per cell, (cell index, bit) for its touching cells (bits 0-3) and, with the
        # Tuybe, its cells two away (bits 4-7): see _turn_legal_at.
        self._probes = tuple(
            tuple((j, 1 << b) for b, j in enumerate(adj))
            + (tuple((j, 16 << b) for b, j in enumerate(jumps)) if opts.tuybe else ())
            for adj, jumps in zip(self._adj, self._jumps, strict=True)
        )
        self._moves = tuple((Move(c, Guess.HIGHER), Move(c, Guess.LOWER)) for c in cells)
        self._steps = tuple(Step(c) for c in cells)
        self._tuybes = tuple((Tuybe(c, Guess.HIGHER), Tuybe(c, Guess.LOWER)) for c in cells)
        self._aims = tuple(
            tuple(Aim(c, g, t) for t in (False, True) for g in (Guess.HIGHER, Guess.LOWER))
            for c in cells
        )
        self._tuybe = opts.tuybe
        self._solo = opts.players == 1
        self._max_rounds = opts.max_rounds
        # The hooks of a card alone, and the dice, asked once (see "rules" below).
        self._values = tuple(self.card_value(card) for card in _CARDS)
        self._creatures: tuple[Creature | None, ...] = tuple(self.creature(card) for card in _CARDS)
        weights = tuple(self.roll_weights())
        self._rolls = {total: Roll(total) for total, _ in weights}
        self._roll_chances: tuple[tuple[Action, int], ...] = tuple(
            (self._rolls[t], w) for t, w in weights
        )
        # The equally likely throws, in the order of the cumulative weights, so that one
        # uniform draw below their number picks exactly what rng_choice_weighted over
        # _roll_chances would.
        self._throws = tuple(self._rolls[t] for t, w in weights for _ in range(w))
        # A solo turn's legal actions depend on the figure's cell alone only while H-12
        # turns every card without a figure face down (see _begin_turn).
        # The rule steps fill in a new state's legal actions when they know them
        # already: only while they are what _decisions would find.
        self._prefill = type(self)._decisions is EscapeFromHaydes._decisions
        self._solo_by_cell = (
            self._solo and type(self).stays_face_up is EscapeFromHaydes.stays_face_up
        )
        self._choices = tuple(
            () if c is None else tuple(Choose(ch) for ch in c.allowed) for c in self._creatures
        )
        self._build_cards, self._replacement_cards = setup_cards(opts.deck_count)
        self._all_cards = Counter((*self._build_cards, *self._replacement_cards, Card.BLACK_JOKER))
        # The setup's values that no stack changes, made once (H-2 to H-5).
        n = len(cells)
        face_up: list[Card | None] = [None] * n
        face_up[self._bj] = Card.BLACK_JOKER
        pool_of = [0] * n
        pool_of[self._bj] = FACE_UP
        self._setup_face_up = tuple(face_up)
        self._setup_pool_of = tuple(pool_of)
        self._setup_seats = tuple(Figure(c, e, BLACK_JOKER_CELL) for c, e in opts.character_splits)
        self._build_deck = Deck((), self._build_cards)
        self._replacement_deck = Deck((), self._replacement_cards)
        self._first_chances = tuple((FirstPlayer(seat), 1) for seat in range(opts.players))
        self._first_drawn = tuple(FirstPlayerDrawn(seat) for seat in range(opts.players))
        self._turn_ended = tuple(TurnEnded(seat) for seat in range(opts.players))
        # By seat, by round: the TurnStarted events made so far (see _turn_started).
        self._began: tuple[list[TurnStarted], ...] = tuple([] for _ in range(opts.players))
        # The fields of the setup with nothing stacked (see _new_state).
        unstacked = (Belief(1, (self._build_deck, self._replacement_deck), ()),)
        self._setup_fields = self._setup(0, False, unstacked, None, ()).__dict__
        # Both forms of the by-cell fields, shared by every new game (never changed).
        self._setup_fields["_up"] = {self._bj: Card.BLACK_JOKER}
        self._setup_fields["_pools"] = pool_parts(self._setup_pool_of)
        # The legal actions of a turn by cell and face-down neighbours (see _decisions).
        self._turn_legal: dict[int, tuple[Action, ...]] = {}
        # The same, by cell, for the start of a solo game's turns (see _begin_turn).
        self._solo_turns: dict[int, tuple[Action, ...]] = {}
        # Events are immutable values, and most of them recur all game long (a seat
        # announcing and moving between the same cells, the same rolls), so those are
        # made once, on first use, and shared by every state of every game played with
        # this object: a dict lookup costs a fraction of building an attrs instance.
        # Keys are the class and the values that determine the event, enum members as
        # booleans (hashing a member is a Python-level call). Only events of small sets
        # are interned, some thousands at most (Announced: seats x cells x 16 aims);
        # those of many more combinations (Revealed, CardsReplaced, EncounterBegan)
        # gain nothing from it, and are built every time.
        self._interned: dict[tuple[Any, ...], Any] = {}
        # Figures with their one-seat tuple, by cell index (-1: none), charisma and
        # endurance folded into one integer (see _seated).
        self._figures: dict[int, tuple[Figure, tuple[Figure, ...]]] = {}

    @property
    def num_players(self) -> int:
        """1 to 4, as the ``players`` option says."""
        return int(self._options.players)

    # ------------------------------------------------------------- rules
    # The public hooks. Each decides one rule of the rulebook, cites its ruling and is
    # the only place that rule is decided: the rule steps, legal_actions, the pictures
    # and the bots all ask it. A variant overrides the hooks it changes.
    #
    # The hooks of a card alone (card_value, creature), of a cell of the layout alone
    # (touching_cells) and the dice (roll_weights) are asked once, when the game is
    # built, and their answers kept in tables; the others at every use.

    def card_value(self, card: Card) -> int:
        """A card's value (H-1): ace 1, 2-10 face value, J 11, Q 12, K 13, jokers 0.

        Asked once per card when the game is built.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> queen, joker = cardcrawl.Card.parse("QH"), cardcrawl.Card.RED_JOKER
            >>> game.card_value(queen), game.card_value(joker)
            (12, 0)
        """
        return card_value(card)

    def creature(self, card: Card) -> Creature | None:
        """The creature a card is, or ``None`` for plain ground (H-1, H-8).

        By default the options' creature table: every court card is a creature faced
        with either characteristic, no modifier, at a cost of 1 (the ``creatures``
        option holds other tables). Asked once per card when the game is built.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> king, nine = cardcrawl.parse_cards("KS 9S")
            >>> game.creature(king).cost, game.creature(nine)
            (1, None)
        """
        return creature_for(self.options.creature_table, card)

    def touching_cells(self, cell: Cell) -> list[Cell]:
        """The cells a figure on ``cell`` may move to (H-6), before the layout is applied:
        the four that share an edge with it. Moves are never diagonal.

        Cells outside the layout are left out afterwards. Asked once per cell when the
        game is built.

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.load("escape-from-haydes").touching_cells((0, 0))
            [(-1, 0), (0, -1), (0, 1), (1, 0)]
        """
        return sorted(neighbours(cell))

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        """Whether a guess was right (H-7): strictly higher, or strictly lower, than the
        card moved from. Equal values are never correct.

        A court card starts an encounter whatever this says; the Red Joker is decided by
        :meth:`is_escape` (H-9).

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.haydes import Guess
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> game.guess_is_correct(Guess.HIGHER, 5, 7)
            True
            >>> game.guess_is_correct(Guess.HIGHER, 7, 7)
            False
        """
        return guess_is_correct(guess, from_value, value)

    def is_escape(self, guess: Guess, from_value: int) -> bool:
        """Whether a move onto the Red Joker with ``guess`` escapes (H-9): *lower* from a
        card worth 1 or more. Any other move onto it fails (H-10).

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.haydes import Guess
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> game.is_escape(Guess.LOWER, 1), game.is_escape(Guess.LOWER, 0)
            (True, False)
        """
        return is_escape(guess, from_value)

    def roll_weights(self) -> tuple[tuple[int, int], ...]:
        """The roll of an encounter (H-8): each total with its whole-number weight.

        By default 2D6: the totals 2 to 12, in 1 to 6 ways out of 36. Asked once when
        the game is built; stacked rolls must be among these totals.

        Examples:
            >>> import cardcrawl
            >>> weights = cardcrawl.load("escape-from-haydes").roll_weights()
            >>> weights[0], weights[5], sum(w for _, w in weights)
            ((2, 1), (7, 6), 36)
        """
        return ROLL_WEIGHTS

    def overcomes(self, creature: Creature, value: int, total: int) -> bool:
        """Whether a roll of ``total`` overcomes ``creature``, faced with a characteristic
        worth ``value`` (H-8): the total plus the creature's modifier is at most the value.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> king = game.creature(cardcrawl.Card.parse("KS"))
            >>> game.overcomes(king, 8, 8), game.overcomes(king, 8, 9)
            (True, False)
        """
        return total + creature.modifier <= value

    def characteristic_after(self, creature: Creature, value: int, overcome: bool) -> int:
        """The characteristic's value after an encounter (H-8): it drops by the
        creature's cost, win or lose, never below 0. At 0 the player is out (H-11).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> king = game.creature(cardcrawl.Card.parse("KS"))
            >>> game.characteristic_after(king, 8, True), game.characteristic_after(king, 1, False)
            (7, 0)
        """
        return max(0, value - creature.cost)

    def next_seat(
        self, current: int, first: int, seats_in: tuple[bool, ...]
    ) -> tuple[int, bool] | None:
        """Who plays after ``current``, and whether a new round starts (H-5, H-13).

        By default play passes in seat order, skipping players who are out, and a round
        begins when play passes the first player's seat again
        (:func:`cardcrawl.haydes.next_seat`). ``None`` when nobody is in.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes", players=3)
            >>> game.next_seat(2, 0, (True, True, True))
            (0, True)
            >>> game.next_seat(0, 0, (True, False, True))
            (2, False)
        """
        return next_seat(current, first, seats_in)

    def stays_face_up(self, cell: Cell, card: Card, occupied: bool) -> bool:
        """Whether the face-up ``card`` on ``cell`` stays at the end of a turn (H-12).

        By default only cards with a figure on them stay (the Black Joker always
        does, and is never asked about); every other one is replaced.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> five = cardcrawl.Card.parse("5S")
            >>> game.stays_face_up((1, 0), five, True), game.stays_face_up((1, 0), five, False)
            (True, False)
        """
        return occupied

    # ------------------------------------------------------------- setup
    def _new_state(
        self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]
    ) -> HaydesState:
        if not stack:
            # The usual case: the setup made once in __init__, with this generator.
            fields = self._setup_fields.copy()
            fields["rng"] = rng
            fields["explicit_chance"] = explicit_chance
            return _finish(fields)
        # The engine has refused any source not in stack_sources already.
        build = Deck.stacked_from("build", self._build_cards, stack.get("build", ()))
        replacement = Deck.stacked_from(
            "replacement", self._replacement_cards, stack.get("replacement", ())
        )
        return self._setup(
            rng,
            explicit_chance,
            (Belief(1, (build, replacement), ()),),
            self._stacked_first(stack.get("first_player", ())),
            _stacked_rolls(stack.get("rolls", ())),
        )

    def _setup(
        self,
        rng: int,
        explicit_chance: bool,
        beliefs: tuple[Belief, ...],
        first: int | None,
        rolls: tuple[int, ...],
    ) -> HaydesState:
        # H-4: the Black Joker face up at (0, 0), the build cards face down everywhere
        # else; with a lazy deal, each of those cells simply belongs to the Build pool.
        # H-2, H-5: every figure starts on the Black Joker.
        return HaydesState(
            phase=_FIRST, seats=self._setup_seats, current=-1, first=-1, round=0,
            layout=self._cells, face_up=self._setup_face_up, pool_of=self._setup_pool_of,
            shown=(), mixes=(), beliefs=beliefs,
            replacement_left=len(self._replacement_cards), discard=(), removed=(),
            overcome=frozenset(), aim=None, chosen=None, stacked_first=first,
            stacked_rolls=rolls, ending=None, winner=None, rng=rng,
            explicit_chance=explicit_chance, events=(),
        )  # fmt: skip

    def _stacked_first(self, value: Any) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool):
            value = (value,)
        try:
            seats = list(value)
        except TypeError:
            seats = [value]
        if not seats:
            return None
        seat = seats[0]
        if (
            len(seats) != 1
            or not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 0 <= seat < self.num_players
        ):
            raise StackError(
                f"stack['first_player'] is one seat from 0 to {self.num_players - 1}, "
                f"not {short_repr(value)}"
            )
        return seat

    # ---------------------------------------------------- protocol hooks
    def _to_move(self, state: HaydesState) -> int:
        # Identity tests: hashing an enum member is a Python-level call, and this is hot.
        phase = state.phase
        if phase is _TURN or phase is _ENCOUNTER:
            return state.current
        return TERMINAL if phase is _OVER else CHANCE

    def _decisions(self, state: HaydesState) -> tuple[Action, ...]:
        cell = state.seats[state.current].cell
        assert cell is not None
        i = self._index[cell]
        up = state._up
        if state.phase is _ENCOUNTER:
            return self._choices[up[i].index]
        return self._turn_legal_at(i, up)

    def _turn_legal_at(self, i: int, up: dict[int, Card]) -> tuple[Action, ...]:
        """The legal actions of a turn (H-6) from cell ``i``, with these cards face up
        (by cell index)."""
        # They depend only on the cell and on which of its touching cells (bits 0-3) and,
        # with the Tuybe, cells two away (bits 4-7) are face down: one table lookup once
        # that position has been met.
        key = i << 8
        for j, bit in self._probes[i]:
            if j not in up:
                key |= bit
        legal = self._turn_legal.get(key)
        if legal is None:
            legal = self._turn_legal[key] = self._turn_actions(i, up)
        return legal

    def _turn_actions(self, i: int, up: dict[int, Card]) -> tuple[Action, ...]:
        # H-6: onto a touching face-down card (announcing higher or lower), onto a touching
        # face-up card, or (the Tuybe) two cells away; or end the turn at once.
        actions: list[Action] = []
        adj = self._adj[i]
        for j in adj:
            if j not in up:
                actions.extend(self._moves[j])
        for j in adj:
            if j in up:
                actions.append(self._steps[j])
        if self._tuybe:
            for j in self._jumps[i]:
                if j not in up:
                    actions.extend(self._tuybes[j])
        actions.append(_END)
        return tuple(actions)

    def _chances(self, state: HaydesState) -> tuple[tuple[Action, int], ...]:
        phase = state.phase
        if phase is _REVEAL:
            assert state.aim is not None
            index = self._index[state.aim.cell]
            return tuple((_REVEALS[c.index], w) for c, w in reveal_chances(state, index))
        if phase is _ROLL:
            if state.stacked_rolls:
                total = state.stacked_rolls[0]
                return ((self._rolls.get(total) or Roll(total), 1),)
            return self._roll_chances
        if state.stacked_first is not None:
            return ((FirstPlayer(state.stacked_first), 1),)
        return self._first_chances  # H-5

    def _sample(self, state: HaydesState, rng: int) -> tuple[Action, int]:
        # Faster than the base method, never different: each shortcut draws exactly what
        # rng_choice_weighted over _chances(state) draws, except for a plain cell under
        # a single belief, drawn as Deck.sample draws from its pool (reveal_fast_deck),
        # which is how it has always been drawn.
        phase = state.phase
        if phase is _REVEAL:
            aim = state.aim
            assert aim is not None
            i = self._index[aim.cell]
            pool = state._pools[i >> POOL_SHIFT][i & POOL_MASK]  # a face-down cell's pool
            beliefs = state.beliefs
            if pool >= 0 and len(beliefs) == 1:
                # Deck.sample, inlined: a stacked card comes first, and draws nothing.
                deck = beliefs[0].unseen[pool]
                if deck.stacked:
                    return _REVEALS[deck.stacked[0].index], rng
                rest = deck.rest
                rng, k = rng_below(rng, len(rest))
                return _REVEALS[rest[k].index], rng
        elif phase is _ROLL:
            if not state.stacked_rolls:
                rng, throw = rng_below(rng, len(self._throws))
                return self._throws[throw], rng
        elif phase is _FIRST and state.stacked_first is None:
            # Equal weights: rng_choice_weighted's index is the uniform draw itself.
            rng, seat = rng_below(rng, len(self._first_chances))
            return self._first_chances[seat][0], rng
        return super()._sample(state, rng)

    def is_terminal(self, state: HaydesState) -> bool:
        """True once the game is over."""
        return state.phase is _OVER

    def _describe(self, state: HaydesState) -> str:
        phase = state.phase
        if phase is _TURN:
            return (
                f"player {state.current} to move (higher X,Y / lower X,Y / step X,Y"
                f"{' / tuybe higher X,Y' if self._tuybe else ''}) or end the turn (end)"
            )
        if phase is _ENCOUNTER:
            return f"player {state.current} to face the creature (charisma / endurance)"
        if phase is _REVEAL:
            assert state.aim is not None
            return f"the chance turn of the card at {cell_text(state.aim.cell)}"
        if phase is _ROLL:
            return "the chance roll of 2D6"
        return "the chance draw of the first player"

    def _apply(self, state: HaydesState, action: Action, events: Events) -> HaydesState:
        # Each path works on one copy of the state's fields (see _finish) and builds one
        # new state at the end. A decision that waits for a chance event (a move's card,
        # an encounter's roll) builds the state waiting for it (_pending), and the
        # outcome's rule step, next in the same step, works on that state's fields
        # themselves (_working): one copy of the fields per step either way.
        if "_pools" not in state.__dict__ or "_up" not in state.__dict__:
            # A state its constructor built holds the public form of the by-cell fields
            # alone: the rules' form is read from it once, and kept with it.
            _ = state._up, state._pools
        phase = state.phase
        if phase is _REVEAL:
            assert isinstance(action, Reveal)
            assert state.aim is not None
            card = _CARDS[action.card.index]
            return self._revealed(_working(state, events), state.aim, card, events)
        kind = type(action)
        if phase is _TURN:
            if kind is Move or kind is Tuybe:
                assert isinstance(action, (Move, Tuybe))
                aims = self._aims[self._index[action.cell]]
                aim = aims[(action.guess is _LOWER) + 2 * (kind is Tuybe)]
                self._announce(state, aim, events)
                return _pending(state, _REVEAL, "aim", aim, events)
            if kind is Step:
                assert isinstance(action, Step)
                return self._step(state.__dict__.copy(), action.cell, events)
            return self._end_turn(state.__dict__.copy(), events)
        if phase is _ENCOUNTER:
            assert isinstance(action, Choose)
            return _pending(state, _ROLL, "chosen", action.characteristic, events)
        if phase is _ROLL:
            assert isinstance(action, Roll)
            assert state.chosen is not None
            return self._rolled(_working(state, events), state.chosen, action.total, events)
        assert isinstance(action, FirstPlayer)
        events.append(self._first_drawn[action.seat])
        fields = _working(state, events)
        fields["first"] = fields["current"] = action.seat
        fields["round"] = 1
        fields["stacked_first"] = None
        return self._begin_turn(fields, events)

    # ------------------------------------------------------------ turns
    # The methods below take ``fields``, a working copy of the ``__dict__`` of the state
    # the step started from, change it as the rules say, and hand it to _finish, which
    # makes it the new state's: the state itself is never touched. Whatever they read
    # from ``fields`` is therefore the state as the step has left it so far.
    def _begin_turn(self, fields: Fields, events: Events) -> HaydesState:
        seat: int = fields["current"]
        round_: int = fields["round"]
        began = self._began[seat]
        if round_ < len(began):
            events.append(began[round_])
        else:
            events.append(self._turn_started(seat, round_))
        cell = fields["seats"][seat].cell
        assert cell is not None
        i = self._index[cell]
        up: dict[int, Card] = fields["_up"]
        card = up[i]  # a figure stands on a face-up card
        if self._creatures[card.index] is not None and cell not in fields["overcome"]:
            # H-8: a held player faces the creature again before anything else.
            return self._meet(fields, seat, cell, card, events)
        if self._solo_by_cell:
            # When a turn begins, the only face-up cards are the Black Joker and those
            # with a figure on them (H-12 has just turned every other one face down): in
            # a solo game the turn's legal actions depend on the cell alone.
            legal = self._solo_turns.get(i)
            if legal is None:
                legal = self._solo_turns[i] = self._turn_legal_at(i, up)
            fields["phase"] = _TURN
            fields["_memo"] = {self._legal_key: legal} if self._prefill else {}
            state: HaydesState = _new(HaydesState)  # _finish, inlined
            _set(state, "__dict__", fields)
            return state
        return self._turn(fields, i, up)

    def _turn_started(self, seat: int, round_: int) -> TurnStarted:
        """The event of ``seat``'s turn in ``round_``, kept for reuse up to round
        _INTERNED_ROUNDS (see _begin_turn)."""
        began = self._began[seat]
        while len(began) <= min(round_, _INTERNED_ROUNDS):
            began.append(TurnStarted(seat, len(began)))
        return began[round_] if round_ < len(began) else TurnStarted(seat, round_)

    def _turn(self, fields: Fields, i: int, up: dict[int, Card]) -> HaydesState:
        """The new state waiting for a turn's decision (H-6), the figure on cell ``i`` and
        the cards ``up`` face up: its legal actions, known from those already, are
        filled in."""
        fields["phase"] = _TURN
        fields["_memo"] = {self._legal_key: self._turn_legal_at(i, up)} if self._prefill else {}
        state: HaydesState = _new(HaydesState)  # _finish, inlined
        _set(state, "__dict__", fields)
        return state

    def _announce(self, state: HaydesState, aim: Aim, events: Events) -> None:
        seat = state.current
        source = state.seats[seat].cell
        assert source is not None
        # H-6: the announcement comes first, then the card is turned (a chance event).
        cell, guess, tuybe = aim.cell, aim.guess, aim.tuybe
        key = (Announced, seat, source, cell, guess is _LOWER, tuybe)
        interned = self._interned
        events.append(
            interned.get(key)
            or interned.setdefault(key, Announced(seat, source, cell, guess, tuybe))
        )

    def _revealed(
        self,
        fields: Fields,
        aim: Aim,
        card: Card,
        events: Events,
    ) -> HaydesState:
        """The card aimed at (``aim``) turned out to be ``card``. ``fields`` are those of
        the state waiting for the reveal (see _working): every path below sets its
        ``phase`` and ``aim``."""
        cell, guess = aim.cell, aim.guess
        index = self._index[cell]
        seat: int = fields["current"]
        seats: tuple[Figure, ...] = fields["seats"]
        source = seats[seat].cell
        assert source is not None
        up: dict[int, Card] = fields["_up"]
        under = up[self._index[source]]  # the card the figure stands on
        values = self._values
        from_value = values[under.index]
        correct = self.guess_is_correct(guess, from_value, values[card.index])  # H-7
        revealed = _new(Revealed)  # Revealed(cell, card, guess, from_value, correct)
        _set_cell(revealed, cell)
        _set_card(revealed, card)
        _set_guess(revealed, guess)
        _set_from(revealed, from_value)
        _set_correct(revealed, correct)
        events.append(revealed)
        # The rules' form of the by-cell fields (see cardcrawl.haydes._state): the card
        # joins the few face up, and the pools by cell stay as they are.
        face_up = up.copy()
        face_up[index] = card
        pools: tuple[tuple[int, ...], ...] = fields["_pools"]
        pool = pools[index >> POOL_SHIFT][index & POOL_MASK]
        beliefs: tuple[Belief, ...] = fields["beliefs"]
        if pool >= 0 and len(beliefs) == 1:
            # apply_reveal's common case, inlined: one draw from one pool.
            belief = beliefs[0]
            unseen = list(belief.unseen)
            unseen[pool] = take(unseen[pool], card)
            new = _new(Belief)  # Belief(1, tuple(unseen), belief.mixed)
            _set_weight(new, 1)
            _set_unseen(new, tuple(unseen))
            _set_mixed(new, belief.mixed)
            fields["beliefs"] = (new,)
        else:
            # It reads only what the step has not changed yet: pool_of, mixes, beliefs.
            pool_of = flat_pools(pools)
            fields["mixes"], fields["beliefs"] = apply_reveal(
                _finish(fields.copy()), index, card, pool_of
            )
            pools = pool_parts(pool_of)
        _cells_changed(fields, face_up, pools)
        fields["shown"] = (*fields["shown"], cell)
        fields["aim"] = None
        if card.index == _RED_JOKER_INDEX:
            if self.is_escape(guess, from_value):
                # H-9: "lower" from a card worth 1 or more: the player escapes and wins.
                events.append(Moved(seat, source, cell))
                events.append(Escaped(seat, cell))
                fields["phase"] = _OVER
                fields["ending"] = Ending.ESCAPED
                fields["winner"] = seat
                fields["seats"] = self._moved(seats, seat, cell, index)
                return _finish(fields)
            # H-10: the figure does not move, the joker stays face up, the turn ends.
            events.append(AlmostThere(seat, cell))
            return self._end_turn(fields, events)
        if aim.tuybe and not correct:
            # The Tuybe: wrong or equal, the figure stays (and meets no creature).
            return self._end_turn(fields, events)
        # H-6: the figure moves onto the turned card, right or wrong.
        key = (Moved, seat, source, cell)
        interned = self._interned
        events.append(interned.get(key) or interned.setdefault(key, Moved(seat, source, cell)))
        fields["seats"] = self._moved(seats, seat, cell, index)
        if self._creatures[card.index] is not None:
            return self._meet(fields, seat, cell, card, events)  # H-7, H-8
        if correct:
            return self._turn(fields, index, face_up)  # H-7: move again or end the turn
        return self._end_turn(fields, events)

    def _step(self, fields: Fields, cell: Cell, events: Events) -> HaydesState:
        seat: int = fields["current"]
        index = self._index[cell]
        card: Card = fields["_up"][index]  # a step goes onto a face-up card
        seats: tuple[Figure, ...] = fields["seats"]
        source = seats[seat].cell
        assert source is not None
        if card.index == _RED_JOKER_INDEX:  # pragma: no cover - never face up on a turn
            events.append(AlmostThere(seat, cell))  # H-10: any other move onto it fails
            return self._end_turn(fields, events)
        key = (Moved, seat, source, cell)
        interned = self._interned
        events.append(interned.get(key) or interned.setdefault(key, Moved(seat, source, cell)))
        fields["seats"] = self._moved(seats, seat, cell, index)
        if self._creatures[card.index] is not None and cell not in fields["overcome"]:
            return self._meet(fields, seat, cell, card, events)  # H-8
        return self._end_turn(fields, events)  # H-6: a step ends the turn

    def _seated(
        self,
        seats: tuple[Figure, ...],
        seat: int,
        charisma: int,
        endurance: int,
        cell: Cell | None,
        index: int,
    ) -> tuple[Figure, ...]:
        """``seats`` with ``seat``'s figure now ``Figure(charisma, endurance, cell)``;
        ``index`` is the cell's index in the layout, -1 for none.

        Figures are immutable values of a small set (characteristics 0 to 9, a cell of
        the layout or none), so each is made once and shared, like the events; so is a
        solo game's one-seat tuple.
        """
        key = (index << 10) | (charisma << 5) | endurance
        made = self._figures.get(key)
        if made is None:
            figure = Figure(charisma, endurance, cell)
            made = self._figures[key] = (figure, (figure,))
        if self._solo:
            return made[1]
        return (*seats[:seat], made[0], *seats[seat + 1 :])

    def _moved(
        self, seats: tuple[Figure, ...], seat: int, cell: Cell, index: int
    ) -> tuple[Figure, ...]:
        """``seats`` with ``seat``'s figure moved to ``cell``, of index ``index`` (as
        _seated, inlined)."""
        figure = seats[seat]
        charisma, endurance = figure.charisma, figure.endurance
        made = self._figures.get((index << 10) | (charisma << 5) | endurance)
        if made is None:
            return self._seated(seats, seat, charisma, endurance, cell, index)
        if self._solo:
            return made[1]
        return (*seats[:seat], made[0], *seats[seat + 1 :])

    def _meet(
        self, fields: Fields, seat: int, cell: Cell, card: Card, events: Events
    ) -> HaydesState:
        creature = self._creatures[card.index]
        assert creature is not None
        events.append(EncounterBegan(seat, cell, card, creature.name))
        fields["phase"] = _ENCOUNTER
        # The choices are known already: the new state's legal actions are filled in.
        fields["_memo"] = {self._legal_key: self._choices[card.index]} if self._prefill else {}
        state: HaydesState = _new(HaydesState)  # _finish, inlined
        _set(state, "__dict__", fields)
        return state

    def _rolled(
        self, fields: Fields, chosen: Characteristic, total: int, events: Events
    ) -> HaydesState:
        """The 2D6 roll of an encounter faced with ``chosen`` came out ``total``.
        ``fields`` are those of the state waiting for the roll (see _working): every path
        below sets its ``phase`` and ``chosen``."""
        seat: int = fields["current"]
        seats: tuple[Figure, ...] = fields["seats"]
        figure = seats[seat]
        cell = figure.cell
        assert cell is not None
        i = self._index[cell]
        card: Card = fields["_up"][i]  # the creature's card the figure stands on
        creature = self._creatures[card.index]
        assert creature is not None
        charisma, endurance = figure.charisma, figure.endurance
        on_charisma = chosen is _CHARISMA
        value = charisma if on_charisma else endurance
        modifier = creature.modifier
        overcome = self.overcomes(creature, value, total)  # H-8
        after = self.characteristic_after(creature, value, overcome)  # H-8
        interned = self._interned
        key: tuple[Any, ...] = (Rolled, seat, on_charisma, total, modifier, value)
        events.append(
            interned.get(key)
            or interned.setdefault(key, Rolled(seat, chosen, total, modifier, value, overcome))
        )
        key = (Lowered, seat, on_charisma, value, after)
        events.append(
            interned.get(key) or interned.setdefault(key, Lowered(seat, chosen, value, after))
        )
        if on_charisma:
            charisma = after
        else:
            endurance = after
        fields["chosen"] = None
        stacked = fields["stacked_rolls"]
        if stacked:
            fields["stacked_rolls"] = stacked[1:]
        if overcome:
            # H-8: the creature is gone, its card plain ground; everyone held there is freed.
            events.append(Overcame(seat, cell, card))
            fields["overcome"] = fields["overcome"] | {cell}
            if not self._solo:
                freed = tuple(s for s, f in enumerate(seats) if s != seat and f.cell == cell)
                if freed:
                    events.append(Released(freed, cell))
        if after == 0:
            # H-11: out of the game, figure removed at once, turn ends.
            events.append(Trapped(seat, chosen))
            seats = fields["seats"] = self._seated(seats, seat, charisma, endurance, None, -1)
            if all(f.cell is None for f in seats):
                events.append(AllTrapped())  # H-11: nobody left, nobody wins
                fields["phase"] = _OVER
                fields["ending"] = Ending.TRAPPED
                return _finish(fields)
            return self._end_turn(fields, events)
        fields["seats"] = self._seated(seats, seat, charisma, endurance, cell, i)
        if overcome:
            # H-8: move on or end, even after a wrong guess.
            return self._turn(fields, i, fields["_up"])
        key = (Held, seat, cell)
        events.append(interned.get(key) or interned.setdefault(key, Held(seat, cell)))
        return self._end_turn(fields, events)  # H-8: held there, the turn ends

    def _end_turn(self, fields: Fields, events: Events) -> HaydesState:
        """End the turn (H-12, H-13, H-5)."""
        seat: int = fields["current"]
        events.append(self._turn_ended[seat])
        if fields["shown"]:
            self._replace_cards(fields, events)  # H-12
        seats: tuple[Figure, ...] = fields["seats"]
        following = self.next_seat(seat, fields["first"], tuple(f.cell is not None for f in seats))
        assert following is not None  # the last player out ends the game before this
        nxt, new_round = following
        round_: int = fields["round"]
        if new_round:
            limit = self._max_rounds
            if limit is not None and round_ >= limit:
                events.append(TimeUp(round_))  # H-13
                fields["phase"] = _OVER
                fields["ending"] = Ending.TIME_UP
                return _finish(fields)
            fields["round"] = round_ + 1
        fields["current"] = nxt
        return self._begin_turn(fields, events)

    def _replace_cards(self, fields: Fields, events: Events) -> None:
        """H-12: replace every face-up card but the Black Joker and those with a figure.

        Reads the state as ``fields`` leave it, and writes the result into ``fields``.
        """
        shown: tuple[Cell, ...] = fields["shown"]
        occupied = list(map(_CELL_OF, fields["seats"]))
        keep: list[Cell] = []
        targets: list[int] = []
        index = self._index
        up: dict[int, Card] = fields["_up"]
        for c in shown:
            i = index[c]
            if self.stays_face_up(c, up[i], c in occupied):
                keep.append(c)
            else:
                targets.append(i)
        if not targets:
            return
        targets.sort()  # dealing order: by y, then x
        # Working copies of the rules' form of the by-cell fields (see _state).
        face_up = up.copy()
        cells = self._cells
        discarded: list[Card] = []
        gone: list[Card] = []
        removed_at: dict[int, Card] = {}
        overcome: frozenset[Cell] = fields["overcome"]
        joker: int | None = None
        # Discarding comes before dealing.
        for i in targets:
            card = face_up[i]
            if card.index == _RED_JOKER_INDEX:
                joker = i  # H-10: it goes back in among the new cards
            elif overcome and cells[i] in overcome:
                gone.append(card)  # an overcome creature's card leaves the game
                removed_at[i] = card
            else:
                discarded.append(card)
        replaced = tuple(map(cells.__getitem__, targets))
        if overcome:
            fields["overcome"] = overcome.difference(replaced)
        events.append(CardsReplaced(replaced, tuple(discarded), tuple(gone)))
        discard: tuple[Card, ...] = fields["discard"]
        if discarded:
            discard = fields["discard"] = (*discard, *discarded)
        if gone:
            fields["removed"] = (*fields["removed"], *gone)
        left: int = fields["replacement_left"]
        if joker is None and left >= len(targets):
            # The common case: the Replacement deck has enough cards, the new face-down
            # cards all join its pool.
            # Only the parts of the pools by cell holding a new card are copied.
            pool = len(fields["beliefs"][0].unseen) - 1
            parts = list(fields["_pools"])
            changed: dict[int, list[int]] = {}
            for i in targets:
                k = i >> POOL_SHIFT
                part = changed.get(k)
                if part is None:
                    part = changed[k] = list(parts[k])
                part[i & POOL_MASK] = pool
                del face_up[i]
            for k, part in changed.items():
                parts[k] = tuple(part)
            pools = tuple(parts)
            fields["replacement_left"] = left - len(targets)
        else:
            pool_of = flat_pools(fields["_pools"])
            self._deal(fields, targets, joker, removed_at, face_up, pool_of, events)
            pools = pool_parts(pool_of)
        _cells_changed(fields, face_up, pools)
        fields["shown"] = tuple(keep)

    def _deal(
        self,
        fields: Fields,
        targets: list[int],
        joker: int | None,
        removed_at: dict[int, Card],
        face_up: dict[int, Card],
        pool_of: list[int],
        events: Events,
    ) -> None:
        """H-12's deal when the Replacement deck may run out, or H-10's joker goes back in.

        ``removed_at`` holds, by cell, the old cards removed from the game this turn
        (overcome creatures). When a card is needed and the Replacement deck and the
        discard pile are both empty, H-12 turns the cell's old card face down where it
        lies, a card everyone knows. If that card was removed from the game this turn, it
        is the one. Otherwise it went to the discard pile, which has been shuffled and
        dealt out in this very deal, so it lies face down on another cell already; the
        card turned face down is then one removed from the game this turn from a cell
        that did get a new card, the first in dealing order. There always is one (see
        the package docstring), so every cell of Haydes keeps a card.
        """
        cells = self._cells
        pile = list(fields["discard"])
        dealer = Dealer(fields["beliefs"], fields["replacement_left"], pile)
        removed = list(fields["removed"])
        mixes: list[Mix] = []
        dealt: list[int] = []
        spares: list[Card] = []
        starved = False

        def turn_face_down(i: int) -> None:
            nonlocal starved
            if not starved:
                # From now on the piles stay empty: every cell still waiting is turned
                # face down, and the cards removed this turn from cells that did get a
                # new card are the spares (see _no_card).
                starved = True
                spares.extend(removed_at[j] for j in dealt if j in removed_at)
            card = removed_at.get(i)
            if card is None:
                card = spares.pop(0)
            removed.remove(card)
            events.append(TurnedFaceDown(cells[i], card))
            mixes.append(Mix((cells[i],), (card,)))
            dealer.add_mix([])
            pool_of[i] = MIXED
            del face_up[i]

        if joker is None:
            for i in targets:
                pool = dealer.take()
                if pool is None:
                    turn_face_down(i)
                else:
                    dealt.append(i)
                    pool_of[i] = pool
                    del face_up[i]
        else:
            # H-10: the joker is shuffled in among the new cards, so it lies under one of
            # the replaced cells, nobody knows which: those cells become one mix.
            counts: list[int] = []
            mixed = [joker]
            for i in targets:
                if i == joker:
                    continue
                pool = dealer.take()
                if pool is None:
                    turn_face_down(i)
                    continue
                dealt.append(i)
                counts.extend([0] * (pool + 1 - len(counts)))
                counts[pool] += 1
                mixed.append(i)
            mixed.sort()
            for i in mixed:
                pool_of[i] = MIXED
                del face_up[i]
            mixes.append(Mix(tuple(cells[i] for i in mixed), (_CARDS[_RED_JOKER_INDEX],)))
            dealer.add_mix(counts)
        for size in dealer.reshuffles:
            events.append(ReplacementReshuffled(size))
        if joker is not None:
            events.append(JokerShuffledIn(mixes[-1].cells))
        fields["beliefs"] = dealer.beliefs
        fields["replacement_left"] = dealer.left
        fields["discard"] = tuple(pile)
        fields["removed"] = tuple(removed)
        fields["mixes"] = (*fields["mixes"], *mixes)

    # ------------------------------------------------------- the rest
    def outcome(self, state: HaydesState) -> Outcome | None:
        """``escaped`` (return 1 for the winner, 0 for the others), ``trapped`` (everyone
        out) or ``time-up`` (the round limit): no winner, all 0."""
        if state.ending is None:
            return None
        n = self.num_players
        if state.ending is Ending.ESCAPED:
            assert state.winner is not None
            returns = tuple(1.0 if s == state.winner else 0.0 for s in range(n))
            return Outcome(label="escaped", returns=returns, winners=(state.winner,))
        return Outcome(label=state.ending.value, returns=(0.0,) * n)

    def observe(self, state: HaydesState, player: int) -> HaydesObservation:
        """What ``player`` knows: everything but the generator, the stacks and the order of
        the unseen cards. Face-down cells show where their card came from, never the card."""
        self.check_player(player)
        return HaydesObservation(
            player=player, phase=state.phase, seats=state.seats, current=state.current,
            first=state.first, round=state.round, layout=state.layout,
            face_up=state.face_up, pool_of=state.pool_of, shown=state.shown, mixes=state.mixes,
            beliefs=unstacked_beliefs(state.beliefs), replacement_left=state.replacement_left,
            discard=state.discard, removed=state.removed, overcome=state.overcome,
            aim=state.aim, chosen=state.chosen, ending=state.ending, winner=state.winner,
            events=state.events,
        )  # fmt: skip

    def determinize(self, state: HaydesState, player: int, seed: int) -> HaydesState:
        """The same position with the stacks forgotten and a fresh generator.

        This is the exact posterior: the state keeps no card identity that the players do
        not know (the lazy deal), so forgetting the stacked orders and the generator is
        all there is to redraw; every face-down card, the Red Joker's cell among its
        mix, and the Replacement deck's order are then drawn afresh as they are turned.
        """
        self.check_player(player)
        return _evolve(
            state,
            beliefs=unstacked_beliefs(state.beliefs),
            stacked_first=None,
            stacked_rolls=(),
            rng=rng_from_seed(seed),
        )

    def sample_state(
        self,
        observation: HaydesObservation,
        player: int,
        seed: int,
        *,
        explicit_chance: bool = False,
    ) -> HaydesState:
        """The state of ``observation`` with a fresh generator: the exact posterior, as
        :meth:`determinize` (see :func:`~cardcrawl.haydes.haydes_state_from_observation`)."""
        self.check_player(player)
        return haydes_state_from_observation(observation, seed, explicit_chance=explicit_chance)

    def card_census(self, state: HaydesState) -> Mapping[str, tuple[Card, ...]]:
        """All 210 cards (the 209 of Build and Replacement, and the Black Joker) by where
        they are. ``unseen`` holds the cards not seen yet, face down or in the Replacement
        deck, as the multisets of their pools (the known cards of mixes included)."""
        unseen: list[Card] = []
        for deck in state.beliefs[0].unseen:
            unseen.extend(deck.cards)
        for mix in state.mixes:
            unseen.extend(mix.known)
        return {
            "face_up": tuple(c for c in state.face_up if c is not None),
            "unseen": tuple(unseen),
            "discard": state.discard,
            "removed": state.removed,
        }

    def render(self, state: HaydesState) -> str:
        """The state as a text map with its players and piles (see
        :func:`cardcrawl.haydes.render`)."""
        return render(state)

    def parse_action(self, text: str) -> Action:
        """The action named by ``text`` (``"higher 1,0"``, ``"step 0,1"``, ``"end"``,
        ``"charisma"``, ``"tuybe lower 0,2"``, ``"reveal QS"``, ``"roll 7"``, ``"first 1"``)."""
        return parse_action(text)

    def state_problems(self, state: HaydesState) -> list[str]:
        """Every invariant of Escape from Haydes that ``state`` breaks (see
        :meth:`cardcrawl.GameBase.state_problems`): every card exactly once, pools and
        mixes that add up, figures on face-up cards with characteristics in range, and
        phases and pending choices that agree.

        Examples:
            >>> import attrs, cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes")
            >>> state = game.initial_state(seed=1)
            >>> game.state_problems(attrs.evolve(state, round=-1))
            ['the round is a count from 0 to 999,999,999']
        """
        if not state.beliefs:
            # The census reads the unseen cards from the first belief.
            return ["there must be at least one belief about the unseen cards"]
        problems = self.census_problems(state, self._all_cards)
        # H-5: before the first player is drawn no one is current (-1); after, a seat is.
        for name in ("current", "first"):
            value = getattr(state, name)
            if not -1 <= value < self.num_players:
                problems.append(f"{name} is -1 or a number from 0 to {self.num_players - 1}")
        problems.extend(self._inconsistencies(state))
        return problems

    def _inconsistencies(self, state: HaydesState) -> list[str]:
        problems: list[str] = []
        n = len(self._cells)
        if state.layout != self._cells:
            return ["the layout is not this game's"]
        if len(state.face_up) != n or len(state.pool_of) != n:
            return ["face_up and pool_of need one entry per cell of the layout"]
        if state.face_up[self._bj] != Card.BLACK_JOKER:
            problems.append("the Black Joker is not face up at (0, 0)")
        if len(state.seats) != self.num_players:
            problems.append(f"there must be {self.num_players} seats")
        pools = len(state.beliefs[0].unseen) if state.beliefs else 0
        for i, (card, pool) in enumerate(zip(state.face_up, state.pool_of, strict=True)):
            if (card is None) != (pool != FACE_UP) or not MIXED <= pool < pools:
                problems.append(f"cell {cell_text(self._cells[i])} has a bad face-up card or pool")
                break
        up_cells = {c for c, card in zip(self._cells, state.face_up, strict=True) if card}
        if set(state.shown) != up_cells - {BLACK_JOKER_CELL} or len(set(state.shown)) != len(
            state.shown
        ):
            problems.append("shown must list each face-up cell but the Black Joker's once")
        mixed_cells = [c for mix in state.mixes for c in mix.cells]
        expected = [c for c, p in zip(self._cells, state.pool_of, strict=True) if p == MIXED]
        if sorted(mixed_cells) != sorted(expected):
            problems.append("the mixes' cells are not the cells marked as mixed")
        if not state.beliefs or any(b.weight < 1 for b in state.beliefs):
            problems.append("beliefs need positive weights")
        plain = Counter(p for p in state.pool_of if p >= 0)
        unions = {tuple(sorted(c for d in b.unseen for c in d.cards)) for b in state.beliefs}
        if len(unions) > 1:
            problems.append("the beliefs disagree about which cards are unseen")
        for b in state.beliefs:
            if len(b.unseen) != pools or len(b.mixed) != len(state.mixes):
                problems.append("every belief needs one deck per pool and one row per mix")
                break
            for m, (mix, row) in enumerate(zip(state.mixes, b.mixed, strict=True)):
                if len(row) != pools or min(row, default=0) < 0:
                    problems.append(f"mix {m} has a bad row of counts")
                elif sum(row) + len(mix.known) != len(mix.cells):
                    problems.append(f"mix {m} counts do not match its cells")
            for p in range(pools):
                want = plain[p] + sum(row[p] for row in b.mixed if len(row) == pools)
                if p == pools - 1:
                    want += state.replacement_left
                if len(b.unseen[p]) != want:
                    problems.append(f"pool {p} holds {len(b.unseen[p])} cards, not {want}")
                    break
        if pools < 2 or state.replacement_left < 0:
            problems.append("there must be the Build pool and a Replacement pool")
        for s, f in enumerate(state.seats):
            top = self.options.max_characteristic
            if not (0 <= f.charisma <= top and 0 <= f.endurance <= top):
                problems.append(f"seat {s} has characteristics out of 0..{top}")
            if f.cell is not None:
                if f.cell not in self._index or state.face_up[self._index[f.cell]] is None:
                    problems.append(f"seat {s}'s figure is not on a face-up card")
                if min(f.charisma, f.endurance) == 0:
                    problems.append(f"seat {s} is in the game with a characteristic at 0")
        for cell in state.overcome:
            card = state.face_up[self._index[cell]] if cell in self._index else None
            if card is None or self._creatures[card.index] is None:
                problems.append(f"overcome cell {cell_text(cell)} holds no face-up creature")
        if (state.aim is not None) != (state.phase is _REVEAL):
            problems.append("a pending aim must exist exactly in phase reveal")
        if (state.chosen is not None) != (state.phase is _ROLL):
            problems.append("a chosen characteristic must exist exactly in phase roll")
        if (state.ending is not None) != (state.phase is _OVER):
            problems.append("an ending must be set exactly when the phase is over")
        if (state.winner is not None) != (state.ending is Ending.ESCAPED):
            problems.append("a winner must be set exactly when someone escaped")
        elif state.winner is not None and not self._on_red_joker(state, state.winner):
            problems.append("the winner must be a seat whose figure stands on the Red Joker")
        if state.phase is _FIRST and any(f.cell != BLACK_JOKER_CELL for f in state.seats):
            # H-5: every figure starts on the Black Joker, and the first player is drawn
            # before anyone moves.
            problems.append("before the first player is drawn, every figure is on the Black Joker")
        if state.phase not in (_FIRST, _OVER) and not (
            0 <= state.current < len(state.seats) and state.seats[state.current].cell is not None
        ):
            problems.append("the player to move must be a seat still in the game")
        if not 0 <= state.rng < 1 << 64:
            problems.append("rng must be an integer from 0 to 2**64 - 1")
        if any(r not in self._rolls for r in state.stacked_rolls):
            problems.append(f"stacked rolls are totals among {sorted(self._rolls)}")
        if not 0 <= state.round <= MAX_COUNT:
            problems.append(f"the round is a count from 0 to {MAX_COUNT:,}")
        if state.stacked_first is not None and not 0 <= state.stacked_first < len(state.seats):
            problems.append("a stacked first player must be a seat of the game")
        problems.extend(self._pending_problems(state))
        return problems

    def _on_red_joker(self, state: HaydesState, seat: int) -> bool:
        """Whether ``seat`` is a seat of the game whose figure stands on the face-up Red
        Joker, as the winner's does: the escape moves the figure onto it (H-9)."""
        if not 0 <= seat < len(state.seats):
            return False
        i = self._index.get(state.seats[seat].cell)  # type: ignore[arg-type]
        return i is not None and state.face_up[i] is Card.RED_JOKER

    def _pending_problems(self, state: HaydesState) -> list[str]:
        """What a state waiting on a reveal, an encounter or a roll needs (H-6 to H-8):
        the aimed cell face down in the layout, or a creature not overcome under the
        figure of the player to move."""
        phase = state.phase
        if phase not in (_REVEAL, _ENCOUNTER, _ROLL):
            return []
        if not 0 <= state.current < len(state.seats):
            return []  # reported already: the player to move is no seat
        figure_cell = state.seats[state.current].cell
        if figure_cell is None or figure_cell not in self._index:
            return []  # reported already: the figure is not on a face-up card
        if phase is _REVEAL:
            aim = state.aim
            if aim is None:
                return []  # reported already
            i = self._index.get(aim.cell)
            if i is None or state.face_up[i] is not None:
                return [f"the card aimed at, {aim.cell}, is not face down in the layout"]
            reach = self._jumps if aim.tuybe else self._adj
            if i not in reach[self._index[figure_cell]]:
                return [f"the card aimed at, {aim.cell}, is not one a move can aim at"]
            return []
        card = state.face_up[self._index[figure_cell]]
        creature = None if card is None else self._creatures[card.index]
        if creature is None or figure_cell in state.overcome:
            return ["an encounter needs a creature not yet overcome under the figure to move"]
        if phase is _ROLL and state.chosen not in creature.allowed:
            return ["the characteristic chosen is not one this creature may be faced with"]
        return []


def _stacked_rolls(value: Any) -> tuple[int, ...]:
    try:
        rolls = tuple(value)
    except TypeError:
        raise StackError(f"stack['rolls'] is a sequence of 2D6 totals, not {value!r}") from None
    for r in rolls:
        if not isinstance(r, int) or isinstance(r, bool) or not 2 <= r <= 12:
            raise StackError(f"stack['rolls'] holds 2D6 totals from 2 to 12, not {r!r}")
    return rolls
