"""The exception hierarchy: every error cardcrawl raises on purpose derives from one root.

Each class also derives from the built-in exception a caller would naturally catch
(``ValueError`` for bad values, ``LookupError`` for unknown names), so code written
against the standard library keeps working.

The core's errors, those any part of the library may raise, are defined here, so that
a traceback names them by this public path (``cardcrawl.errors.EncodingError``). The
packages that raise one also re-export it (``cardcrawl.UndoError``,
``cardcrawl.encoding.EncodingError``, ``cardcrawl.bots.UnknownBotError``,
``cardcrawl.testing.ConformanceError``). The errors of a surface live with it, still
under :class:`CardcrawlError`: the engine protocol's and the language-model seat's in
:mod:`cardcrawl.bots` (``EngineError``, ``EngineTimeoutError``, ``ModelReplyError``),
the web app's in :mod:`cardcrawl.web` (``RequestError``, ``StorageError``). Their old
names here still work for one release, with a ``DeprecationWarning``, and import their
surface only when asked, so that importing this module imports nothing of the library.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

__all__ = [
    "ActionError",
    "CardcrawlError",
    "ConformanceError",
    "EncodingError",
    "HookError",
    "IllegalActionError",
    "InvalidStateError",
    "MissingExtraError",
    "NoRendererError",
    "NotationError",
    "OptionsError",
    "ParseError",
    "PlayerError",
    "PluginError",
    "RecordError",
    "RecordFileError",
    "SamplingError",
    "SerializationError",
    "SolverBudgetError",
    "StackError",
    "UndoError",
    "UnknownBotError",
    "UnknownFigureError",
    "UnknownGameError",
    "UnsolvableError",
    "UnsupportedTypeError",
]


class CardcrawlError(Exception):
    """The root of every error that cardcrawl raises on purpose.

    Examples:
        >>> import cardcrawl
        >>> issubclass(cardcrawl.IllegalActionError, cardcrawl.CardcrawlError)
        True
    """

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt by calling the class with its message, then its attributes restored:
        # an explicit __reduce__ also keeps tblib (which Dask installs for every
        # exception class) from rebuilding an error through a base's __new__, which
        # fails for the errors that are also OSErrors (RecordFileError,
        # EngineTimeoutError).
        return (type(self), self.args, self.__dict__ or None)


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
        the player to choose where 4♣ goes (place X,Y)
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
        # Text refused as an action may read exactly like a legal action's text: the
        # legal actions are then shown as the values they are, so the refused text is
        # never in the list it was refused from.
        write = repr if isinstance(action, str) else str
        shown = ", ".join(write(a) for a in self.legal[:12])
        if len(self.legal) > 12:
            shown += f", ... ({len(self.legal)} in all)"
        super().__init__(
            f"illegal action {write(action)}: {reason}. The state is waiting for {decision}; "
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
    except RecursionError:
        return f"a {type(value).__name__} nested too deep to show"
    except Exception:
        return f"a {type(value).__name__} whose repr fails"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class OptionsError(CardcrawlError, ValueError):
    """Options or arguments are malformed or out of range; the message says what is allowed.

    Game options are the first case; the others are arguments of the library's own
    functions that no other error names: a seed, a count of games or rollouts, a step
    of a replay, a name to register (malformed, or taken without ``replace=True``).

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.load("mapless-house", max_turns=0)
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: max_turns is None (no limit) or an integer >= 1, not 0
        >>> cardcrawl.rng_below(cardcrawl.rng_from_seed(1), 0)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: rng_below(state, n) draws from range(n) and needs an ...
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
    """A game record does not replay, or does not keep its claims: the message names the
    first entry that fails, or the claim.

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


class PluginError(UnknownGameError):
    """A game plug-in failed to load, so the games and variants it registers are unknown.

    Raised for an entry point of the ``cardcrawl.games`` group whose module cannot be
    imported, whose function raises, or whose value is not a module or a function; the
    message names each such entry point, the package it comes from and the cause, which
    is also chained as ``__cause__``. It is an :class:`~cardcrawl.UnknownGameError`,
    since the lookup that needed the plug-in fails.

    Attributes:
        plugins: each failed entry point, as ``name = value``.

    Examples:
        >>> import cardcrawl
        >>> error = cardcrawl.PluginError(
        ...     "plug-in 'my-variants = my_pkg.variants' failed to load: ...",
        ...     plugins=["my-variants = my_pkg.variants"])
        >>> error.plugins, isinstance(error, cardcrawl.UnknownGameError)
        (('my-variants = my_pkg.variants',), True)
    """

    def __init__(self, message: str, plugins: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.plugins = tuple(plugins)


class UndoError(CardcrawlError, RuntimeError):
    """An undo or a redo that cannot be done: there is nothing to undo or redo, or the
    step to undo revealed the outcome of a chance event and the match plays fair undo.

    It is a ``RuntimeError``: undo and redo take no argument, so no value is wrong; it
    is the match's history that forbids them now (as releasing an unlocked
    ``threading.Lock`` does).

    Attributes:
        entry: the history entry (one of ``Match.history``) that could not be
            undone, or ``None`` when there was nothing to undo or redo.

    Examples:
        >>> import cardcrawl
        >>> match = cardcrawl.Match.start("mapless-house", seed=1)
        >>> match.redo()
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UndoError: nothing to redo: no action has been undone since the last play
        >>> try:
        ...     match.undo()
        ... except cardcrawl.UndoError as error:
        ...     print(error.entry)
        None
    """

    # Any, not MatchEntry: this module imports nothing of the library, so that every
    # module can import it.
    def __init__(self, message: str, entry: Any = None) -> None:
        super().__init__(message)
        self.entry = entry


class NoRendererError(CardcrawlError, LookupError):
    """No SVG renderer is known for a game (see :func:`~cardcrawl.find_renderer`).

    Examples:
        >>> import cardcrawl
        >>> class Plain:
        ...     name = "plain"
        >>> cardcrawl.svg(Plain(), None)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.NoRendererError: no SVG renderer is known for Plain: give the class ...
    """


class EncodingError(CardcrawlError, ValueError):
    """A game, action, chance outcome, index or observation that an encoding cannot map.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import EncodingError, encoding_for
        >>> encoding_for(cardcrawl.load("mapless-house")).decode_action(-1)
        Traceback (most recent call last):
        ...
        cardcrawl.errors.EncodingError: action index -1 is out of range: ...
    """


class UnknownBotError(CardcrawlError, LookupError):
    """No bot of that name plays that game; the message lists the bots that do.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import make_bot
        >>> game = cardcrawl.load("escape-from-haydes")
        >>> make_bot("best", game, seed=1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UnknownBotError: no bot is named 'best' for escape-from-haydes; ...
    """


class ConformanceError(CardcrawlError, AssertionError):
    """A game broke a promise of the protocol; the message says which, where and how.

    It is an ``AssertionError`` too, so test runners report it as a failed check.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless import MaplessHouse
        >>> from cardcrawl.testing import ConformanceError, check_game
        >>> class Reversed(MaplessHouse):
        ...     def legal_actions(self, state):
        ...         return super().legal_actions(state)[::-1]
        >>> try:
        ...     check_game(Reversed(), games=1)
        ... except ConformanceError as error:
        ...     print(error)
        mapless-house seed 0 (sampled chance), step 0: legal actions are not distinct and sorted
    """


class UnknownFigureError(CardcrawlError, KeyError):
    """A simulation figure that the game does not record; the message lists those it does.

    It is a ``KeyError``, as a figure is looked up by name.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import simulate
        >>> game = cardcrawl.load("mapless-house", max_turns=50)
        >>> result = simulate(game, "random", games=1, workers=1).results[0]
        >>> result.figure("height")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UnknownFigureError: this game records no figure 'height'; its ...
    """

    def __str__(self) -> str:
        # KeyError shows its argument's repr (for a missing key); this argument is a
        # sentence, shown as it is.
        return str(self.args[0]) if len(self.args) == 1 else super().__str__()


class UnsupportedTypeError(CardcrawlError, TypeError):
    """The JSON codec was given a value, or a declared field type, that it has no rule for.

    The codec saves ``None``, booleans, integers, floats, strings, cards, enums,
    tuples, lists, frozensets, grids, decks, mappings and attrs classes made of those,
    and reads them back into fields declared as ``tuple[X, ...]``, ``frozenset[X]``,
    ``Mapping[str, X]`` and the like. Saving anything else (a state edited by hand to
    hold an ``object()``, an option given a set) raises this error; so does reading a
    field declared as a type it has no rule for (``list[int]``, ``set[int]``), which is
    a bug in the game's classes rather than in the data, and so is not called a
    :class:`SerializationError`.

    Examples:
        >>> import attrs, cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = attrs.evolve(game.initial_state(seed=1), turn=object())
        >>> game.state_to_data(state)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UnsupportedTypeError: cannot save a value of type object: the codec ...
    """


class MissingExtraError(CardcrawlError, ImportError):
    """A feature needs an optional dependency that is not installed; the message names the
    extra to install (``pip install 'cardcrawl[plot]'``).

    It is an ``ImportError``, as the missing import would have raised.

    Examples:
        >>> from cardcrawl.errors import MissingExtraError
        >>> error = MissingExtraError(
        ...     "plots need matplotlib: pip install 'cardcrawl[plot]'", name="matplotlib")
        >>> error.name, isinstance(error, ImportError)
        ('matplotlib', True)
    """


class HookError(CardcrawlError, RuntimeError):
    """A game's rule hook gave an answer its rule cannot use.

    A variant's hook broke the contract its docstring states: for instance an
    ``exit_cells`` that returns no cell, although the Exit must open somewhere (M-11).
    The state stepped from is unchanged.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless import MaplessHouse
        >>> class Nowhere(MaplessHouse):
        ...     def exit_cells(self, state):
        ...         return []
        >>> game = Nowhere()
        >>> spades = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH".split()
        >>> state = game.initial_state(seed=1, stack={"narrative": spades})
        >>> while game.legal_actions(state):
        ...     state = game.step(state, game.legal_actions(state)[0])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.HookError: Nowhere.exit_cells returned no cell: the Exit must open ...
    """


class SolverBudgetError(CardcrawlError, RuntimeError):
    """The exact solver (:mod:`cardcrawl.solve`) ran out of its node or time budget.

    It is a ``RuntimeError``: the arguments were sound, the position is only too large
    for the budget given. Nothing is returned half-solved.

    Attributes:
        budget: which budget ran out, ``"max_nodes"`` or ``"seconds"``.
        limit: the budget's value.
        nodes: how many states the search had valued when it stopped.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.solve import solve
        >>> game = cardcrawl.load("mapless-house", max_turns=2)
        >>> state = game.initial_state(seed=1, explicit_chance=True)
        >>> try:
        ...     solve(game, state, max_nodes=100)
        ... except cardcrawl.errors.SolverBudgetError as error:
        ...     print(error.budget, error.limit, error.nodes)
        max_nodes 100 101
    """

    def __init__(self, message: str, budget: str = "", limit: float = 0, nodes: int = 0) -> None:
        super().__init__(message)
        self.budget = budget
        self.limit = limit
        self.nodes = nodes


class UnsolvableError(CardcrawlError, ValueError):
    """A position the exact solver (:mod:`cardcrawl.solve`) cannot solve soundly.

    The message says why and what would work: a state of sampled play (its generator
    decides the draws), a state with information hidden from the player (a stacked
    deck), another seat's decision with no policy given for it, a chance tree that
    comes back to a state it left (a game with no turn limit), or probabilities that
    are not exact.

    Attributes:
        state: the state where the search found the problem, or ``None``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.solve import solve
        >>> game = cardcrawl.load("mapless-house", max_turns=2)
        >>> solve(game, game.initial_state(seed=1))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UnsolvableError: the state is in sampled play: ...
    """

    def __init__(self, message: str, state: Any = None) -> None:
        super().__init__(message)
        self.state = state


class NotationError(ParseError):
    """A position's notation (see :meth:`~cardcrawl.GameBase.position`) is malformed,
    names no legal position, or the game has no notation.

    Attributes:
        field: the name of the notation's field at fault, such as ``"table"``; empty
            when no one field is (the text as a whole, or a game without a notation).

    Examples:
        >>> from cardcrawl.errors import NotationError, ParseError
        >>> error = NotationError("table: 'ZZ' is not a card", field="table")
        >>> error.field, isinstance(error, ParseError), isinstance(error, ValueError)
        ('table', True, True)
    """

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class RecordFileError(SerializationError, OSError):
    """A record file (see :meth:`~cardcrawl.Record.load`) is missing or cannot be read
    or written.

    A file that is read but holds no record raises :class:`SerializationError` itself.

    Attributes:
        path: the file's path, as given.

    Examples:
        >>> from cardcrawl.errors import RecordFileError, SerializationError
        >>> error = RecordFileError("no record file at 'game.json'", path="game.json")
        >>> error.path, isinstance(error, SerializationError), isinstance(error, OSError)
        ('game.json', True, True)
    """

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class SamplingError(CardcrawlError, NotImplementedError):
    """A game cannot draw a state from an observation: it does not override
    :meth:`~cardcrawl.GameBase.sample_state`, which searching bots such as IS-MCTS need.

    Examples:
        >>> from cardcrawl.errors import SamplingError
        >>> isinstance(SamplingError("no sample_state"), NotImplementedError)
        True
    """


#: The errors that moved to the surface raising them, each with its new home.
_MOVED = {
    "EngineError": "cardcrawl.bots",
    "EngineTimeoutError": "cardcrawl.bots",
    "ModelReplyError": "cardcrawl.bots",
    "RequestError": "cardcrawl.web",
    "StorageError": "cardcrawl.web",
}


# Type checkers are not shown this __getattr__: with it, they would accept any name of
# the module.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """The deprecated old names of the errors that moved to their surfaces.

        The surface is imported only here, when an old name is asked for: a web error's
        needs the web extra, which nothing else in this module imports.
        """
        home = _MOVED.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        warnings.warn(
            f"cardcrawl.errors.{name} is deprecated; import it from {home} "
            f"(from {home} import {name})",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(home), name)
