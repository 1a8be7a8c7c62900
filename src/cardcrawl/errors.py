"""The exception hierarchy: every error cardcrawl raises on purpose derives from one root.

Each class also derives from the built-in exception a caller would naturally catch
(``ValueError`` for bad values, ``LookupError`` for unknown names), so code written
against the standard library keeps working.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "ActionError",
    "CardcrawlError",
    "IllegalActionError",
    "InvalidStateError",
    "OptionsError",
    "ParseError",
    "PlayerError",
    "RecordError",
    "SerializationError",
    "StackError",
    "UnknownGameError",
]


class CardcrawlError(Exception):
    """The root of every error that cardcrawl raises on purpose.

    Examples:
        >>> import cardcrawl
        >>> issubclass(cardcrawl.IllegalActionError, cardcrawl.CardcrawlError)
        True
    """


class ParseError(CardcrawlError, ValueError):
    """Text that should name a card, a cell or an action does not.

    Examples:
        >>> from cardcrawl import Card
        >>> Card.parse("ZZ")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.ParseError: 'ZZ' is not a card: expected a rank (A, 2-10, J, Q, K) ...
    """


class IllegalActionError(CardcrawlError, ValueError):
    """An action was given that the rules do not allow in this state.

    The state passed in is never changed (states are immutable); the error carries it,
    together with the action, a description of the decision being asked and the legal
    alternatives, so that a caller can recover or report precisely.

    Attributes:
        state: the state the action was tried on.
        action: the rejected action.
        decision: what the state is waiting for, in words.
        legal: the legal actions at that state, in their canonical order.
        reason: why the action is illegal, in words.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1)
        >>> try:
        ...     game.step(state, game.parse_action("place 5,5"))
        ... except cardcrawl.IllegalActionError as error:
        ...     for part in (error.reason, error.decision, error.legal[0]):
        ...         print(part)
        it is not one of the legal actions
        the player to choose where 4C goes (place X,Y)
        place -1,0
    """

    def __init__(
        self,
        state: Any,
        action: object,
        decision: str,
        legal: Sequence[object],
        reason: str,
    ) -> None:
        self.state = state
        self.action = action
        self.decision = decision
        self.legal = tuple(legal)
        self.reason = reason
        shown = ", ".join(str(a) for a in self.legal[:12])
        if len(self.legal) > 12:
            shown += f", ... ({len(self.legal)} in all)"
        super().__init__(
            f"illegal action {action!s}: {reason}. The state is waiting for {decision}; "
            f"legal actions: {shown or 'none'}"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # The default rebuilds an exception from its args (here the one message), which
        # this __init__ does not take: rebuild it from what it carries instead, then
        # restore anything set on it since (notes, context).
        extra = {k: v for k, v in self.__dict__.items() if k not in _ILLEGAL_FIELDS}
        return (
            type(self),
            (self.state, self.action, self.decision, self.legal, self.reason),
            extra or None,
        )


_ILLEGAL_FIELDS = frozenset(("state", "action", "decision", "legal", "reason"))


class ActionError(CardcrawlError, TypeError, ValueError):
    """An action was built from arguments it cannot hold; the message says what it takes.

    Every action checks its arguments when it is made, so that an action that exists
    always names something the games understand, formats as text that reads back, and
    saves. A wrong type and a wrong value are both this one error; it derives from both
    ``TypeError`` and ``ValueError`` so that code catching either keeps working.
    Whether a well-formed action is *legal* in a state is another question, answered by
    ``check`` with an :class:`IllegalActionError`.

    Examples:
        >>> from cardcrawl.mapless import Place
        >>> Place((1.0, 0))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.ActionError: Place(cell=...) takes a cell, a tuple (x, y) of two ...
        >>> from cardcrawl.haydes import Roll
        >>> Roll(1000)
        Traceback (most recent call last):
        ...
        cardcrawl.errors.ActionError: Roll(total=...) takes a roll total, an integer from 0 ...
    """


def action_argument_error(kind: type, field: str, wanted: str, value: object) -> ActionError:
    """The :class:`ActionError` for an action of class ``kind`` given ``value`` as ``field``.

    The value is shown by its ``repr``, cut short when long (:func:`short_repr`), so that
    junk of any size or with a broken ``repr`` still makes a readable message.

    Args:
        kind: the action class being built.
        field: the argument's name.
        wanted: what the argument takes, in words.
        value: what it was given.

    Returns:
        The error, to be raised by the caller.

    Examples:
        >>> from cardcrawl.mapless import Place
        >>> print(action_argument_error(Place, "cell", "a cell", "1,0" * 100))
        Place(cell=...) takes a cell; not '1,01,01,01,01,01,01,01,01,01,01,01,01,01,01,01...
    """
    shown = short_repr(value, limit=50)
    return ActionError(f"{kind.__name__}({field}=...) takes {wanted}; not {shown}")


def short_repr(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message: cut to ``limit`` characters, and never raising.

    Args:
        value: anything, perhaps junk from untrusted input.
        limit: the longest text returned.

    Returns:
        The ``repr``, its end replaced by ``...`` when too long; a description of the
        value's type when it has no ``repr`` (a broken one, or an int too long for text).

    Examples:
        >>> short_repr("place 1,0"), short_repr(list(range(100)), limit=12)
        ("'place 1,0'", '[0, 1, 2,...')
        >>> short_repr(10**5000)
        'an integer of about 5000 digits'
    """
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        # repr would be slow for a huge int, and refuses one beyond 4300 digits.
        return f"an integer of about {round(value.bit_length() * 0.30103)} digits"
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__} whose repr fails"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class OptionsError(CardcrawlError, ValueError):
    """Game options are malformed or out of range; the message says what is allowed.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.load("mapless-house", max_turns=0)
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: max_turns is None (no limit) or an integer >= 1, not 0
    """


