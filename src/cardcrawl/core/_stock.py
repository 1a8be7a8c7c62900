"""Whether a game plays a class's rules exactly as written: the question a rollout kernel
asks before it plays a game on its own (see ``GameTools.rollout``).

A kernel is a second statement of the rules, so it may only play a game whose every rule
is the one it was written for. A variant changes a rule by overriding a method or class
attribute (a hook such as ``guess_is_correct``, a rule step, an engine method), or an
instance may shadow one; either way the game is no longer the stock one, and must be
played the public way, where its rule is seen.

A kernel that asks the game's own hooks, as the public path does, may name them
(``hooks``): a variant that changes only those is still played by the kernel, which is
then told which of them it changed (:meth:`StockRules.changed`), to call them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, final

from cardcrawl.core._engine import GameBase

__all__ = ["StockRules"]

#: Names that do not state a rule: the two that only name the game, the version a variant
#: gives its rules (a number, not a rule), and the bookkeeping the abc module gives every
#: subclass.
_NOT_RULES = frozenset({"game_name", "title", "rules_version", "_abc_impl"})


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
    first game (a test's monkeypatch, say) no longer counts as stock. ``hooks`` are the
    names a game may change and still be played by the kernel, which honours them.

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

        With hooks the kernel honours, a variant changing only those is still played, and
        :meth:`changed` names what it changed:

        >>> honours = StockRules(EscapeFromHaydes, HaydesState, hooks={"guess_is_correct"})
        >>> sorted(honours.changed(Generous())), sorted(honours.changed(EscapeFromHaydes()))
        (['guess_is_correct'], [])
        >>> class Sticky(Generous):
        ...     def _apply(self, state, action, events):
        ...         return super()._apply(state, action, events)
        >>> print(honours.changed(Sticky()))
        None
    """

    def __init__(
        self,
        stock: type[GameBase[Any, Any, Any]],
        state_type: type,
        hooks: Iterable[str] = (),
    ) -> None:
        names = {
            name
            for cls in (stock, GameBase)
            for name in vars(cls)
            if name not in _NOT_RULES and not (name.startswith("__") and name != "__init__")
        }
        self._stock = stock
        self._state_type = state_type
        self._hooks = frozenset(hooks)
        if not self._hooks <= names:
            raise ValueError(f"not rules of {stock.__name__}: {sorted(self._hooks - names)}")
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
        self._classes: dict[type, frozenset[str] | None] = {}

    def plays(self, game: object) -> bool:
        """Does ``game`` play these rules: its class overrides none of them and keeps
        the stock state type, and the instance shadows none of its methods?"""
        return self.changed(game) == frozenset()

    def changed(self, game: object) -> frozenset[str] | None:
        """The hooks ``game`` changes (by its class or its instance), or ``None`` when it
        changes anything else: another rule, or the state type."""
        cls = type(game)
        if cls in self._classes:
            changed = self._classes[cls]
        else:
            changed = self._classes[cls] = self._class_changes(cls)
        if changed is None:
            return None
        shadowed = self._methods.intersection(vars(game))
        if not shadowed:
            return changed
        return changed | shadowed if shadowed <= self._hooks else None

    def _class_changes(self, cls: type) -> frozenset[str] | None:
        if not issubclass(cls, self._stock) or _defined(cls, "state_type") is not self._state_type:
            return None
        changed = frozenset(
            name for name, rule in self._rules.items() if _defined(cls, name) is not rule
        )
        return changed if changed <= self._hooks else None
