"""What every game's encoding shares: the interface, the error and the layout segments."""

from __future__ import annotations

import abc
from collections.abc import Iterator
from fractions import Fraction
from typing import Any, ClassVar

from cardcrawl.encoding._compact import CompactObservation
from cardcrawl.encoding._layout import LayoutBuilder, Segment, named_segment
from cardcrawl.errors import EncodingError

__all__ = ["Encoding", "EncodingError", "LayoutBuilder", "Segment"]


class Encoding(abc.ABC):
    """A fixed mapping between one game's actions and integers, and its observation tensor.

    Obtain one with :func:`cardcrawl.encoding.encoding_for`. The mapping depends only on
    the game and its options, never on a state: the same integer always means the same
    action. Decisions and chance outcomes are numbered separately (``0 ..
    num_actions - 1`` and ``0 .. num_chance_outcomes - 1``), as OpenSpiel does.

    Attributes:
        version: changes whenever the mapping or the observation layout changes.
        game: the game the encoding was made for.
        num_actions: the size of the fixed decision space.
        num_chance_outcomes: an upper bound on the distinct chance outcomes.
        observation_shape: the shape of :meth:`encode_observation`'s vector, ``(n,)``.
        layout: the named segments of the observation vector, in order.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> game = cardcrawl.load("escape-from-haydes")
        >>> encoding = encoding_for(game)
        >>> state = game.initial_state(seed=1)
        >>> action = game.legal_actions(state)[0]
        >>> encoding.decode_action(encoding.encode_action(action)) == action
        True
        >>> vector = encoding.encode_observation(game.observe(state, 0))
        >>> (len(vector),) == encoding.observation_shape
        True
    """

    version: ClassVar[str] = "1"
    #: The outcome label of a game stopped by its turn or round limit (an option).
    limit_label: ClassVar[str] = ""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.num_actions: int = 0
        self.num_chance_outcomes: int = 0
        self.layout: tuple[Segment, ...] = ()

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} v{self.version} for {self.game.name}: "
            f"{self.num_actions} actions, {self.num_chance_outcomes} chance outcomes, "
            f"observation {self.observation_shape}>"
        )

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of an encoded observation: one flat vector, ``(size,)``."""
        return (self.layout[-1].stop if self.layout else 0,)

    def segment(self, name: str) -> Segment:
        """The segment of the observation layout called ``name``.

        Raises:
            EncodingError: no segment has that name.
        """
        return named_segment(self.layout, name, "observation")

    # ------------------------------------------------------------ actions
    @abc.abstractmethod
    def encode_action(self, action: Any) -> int:
        """The integer of a decision, in ``range(num_actions)``.

        Raises:
            EncodingError: ``action`` is not a decision this game can ever offer.
        """

    @abc.abstractmethod
    def decode_action(self, index: int) -> Any:
        """The decision numbered ``index``, the inverse of :meth:`encode_action`.

        Raises:
            EncodingError: ``index`` is not an integer in ``range(num_actions)``.
        """

    @abc.abstractmethod
    def encode_chance(self, outcome: Any) -> int:
        """The integer of a chance outcome, in ``range(num_chance_outcomes)``.

        Raises:
            EncodingError: ``outcome`` is not a chance outcome of this game.
        """

    @abc.abstractmethod
    def decode_chance(self, index: int) -> Any:
        """The chance outcome numbered ``index``, the inverse of :meth:`encode_chance`.

        Raises:
            EncodingError: ``index`` is not an integer in ``range(num_chance_outcomes)``.
        """

    def legal_indices(self, state: Any) -> tuple[int, ...]:
        """The integers of the legal decisions at ``state``, ascending (empty off turn)."""
        return tuple(sorted(self.encode_action(a) for a in self.game.legal_actions(state)))

    def action_mask(self, state: Any) -> tuple[int, ...]:
        """One entry per action: 1 where that decision is legal at ``state``, else 0.

        All zeros at a chance event and once the game is over.
        """
        mask = [0] * self.num_actions
        for action in self.game.legal_actions(state):
            mask[self.encode_action(action)] = 1
        return tuple(mask)

    def chance_outcomes(self, state: Any) -> tuple[tuple[int, Fraction], ...]:
        """The chance outcomes at ``state`` as ``(integer, probability)``, as listed by
        the game (empty unless the state waits at a chance event)."""
        return tuple((self.encode_chance(o), p) for o, p in self.game.chance_outcomes(state))

    def ended_by_limit(self, state: Any) -> bool:
        """True when the game is over because its turn or round limit ran out.

        Reinforcement-learning adapters report such an ending as a *truncation*: the
        limit is an option put on the game, not an ending the rules reach by play.
        """
        return self.limit_reached(self.game.outcome(state))

    def limit_reached(self, outcome: Any) -> bool:
        """True when ``outcome`` (an :class:`~cardcrawl.Outcome`, or ``None`` for a game
        going on) is the ending of a game whose turn or round limit ran out: what
        :meth:`ended_by_limit` says of a state that ended so.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.encoding import encoding_for
            >>> encoding = encoding_for(cardcrawl.load("mapless-house"))
            >>> encoding.limit_reached(cardcrawl.Outcome("lost", returns=(0.0,)))
            True
            >>> encoding.limit_reached(None)
            False
        """
        return outcome is not None and outcome.label == self.limit_label

    # -------------------------------------------------------- observation
    def encode_observation(self, observation: Any) -> tuple[float, ...]:
        """The flat observation vector of ``game.observe(state, player)``, values in [0, 1].

        Raises:
            EncodingError: ``observation`` is not an observation of this game.
        """
        vector = [0.0] * self.observation_shape[0]
        for i, x in self._entries(observation).items():
            vector[i] = x
        return tuple(vector)

    def encode_observation_sparse(
        self, observation: Any
    ) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The nonzero entries of :meth:`encode_observation`: their indices, ascending,
        and their values. Most of the vector is zeros, so this is the fast way to fill an
        array: ``a = zeros(size); a[indices] = values``.

        Raises:
            EncodingError: ``observation`` is not an observation of this game.
        """
        entries = sorted((i, x) for i, x in self._entries(observation).items() if x)
        return tuple(i for i, _ in entries), tuple(x for _, x in entries)

    def observation_entries(self, observation: Any) -> dict[int, float]:
        """The entries of :meth:`encode_observation` that may be nonzero, by index, in
        no order: the quickest way to write an observation into an array row that was
        cleared of the entries written before (as the vector environment does).

        Raises:
            EncodingError: ``observation`` is not an observation of this game.
        """
        return self._entries(observation)

    def compact(self) -> CompactObservation | None:
        """The game's compact observation (a short row of bytes, see
        :class:`~cardcrawl.encoding.CompactObservation`), or ``None`` for a game that has
        none: batches then use :meth:`encode_observation`."""
        return None

    @abc.abstractmethod
    def _entries(self, observation: Any) -> dict[int, float]:
        """The entries of the observation vector that may be nonzero, by index."""

    def split_observation(self, vector: Any) -> Iterator[tuple[Segment, Any]]:
        """Each segment with its part of an encoded observation (a flat sequence)."""
        for seg in self.layout:
            yield seg, vector[seg.start : seg.stop]

    # ------------------------------------------------------------ helpers
    def _check_index(self, index: Any, size: int, what: str) -> int:
        if isinstance(index, bool):
            raise EncodingError(f"{what} index must be an integer, not {index!r}")
        if not isinstance(index, int):
            # numpy integers are welcome: they know __index__.
            try:
                index = index.__index__()
            except (AttributeError, TypeError):
                raise EncodingError(f"{what} index must be an integer, not {index!r}") from None
        if not 0 <= index < size:
            raise EncodingError(f"{what} index {index} is out of range: expected 0 to {size - 1}")
        return int(index)