class UnknownGameError(CardcrawlError, LookupError):
    """A game or variant name is not in the registry; the message lists the known names.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.load("mapless-mansion")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UnknownGameError: no game or variant is named 'mapless-mansion'; ...
    """


class SerializationError(CardcrawlError, ValueError):
    """Saved data (a state, an action, options or a record) is malformed or tampered with.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.load("mapless-house").state_from_data([])
        Traceback (most recent call last):
        ...
        cardcrawl.errors.SerializationError: a saved state is an object, not list
    """


class RecordError(CardcrawlError, ValueError):
    """A game record does not replay: the message names the first entry that fails.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> record = cardcrawl.Record.of(game, seed=1, actions=[]).to_data()
        >>> record["actions"] = ["place 9,9"]
        >>> cardcrawl.Record.from_data(record).replay()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.RecordError: record entry 0 ('place 9,9') does not replay: ...
    """


class StackError(CardcrawlError, ValueError):
    """A stacked deck names an unknown chance source, or cards that source cannot give.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> game.initial_state(seed=1, stack={"mind": ["2S"]})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.StackError: stack['mind'] names 2S, which the mind deck does not hold ...
    """


class PlayerError(CardcrawlError, ValueError):
    """A player number that is not a seat of this game.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> game.observe(game.initial_state(seed=1), 1)
        Traceback (most recent call last):
        ...
        cardcrawl.errors.PlayerError: The Mapless House has one player, 0; not 1
    """


class InvalidStateError(SerializationError):
    """A state breaks the rules' invariants: built or edited by hand, or loaded.

    :meth:`cardcrawl.GameBase.validate` raises it for a state in memory, and
    ``state_from_data`` for saved data; it is a :class:`SerializationError` too, so code
    that catches bad saves keeps working.

    Examples:
        >>> import attrs, cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = attrs.evolve(game.initial_state(seed=1), player=(99, 99))
        >>> game.validate(state)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.InvalidStateError: state is inconsistent: the player is not on a ...
    """
