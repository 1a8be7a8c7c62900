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

from cardcrawl._cards import Card, parse_cards, standard_deck
from cardcrawl._deck import Deck
from cardcrawl._engine import GameBase, replacer
from cardcrawl._errors import ParseError, PlayerError, SerializationError, StackError
from cardcrawl._grid import Cell, neighbours
from cardcrawl._protocol import CHANCE, TERMINAL, Outcome
from cardcrawl._random import rng_below, rng_from_seed
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
    TurnBegan,
    TurnedFaceDown,
    TurnEnded,
)
from cardcrawl.haydes._render import render
from cardcrawl.haydes._rules import (
    ROLL_WEIGHTS,
    card_value,
    is_escape,
    next_seat,
)
from cardcrawl.haydes._state import (
    BLACK_JOKER_CELL,
    FACE_UP,
    MIXED,
    Aim,
    Belief,
    Ending,
    Figure,
    HaydesObservation,
    HaydesOptions,
    HaydesState,
    Mix,
    Phase,
    unstacked_beliefs,
)
from cardcrawl.haydes._unseen import Dealer, apply_reveal, reveal_chances

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
# By card index: 0 for the jokers, else the rank (H-1).
_VALUES = tuple(card_value(c) for c in _CARDS)
_END = EndTurn()
# Actions are immutable values, so the ones made over and over are made once.
_REVEALS = tuple(Reveal(c) for c in _CARDS)
_ROLLS = {total: Roll(total) for total in range(2, 13)}
_ROLL_CHANCES: tuple[tuple[Action, int], ...] = tuple((_ROLLS[t], w) for t, w in ROLL_WEIGHTS)
# The 36 equally likely throws, in the order of the cumulative weights above, so that one
# uniform draw below 36 picks exactly what rng_choice_weighted over _ROLL_CHANCES would.
_THROWS = tuple(_ROLLS[t] for t, w in ROLL_WEIGHTS for _ in range(w))

Events = list[HaydesEvent]

_evolve = replacer(HaydesState)
_FIELDS = frozenset(a.name for a in attrs.fields(HaydesState) if a.init)
_new = object.__new__
_set = object.__setattr__


def _build(state: HaydesState, changes: dict[str, Any]) -> HaydesState:
    """``_evolve(state, **changes)``, about twice as fast: the hottest call of all.

    The rules gather a step's changes in a dict already, so they are not unpacked into
    keywords and back; and the new instance takes a copy of the old one's ``__dict__``
    (a C-level copy sharing its key table) instead of having the fields inserted into
    a fresh dict one by one, which is what makes the engine's replacer slower.
    """
    assert _FIELDS.issuperset(changes), f"unknown fields {set(changes) - _FIELDS}"
    fields = state.__dict__.copy()
    fields.update(changes)
    fields["_memo"] = {}
    result: HaydesState = _new(HaydesState)
    _set(result, "__dict__", fields)
    return result


