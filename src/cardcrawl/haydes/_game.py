"""Escape from Haydes as a :class:`~cardcrawl.GameBase`: its hooks, setup and checks.

The rules themselves are stated once, in :mod:`cardcrawl.haydes._play`, over a working
position (:mod:`cardcrawl.haydes._position`); the game binds its hooks into them when
it is built, and its ``step`` and ``initial_state`` thaw a state, let the rules play
and freeze the result. The comments cite the rulings (``H-x``) of the project's
normative reading, RULINGS.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cardcrawl.core._engine import GameBase, events_of_log, keep_position, take_position
from cardcrawl.core._notation import MAX_COUNT
from cardcrawl.core._protocol import CHANCE, TERMINAL, Outcome
from cardcrawl.core._random import rng_from_seed
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
from cardcrawl.haydes._creatures import Creature, creature_for
from cardcrawl.haydes._notation import HaydesNotation
from cardcrawl.haydes._play import Rules
from cardcrawl.haydes._position import Position, cards_by_cell, freeze, rethaw, thaw
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
    Belief,
    Ending,
    Figure,
    HaydesObservation,
    HaydesOptions,
    HaydesState,
    Phase,
    setup_cards,
    unstacked_beliefs,
)
from cardcrawl.kit._cards import Card
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


# The public step's frame: functions of the module rather than methods, so that the
# compiled build calls the rules and the position's functions in them as C (see
# _game.pxd), where a method of the game's class, a Python class that variants
# subclass, would call them through Python attribute look-ups.


def advance(game: EscapeFromHaydes, state: HaydesState, action: Action) -> HaydesState:
    """``game.step(state, action)`` once ``action`` is checked: the working position of
    ``state`` played by the rules and frozen into the new state.

    The position is the one ``state`` was frozen from, if ``game`` still keeps it (see
    :func:`~cardcrawl.core._engine.keep_position`) and no other step has taken it over:
    made the working position of ``state`` again, without reading the state afresh.
    Else the state is thawed.
    """
    rules = game._rules
    pos = take_position(rules.spare, state._memo)
    if pos is None:
        pos = thaw(state, rules.index, [])
    else:
        rethaw(pos, state, [])
    phase = pos.phase
    if phase is _TURN or phase is _ENCOUNTER:
        rules.play(pos, rules.code_of(action))
    else:
        rules.apply(pos, action)
        rules.settle(pos)
    return frozen(game, rules, pos, True)


def frozen(game: EscapeFromHaydes, rules: Rules, pos: Position, keep: bool) -> HaydesState:
    """The state of ``pos``, its legal actions known already; with ``keep`` (the public
    step's own positions, which nothing changes afterwards), ``pos`` is kept for the
    next step from the state (see :func:`advance`)."""
    phase = pos.phase
    if phase is _TURN or phase is _ENCOUNTER:
        legal = rules.legal_entry(pos.at[pos.current], phase, pos._card_at)[0]
        state = freeze(pos, rules.legal_key, legal)
        if keep:
            # Without what the next step makes afresh anyway: this step's events.
            pos.events = None
            keep_position(rules.spare, state._memo, pos)
        return state
    return freeze(pos, rules.legal_key, None)


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
    notation_format: ClassVar[Any] = HaydesNotation()  # the position notation's hook

    options: HaydesOptions

    def __init__(self, options: Any = None, *, name: str | None = None) -> None:
        super().__init__(options, name=name)
        opts: HaydesOptions = self._options
        # The rules, with this game's hooks bound once: every path plays through them.
        rules = self._rules = Rules(self)
        self._cells = rules.cells
        self._index = rules.index
        self._bj = rules.index[BLACK_JOKER_CELL]
        self._build_cards, self._replacement_cards = setup_cards(opts.deck_count)
        self._all_cards = Counter((*self._build_cards, *self._replacement_cards, Card.BLACK_JOKER))
        # The setup's values that no stack changes, made once (H-2 to H-5).
        n = len(self._cells)
        face_up: list[Card | None] = [None] * n
        face_up[self._bj] = Card.BLACK_JOKER
        pool_of = [0] * n
        pool_of[self._bj] = FACE_UP
        self._setup_face_up = tuple(face_up)
        self._setup_pool_of = tuple(pool_of)
        self._setup_seats = tuple(Figure(c, e, BLACK_JOKER_CELL) for c, e in opts.character_splits)
        self._build_deck = Deck((), self._build_cards)
        self._replacement_deck = Deck((), self._replacement_cards)
        # The setup with nothing stacked, shared by every new game; its cards by cell are
        # read into the rules' form once, here (see cardcrawl.haydes._state).
        unstacked = (Belief(1, (self._build_deck, self._replacement_deck), ()),)
        self._unstacked_setup = self._setup(0, False, unstacked, None, ())
        _ = self._unstacked_setup._up, self._unstacked_setup._pools
        # Its working position, thawed once: a new game starts from a copy (see
        # _started); the other keeps its pools' unseen cards as lists, as a rollout does.
        self._setup_position = thaw(self._unstacked_setup, self._index)
        self._setup_listed = self._setup_position.copy()
        self._setup_listed.listed()

    @property
    def num_players(self) -> int:
        """1 to 4, as the ``players`` option says."""
        return int(self._options.players)

    # ------------------------------------------------------------- rules
    # The public hooks. Each decides one rule of the rulebook, cites its ruling and is
    # the only place that rule is decided: the rules (cardcrawl.haydes._play), and so
    # every path that plays, and the pictures, the text map and the bots all ask it. A
    # variant overrides the hooks it changes, in a subclass.
    #
    # The rules bind the hooks once, when the game is built: the hooks of a card alone
    # (card_value, creature), of a cell of the layout alone (touching_cells), the dice
    # (roll_weights) and those of a few small values (guess_is_correct, is_escape,
    # overcomes, characteristic_after, next_seat, stays_face_up: for every value the
    # rules can give them) are asked then, and their answers kept in tables. A hook is
    # given plain values, never the state or the rules' working position, and must
    # answer from them alone, the same way every time.

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
        does, and is never asked about); every other one is replaced. Asked once for
        every cell, card and ``occupied`` when the game is built. A variant may keep
        more cards face up, but a card with a figure on it must stay: a step whose end
        of turn would replace one is refused with a
        :class:`~cardcrawl.errors.HookError`, the state stepped from unchanged.

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
            return self._replace_state(
                self._unstacked_setup, rng=rng, explicit_chance=explicit_chance
            )
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
    # Every rule is stated once, in cardcrawl.haydes._play.Rules, over a working position
    # (cardcrawl.haydes._position): the engine's paths below thaw a state, let the rules
    # play, and freeze the result once.
    def _begin(
        self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]
    ) -> HaydesState:
        return self._frozen(self._started(rng, explicit_chance, stack, []), keep=True)

    def _started(
        self,
        rng: int,
        explicit_chance: bool,
        stack: Mapping[str, Sequence[Any]],
        events: list[Any] | None,
        listed: bool = False,
    ) -> Position:
        """The position ``initial_state`` freezes: the setup, its chance settled, its
        events appended to ``events`` (if a list), its counters counted from 0; with
        ``listed``, its unseen cards kept as lists (see ``Position.listed``)."""
        if stack:
            pos = thaw(self._new_state(rng, explicit_chance, stack), self._index, events)
        else:
            # The usual case: the setup made once in __init__ (what _new_state copies,
            # with this generator), as thawed there.
            pos = (self._setup_listed if listed else self._setup_position).copy()
            pos.events = events
            pos.rng = rng
            pos.explicit_chance = explicit_chance
        self._rules.settle(pos)
        return pos

    # The engine's step, once the action is checked, is the module's step frame itself
    # (a function, bound as a method: no call more at every step).
    _advance = advance

    def _apply(self, state: HaydesState, action: Action, events: list[Any]) -> HaydesState:
        # One rule step, its chance left unsettled; the engine's own _advance and _begin,
        # which call this, are overridden above.
        log: list[Any] = []
        pos = thaw(state, self._index, log)
        self._rules.apply(pos, action)
        events.extend(events_of_log(log))
        return freeze(pos, self._legal_key, None)

    def _frozen(self, pos: Position, keep: bool = False) -> HaydesState:
        """The state of ``pos``, its legal actions known already; with ``keep`` (the
        public step's own positions, which nothing changes afterwards), ``pos`` is kept
        for the next step from the state (see :func:`advance`)."""
        return frozen(self, self._rules, pos, keep)

    def _to_move(self, state: HaydesState) -> int:
        # Identity tests: hashing an enum member is a Python-level call, and this is hot.
        phase = state.phase
        if phase is _TURN or phase is _ENCOUNTER:
            return state.current
        return TERMINAL if phase is _OVER else CHANCE

    def _decisions(self, state: HaydesState) -> tuple[Action, ...]:
        cell = state.seats[state.current].cell
        return self._rules.legal_at(self._index[cell], state.phase, cards_by_cell(state))  # type: ignore[index]

    def _chances(self, state: HaydesState) -> tuple[tuple[Action, int], ...]:
        return self._rules.chances(state)

    def _sample(self, state: HaydesState, rng: int) -> tuple[Action, int]:
        pos = thaw(state, self._index)
        pos.rng = rng
        outcome = self._rules.sample(pos)
        return outcome, pos.rng

    def is_terminal(self, state: HaydesState) -> bool:
        """True once the game is over."""
        if not isinstance(state, HaydesState):
            raise self._not_a_state(state)
        return state.phase is _OVER

    def _describe(self, state: HaydesState) -> str:
        phase = state.phase
        if phase is _TURN:
            return (
                f"player {state.current} to move (higher X,Y / lower X,Y / step X,Y"
                f"{' / tuybe higher X,Y' if self._rules.tuybe else ''}) or end the turn (end)"
            )
        if phase is _ENCOUNTER:
            return f"player {state.current} to face the creature (charisma / endurance)"
        if phase is _REVEAL:
            assert state.aim is not None
            return f"the chance turn of the card at {cell_text(state.aim.cell)}"
        if phase is _ROLL:
            return "the chance roll of 2D6"
        return "the chance draw of the first player"

    # ------------------------------------------------------- the rest
    def outcome(self, state: HaydesState) -> Outcome | None:
        """``escaped`` (return 1 for the winner, 0 for the others), ``trapped`` (everyone
        out) or ``time-up`` (the round limit): no winner, all 0."""
        # A rollout asks it of its working position, which reads as a state does.
        if not isinstance(state, (HaydesState, Position)):
            raise self._not_a_state(state)
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
        if not isinstance(state, HaydesState):
            raise self._not_a_state(state)
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
        if not isinstance(state, HaydesState):
            raise self._not_a_state(state)
        self.check_player(player)
        return self._replace_state(
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
        return render(state, self._rules.creature_of)

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
        if not isinstance(state, HaydesState):
            raise self._not_a_state(state)
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
        if state.layout != self._cells:
            return ["the layout is not this game's"]
        n = len(self._cells)
        if len(state.face_up) != n or len(state.pool_of) != n:
            return ["face_up and pool_of need one entry per cell of the layout"]
        pools = len(state.beliefs[0].unseen) if state.beliefs else 0
        return [
            *self._table_problems(state, pools),
            *self._belief_problems(state, pools),
            *self._seat_problems(state),
            *self._phase_problems(state),
            *self._count_problems(state),
            *self._pending_problems(state),
        ]

    def _table_problems(self, state: HaydesState, pools: int) -> list[str]:
        """The cards on the table: the Black Joker, one pool or card a cell, the shown
        cells and the mixes' cells (H-3, H-4)."""
        problems: list[str] = []
        if state.face_up[self._bj] != Card.BLACK_JOKER:
            problems.append("the Black Joker is not face up at (0, 0)")
        if len(state.seats) != self.num_players:
            problems.append(f"there must be {self.num_players} seats")
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
        return problems

    def _belief_problems(self, state: HaydesState, pools: int) -> list[str]:
        """The beliefs about the unseen cards: weighted, agreeing on which cards are
        unseen, and each counting the cards of every pool and mix."""
        problems: list[str] = []
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
        return problems

    def _seat_problems(self, state: HaydesState) -> list[str]:
        """The figures and what they overcame: characteristics in range, a figure in the
        game on a face-up card, an overcome cell holding a creature."""
        problems: list[str] = []
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
            if card is None or self._rules.creatures[card.index] is None:
                problems.append(f"overcome cell {cell_text(cell)} holds no face-up creature")
        return problems

    def _phase_problems(self, state: HaydesState) -> list[str]:
        """What each phase needs: a pending aim, a chosen characteristic, an ending and
        its winner, the figures before the first player is drawn, a player to move."""
        problems: list[str] = []
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
        return problems

    def _count_problems(self, state: HaydesState) -> list[str]:
        """The generator, the stacked rolls and first player, and the round count."""
        problems: list[str] = []
        if not 0 <= state.rng < 1 << 64:
            problems.append("rng must be an integer from 0 to 2**64 - 1")
        if any(r not in self._rules.rolls for r in state.stacked_rolls):
            problems.append(f"stacked rolls are totals among {sorted(self._rules.rolls)}")
        if not 0 <= state.round <= MAX_COUNT:
            problems.append(f"the round is a count from 0 to {MAX_COUNT:,}")
        if state.stacked_first is not None and not 0 <= state.stacked_first < len(state.seats):
            problems.append("a stacked first player must be a seat of the game")
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
            reach = self._rules.jumps if aim.tuybe else self._rules.adj
            if i not in reach[self._index[figure_cell]]:
                return [f"the card aimed at, {aim.cell}, is not one a move can aim at"]
            return []
        card = state.face_up[self._index[figure_cell]]
        creature = None if card is None else self._rules.creatures[card.index]
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
