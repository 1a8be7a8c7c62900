"""Whether a game plays a class's rules exactly as written: the question a rollout kernel
asks before it plays a game on its own (see ``GameTools.rollout``).

A kernel is a second statement of the rules, so it may only play a game whose every rule
is the one it was written for. A variant changes a rule by overriding a method or class
attribute (a hook such as ``guess_is_correct``, a rule step, an engine method), or an
instance may shadow one; either way the game is no longer the stock one, and must be
played the public way, where its rule is seen.
"""

from __future__ import annotations

import functools
from typing import Any, final

from cardcrawl.core._engine import GameBase

__all__ = ["StockRules"]

#: Names that do not state a rule: the two that only name the game, and the bookkeeping
#: the abc module gives every subclass.
_NOT_RULES = frozenset({"game_name", "title", "_abc_impl"})


def _defined(cls: type, name: str) -> Any:
    """The class attribute ``name`` as defined, not as bound (a class method read with
    getattr is a new object each time), or ``None``."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


@final
class StockRules:
    """The rules of ``stock`` as they are when this is made: every method and class
    attribute of ``stock`` and of :class:`~cardcrawl.GameBase`, dunders aside (but
    ``__init__``).

    Made when a kernel's module is imported, so that the stock class patched before its
    first game (a test's monkeypatch, say) no longer counts as stock.

    Examples:
        >>> from cardcrawl.haydes import EscapeFromHaydes, HaydesState
        >>> stock = StockRules(EscapeFromHaydes, HaydesState)
        >>> class Generous(EscapeFromHaydes):
        ...     def guess_is_correct(self, guess, from_value, value):
        ...         return True
        >>> stock.plays(EscapeFromHaydes()), stock.plays(Generous())
        (True, False)
        >>> shadowed = EscapeFromHaydes()
        >>> shadowed.guess_is_correct = lambda guess, from_value, value: True
        >>> stock.plays(shadowed)
        False
    """

    def __init__(self, stock: type[GameBase[Any, Any, Any]], state_type: type) -> None:
        names = {
            name
            for cls in (stock, GameBase)
            for name in vars(cls)
            if name not in _NOT_RULES and not (name.startswith("__") and name != "__init__")
        }
        self._stock = stock
        self._state_type = state_type
        self._rules = {name: _defined(stock, name) for name in names}
        # The ones an instance could shadow with a rule of its own: its methods. (An
        # instance keeps values of its own under other names: a cached property's
        # cache, tables of a hook's answers.)
        self._methods = frozenset(
            name
            for name in names
            if callable(getattr(stock, name, None))
            and not isinstance(vars(stock).get(name), functools.cached_property)
        )
        # By class: asked for every game of a simulation, so a class is looked at once
        # (one changed after its first game is not seen again).
        self._classes: dict[type, bool] = {}

    def plays(self, game: object) -> bool:
        """Does ``game`` play these rules: its class overrides none of them and keeps
        the stock state type, and the instance shadows none of its methods?"""
        cls = type(game)
        stock = self._classes.get(cls)
        if stock is None:
            stock = self._classes[cls] = self._class_plays(cls)
        return stock and self._methods.isdisjoint(vars(game))

    def _class_plays(self, cls: type) -> bool:
        if not issubclass(cls, self._stock) or _defined(cls, "state_type") is not self._state_type:
            return False
        return all(_defined(cls, name) is rule for name, rule in self._rules.items())
