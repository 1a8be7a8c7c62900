"""The shared machinery behind every game: stepping, legality, chance and saving.

A game subclasses :class:`GameBase` and supplies a handful of small hooks (who is to move,
the legal decisions, the chance distribution, how to apply one action). Everything else,
the whole public :class:`~cardcrawl.Game` protocol, is written here once.
"""

from __future__ import annotations

import abc
import contextlib
import itertools
import operator
from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

import attrs

from cardcrawl.core._notation import NotationMixin
from cardcrawl.core._protocol import CHANCE, TERMINAL, GameState, Outcome
from cardcrawl.core._random import rng_choice_weighted
from cardcrawl.core._saving import FORMAT_VERSION, SavingMixin
from cardcrawl.core._validation import ValidationMixin
from cardcrawl.errors import (
    IllegalActionError,
    InvalidStateError,
    ParseError,
    SamplingError,
    StackError,
    short_repr,
)
from cardcrawl.kit._cards import Card

__all__ = [
    "FORMAT_VERSION",
    "GameBase",
    "MemoState",
    "events_of_log",
    "keep_position",
    "memo",
    "replacer",
    "take_position",
]

# Numbers each game object, for the key its legal actions are kept under (see __init__).
_GAME_NUMBERS = itertools.count()
#: How many working positions a game keeps for the next steps from the states it froze
#: last (see GameBase._keep_position): enough for a batch of games played in turns.
KEPT_POSITIONS = 256

S = TypeVar("S", bound=GameState)
A = TypeVar("A")
O = TypeVar("O")  # noqa: E741
T = TypeVar("T")


def replacer(cls: type[T]) -> Callable[..., T]:
    """A fast ``attrs.evolve`` for one frozen class: ``replace(obj, field=value, ...)``.

    ``step`` builds a few intermediate states per action, so this is on the hot path.
    For a frozen class without slots (the game states), the new instance's ``__dict__``
    is a C-level copy of the old one's, updated with the changes: an order of magnitude
    faster than ``attrs.evolve``. A private ``_memo`` cache is started afresh. For a
    slotted class, every field is read with one ``attrgetter`` and the class's own
    ``__init__`` runs.

    Args:
        cls: a frozen attrs class.

    Returns:
        A function of an instance and keyword changes that returns the changed copy.

    Examples:
        >>> import attrs
        >>> from cardcrawl.core._engine import replacer
        >>> @attrs.frozen
        ... class Point:
        ...     x: int
        ...     y: int
        >>> replacer(Point)(Point(1, 2), y=5)
        Point(x=1, y=5)
    """
    names = tuple(a.name for a in attrs.fields(cls) if a.init)  # type: ignore[arg-type]
    if "__dict__" in dir(cls) and "__slots__" not in vars(cls):
        known = frozenset(names)
        has_memo = "_memo" in attrs.fields_dict(cls)  # type: ignore[arg-type]
        new = object.__new__
        set_dict = object.__setattr__

        def replace_dict(obj: T, **changes: Any) -> T:
            assert known.issuperset(changes), f"unknown fields {set(changes) - known}"
            # A C-level copy of the old instance's dict (sharing its key table) is
            # cheaper than inserting every field into the new instance's empty dict.
            fields = obj.__dict__.copy()
            fields.update(changes)
            if has_memo:
                fields["_memo"] = {}
            result = new(cls)
            set_dict(result, "__dict__", fields)
            return result

        return replace_dict
    getter = operator.attrgetter(*names)
    index = {name: i for i, name in enumerate(names)}

    def replace(obj: T, **changes: Any) -> T:
        values = list(getter(obj))
        for name, value in changes.items():
            values[index[name]] = value
        return cls(*values)

    return replace


