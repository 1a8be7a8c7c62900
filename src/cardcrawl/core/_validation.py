"""What makes a state, or a seat, one of a game's: the checks behind ``validate``.

:class:`ValidationMixin` gives :class:`~cardcrawl.GameBase` its public checks
(``validate``, ``state_problems``, ``census_problems``, ``check_player``) and the refusal
of another game's state that every public method starts with. A game adds its rules'
invariants by overriding ``state_problems``; the rest is written here once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from cardcrawl.core._codec import decode, encode, saved_fields
from cardcrawl.errors import InvalidStateError, PlayerError, SerializationError, short_repr
from cardcrawl.kit._cards import Card

__all__ = ["CENSUS_PROBLEM", "ValidationMixin"]

S = TypeVar("S")

#: How the problem of :meth:`ValidationMixin.census_problems` begins.
CENSUS_PROBLEM = "it does not hold each of the"


class ValidationMixin(Generic[S]):
    """The checks of :class:`~cardcrawl.GameBase` on states and seats (see there).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.core._validation import ValidationMixin
        >>> game = cardcrawl.load("mapless-house")
        >>> isinstance(game, ValidationMixin), game.validate(game.initial_state(seed=1))
        (True, None)
    """

    if TYPE_CHECKING:
        # What the checks ask of the game they are mixed into (GameBase has them all).
        name: str
        title: ClassVar[str]
        state_type: ClassVar[type[Any]]

        @property
        def num_players(self) -> int:
            raise NotImplementedError

        def card_census(self, state: S) -> Mapping[str, tuple[Card, ...]]:
            raise NotImplementedError

    def state_problems(self, state: S) -> list[str]:
        """Every invariant of the rules that ``state`` breaks, in words; empty if none.

        A game lists here everything its rules rely on (cards conserved, pieces where
        the rules can put them, phases and pending choices that agree); a variant that
        changes a rule extends it by calling ``super()``. The state's fields have
        already been checked against their types. :meth:`validate` and
        :meth:`state_from_data` report the problems.

        Args:
            state: a state of this game, its fields of the right types.

        Returns:
            One phrase per problem found.

        Examples:
            >>> import attrs, cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1)
            >>> game.state_problems(state)
            []
            >>> game.state_problems(attrs.evolve(state, turn=-1))
            ['turn must be 0 before the hunt, and a count up to 999,999,999']
        """
        return []

    def check_player(self, player: Any) -> None:
        """Raise :class:`~cardcrawl.PlayerError` unless ``player`` is a seat of this game.

        A seat is a plain ``int`` from 0 to ``num_players - 1``: ``True``, ``1.0`` or an
        ``int`` subclass is refused, since it would compare and hash like a seat while
        printing and saving as something else. ``observe`` and ``determinize`` call this
        first, in every game.

        Args:
            player: anything; a seat passes.

        Raises:
            PlayerError: naming the game and its seats.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> game.check_player(0)
            >>> game.check_player(True)
            Traceback (most recent call last):
            ...
            cardcrawl.errors.PlayerError: The Mapless House has one player, 0; not True
            >>> cardcrawl.load("escape-from-haydes", players=3).check_player(3)
            Traceback (most recent call last):
            ...
            cardcrawl.errors.PlayerError: Escape from Haydes has 3 players, seats 0 to 2; not 3
        """
        n = self.num_players
        if type(player) is int and 0 <= player < n:
            return
        if n == 1:
            seats = "one player, 0"
        elif n == 2:
            seats = "2 players, seats 0 and 1"
        else:
            seats = f"{n} players, seats 0 to {n - 1}"
        raise PlayerError(f"{self.title or self.name} has {seats}; not {player!r}")

    def _check_player(self, player: Any) -> None:
        # The name the adapters called before check_player was public.
        self.check_player(player)

    def census_problems(self, state: S, cards: Iterable[Card]) -> list[str]:
        """The problem, if any, with the cards of ``state``: each of ``cards`` once.

        Compares the multiset of every card in :meth:`card_census` with ``cards``, the
        game's whole set, and names what is missing and what is extra. A game's
        :meth:`state_problems` starts with it.

        Args:
            state: a state of this game.
            cards: every card of the game, a multiset in any order (a ``Counter`` of
                them is used as it is).

        Returns:
            An empty list, or one phrase naming the missing and the extra cards.

        Examples:
            >>> import attrs, cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
            >>> every_card = [cardcrawl.Card(i) for i in range(52)]
            >>> game.census_problems(state, every_card)
            []
            >>> game.census_problems(attrs.evolve(state, refused=(state.drawn,)), every_card)
            ['it does not hold each of the 52 cards once: missing none, extra KS']
        """
        expected = cards if isinstance(cards, Counter) else Counter(cards)
        census = Counter(c for pile in self.card_census(state).values() for c in pile)
        if census == expected:
            return []
        missing = sorted((expected - census).elements())
        extra = sorted((census - expected).elements())
        return [
            f"{CENSUS_PROBLEM} {expected.total()} cards once: "
            f"missing {' '.join(map(str, missing)) or 'none'}, "
            f"extra {' '.join(map(str, extra)) or 'none'}"
        ]

    def validate(self, state: Any) -> None:
        """Raise :class:`~cardcrawl.InvalidStateError` unless ``state`` is a sound state
        of this game.

        A state built or edited by hand (say with ``attrs.evolve``) goes through the
        same checks as a loaded one: each field's type, then every invariant of the
        rules (:meth:`state_problems`). States made by :meth:`initial_state` and
        :meth:`step` always pass.

        Args:
            state: anything; a state of this game passes.

        Raises:
            InvalidStateError: naming what is wrong.

        Examples:
            >>> import attrs, cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1)
            >>> game.validate(state)
            >>> game.validate(attrs.evolve(state, turn="3"))  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.InvalidStateError: state is malformed: state.turn: ...
            >>> game.validate("a state")
            Traceback (most recent call last):
            ...
            cardcrawl.errors.InvalidStateError: a state of mapless-house is a MaplessState, not str
        """
        if type(state) is not self.state_type:
            raise self._not_a_state(state)
        try:
            # The codec checks every field against its declared type on the way back.
            decoded = decode(self.state_type, encode(state), "state")
        except SerializationError as exc:
            raise InvalidStateError(f"state is malformed: {exc}") from None
        except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as exc:
            raise InvalidStateError(f"state is malformed: {short_repr(exc)}") from None
        # A value of another type can save alike (a list for a tuple) and so pass the
        # codec, yet break hashing, equality or the next save: the round trip must
        # give back the very state.
        retyped = _retyped_field(state, decoded)
        if retyped is not None:
            raise InvalidStateError(
                f"state is malformed: state.{retyped} holds "
                f"{short_repr(getattr(state, retyped))}, which is not of its declared type "
                f"(it reads back as {short_repr(getattr(decoded, retyped))})"
            )
        try:
            self._check_invariants(state, "state")
        except InvalidStateError:
            raise
        except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as exc:
            raise InvalidStateError(f"state is malformed: {short_repr(exc)}") from None

    def _not_a_state(self, state: object) -> InvalidStateError:
        # Another game's state (or no state) would read as fields this game's rules do
        # not have: refuse it by name rather than with an AttributeError from inside.
        return InvalidStateError(
            f"a state of {self.name} is a {self.state_type.__name__}, not {type(state).__name__}"
        )

    def _check_invariants(self, state: S, what: str) -> None:
        problems = self.state_problems(state)
        if problems:
            raise InvalidStateError(f"{what} is inconsistent: " + "; ".join(problems))


def _retyped_field(state: Any, decoded: Any) -> str | None:
    """The first saved field whose value differs from the one the codec reads back."""
    for field in saved_fields(type(state)):
        given, read = getattr(state, field.name), getattr(decoded, field.name)
        try:
            same = type(given) is type(read) and bool(given == read)
        except Exception:  # junk put in by hand may not even compare
            same = False
        if not same:
            return field.name
    return None
