"""The exception hierarchy: every error cardcrawl raises on purpose derives from one root.

Each class also derives from the built-in exception a caller would naturally catch
(``ValueError`` for bad values, ``LookupError`` for unknown names), so code written
against the standard library keeps working.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "CardcrawlError",
    "IllegalActionError",
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
        cardcrawl._errors.ParseError: 'ZZ' is not a card: expected a rank (A, 2-10, J, Q, K) ...
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


class OptionsError(CardcrawlError, ValueError):
    """Game options are malformed or out of range; the message says what is allowed.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.load("mapless-house", max_turns=0)
        Traceback (most recent call last):
        ...
        cardcrawl._errors.OptionsError: max_turns is None (no limit) or an integer >= 1, not 0
    """


class UnknownGameError(CardcrawlError, LookupError):
    """A game or variant name is not in the registry; the message lists the known names.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.load("mapless-mansion")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl._errors.UnknownGameError: no game or variant is named 'mapless-mansion'; ...
    """


class SerializationError(CardcrawlError, ValueError):
    """Saved data (a state, an action, options or a record) is malformed or tampered with.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.load("mapless-house").state_from_data([])
        Traceback (most recent call last):
        ...
        cardcrawl._errors.SerializationError: a saved state is an object, not list
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
        cardcrawl._errors.RecordError: record entry 0 ('place 9,9') does not replay: ...
    """


class StackError(CardcrawlError, ValueError):
    """A stacked deck names an unknown chance source, or cards that source cannot give.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> game.initial_state(seed=1, stack={"mind": ["2S"]})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl._errors.StackError: stack['mind'] names 2S, which the mind deck does not hold ...
    """


class PlayerError(CardcrawlError, ValueError):
    """A player number that is not a seat of this game.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> game.observe(game.initial_state(seed=1), 1)
        Traceback (most recent call last):
        ...
        cardcrawl._errors.PlayerError: The Mapless House has one player, 0; not 1
    """