def memo(state: Any, key: str, compute: Any) -> Any:
    """Compute a derived value of an immutable state once, then reuse it.

    States keep a private ``_memo`` dict (excluded from equality, hashing and saving):
    the state itself never changes, only this cache of what can be derived from it.

    Args:
        state: an object with a ``_memo`` dict.
        key: the name of the derived value.
        compute: a function of no arguments computing it, called only on a miss.

    Returns:
        The cached value, or the newly computed one.

    Examples:
        >>> import attrs
        >>> from cardcrawl.core._engine import memo
        >>> @attrs.frozen(slots=False)
        ... class Box:
        ...     value: int
        ...     _memo: dict = attrs.field(factory=dict, init=False, eq=False, repr=False)
        >>> box, calls = Box(3), []
        >>> def square():
        ...     calls.append(1)
        ...     return box.value**2
        >>> memo(box, "square", square), memo(box, "square", square), len(calls)
        (9, 9, 1)
    """
    cache: dict[str, Any] = state._memo
    try:
        return cache[key]
    except KeyError:
        value = cache[key] = compute()
        return value


def events_of_log(log: Sequence[Any]) -> tuple[Any, ...]:
    """The events of a step's log, as a game's state makes them when they are first read.

    A game's rules may log the events that a step makes anew almost every time as a
    tuple of the event's class and its values, and the events they make whole as
    themselves. Each tuple becomes its event here, only if the events are read, so a step
    whose events nobody reads never builds them. An event is never a tuple.

    Args:
        log: events, and tuples of an event's class and its values.

    Returns:
        The events, in the order logged.

    Examples:
        >>> events_of_log(["whole", (complex, 1, 2)])
        ('whole', (1+2j))
    """
    return tuple([e[0](*e[1:]) if type(e) is tuple else e for e in log])


class MemoState:
    """A base for a game's state class that keeps a private ``_memo`` cache (see :func:`memo`).

    A pickled or deep-copied state keeps its data and starts its cache afresh: the cache
    holds only what the data gives again, and a cache made by another version of
    cardcrawl might not mean what this one expects. The state class declares ``_memo``
    itself, as an attrs field left out of ``__init__``, equality and ``repr``.

    Examples:
        >>> import copy, attrs
        >>> from cardcrawl.core._engine import MemoState, memo
        >>> @attrs.frozen(slots=False)
        ... class Box(MemoState):
        ...     value: int
        ...     _memo: dict = attrs.field(factory=dict, init=False, eq=False, repr=False)
        >>> box = Box(3)
        >>> memo(box, "square", lambda: box.value**2)
        9
        >>> copied = copy.deepcopy(box)
        >>> copied == box, copied._memo, box._memo
        (True, {}, {'square': 9})
    """

    def __getstate__(self) -> dict[str, Any]:
        fields = self.__dict__.copy()
        fields["_memo"] = {}
        return fields