# Enum members compared by identity (hashing them is a Python-level call).
_LOWER = Guess.LOWER
_CHARISMA = Characteristic.CHARISMA
_CELL_OF = operator.attrgetter("cell")
# TurnBegan events are interned up to this round only: a game without a round limit
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
    rules_version: ClassVar[str] = RULES_VERSION
    options_type: ClassVar[type[Any]] = HaydesOptions
    state_type: ClassVar[type[Any]] = HaydesState
    action_type: ClassVar[Any] = (Move, Step, Tuybe, EndTurn, Choose, FirstPlayer, Reveal, Roll)
    #: The chance sources a stack may name.
    stack_sources: ClassVar[tuple[str, ...]] = ("build", "replacement", "rolls", "first_player")
    # Every path of _apply and _new_state builds a new state (with _build, _evolve or
    # HaydesState(...)), never returning one it was given or kept: the engine may
    # finish a step's last state in place instead of copying it once more.
    _fresh_states: ClassVar[bool] = True

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
            tuple(index[n] for n in sorted(neighbours(c)) if n in index) for c in cells
        )
        self._jumps = tuple(
            tuple(
                index[(c[0] + 2 * dx, c[1] + 2 * dy)]
                # Sorted directions give the targets in sorted cell order.
                for dx, dy in ((-1, 0), (0, -1), (0, 1), (1, 0))
                if (c[0] + dx, c[1] + dy) in index and (c[0] + 2 * dx, c[1] + 2 * dy) in index
            )
            for c in cells
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
        table = opts.creature_table
        self._creatures: tuple[Creature | None, ...] = tuple(
            creature_for(table, card) for card in _CARDS
        )
        self._choices = tuple(
            () if c is None else tuple(Choose(ch) for ch in c.allowed) for c in self._creatures
        )
        self._build_cards = tuple(
            sorted(standard_deck() * (opts.deck_count // 2) + (Card.RED_JOKER,))
        )
        self._replacement_cards = tuple(sorted(standard_deck() * (opts.deck_count // 2)))
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
        # The legal actions of a turn by cell and face-down neighbours (see _decisions).
        self._turn_legal: dict[int, tuple[Action, ...]] = {}
        # Events are immutable values, and most of them recur all game long (a seat
        # announcing and moving between the same cells, the same rolls), so those are
        # made once, on first use, and shared by every state of every game played with
        # this object: a dict lookup costs a fraction of building an attrs instance.
        # Keys are the class and the values that determine the event, enum members as
        # booleans (hashing a member is a Python-level call). Only events of small sets
        # are interned, some thousands at most (Announced: seats x cells x 16 aims);
        # those of many more combinations (Revealed, CardsReplaced, EncounterBegan)
        # gain nothing from it, nor do figures, and are built every time.
        self._interned: dict[tuple[Any, ...], Any] = {}

    @property
    def num_players(self) -> int:
        """1 to 4, as the ``players`` option says."""
        return int(self._options.players)

    # ------------------------------------------------------------- setup
    def _new_state(
        self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]
    ) -> HaydesState:
        unknown = sorted(set(stack) - set(self.stack_sources))
        if unknown:
            raise StackError(
                f"Escape from Haydes has no chance source {unknown}; "
                f"a stack may name: {', '.join(self.stack_sources)}"
            )
        build = _stacked_deck("build", self._build_deck, stack.get("build", ()))
        replacement = _stacked_deck(
            "replacement", self._replacement_deck, stack.get("replacement", ())
        )
        rolls = _stacked_rolls(stack.get("rolls", ()))
        first = self._stacked_first(stack.get("first_player", ()))
        # H-4: the Black Joker face up at (0, 0), the build cards face down everywhere
        # else; with a lazy deal, each of those cells simply belongs to the Build pool.
        # H-2, H-5: every figure starts on the Black Joker.
        return HaydesState(
            phase=_FIRST, seats=self._setup_seats, current=-1, first=-1, round=0,
            layout=self._cells, face_up=self._setup_face_up, pool_of=self._setup_pool_of,
            shown=(), mixes=(),
            beliefs=(Belief(1, (build, replacement), ()),),
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
                f"stack['first_player'] is one seat from 0 to {self.num_players - 1}, not {value!r}"
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
        up = state.face_up
        if state.phase is _ENCOUNTER:
            card = up[i]
            assert card is not None
            return self._choices[card.index]
        return self._turn_legal_at(i, up)

    def _turn_legal_at(self, i: int, up: tuple[Card | None, ...]) -> tuple[Action, ...]:
        """The legal actions of a turn (H-6) from cell ``i``, with these cards face up."""
        # They depend only on the cell and on which of its touching cells (bits 0-3) and,
        # with the Tuybe, cells two away (bits 4-7) are face down: one table lookup once
        # that position has been met.
        mask = 0
        bit = 1
        for j in self._adj[i]:
            if up[j] is None:
                mask |= bit
            bit <<= 1
        if self._tuybe:
            bit = 16
            for j in self._jumps[i]:
                if up[j] is None:
                    mask |= bit
                bit <<= 1
        key = i << 8 | mask
        legal = self._turn_legal.get(key)
        if legal is None:
            legal = self._turn_legal[key] = self._turn_actions(i, up)
        return legal

    def _turn(
        self, state: HaydesState, changes: dict[str, Any], i: int, up: tuple[Card | None, ...]
    ) -> HaydesState:
        """The new state waiting for a turn's decision (H-6), the figure on cell ``i`` and
        the cards ``up``: its legal actions, known from those already, are filled in."""
        changes["phase"] = _TURN
        state = _build(state, changes)
        state._memo["legal"] = self._turn_legal_at(i, up)
        return state

    def _turn_actions(self, i: int, up: tuple[Card | None, ...]) -> tuple[Action, ...]:
        # H-6: onto a touching face-down card (announcing higher or lower), onto a touching
        # face-up card, or (the Tuybe) two cells away; or end the turn at once.
        actions: list[Action] = []
        adj = self._adj[i]
        for j in adj:
            if up[j] is None:
                actions.extend(self._moves[j])
        for j in adj:
            if up[j] is not None:
                actions.append(self._steps[j])
        if self._tuybe:
            for j in self._jumps[i]:
                if up[j] is None:
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
                return ((_ROLLS[state.stacked_rolls[0]], 1),)
            return _ROLL_CHANCES
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
            pool = state.pool_of[self._index[aim.cell]]
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
                rng, throw = rng_below(rng, 36)
                return _THROWS[throw], rng
        elif phase is _FIRST and state.stacked_first is None:
            # Equal weights: rng_choice_weighted's index is the uniform draw itself.
            rng, seat = rng_below(rng, len(self._first_chances))
            return self._first_chances[seat][0], rng
        return super()._sample(state, rng)

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
            return f"the chance turn of the card at {state.aim.cell}"
        if phase is _ROLL:
            return "the chance roll of 2D6"
        if phase is _FIRST:
            return "the chance draw of the first player"
        return "nothing: the game is over"

    def _apply(self, state: HaydesState, action: Action, events: Events) -> HaydesState:
        # Each path gathers its field changes in one dict and builds one new state at
        # the end: intermediate states would cost a copy each on the hottest path.
        phase = state.phase
        if phase is _REVEAL:
            assert isinstance(action, Reveal)
            return self._revealed(state, _CARDS[action.card.index], events)
        kind = type(action)
        if phase is _TURN:
            if kind is Move or kind is Tuybe:
                assert isinstance(action, (Move, Tuybe))
                aims = self._aims[self._index[action.cell]]
                aim = aims[(action.guess is _LOWER) + 2 * (kind is Tuybe)]
                return self._aim(state, aim, events)
            if kind is Step:
                assert isinstance(action, Step)
                return self._step(state, action.cell, events)
            return self._end_turn(state, events, {})
        if phase is _ENCOUNTER:
            assert isinstance(action, Choose)
            return _build(state, {"phase": _ROLL, "chosen": action.characteristic})
        if phase is _ROLL:
            assert isinstance(action, Roll)
            return self._rolled(state, action.total, events)
        assert isinstance(action, FirstPlayer)
        events.append(FirstPlayerDrawn(action.seat))
        changes = {"first": action.seat, "current": action.seat, "round": 1, "stacked_first": None}
        return self._begin_turn(state, events, changes)

    # ------------------------------------------------------------ turns
    def _begin_turn(
        self, state: HaydesState, events: Events, changes: dict[str, Any]
    ) -> HaydesState:
        seat: int = changes["current"]
        round_: int = changes.get("round", state.round)
        key = (TurnBegan, seat, round_)
        interned = self._interned
        event = interned.get(key)
        if event is None:
            event = TurnBegan(seat, round_)
            if round_ <= _INTERNED_ROUNDS:
                interned[key] = event
        events.append(event)
        cell = changes.get("seats", state.seats)[seat].cell
        assert cell is not None
        i = self._index[cell]
        up: tuple[Card | None, ...] = changes.get("face_up", state.face_up)
        card = up[i]
        assert card is not None
        overcome = changes.get("overcome", state.overcome)
        if self._creatures[card.index] is not None and cell not in overcome:
            # H-8: a held player faces the creature again before anything else.
            return self._meet(state, seat, cell, card, events, changes)
        return self._turn(state, changes, i, up)

    def _aim(self, state: HaydesState, aim: Aim, events: Events) -> HaydesState:
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
        return _build(state, {"phase": _REVEAL, "aim": aim})

    def _revealed(self, state: HaydesState, card: Card, events: Events) -> HaydesState:
        aim = state.aim
        assert aim is not None
        cell, guess = aim.cell, aim.guess
        index = self._index[cell]
        seat = state.current
        seats = state.seats
        source = seats[seat].cell
        assert source is not None
        up = state.face_up
        under = up[self._index[source]]
        assert under is not None
        from_value = _VALUES[under.index]
        value = _VALUES[card.index]
        # H-7 (guess_is_correct): strictly lower or strictly higher; equal is never correct.
        correct = value < from_value if guess is _LOWER else value > from_value
        events.append(Revealed(cell, card, guess, from_value, correct))
        # Working copies of the by-cell tuples: if the turn ends now, the end of turn
        # (H-12) changes them further before they are made tuples, once.
        face_up = list(up)
        face_up[index] = card
        pool_of = list(state.pool_of)
        mixes, beliefs = apply_reveal(state, index, card, pool_of)
        changes: dict[str, Any] = {
            "shown": (*state.shown, cell),
            "mixes": mixes,
            "beliefs": beliefs,
            "aim": None,
        }
        interned = self._interned
        if card.index == _RED_JOKER_INDEX:
            if is_escape(guess, from_value):
                # H-9: "lower" from a card worth 1 or more: the player escapes and wins.
                events.append(Moved(seat, source, cell))
                events.append(Escaped(seat, cell))
                return _evolve(
                    state, phase=_OVER, ending=Ending.ESCAPED, winner=seat,
                    seats=_with_cell(seats, seat, cell), face_up=tuple(face_up),
                    pool_of=tuple(pool_of), **changes,
                )  # fmt: skip
            # H-10: the figure does not move, the joker stays face up, the turn ends.
            events.append(AlmostThere(seat, cell))
            return self._end_turn(state, events, changes, face_up, pool_of)
        if aim.tuybe and not correct:
            # The Tuybe: wrong or equal, the figure stays (and meets no creature).
            return self._end_turn(state, events, changes, face_up, pool_of)
        # H-6: the figure moves onto the turned card, right or wrong.
        key = (Moved, seat, source, cell)
        events.append(interned.get(key) or interned.setdefault(key, Moved(seat, source, cell)))
        changes["seats"] = _with_cell(seats, seat, cell)
        if self._creatures[card.index] is not None:
            changes["face_up"] = tuple(face_up)
            changes["pool_of"] = tuple(pool_of)
            return self._meet(state, seat, cell, card, events, changes)  # H-7, H-8
        if correct:
            up = changes["face_up"] = tuple(face_up)
            changes["pool_of"] = tuple(pool_of)
            return self._turn(state, changes, index, up)  # H-7: move again or end the turn
        return self._end_turn(state, events, changes, face_up, pool_of)

    def _step(self, state: HaydesState, cell: Cell, events: Events) -> HaydesState:
        seat = state.current
        card = state.face_up[self._index[cell]]
        assert card is not None
        source = state.seats[seat].cell
        assert source is not None
        if card.index == _RED_JOKER_INDEX:  # pragma: no cover - never face up on a turn
            events.append(AlmostThere(seat, cell))  # H-10: any other move onto it fails
            return self._end_turn(state, events, {})
        key = (Moved, seat, source, cell)
        interned = self._interned
        events.append(interned.get(key) or interned.setdefault(key, Moved(seat, source, cell)))
        changes: dict[str, Any] = {"seats": _with_cell(state.seats, seat, cell)}
        if self._creatures[card.index] is not None and cell not in state.overcome:
            return self._meet(state, seat, cell, card, events, changes)  # H-8
        return self._end_turn(state, events, changes)  # H-6: a step ends the turn

    def _meet(
        self,
        state: HaydesState,
        seat: int,
        cell: Cell,
        card: Card,
        events: Events,
        changes: dict[str, Any],
    ) -> HaydesState:
        creature = self._creatures[card.index]
        assert creature is not None
        events.append(EncounterBegan(seat, cell, card, creature.name))
        changes["phase"] = _ENCOUNTER
        state = _build(state, changes)
        # The choices are known already: the new state's legal actions are filled in.
        state._memo["legal"] = self._choices[card.index]
        return state

    def _rolled(self, state: HaydesState, total: int, events: Events) -> HaydesState:
        seat = state.current
        seats = state.seats
        figure = seats[seat]
        cell = figure.cell
        chosen = state.chosen
        assert cell is not None
        assert chosen is not None
        i = self._index[cell]
        card = state.face_up[i]
        assert card is not None
        creature = self._creatures[card.index]
        assert creature is not None
        charisma, endurance = figure.charisma, figure.endurance
        on_charisma = chosen is _CHARISMA
        value = charisma if on_charisma else endurance
        modifier = creature.modifier
        overcome = total + modifier <= value  # H-8
        after = max(0, value - creature.cost)  # H-8: the effort costs, win or lose
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
        changes: dict[str, Any] = {"chosen": None}
        if state.stacked_rolls:
            changes["stacked_rolls"] = state.stacked_rolls[1:]
        if overcome:
            # H-8: the creature is gone, its card plain ground; everyone held there is freed.
            events.append(Overcame(seat, cell, card))
            changes["overcome"] = state.overcome | {cell}
            if not self._solo:
                freed = tuple(s for s, f in enumerate(seats) if s != seat and f.cell == cell)
                if freed:
                    events.append(Released(freed, cell))
        if after == 0:
            # H-11: out of the game, figure removed at once, turn ends.
            events.append(Trapped(seat, chosen))
            seats = _with_figure(seats, seat, Figure(charisma, endurance, None))
            changes["seats"] = seats
            if all(f.cell is None for f in seats):
                events.append(AllTrapped())  # H-11: nobody left, nobody wins
                return _evolve(state, phase=_OVER, ending=Ending.TRAPPED, **changes)
            return self._end_turn(state, events, changes)
        changes["seats"] = _with_figure(seats, seat, Figure(charisma, endurance, cell))
        if overcome:
            # H-8: move on or end, even after a wrong guess.
            return self._turn(state, changes, i, state.face_up)
        key = (Held, seat, cell)
        events.append(interned.get(key) or interned.setdefault(key, Held(seat, cell)))
        return self._end_turn(state, events, changes)  # H-8: held there, the turn ends

    def _end_turn(
        self,
        state: HaydesState,
        events: Events,
        changes: dict[str, Any],
        face_up: list[Card | None] | None = None,
        pool_of: list[int] | None = None,
    ) -> HaydesState:
        """End the turn (H-12, H-13, H-5). ``face_up`` and ``pool_of``, when given, are the
        caller's working copies of those fields, ahead of ``changes``."""
        seat = state.current
        key = (TurnEnded, seat)
        interned = self._interned
        events.append(interned.get(key) or interned.setdefault(key, TurnEnded(seat)))
        if changes.get("shown", state.shown):
            self._replace_cards(state, events, changes, face_up, pool_of)  # H-12
        elif face_up is not None and pool_of is not None:
            changes["face_up"] = tuple(face_up)
            changes["pool_of"] = tuple(pool_of)
        if self._solo:
            nxt, new_round = 0, True  # (a solo player who is out has ended the game)
        else:
            seats = changes.get("seats", state.seats)
            nxt = seat + 1 if seat + 1 < len(seats) else 0
            if seats[nxt].cell is not None:
                # The usual case, next_seat's answer at once: the next seat is in, and a
                # round begins when play comes back to the first player.
                new_round = nxt == state.first
            else:
                ins = tuple(f.cell is not None for f in seats)
                following = next_seat(seat, state.first, ins)
                assert following is not None  # the last player out ends the game before this
                nxt, new_round = following
        round_ = state.round
        if new_round:
            limit = self._max_rounds
            if limit is not None and round_ >= limit:
                events.append(TimeUp(round_))  # H-13
                return _evolve(state, phase=_OVER, ending=Ending.TIME_UP, **changes)
            round_ += 1
        changes["current"] = nxt
        changes["round"] = round_
        return self._begin_turn(state, events, changes)

    def _replace_cards(
        self,
        state: HaydesState,
        events: Events,
        changes: dict[str, Any],
        face_up: list[Card | None] | None,
        pool_of: list[int] | None,
    ) -> None:
        """H-12: replace every face-up card but the Black Joker and those with a figure.

        Reads the state as ``changes`` (and the working copies ``face_up`` and
        ``pool_of``, when given) leave it, and writes the result into ``changes``.
        """
        shown: tuple[Cell, ...] = changes.get("shown", state.shown)
        occupied = list(map(_CELL_OF, changes.get("seats", state.seats)))
        keep: list[Cell] = []
        targets: list[int] = []
        index = self._index
        for c in shown:
            if c in occupied:
                keep.append(c)
            else:
                targets.append(index[c])
        if not targets:
            if face_up is not None and pool_of is not None:
                changes["face_up"] = tuple(face_up)
                changes["pool_of"] = tuple(pool_of)
            return
        targets.sort()  # dealing order: by y, then x
        if face_up is None or pool_of is None:
            face_up = list(changes.get("face_up", state.face_up))
            pool_of = list(changes.get("pool_of", state.pool_of))
        cells = self._cells
        discarded: list[Card] = []
        gone: list[Card] = []
        overcome: frozenset[Cell] = changes.get("overcome", state.overcome)
        joker: int | None = None
        # Discarding comes before dealing.
        for i in targets:
            card = face_up[i]
            assert card is not None
            if card.index == _RED_JOKER_INDEX:
                joker = i  # H-10: it goes back in among the new cards
            elif overcome and cells[i] in overcome:
                gone.append(card)  # an overcome creature's card leaves the game
            else:
                discarded.append(card)
        replaced = tuple(map(cells.__getitem__, targets))
        if overcome:
            overcome = overcome.difference(replaced)
        events.append(CardsReplaced(replaced, tuple(discarded), tuple(gone)))
        discard = (*state.discard, *discarded) if discarded else state.discard
        removed = (*state.removed, *gone) if gone else state.removed
        beliefs: tuple[Belief, ...] = changes.get("beliefs", state.beliefs)
        left = state.replacement_left
        if joker is None and left >= len(targets):
            # The common case: the Replacement deck has enough cards, the new face-down
            # cards all join its pool.
            pool = len(beliefs[0].unseen) - 1
            for i in targets:
                pool_of[i] = pool
                face_up[i] = None
            left -= len(targets)
        else:
            up = tuple(face_up)  # the cards as they lie before the deal
            pile = list(discard)
            dealer = Dealer(beliefs, left, pile)
            extra: list[Mix] = []
            removed_list = list(removed)
            self._deal(targets, joker, up, face_up, pool_of, dealer, extra, removed_list, events)
            discard = tuple(pile)
            removed = tuple(removed_list)
            beliefs, left = dealer.beliefs, dealer.left
            changes["mixes"] = (*changes.get("mixes", state.mixes), *extra)
        changes["face_up"] = tuple(face_up)
        changes["pool_of"] = tuple(pool_of)
        changes["shown"] = tuple(keep)
        changes["beliefs"] = beliefs
        changes["replacement_left"] = left
        changes["discard"] = discard
        changes["removed"] = removed
        changes["overcome"] = overcome

    def _deal(
        self,
        targets: list[int],
        joker: int | None,
        up: tuple[Card | None, ...],
        face_up: list[Card | None],
        pool_of: list[int],
        dealer: Dealer,
        mixes: list[Mix],
        removed: list[Card],
        events: Events,
    ) -> None:
        """H-12's deal when the Replacement deck runs out, or H-10's joker goes back in."""
        cells = self._cells

        def turn_face_down(i: int) -> None:
            # H-12: Replacement deck and discard pile both empty: the old card is turned
            # face down where it lies, a card everyone knows. (Unreachable with the card
            # counts allowed: see the package docstring.)
            old = up[i]
            assert old is not None
            assert old in removed
            removed.remove(old)
            events.append(TurnedFaceDown(cells[i], old))
            mixes.append(Mix((cells[i],), (old,)))
            dealer.add_mix([])
            pool_of[i] = MIXED
            face_up[i] = None

        if joker is None:
            for i in targets:
                pool = dealer.take()
                if pool is None:
                    turn_face_down(i)
                else:
                    pool_of[i] = pool
                    face_up[i] = None
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
                counts.extend([0] * (pool + 1 - len(counts)))
                counts[pool] += 1
                mixed.append(i)
            mixed.sort()
            for i in mixed:
                pool_of[i] = MIXED
                face_up[i] = None
            mixes.append(Mix(tuple(cells[i] for i in mixed), (_CARDS[_RED_JOKER_INDEX],)))
            dealer.add_mix(counts)
        for size in dealer.reshuffles:
            events.append(ReplacementReshuffled(size))
        if joker is not None:
            events.append(JokerShuffledIn(mixes[-1].cells))

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

    def _check_player(self, player: int) -> None:
        if not isinstance(player, int) or not 0 <= player < self.num_players:
            raise PlayerError(
                f"this game of Escape from Haydes has seats 0 to {self.num_players - 1}; "
                f"not {player!r}"
            )

    def observe(self, state: HaydesState, player: int) -> HaydesObservation:
        """What ``player`` knows: everything but the generator, the stacks and the order of
        the unseen cards. Face-down cells show where their card came from, never the card."""
        self._check_player(player)
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
        self._check_player(player)
        return _evolve(
            state,
            beliefs=unstacked_beliefs(state.beliefs),
            stacked_first=None,
            stacked_rolls=(),
            rng=rng_from_seed(seed),
        )

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

    def _validate_loaded(self, state: HaydesState) -> None:
        census = Counter(c for cards in self.card_census(state).values() for c in cards)
        if census != self._all_cards:
            missing = sorted((self._all_cards - census).elements())
            extra = sorted((census - self._all_cards).elements())
            raise SerializationError(
                f"saved state does not hold each of the {sum(self._all_cards.values())} cards "
                f"once: missing {' '.join(map(str, missing)) or 'none'}, "
                f"extra {' '.join(map(str, extra)) or 'none'}"
            )
        problems = self._inconsistencies(state)
        if problems:
            raise SerializationError("saved state is inconsistent: " + "; ".join(problems))

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
                problems.append(f"cell {self._cells[i]} has a bad face-up card or pool")
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
            if not (0 <= f.charisma <= 9 and 0 <= f.endurance <= 9):
                problems.append(f"seat {s} has characteristics out of 0..9")
            if f.cell is not None:
                if f.cell not in self._index or state.face_up[self._index[f.cell]] is None:
                    problems.append(f"seat {s}'s figure is not on a face-up card")
                if min(f.charisma, f.endurance) == 0:
                    problems.append(f"seat {s} is in the game with a characteristic at 0")
        for cell in state.overcome:
            card = state.face_up[self._index[cell]] if cell in self._index else None
            if card is None or self._creatures[card.index] is None:
                problems.append(f"overcome cell {cell} holds no face-up creature")
        if (state.aim is not None) != (state.phase is _REVEAL):
            problems.append("a pending aim must exist exactly in phase reveal")
        if (state.chosen is not None) != (state.phase is _ROLL):
            problems.append("a chosen characteristic must exist exactly in phase roll")
        if (state.ending is not None) != (state.phase is _OVER):
            problems.append("an ending must be set exactly when the phase is over")
        if (state.winner is not None) != (state.ending is Ending.ESCAPED):
            problems.append("a winner must be set exactly when someone escaped")
        if state.phase not in (_FIRST, _OVER) and not (
            0 <= state.current < len(state.seats) and state.seats[state.current].cell is not None
        ):
            problems.append("the player to move must be a seat still in the game")
        if not 0 <= state.rng < 1 << 64:
            problems.append("rng must be an integer from 0 to 2**64 - 1")
        if any(not 2 <= r <= 12 for r in state.stacked_rolls):
            problems.append("stacked rolls are totals from 2 to 12")
        return problems


def _with_figure(seats: tuple[Figure, ...], seat: int, figure: Figure) -> tuple[Figure, ...]:
    return (figure,) if len(seats) == 1 else (*seats[:seat], figure, *seats[seat + 1 :])


def _with_cell(seats: tuple[Figure, ...], seat: int, cell: Cell | None) -> tuple[Figure, ...]:
    figure = seats[seat]
    return _with_figure(seats, seat, Figure(figure.charisma, figure.endurance, cell))


def _stacked_deck(name: str, deck: Deck, top: Any) -> Deck:
    """``deck`` (shuffled, nothing stacked) with the cards ``top`` names stacked first."""
    if not top:
        return deck
    cards = deck.rest
    try:
        order = parse_cards(top)
    except (ParseError, TypeError) as exc:
        raise StackError(f"stack[{name!r}]: {exc}") from None
    left = Counter(cards)
    left.subtract(order)
    bad = sorted(c for c, n in left.items() if n < 0)
    if bad:
        raise StackError(
            f"stack[{name!r}] names {', '.join(map(str, bad))} more often than the {name} deck "
            "holds it"
        )
    return Deck(order, tuple(left.elements()))


def _stacked_rolls(value: Any) -> tuple[int, ...]:
    try:
        rolls = tuple(value)
    except TypeError:
        raise StackError(f"stack['rolls'] is a sequence of 2D6 totals, not {value!r}") from None
    for r in rolls:
        if not isinstance(r, int) or isinstance(r, bool) or not 2 <= r <= 12:
            raise StackError(f"stack['rolls'] holds 2D6 totals from 2 to 12, not {r!r}")
    return rolls
