"""The game protocol: the one small interface that every game implements.

Generic tools (the conformance checker, serialization, records, the command line, and
later bots, simulation and adapters) are written against :class:`Game` alone, so they
work for every game and every variant, including ones users register themselves.

A state is always at exactly one of three kinds of point, told by
:meth:`Game.current_player`:

* a **decision** (a player number ``>= 0``): :meth:`Game.legal_actions` is non-empty;
* a **chance event** (:data:`CHANCE`): :meth:`Game.chance_outcomes` lists every outcome
  with its exact probability; stepping with an outcome applies it. States only stop here
  in *explicit chance* mode; by default the state's own generator resolves chance events
  inside :meth:`Game.step`, so a caller only ever meets decisions;
* **terminal** (:data:`TERMINAL`): nothing is legal and :meth:`Game.outcome` says how the
  game ended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Annotated, Any, Protocol, TypeVar, runtime_checkable

import attrs

from cardcrawl.core._limits import Limits, untagged
from cardcrawl.kit._cards import Card

__all__ = ["CHANCE", "TERMINAL", "Game", "GameState", "Outcome"]

#: :meth:`Game.current_player` at a chance event (the value OpenSpiel uses).
CHANCE = -1
#: :meth:`Game.current_player` once the game is over (the value OpenSpiel uses).
TERMINAL = -4


@runtime_checkable
class GameState(Protocol):
    """What every game's state carries besides its own rules data.

    Each game's state class has these three attributes, so ``isinstance(state,
    GameState)`` holds for every state; the rest of a state is the game's own.

    Examples:
        >>> import cardcrawl
        >>> state = cardcrawl.load("mapless-house").initial_state(seed=1)
        >>> isinstance(state, cardcrawl.GameState), state.explicit_chance
        (True, False)
        >>> str(state.events[0])
        'You draw 4♣ from the Narrative deck.'
    """

    @property
    def rng(self) -> int:
        """The whole state of the generator that resolves chance in sampled play."""

    @property
    def explicit_chance(self) -> bool:
        """True when chance events stop and wait for an outcome from the caller."""

    @property
    def events(self) -> tuple[Any, ...]:
        """What happened in the step that made this state, in order."""


#: The most seats an outcome names, as saved data holds it.
MAX_SEATS = 64
_Seats = Limits(max_length=MAX_SEATS)
_Int64 = Limits(minimum=-(2**64 - 1), maximum=2**64 - 1)


@untagged
@attrs.frozen
class Outcome:
    """How a finished game ended.

    Saved (in a match trace, say), its label holds 1 to 100 characters, its returns are
    finite, its scores fit 64 bits and it names at most 64 seats.

    Attributes:
        label: a word for the ending, such as ``"escaped"`` or ``"consumed"``.
        returns: one number per player (1.0 for a win, 0.0 otherwise).
        scores: one score per player where the game's rules count points, else
            ``None`` (a game whose rules only say who won, if anyone).
        winners: the players who won (empty when nobody did).

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=50)
        >>> state = game.initial_state(seed=5)
        >>> while not game.is_terminal(state):
        ...     state = game.step(state, game.legal_actions(state)[-1])
        >>> game.outcome(state)
        Outcome(label='consumed', returns=(0.0,), scores=(26,), winners=())
        >>> cardcrawl.Outcome("escaped", returns=(1.0,), scores=(26,), winners=(0,)).winners
        (0,)
    """

    label: Annotated[str, Limits(min_length=1, max_length=100)]
    returns: Annotated[tuple[Annotated[float, Limits()], ...], _Seats]
    scores: Annotated[tuple[Annotated[int, _Int64], ...], _Seats] | None = None
    winners: Annotated[
        tuple[Annotated[int, Limits(minimum=0, maximum=MAX_SEATS - 1)], ...], _Seats
    ] = ()


S = TypeVar("S")
A = TypeVar("A")
O_co = TypeVar("O_co", covariant=True)


class Game(Protocol[S, A, O_co]):
    """The interface of a game, its rules bound to one set of options.

    Obtain one with :func:`cardcrawl.load`. All methods are pure: they never change
    a state, and the same arguments always give the same answer.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=100)
        >>> state = game.initial_state(seed=7)
        >>> game.current_player(state), game.describe(state)
        (0, 'the player to choose where 6♠ goes (place X,Y)')
        >>> action = game.legal_actions(state)[0]
        >>> action, game.format_action(action), game.parse_action("place -1,0") == action
        (Place(cell=(-1, 0)), 'place -1,0', True)
        >>> after = game.step(state, action)
        >>> after == state, game.is_legal(state, action), game.is_terminal(after)
        (False, True, False)
    """

    @property
    def name(self) -> str:
        """The registry name, such as ``"mapless-house"``."""

    @property
    def rules_version(self) -> str:
        """Changes whenever the behaviour of the rules changes."""

    @property
    def options(self) -> Any:
        """The frozen, validated options this game was loaded with."""

    @property
    def num_players(self) -> int:
        """How many players take decisions (chance is not a player)."""

    def initial_state(
        self,
        seed: int,
        *,
        explicit_chance: bool = False,
        stack: Mapping[str, Sequence[Any]] | None = None,
    ) -> S:
        """The state before the first decision (or first chance event when explicit).

        Args:
            seed: the generator seed, an integer from 0 to 2**64 - 1.
            explicit_chance: stop at chance events instead of sampling them.
            stack: forced chance outcomes by source name (a stacked deck), drawn first
                and in the order given; see the game's documentation for the names.
        """

    def current_player(self, state: S) -> int:
        """The player to decide, or :data:`CHANCE`, or :data:`TERMINAL`."""

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The legal decisions in canonical sorted order; empty unless a player decides."""

    def chance_outcomes(self, state: S) -> tuple[tuple[A, Fraction], ...]:
        """At a chance event, every outcome with its exact probability (summing to 1)."""

    def check(self, state: S, action: A) -> None:
        """Raise :class:`~cardcrawl.IllegalActionError` unless ``action`` is legal here."""

    def is_legal(self, state: S, action: A) -> bool:
        """True when :meth:`check` would pass."""

    def step(self, state: S, action: A) -> S:
        """The state after ``action`` (a decision, or an outcome at a chance event)."""

    def describe(self, state: S) -> str:
        """What the state waits for, in words."""

    def is_terminal(self, state: S) -> bool:
        """True once the game is over."""

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    def returns(self, state: S) -> tuple[float, ...]:
        """Each player's return: the outcome's returns, or zeros while the game goes on."""

    def observe(self, state: S, player: int) -> O_co:
        """Exactly what ``player`` may know of ``state``: no generator, no deck order,
        no face-down card."""

    def determinize(self, state: S, player: int, seed: int) -> S:
        """A state ``player`` cannot tell from ``state``, hidden information drawn afresh."""

    def card_census(self, state: S) -> Mapping[str, tuple[Card, ...]]:
        """Every card of the game by where it is; the multiset never changes."""

    def render(self, state: S) -> str:
        """A readable text picture of the state."""

    def format_action(self, action: A) -> str:
        """The action's text form, which :meth:`parse_action` reads back."""

    def parse_action(self, text: str) -> A:
        """The action named by ``text``."""

    def state_to_data(self, state: S) -> dict[str, Any]:
        """The state as JSON-compatible data, with a format version."""

    def state_from_data(self, data: Any) -> S:
        """The state saved by :meth:`state_to_data`, fully validated."""