class GameBase(
    NotationMixin[S, O], ValidationMixin[S], SavingMixin[S, A, O], abc.ABC, Generic[S, A, O]
):
    """The :class:`~cardcrawl.Game` protocol, implemented once on top of a few hooks.

    A game subclasses this, sets the class attributes ``game_name`` (its registry
    name), ``rules_version``, ``options_type`` (an :class:`~cardcrawl.OptionsBase`
    subclass), ``state_type`` (a frozen attrs class with the fields ``rng``,
    ``explicit_chance`` and ``events`` and a private ``_memo`` dict) and
    ``action_type`` (a class, or a tuple of classes), and implements the abstract
    methods. Everything else the protocol promises is written here once. Hooks may
    assume that the state is consistent and, for ``_apply``, that the action is legal.

    The private hooks, and the public methods built on them:

    - ``_new_state(rng, explicit_chance, stack)``: the setup, behind ``initial_state``;
    - ``_to_move(state)``: a player, ``CHANCE`` or ``TERMINAL``, behind
      ``current_player`` and ``is_terminal``;
    - ``_decisions(state)``: the legal decisions, sorted, behind ``legal_actions``,
      ``check`` and ``is_legal``;
    - ``_chances(state)``: each chance outcome with an integer weight, behind
      ``chance_outcomes`` and the draws of sampled play (``_sample`` may be overridden
      to draw faster, never differently);
    - ``_apply(state, action, events)``: one decision or chance outcome, behind ``step``;
    - ``_describe(state)``: what the state waits for, behind ``describe`` and the
      messages of :class:`~cardcrawl.IllegalActionError` (never asked once the game is
      over: ``describe`` says so itself);
    - ``state_problems(state)`` (public, optional): the rules' invariants a state
      breaks, behind ``validate`` and ``state_from_data``;
    - ``sample_state(observation, player, seed)`` (public, optional): a state drawn
      from what a seat saw, behind IS-MCTS and ``cardcrawl analyze``; without it,
      ``SamplingError``. The class attributes ``notation_format`` (the position
      notation) and ``observation_type`` are optional too.

    ``num_players``, ``outcome``, ``observe``, ``determinize``, ``card_census``,
    ``render`` and ``parse_action`` are public and abstract: each game writes its own.
    The documentation's page *Adding a new game* builds a complete toy game this way.

    What every game needs in the same form is written once for them to call
    (``core/_validation.py``): :meth:`check_player` (the seat check of ``observe`` and
    ``determinize``) and :meth:`census_problems` (the card count of ``state_problems``).
    A game that sets
    ``stack_sources`` has the names of a stack checked before ``_new_state`` runs, and
    a game that renamed a class whose instances its states hold (an event, say) lists
    the old names in ``renamed_types`` so that states saved before still load. A game's
    ``title`` names it in messages.

    Args:
        options: the game's options: an instance of ``options_type``, a mapping of
            option names to values (read with ``options_type.from_data``), or ``None``
            for the defaults, the standard rules.
        name: the registry name the game was loaded under (a variant's own name);
            ``None`` means ``game_name``. :func:`~cardcrawl.load` fills it in.

    Raises:
        OptionsError: ``options`` names an unknown option or a value out of range.

    Examples:
        The Mapless House is a ``GameBase``; :func:`~cardcrawl.load` builds it from
        options given by name, just as calling the class with a mapping does:

        >>> import cardcrawl
        >>> from cardcrawl import GameBase
        >>> game = cardcrawl.load("mapless-house", max_turns=50)
        >>> isinstance(game, GameBase), game.name, game.num_players
        (True, 'mapless-house', 1)
        >>> type(game)({"max_turns": 50}) == game
        True
        >>> type(game)({"max_turns": 0})
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: max_turns is None (no limit) or an integer >= 1, not 0

        With a stacked Narrative deck, the setup's first draw is K♠, and the game waits
        for the player to place it (``_describe``, ``_decisions``):

        >>> state = game.initial_state(seed=1, stack={"narrative": ["KS", "5C"]})
        >>> game.describe(state)
        'the player to choose where K♠ goes (place X,Y)'
        >>> [str(a) for a in game.legal_actions(state)]
        ['place -1,0', 'place 0,-1', 'place 0,1', 'place 1,0']

        ``step`` checks the action, applies it (``_apply``) and, in sampled play,
        resolves the chance draw that follows with the state's generator; the events
        of the whole step are left on the new state:

        >>> state = game.step(state, game.parse_action("place -1,0"))
        >>> [type(event).__name__ for event in state.events]
        ['CardPlaced', 'CardDrawn']
        >>> print(state.events[-1])
        You draw 5♣ from the Narrative deck.
        >>> game.is_legal(state, game.parse_action("place 1,0"))
        False
    """

    game_name: ClassVar[str]
    rules_version: ClassVar[str]
    options_type: ClassVar[type[Any]]
    state_type: ClassVar[type[Any]]
    action_type: ClassVar[Any]
    #: The game's name in messages, such as ``"The Mapless House"``; empty: its ``name``.
    title: ClassVar[str] = ""
    #: The chance sources a stack may name (``initial_state(stack=...)``), checked
    #: before ``_new_state`` runs; ``None`` for a game that reads its stacks itself.
    stack_sources: ClassVar[Collection[str] | None] = None
    #: Class names that saved states may hold from before a rename, each with the
    #: class's name now: ``state_from_data`` reads the old names as the new ones.
    renamed_types: ClassVar[Mapping[str, str]] = {}
    #: True for a game whose states are frozen attrs classes without slots and whose
    #: ``_apply`` and ``_new_state`` always return newly built states (never one they
    #: were given or kept, nor one sharing the ``__dict__`` of a state made before the
    #: step): the engine may then finish a step's last state in place.
    _fresh_states: ClassVar[bool] = False
    #: The documented rule hooks: the public methods a variant overrides to change a rule
    #: (see the hooks' reference). :func:`cardcrawl.testing.check_hooks` proves that every
    #: path that plays the game asks them.
    rule_hooks: ClassVar[tuple[str, ...]] = ()

    def __init__(self, options: Any = None, *, name: str | None = None) -> None:
        if options is None:
            options = self.options_type()
        elif not isinstance(options, self.options_type):
            options = self.options_type.from_data(options)
        self._options = options
        #: The registry name this game was loaded under (a variant's own name, if any).
        self.name: str = name if name is not None else self.game_name
        self._replace_state: Callable[..., S] = replacer(self.state_type)
        # A state's legal actions, and at a chance event its outcomes, are kept in its
        # memo under keys of this game's own: the same state asked by another game (a
        # variant whose hooks differ) finds nothing kept and works its own out.
        number = next(_GAME_NUMBERS)
        self._legal_key = f"legal#{number}"
        self._chances_key = f"chances#{number}"
        # A game whose rules run over a mutable working position keeps the last few it
        # froze, each with the memo of the state it became (see _keep_position).
        self._spare: dict[int, tuple[dict[str, Any], Any]] = {}

    @property
    def options(self) -> Any:
        """The frozen, validated options this game was loaded with."""
        return self._options

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._options!r}, name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, GameBase)
        return (other.name, other._options) == (self.name, self._options)

    def __hash__(self) -> int:
        return hash((type(self), self.name, self._options))

    def __reduce__(self) -> tuple[Any, ...]:
        # A game is its class, options and name: pickling and copying rebuild it from
        # them (its tables and per-class helpers, such as the state replacer, are not
        # data). A subclass whose constructor takes more than those overrides this.
        return (type(self)._rebuilt, (self._options, self.name))

    @classmethod
    def _rebuilt(cls, options: Any, name: str) -> Any:
        """The game ``cls(options, name=name)``: what a pickled or copied game becomes."""
        return cls(options, name=name)

    # ----------------------------------------------------------------- hooks
    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """How many players take decisions."""

    @abc.abstractmethod
    def _new_state(self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]) -> S:
        """The state at setup, possibly at a chance event (``_settle`` runs next)."""

    @abc.abstractmethod
    def _to_move(self, state: S) -> int:
        """A player number, :data:`CHANCE` or :data:`TERMINAL`."""

    @abc.abstractmethod
    def _decisions(self, state: S) -> tuple[A, ...]:
        """The legal decisions at a decision point, sorted."""

    @abc.abstractmethod
    def _chances(self, state: S) -> tuple[tuple[A, int], ...]:
        """At a chance event, each outcome with an integer weight."""

    def _kept_chances(self, state: S) -> tuple[tuple[A, int], ...]:
        """``_chances(state)``, kept with the state as its legal actions are: explicit
        play asks for them up to three times per chance event (``_settle``,
        ``chance_outcomes``, then ``check`` in ``step``)."""
        cache = state._memo  # type: ignore[attr-defined]
        key = self._chances_key
        chances: tuple[tuple[A, int], ...] | None = cache.get(key)
        if chances is None:
            chances = cache[key] = self._chances(state)
        return chances

    def _sample(self, state: S, rng: int) -> tuple[A, int]:
        """Pick a chance outcome with the generator; override only to do it faster,
        never differently."""
        chances = self._chances(state)
        rng, i = rng_choice_weighted(rng, [w for _, w in chances])
        return chances[i][0], rng

    @abc.abstractmethod
    def _apply(self, state: S, action: A, events: list[Any]) -> S:
        """Apply a legal decision or chance outcome, appending what happened to ``events``."""

    @abc.abstractmethod
    def _describe(self, state: S) -> str:
        """The decision or chance event the state waits for, in words (never at the end)."""

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abc.abstractmethod
    def observe(self, state: S, player: int) -> O:
        """What ``player`` may know of ``state``."""

    @abc.abstractmethod
    def determinize(self, state: S, player: int, seed: int) -> S:
        """A state ``player`` cannot tell from ``state``, hidden information redrawn."""

    def sample_state(
        self, observation: O, player: int, seed: int, *, explicit_chance: bool = False
    ) -> S:
        """A state drawn from what ``player`` may believe, having seen ``observation``.

        The state is one ``player`` cannot tell from the one observed
        (``observe(sample_state(o, p, seed), p) == o``), hidden information drawn with
        ``seed``: :meth:`determinize` for a bot, which is shown the observation and
        never the state. Searching bots (IS-MCTS) need it; a game overrides it, and
        the default refuses.

        Args:
            observation: ``observe(state, player)`` of some state of this game.
            player: the seat that observed it.
            seed: the generator seed of the new state (0 to 2**64 - 1).
            explicit_chance: make the new state stop at chance events.

        Raises:
            SamplingError: the game does not say how (it does not override this).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("escape-from-haydes", players=2)
            >>> state = game.initial_state(seed=4)
            >>> seen = game.observe(state, 1)
            >>> game.observe(game.sample_state(seen, 1, seed=9), 1) == seen
            True
        """
        raise SamplingError(
            f"{self.title or self.name} cannot draw a state from an observation: "
            f"{type(self).__name__} does not override sample_state"
        )

    @abc.abstractmethod
    def card_census(self, state: S) -> Mapping[str, tuple[Card, ...]]:
        """Every card of the game by where it is."""

    @abc.abstractmethod
    def render(self, state: S) -> str:
        """A readable text picture of the state."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> A:
        """The action named by ``text``."""

    # ------------------------------------------------------------ protocol
    def initial_state(
        self,
        seed: int,
        *,
        explicit_chance: bool = False,
        stack: Mapping[str, Sequence[Any]] | None = None,
    ) -> S:
        """The state before the first decision (see :class:`cardcrawl.Game`).

        Args:
            seed: the seed of the state's generator, an integer from 0 to 2**64 - 1.
            explicit_chance: stop at every chance event with more than one outcome and
                wait for the caller to choose it, instead of drawing with the generator.
            stack: the first outcomes of named chance sources (a game's
                ``stack_sources``, such as a deck's top cards), in order.

        Returns:
            In sampled play, the first state that waits for a decision (or is over); in
            explicit-chance play, possibly a state at a chance event.

        Raises:
            OptionsError: the seed is out of range.
            StackError: ``stack`` names an unknown source or cards not available.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.initial_state(seed=1, stack={"narrative": ["KS"]}).drawn
            Card.parse('KS')
            >>> game.initial_state(seed=1, stack={"deck": ["KS"]})  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.StackError: The Mapless House has no chance source ['deck']; ...
        """
        from cardcrawl.core._random import rng_from_seed

        if stack is not None and not isinstance(stack, Mapping):
            raise StackError(
                f"a stack maps chance source names to sequences of outcomes, not {stack!r}"
            )
        sources = self.stack_sources
        if stack and sources is not None:
            unknown = sorted(set(stack) - set(sources))
            if unknown:
                raise StackError(
                    f"{self.title or self.name} has no chance source {unknown}; "
                    f"a stack may name: {', '.join(sources)}"
                )
        return self._begin(rng_from_seed(seed), bool(explicit_chance), stack or {})

    def _begin(self, rng: int, explicit_chance: bool, stack: Mapping[str, Sequence[Any]]) -> S:
        """The setup with its chance settled, behind ``initial_state``. A game whose rules
        run over a mutable working position overrides this (and :meth:`_advance`) to
        build the position, play it and freeze it once."""
        state = self._new_state(rng, explicit_chance, stack)
        return self._settle(state, [], state.rng)

    def reseed(self, state: S, seed: int) -> S:
        """The same position with its generator started afresh from ``seed``.

        Only the generator changes: what is left to chance from ``state`` on (the
        unordered rest of each deck, the dice) plays out as ``seed`` says, while
        everything written in the position stays, each deck's stacked top included
        (it was stacked on purpose). Many games from one position, each re-seeded,
        sample what can happen from there; ``simulate`` and ``tournament`` do that.
        In explicit-chance play the generator draws nothing, so nothing changes.

        Args:
            state: a state of this game, such as one :meth:`position` read.
            seed: the new generator's seed, an integer from 0 to 2**64 - 1.

        Returns:
            The state with the generator of ``seed``; its events are kept.

        Raises:
            OptionsError: the seed is out of range.
            InvalidStateError: ``state`` is not a state of this game.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> puzzle = game.position(
            ...     "AD phase=place:KS player=0,0 narrative=5C rng=0000000000000001"
            ... )
            >>> game.reseed(puzzle, 10)
            <MaplessState 'AD phase=place:KS player=0,0 narrative=5C rng=000000000000000a'>
            >>> after = game.step(game.reseed(puzzle, 10), game.parse_action("place 1,0"))
            >>> after.drawn  # the stacked top comes first, whatever the seed
            Card.parse('5C')
        """
        from cardcrawl.core._random import rng_from_seed

        rng = rng_from_seed(seed)
        if not isinstance(state, self.state_type):
            raise InvalidStateError(
                f"reseed takes a state of {self.title or self.name}, not {short_repr(state)}"
            )
        reseeded: S = self._replace_state(state, rng=rng)
        # Only the generator changed, and nothing derived depends on it.
        reseeded._memo.update(state._memo)  # type: ignore[attr-defined]
        return reseeded

    def current_player(self, state: S) -> int:
        """The player to decide, or :data:`CHANCE`, or :data:`TERMINAL`.

        Args:
            state: a state of this game.

        Returns:
            A player number from 0, or ``CHANCE`` (-1) or ``TERMINAL`` (-4).

        Raises:
            InvalidStateError: ``state`` is not a state of this game (another game's).
        """
        if not isinstance(state, self.state_type):
            raise self._not_a_state(state)
        return self._to_move(state)

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The legal decisions in canonical order; empty at chance events and at the end.

        Args:
            state: a state of this game.

        Returns:
            The legal actions, sorted. The tuple is kept with the state, so asking again
            costs nothing.

        Raises:
            InvalidStateError: ``state`` is not a state of this game (another game's).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> [game.format_action(action) for action in game.legal_actions(state)]
            ['place -1,0', 'place 0,-1', 'place 0,1', 'place 1,0']
        """
        # Inlined memo: this is the hottest call of random play.
        try:
            cache = state._memo  # type: ignore[attr-defined]
        except AttributeError:
            raise self._not_a_state(state) from None
        key = self._legal_key
        legal: tuple[A, ...] | None = cache.get(key)
        if legal is None:
            # Worked out once per state and game: the type is checked here, not per call.
            if not isinstance(state, self.state_type):
                raise self._not_a_state(state)
            if self._to_move(state) < 0:
                return ()
            legal = cache[key] = self._decisions(state)
        return legal

    def chance_outcomes(self, state: S) -> tuple[tuple[A, Fraction], ...]:
        """At a chance event, every outcome with its exact probability; else empty.

        Args:
            state: a state of this game.

        Returns:
            Each possible outcome with its probability as a ``Fraction``, in the game's
            order; the probabilities sum to exactly 1.

        Examples:
            In explicit-chance play the game stops wherever chance decides, and the
            caller picks the outcome: every outcome listed is a legal action there, and
            their probabilities sum to exactly 1. Where a player decides, there are none.
            (Which outcomes a game lists is its own rules': its rules page says.)

            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, explicit_chance=True)
            >>> game.current_player(state) == cardcrawl.CHANCE
            True
            >>> outcomes = game.chance_outcomes(state)
            >>> all(game.is_legal(state, outcome) for outcome, _ in outcomes)
            True
            >>> sum(p for _, p in outcomes)
            Fraction(1, 1)
            >>> game.chance_outcomes(game.initial_state(seed=1))
            ()
        """
        if not isinstance(state, self.state_type):
            raise self._not_a_state(state)
        if self._to_move(state) != CHANCE:
            return ()
        chances = self._kept_chances(state)
        total = sum(w for _, w in chances)
        # The outcomes of one event share a handful of weights (a deck's cards weigh
        # how many copies of them are left): each probability is made once per weight,
        # since making a Fraction (its gcd, in Python code) costs more than the lookup.
        shares: dict[int, Fraction] = {}
        return tuple(
            (a, shares.get(w) or shares.setdefault(w, Fraction(w, total))) for a, w in chances
        )

    def check(self, state: S, action: A) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal in ``state``.

        At a chance event, the legal actions are the possible outcomes.

        Args:
            state: a state of this game.
            action: a decision, or a chance outcome.

        Raises:
            IllegalActionError: with the action, the decision asked and the alternatives.
            InvalidStateError: ``state`` is not a state of this game (another game's).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> game.check(state, game.parse_action("place 1,0"))
            >>> game.check(state, game.parse_action("place 2,0"))  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.IllegalActionError: illegal action place 2,0: ...
        """
        if not isinstance(state, self.state_type):
            raise self._not_a_state(state)
        to_move = self._to_move(state)
        if to_move == TERMINAL:
            raise IllegalActionError(state, action, "nothing", (), "the game is over")
        if to_move == CHANCE:
            outcomes = tuple(a for a, _ in self._kept_chances(state))
            if not _listed(action, outcomes):
                raise IllegalActionError(
                    state,
                    action,
                    self._describe(state),
                    outcomes,
                    "it is not a possible outcome of this chance event",
                )
            return
        legal = self.legal_actions(state)
        if not _listed(action, legal):
            reason = "it is not one of the legal actions"
            if isinstance(action, str):
                reason = (
                    f"text is not an action of {self.name}; "
                    f"game.parse_action({action!r}) reads it into one"
                )
            elif not isinstance(action, self.action_type):
                reason = f"{type(action).__name__} is not an action of {self.name}"
            raise IllegalActionError(state, action, self._describe(state), legal, reason)

    def is_legal(self, state: S, action: A) -> bool:
        """True when :meth:`check` would pass.

        Args:
            state: a state of this game.
            action: a decision, or a chance outcome.

        Returns:
            Whether ``action`` may be taken in ``state``.
        """
        try:
            self.check(state, action)
        except IllegalActionError:
            return False
        return True

    def step(self, state: S, action: A) -> S:
        """The state after ``action``; ``state`` itself never changes.

        In sampled play the chance events that follow are resolved by the state's
        generator before returning; in explicit-chance play the new state may be at a
        chance event.

        Args:
            state: a state of this game.
            action: a legal decision, or at a chance event one of its outcomes.

        Returns:
            The new state, with the events of the step in ``events``.

        Raises:
            IllegalActionError: ``action`` is not legal here (text is refused too: read
                it with :meth:`parse_action`); nothing has changed.
            InvalidStateError: ``state`` is not a state of this game (another game's).
        """
        # Most actions come straight from legal_actions: the very object, found by
        # identity in the legal tuple kept with the state, is legal. (A membership test,
        # ``in``, would call the action's __eq__, Python code, for every legal action
        # listed before it.) An equal action that is another object, and anything else,
        # gets the full check.
        try:
            kept = state._memo.get(self._legal_key, ())  # type: ignore[attr-defined]
        except AttributeError:
            raise self._not_a_state(state) from None
        for listed in kept:
            if listed is action:
                break
        else:
            self.check(state, action)
        return self._advance(state, action)

    def _advance(self, state: S, action: A) -> S:
        """The state after the legal ``action``, its chance settled: ``step`` once the
        action is checked. A game whose rules run over a mutable working position
        overrides this to thaw ``state``, play and freeze the result once."""
        events: list[Any] = []
        return self._settle(self._apply(state, action, events), events, state.rng, state)

    def _settle(self, state: S, events: list[Any], rng: int, given: S | None = None) -> S:
        """Resolve chance events (all in sampled play, certain ones in explicit play).

        ``given`` is the state the caller passed to ``step``: it is never touched.
        """
        explicit = state.explicit_chance
        while self._to_move(state) == CHANCE:
            if explicit:
                chances = self._kept_chances(state)
                if len(chances) != 1:
                    break
                outcome = chances[0][0]
            else:
                outcome, rng = self._sample(state, rng)
            state = self._apply(state, outcome, events)
        if self._fresh_states and state is not given:
            # A game whose _apply always builds new states (with the replacer) hands us
            # an object nobody else has seen yet: its construction is finished here
            # instead of copying it once more. The caller's state is never this object.
            fields = state.__dict__
            fields["rng"] = rng
            fields["events"] = tuple(events)
            return state
        settled = self._replace_state(state, rng=rng, events=tuple(events))
        # Only the generator and the events changed, and nothing derived depends on them.
        settled._memo.update(state._memo)  # type: ignore[attr-defined]
        return settled

    def _keep_position(self, state: S, position: Any) -> None:
        """Keep ``position``, the working position ``state`` was just frozen from, for
        the next step from ``state`` to take over (:meth:`_kept_position`) instead of
        thawing the state afresh: a game played on steps next from the state it got.

        A game keeps the positions of the last :data:`KEPT_POSITIONS` states it froze
        (a batch of games played in turns on one game object finds theirs), and a
        state never holds one. The freeze must have given the state nothing of the
        position that the rules change in place, or the game's step must copy it when
        it takes the position over. (A game's own step frame may call
        :func:`keep_position` with its ``_spare`` and the state's memo instead.)
        """
        keep_position(self._spare, state._memo, position)  # type: ignore[attr-defined]

    def _kept_position(self, state: S) -> Any:
        """The position kept by :meth:`_keep_position` for ``state``, taken over (no
        other call gets it), or ``None`` (see :func:`take_position`)."""
        return take_position(self._spare, state._memo)  # type: ignore[attr-defined]

    def describe(self, state: S) -> str:
        """What ``state`` waits for, in words (a decision, a chance event, or nothing).

        Args:
            state: a state of this game.

        Returns:
            A phrase naming the decision, with its text form, or the chance event.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.describe(game.initial_state(seed=1, stack={"narrative": ["KS"]}))
            'the player to choose where K♠ goes (place X,Y)'
        """
        if not isinstance(state, self.state_type):
            raise self._not_a_state(state)
        if self._to_move(state) == TERMINAL:
            return "nothing: the game is over"
        return self._describe(state)

    def is_terminal(self, state: S) -> bool:
        """True once the game is over.

        Args:
            state: a state of this game.

        Returns:
            Whether the game has ended; :meth:`outcome` then says how.

        Raises:
            InvalidStateError: ``state`` is not a state of this game (another game's).
        """
        if not isinstance(state, self.state_type):
            raise self._not_a_state(state)
        return self._to_move(state) == TERMINAL

    def returns(self, state: S) -> tuple[float, ...]:
        """Each player's return: the outcome's, or zeros while the game goes on.

        Args:
            state: a state of this game.

        Returns:
            One number per player.
        """
        outcome = self.outcome(state)
        return outcome.returns if outcome is not None else (0.0,) * self.num_players

    # -------------------------------------------------------------- text
    def format_action(self, action: A) -> str:
        """The action's text form, which :meth:`parse_action` reads back.

        Args:
            action: an action of this game.

        Returns:
            Its text form, as in records and on the command line.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.format_action(game.parse_action("move 1,0"))
            'move 1,0'
        """
        return str(action)

    def _parse_error(self, text: str, forms: str) -> ParseError:
        return ParseError(f"{text!r} is not an action of {self.name}: expected {forms}")


def keep_position(
    spare: dict[int, tuple[dict[str, Any], Any]], memo: dict[str, Any], position: Any
) -> None:
    """Keep ``position`` in a game's ``spare`` for the state whose memo is ``memo``
    (see :meth:`GameBase._keep_position`): the oldest of more than
    :data:`KEPT_POSITIONS` goes.

    Example:
        >>> spare, memo = {}, {}
        >>> keep_position(spare, memo, "position")
        >>> take_position(spare, memo), take_position(spare, memo)
        ('position', None)
    """
    spare[id(memo)] = (memo, position)
    if len(spare) > KEPT_POSITIONS:
        # The oldest goes; another thread may have taken or dropped it meanwhile.
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):
            del spare[next(iter(spare))]


def take_position(spare: dict[int, tuple[dict[str, Any], Any]], memo: dict[str, Any]) -> Any:
    """The position kept in ``spare`` for the state whose memo is ``memo``, taken over
    (no other call gets it: taking is one atomic dict operation), or ``None``.

    A state is known by its memo, a dict no other state ever shares (states made from
    it by ``reseed``, ``evolve`` or a copy have their own); a memo kept is held, so
    that no other dict can take its identity while it is kept.
    """
    kept = spare.pop(id(memo), None)
    if kept is None or kept[0] is not memo:
        return None
    return kept[1]


def _listed(action: Any, actions: tuple[Any, ...]) -> bool:
    """Whether ``action`` is one of ``actions``: the very object, usually (an action
    taken from the list), found by identity first; else an equal one. (``in`` alone
    would call the action's ``__eq__``, Python code, for every action listed before.)"""
    for listed in actions:
        if listed is action:
            return True
    return action in actions
