"""Games and variants by name.

The command line and every generic tool find games here. A *variant* is a named set of
options over a registered game, optionally with its own game class overriding the
game's documented hook methods; users register their own without touching the library.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs

from cardcrawl._engine import GameBase
from cardcrawl._errors import OptionsError, UnknownGameError

__all__ = ["GameSpec", "game_names", "get_spec", "load", "register_game", "register_variant"]


def _frozen_mapping(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@attrs.frozen
class GameSpec:
    """A registry entry: a game class with preset options under a name.

    Attributes:
        name: the registry name (``"mapless-house"``).
        game_class: the :class:`~cardcrawl.GameBase` subclass implementing the rules.
        preset: options applied before the caller's own (a variant's settings).
        description: one line for listings.
        base: for a variant, the name of the game it varies; else ``None``.

    Examples:
        >>> import cardcrawl
        >>> spec = cardcrawl.get_spec("escape-from-haydes-tuybe")
        >>> spec.base, dict(spec.preset), spec.game_class.__name__
        ('escape-from-haydes', {'tuybe': True}, 'EscapeFromHaydes')
    """

    name: str
    game_class: type[GameBase[Any, Any, Any]]
    preset: Mapping[str, Any] = attrs.field(converter=_frozen_mapping)
    description: str = ""
    base: str | None = None


_REGISTRY: dict[str, GameSpec] = {}


def _check_name(name: str, replace: bool) -> None:
    if not isinstance(name, str) or not name or name != name.strip() or " " in name:
        raise OptionsError(f"a game name is a non-empty string without spaces, not {name!r}")
    if name in _REGISTRY and not replace:
        raise OptionsError(f"{name!r} is already registered; pass replace=True to override it")


def register_game(
    name: str,
    game_class: type[GameBase[Any, Any, Any]],
    *,
    description: str = "",
    replace: bool = False,
) -> GameSpec:
    """Register a game class under ``name`` so that :func:`load` and the CLI find it.

    Args:
        name: the registry name, a non-empty string without spaces.
        game_class: the :class:`~cardcrawl.GameBase` subclass implementing the rules.
        description: one line for listings (``cardcrawl games``).
        replace: allow replacing a game or variant already registered under ``name``.

    Returns:
        The new registry entry.

    Raises:
        OptionsError: the name is malformed, or taken and ``replace`` is false.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless import MaplessHouse
        >>> class QuietHouse(MaplessHouse):
        ...     rules_version = "1-quiet.1"
        >>> spec = cardcrawl.register_game(
        ...     "quiet-house", QuietHouse, description="A house of my own.", replace=True)
        >>> cardcrawl.load("quiet-house", max_turns=10).rules_version
        '1-quiet.1'
        >>> cardcrawl.register_game("mapless-house", QuietHouse)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl._errors.OptionsError: 'mapless-house' is already registered; pass replace=True ...
    """
    _check_name(name, replace)
    spec = GameSpec(name, game_class, {}, description)
    _REGISTRY[name] = spec
    return spec


def register_variant(
    name: str,
    *,
    base: str,
    options: Mapping[str, Any] | None = None,
    game_class: type[GameBase[Any, Any, Any]] | None = None,
    description: str = "",
    replace: bool = False,
) -> GameSpec:
    """Register a variant: a registered game with preset options and maybe its own class.

    The options are validated now, so a broken variant fails at registration.

    Args:
        name: the variant's registry name, a non-empty string without spaces.
        base: the registered game (or variant) it varies.
        options: options preset over the base's own presets.
        game_class: a subclass of the base's class overriding its hook methods;
            by default the base's class.
        description: one line for listings (``cardcrawl games``).
        replace: allow replacing a game or variant already registered under ``name``.

    Returns:
        The new registry entry.

    Examples:
        >>> import cardcrawl
        >>> spec = cardcrawl.register_variant(
        ...     "mapless-house-brief", base="mapless-house", options={"max_turns": 30},
        ...     description="The Mapless House, lost after 30 turns of the hunt.",
        ...     replace=True)
        >>> cardcrawl.load("mapless-house-brief").options.max_turns
        30

    Raises:
        UnknownGameError: ``base`` is not registered.
        OptionsError: the name is taken, or the options are invalid for the base game.
    """
    _check_name(name, replace)
    parent = get_spec(base)
    cls = game_class if game_class is not None else parent.game_class
    preset = {**parent.preset, **(options or {})}
    cls.options_type.from_data(preset)
    spec = GameSpec(name, cls, preset, description, parent.base or parent.name)
    _REGISTRY[name] = spec
    return spec


def get_spec(name: str) -> GameSpec:
    """The registry entry for ``name``.

    Args:
        name: a registered game or variant name.

    Returns:
        Its registry entry.

    Raises:
        UnknownGameError: no game or variant has that name; the message lists them.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.get_spec("mapless-house").base is None
        True
        >>> cardcrawl.get_spec("mapless-mansion")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl._errors.UnknownGameError: no game or variant is named 'mapless-mansion'; ...
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownGameError(f"no game or variant is named {name!r}; known: {known}") from None


def game_names() -> tuple[str, ...]:
    """Every registered game and variant name, sorted.

    Returns:
        The names, built-in and registered by the program alike.

    Examples:
        >>> import cardcrawl
        >>> "mapless-house" in cardcrawl.game_names()
        True
    """
    return tuple(sorted(_REGISTRY))


def load(name: str, /, **options: Any) -> Any:
    """The game registered as ``name``, with options (over a variant's presets).

    Args:
        name: a registered game or variant name.
        **options: options by name, over the variant's presets and the game's defaults.

    Returns:
        The game, its rules bound to those options (a :class:`~cardcrawl.Game`).

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=500)
        >>> game.name, game.options.max_turns
        ('mapless-house', 500)

    Raises:
        UnknownGameError: ``name`` is not registered.
        OptionsError: an option is unknown or invalid; the message says what is allowed.
    """
    spec = get_spec(name)
    opts = spec.game_class.options_type.from_data({**spec.preset, **options})
    return spec.game_class(opts, name=spec.name)
