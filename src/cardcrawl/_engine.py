"""The shared machinery behind every game: stepping, legality, chance and saving.

A game subclasses :class:`GameBase` and supplies a handful of small hooks (who is to move,
the legal decisions, the chance distribution, how to apply one action). Everything else,
the whole public :class:`~cardcrawl.Game` protocol, is written here once.
"""

from __future__ import annotations

import abc
import operator
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

import attrs

from cardcrawl._cards import Card
from cardcrawl._codec import decode, encode
from cardcrawl._errors import IllegalActionError, ParseError, SerializationError, StackError
from cardcrawl._protocol import CHANCE, TERMINAL, GameState, Outcome
from cardcrawl._random import rng_choice_weighted

__all__ = ["FORMAT_VERSION", "GameBase", "memo", "replacer"]

#: The version of the saved-data layout written by :meth:`GameBase.state_to_data`.
FORMAT_VERSION = 1

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

    Examples:
        >>> import attrs
        >>> from cardcrawl._engine import replacer
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
    """
    cache: dict[str, Any] = state._memo
    try:
        return cache[key]
    except KeyError:
        value = cache[key] = compute()
        return value


class GameBase(abc.ABC, Generic[S, A, O]):
    """The :class:`~cardcrawl.Game` protocol, implemented once on top of a few hooks.

    Subclasses set :attr:`name`, :attr:`rules_version`, :attr:`state_type` and
    :attr:`action_type`, and implement the abstract hooks. Hooks may assume that the
    state is consistent and, for :meth:`_apply`, that the action is legal.
    """

    game_name: ClassVar[str]
    rules_version: ClassVar[str]
    options_type: ClassVar[type[Any]]
    state_type: ClassVar[type[Any]]
    action_type: ClassVar[Any]
    #: True for a game whose states are frozen attrs classes without slots and whose
    #: ``_apply`` and ``_new_state`` always return newly built states (never one they
    #: were given or kept): the engine may then finish a step's last state in place.
    _fresh_states: ClassVar[bool] = False

    def __init__(self, options: Any = None, *, name: str | None = None) -> None:
        if options is None:
            options = self.options_type()
        elif not isinstance(options, self.options_type):
            options = self.options_type.from_data(options)
        self._options = options
        #: The registry name this game was loaded under (a variant's own name, if any).
        self.name: str = name if name is not None else self.game_name
        self._replace_state: Callable[..., S] = replacer(self.state_type)

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
        """The decision or chance event the state waits for, in words."""

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abc.abstractmethod
    def observe(self, state: S, player: int) -> O:
        """What ``player`` may know of ``state``."""

    @abc.abstractmethod
    def determinize(self, state: S, player: int, seed: int) -> S:
        """A state ``player`` cannot tell from ``state``, hidden information redrawn."""

    @abc.abstractmethod
    def card_census(self, state: S) -> Mapping[str, tuple[Card, ...]]:
        """Every card of the game by where it is."""

    @abc.abstractmethod
    def render(self, state: S) -> str:
        """A readable text picture of the state."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> A:
        """The action named by ``text``."""

    def _validate_loaded(self, state: S) -> None:
        """Raise :class:`SerializationError` if a decoded state breaks an invariant."""

    # ------------------------------------------------------------ protocol
    def initial_state(
        self,
        seed: int,
        *,
        explicit_chance: bool = False,
        stack: Mapping[str, Sequence[Any]] | None = None,
    ) -> S:
        """The state before the first decision (see :class:`cardcrawl.Game`).

        Raises:
            OptionsError: the seed is out of range.
            StackError: ``stack`` names an unknown source or cards not available.
        """
        from cardcrawl._random import rng_from_seed

        if stack is not None and not isinstance(stack, Mapping):
            raise StackError(
                f"a stack maps chance source names to sequences of outcomes, not {stack!r}"
            )
        state = self._new_state(rng_from_seed(seed), bool(explicit_chance), stack or {})
        return self._settle(state, [], state.rng)

    def current_player(self, state: S) -> int:
        """The player to decide, or :data:`CHANCE`, or :data:`TERMINAL`."""
        return self._to_move(state)

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The legal decisions in canonical order; empty at chance events and at the end."""
        # Inlined memo: this is the hottest call of random play.
        cache = state._memo  # type: ignore[attr-defined]
        legal: tuple[A, ...] | None = cache.get("legal")
        if legal is None:
            if self._to_move(state) < 0:
                return ()
            legal = cache["legal"] = self._decisions(state)
        return legal

    def chance_outcomes(self, state: S) -> tuple[tuple[A, Fraction], ...]:
        """At a chance event, every outcome with its exact probability; else empty."""
        if self._to_move(state) != CHANCE:
            return ()
        chances = self._chances(state)
        total = sum(w for _, w in chances)
        return tuple((a, Fraction(w, total)) for a, w in chances)

    def check(self, state: S, action: A) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal in ``state``.

        Raises:
            IllegalActionError: with the action, the decision asked and the alternatives.
        """
        to_move = self._to_move(state)
        if to_move == TERMINAL:
            raise IllegalActionError(state, action, "nothing", (), "the game is over")
        if to_move == CHANCE:
            outcomes = tuple(a for a, _ in self._chances(state))
            if action not in outcomes:
                raise IllegalActionError(
                    state,
                    action,
                    self._describe(state),
                    outcomes,
                    "it is not a possible outcome of this chance event",
                )
            return
        legal = self.legal_actions(state)
        if action not in legal:
            reason = "it is not one of the legal actions"
            if not isinstance(action, self.action_type):
                reason = f"{type(action).__name__} is not an action of {self.name}"
            raise IllegalActionError(state, action, self._describe(state), legal, reason)

    def is_legal(self, state: S, action: A) -> bool:
        """True when :meth:`check` would pass."""
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

        Raises:
            IllegalActionError: ``action`` is not legal here; nothing has changed.
        """
        # Most actions come straight from legal_actions: one membership test against the
        # legal tuple kept with the state (an identity hit, usually) accepts them, and
        # anything else gets the full check.
        legal = state._memo.get("legal")  # type: ignore[attr-defined]
        if legal is None or action not in legal:
            self.check(state, action)
        events: list[Any] = []
        return self._settle(self._apply(state, action, events), events, state.rng, state)

    def _settle(self, state: S, events: list[Any], rng: int, given: S | None = None) -> S:
        """Resolve chance events (all in sampled play, certain ones in explicit play).

        ``given`` is the state the caller passed to ``step``: it is never touched.
        """
        explicit = state.explicit_chance
        while self._to_move(state) == CHANCE:
            if explicit:
                chances = self._chances(state)
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

    def describe(self, state: S) -> str:
        """What ``state`` waits for, in words (a decision, a chance event, or nothing).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.describe(game.initial_state(seed=1, stack={"narrative": ["KS"]}))
            'the player to choose where KS goes (place X,Y)'
        """
        return self._describe(state)

    def is_terminal(self, state: S) -> bool:
        """True once the game is over."""
        return self._to_move(state) == TERMINAL

    def returns(self, state: S) -> tuple[float, ...]:
        """Each player's return: the outcome's, or zeros while the game goes on."""
        outcome = self.outcome(state)
        return outcome.returns if outcome is not None else (0.0,) * self.num_players

    # -------------------------------------------------------------- text
    def format_action(self, action: A) -> str:
        """The action's text form, which :meth:`parse_action` reads back."""
        return str(action)

    def _parse_error(self, text: str, forms: str) -> ParseError:
        return ParseError(f"{text!r} is not an action of {self.name}: expected {forms}")

    # ------------------------------------------------------------ saving
    def state_to_data(self, state: S) -> dict[str, Any]:
        """The state as JSON-compatible data, tagged with game, rules and format version."""
        return {
            "format": FORMAT_VERSION,
            "game": self.name,
            "rules_version": self.rules_version,
            "state": encode(state),
        }

    def state_from_data(self, data: Any) -> S:
        """The state saved by :meth:`state_to_data`, validated field by field.

        Raises:
            SerializationError: the data is malformed, from another game, format or
                rules version, or breaks an invariant of the rules (such as a card
                missing or counted twice).
        """
        if not isinstance(data, dict):
            raise SerializationError(f"a saved state is an object, not {type(data).__name__}")
        expected = {
            "format": FORMAT_VERSION,
            "game": self.name,
            "rules_version": self.rules_version,
        }
        for key, want in expected.items():
            # Compare types too: JSON true or 1.0 is not format version 1.
            if type(data.get(key)) is not type(want) or data.get(key) != want:
                raise SerializationError(
                    f"saved state has {key} {data.get(key)!r}; this library reads {want!r}"
                )
        if set(data) != {*expected, "state"}:
            raise SerializationError(
                f"saved state has keys {sorted(data)}; expected {sorted({*expected, 'state'})}"
            )
        state: S = decode(self.state_type, data["state"], "state")
        self._validate_loaded(state)
        return state

    def action_to_data(self, action: A) -> str:
        """The action as JSON-compatible data (its text form)."""
        return self.format_action(action)

    def action_from_data(self, data: Any) -> A:
        """The action saved by :meth:`action_to_data`.

        Raises:
            SerializationError: ``data`` names no action of this game.
        """
        if not isinstance(data, str):
            raise SerializationError(f"a saved action is a string, not {data!r}")
        try:
            return self.parse_action(data)
        except ParseError as exc:
            raise SerializationError(str(exc)) from None
