"""The working interface: one game played in place, decision after decision.

The public API is made of immutable states: ``step`` thaws the state it is given, lets
the rules play, and freezes the result. A batch of games stepped together (the native
vector environment) has no use for a state at every step: it keeps each game's mutable
working position and freezes one only when someone asks for it. :class:`Working` is the
narrow interface it needs; :func:`working_for` gives it for any game.

A game whose rules run over a working position declares its own (the ``working`` slot
of :class:`~cardcrawl.GameTools`), which drives the very rule functions that ``step``
and the rollout kernel run, with the game's hooks bound in them: no rule is written
again, and a variant, which has its base game's tools, has its hooks honoured because
the same rules run. Any other game, a plug-in's included, gets :class:`StateWorking`,
written on the public API alone: its position holds a state that ``step`` replaces.
Either way, a working position plays the games of the public path: the same seed
gives the same game, and the same actions the same states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NoReturn, Protocol, runtime_checkable

from cardcrawl.core._protocol import Outcome
from cardcrawl.core._registry import tools_for
from cardcrawl.errors import IllegalActionError, OptionsError

__all__ = ["StateWorking", "Working", "refuse", "working_for"]


@runtime_checkable
class Working(Protocol):
    """A game's rules over mutable working positions (see :func:`working_for`).

    A position is private to the caller that began it: only these methods read or
    change it, and a state is made of it only by :meth:`freeze`. Positions are in
    sampled play (the position's generator settles every chance event), so a position
    is always at a decision or over.

    A working interface may also offer ``numbering(encoding)``: an object whose
    ``numbers(position)`` gives the encoding's action numbers of the legal decisions, each
    beside a code, and whose ``play(position, code)`` plays one. The native vector
    environment then writes its masks from numbers and plays a chosen number without
    making an action (Escape from Haydes' codes are its rules' decision codes, The Mapless
    House's are cells). It is optional: without it, the batch numbers the actions
    :meth:`Working.legal` gives with the encoding (``adapters._batch.Numbered``), and the
    result is the same.

    Attributes:
        game: the loaded game (or variant) whose rules run.
        events: whether :meth:`freeze` gives the last decision's events, as ``step``
            does; ``False`` lets the rules skip building them.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=30)
        >>> working = cardcrawl.working_for(game, events=True)
        >>> position = working.begin(5)
        >>> action = working.legal(position)[0]
        >>> working.advance(position, action)
        >>> working.freeze(position) == game.step(game.initial_state(5), action)
        True
    """

    game: Any
    events: bool

    def begin(self, seed: int, stack: Mapping[str, Sequence[Any]] | None = None) -> Any:
        """The position of ``game.initial_state(seed, stack=stack)``, in sampled play.

        Raises:
            OptionsError: the seed is not an integer from 0 to 2**64 - 1.
            StackError: the stack names an unknown source or cards not available.
        """
        ...

    def advance(self, position: Any, action: Any) -> None:
        """Play the legal decision ``action`` on ``position``, in place, and the chance
        events that follow, as ``step`` does.

        Raises:
            IllegalActionError: ``action`` is not one of :meth:`legal`; nothing changed.
        """
        ...

    def legal(self, position: Any) -> tuple[Any, ...]:
        """The legal decisions, as ``legal_actions`` lists them; empty once over."""
        ...

    def is_over(self, position: Any) -> bool:
        """True once the game is over."""
        ...

    def outcome(self, position: Any) -> Outcome | None:
        """How the game ended, as ``game.outcome`` says; ``None`` while it goes on."""
        ...

    def freeze(self, position: Any) -> Any:
        """The state of ``position``, equal to the one the public path reaches; the
        position stays usable and the state never changes with it."""
        ...


def refuse(working: Working, position: Any, action: Any) -> NoReturn:
    """Refuse ``action``, which is not a legal decision of ``position``: the game's
    public check says why from the position's state, so a working interface refuses
    with the very error and message ``step`` gives. ``position`` is unchanged.

    Raises:
        IllegalActionError: always (or the more specific error the check raises).

    Examples:
        >>> import cardcrawl
        >>> working = cardcrawl.working_for(cardcrawl.load("mapless-house"))
        >>> refuse(working, working.begin(1), "no action")
        Traceback (most recent call last):
        ...
        cardcrawl.errors.IllegalActionError: ...
    """
    state = working.freeze(position)
    working.game.check(state, action)
    raise IllegalActionError(
        state,
        action,
        "a legal decision",
        working.legal(position),
        "it is not one of the legal actions",
    )


class _Box:
    """The position of :class:`StateWorking`: a state, replaced at every decision."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state


class StateWorking:
    """The working interface of any game, written on its public API.

    A position holds the game's current state; :meth:`advance` replaces it with
    ``game.step``'s. This is what :func:`working_for` gives for a game that declares
    no working interface of its own.

    Args:
        game: a loaded game.
        events: kept for the interface: states always carry their events.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=30)
        >>> working = StateWorking(game)
        >>> position = working.begin(2)
        >>> while not working.is_over(position):
        ...     working.advance(position, working.legal(position)[-1])
        >>> working.outcome(position) == game.outcome(working.freeze(position))
        True
    """

    def __init__(self, game: Any, events: bool = True) -> None:
        self.game = game
        self.events = events

    def begin(self, seed: int, stack: Mapping[str, Sequence[Any]] | None = None) -> _Box:
        """The position of ``game.initial_state(seed, stack=stack)``."""
        return _Box(self.game.initial_state(seed, stack=stack))

    def advance(self, position: _Box, action: Any) -> None:
        """``game.step`` (which checks ``action`` first)."""
        position.state = self.game.step(position.state, action)

    def legal(self, position: _Box) -> tuple[Any, ...]:
        """``game.legal_actions``."""
        legal: tuple[Any, ...] = self.game.legal_actions(position.state)
        return legal

    def is_over(self, position: _Box) -> bool:
        """``game.is_terminal``."""
        return bool(self.game.is_terminal(position.state))

    def outcome(self, position: _Box) -> Outcome | None:
        """``game.outcome``."""
        outcome: Outcome | None = self.game.outcome(position.state)
        return outcome

    def freeze(self, position: _Box) -> Any:
        """The state held."""
        return position.state


def working_for(game: Any, *, events: bool = False) -> Working:
    """The working interface of ``game``: its own (the ``working`` slot of its
    :class:`~cardcrawl.GameTools`), else :class:`StateWorking`.

    Args:
        game: a loaded game or variant.
        events: whether frozen states carry the last decision's events (see
            :class:`Working`).

    Returns:
        The game's :class:`Working`.

    Raises:
        OptionsError: ``events`` is not a bool.

    Examples:
        >>> import cardcrawl
        >>> type(working_for(cardcrawl.load("escape-from-haydes"))).__name__
        'HaydesWorking'
        >>> working = working_for(cardcrawl.load("mapless-house"), events=True)
        >>> position = working.begin(1)
        >>> working.freeze(position) == cardcrawl.load("mapless-house").initial_state(1)
        True
    """
    if type(events) is not bool:
        raise OptionsError(f"events is True or False, not {events!r}")
    factory = tools_for(game).working
    working: Working | None = None if factory is None else factory(game, events)
    return StateWorking(game, events) if working is None else working
