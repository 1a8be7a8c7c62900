"""Games and variants by name.

The command line and every generic tool find games here. A *variant* is a named set of
options over a registered game, optionally with its own game class overriding the
game's documented hook methods; users register their own without touching the library.

Installed packages add games through *plug-ins*: entry points in the group
``cardcrawl.games`` (:data:`ENTRY_POINT_GROUP`), each naming a module to import or a
``module:function`` to call, which registers games and variants. Plug-ins are loaded
lazily, each at most once per process: the first time a name is looked up that is not
registered yet, or when every name is listed. A lookup of a registered name (every
built-in game) never loads them, so a broken plug-in cannot break the built-in games.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import threading
import warnings
from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any

import attrs

from cardcrawl.core._engine import GameBase
from cardcrawl.core._tools import GameTools
from cardcrawl.errors import OptionsError, PluginError, UnknownGameError

__all__ = [
    "ENTRY_POINT_GROUP",
    "GameSpec",
    "PluginError",
    "game_names",
    "get_spec",
    "load",
    "load_plugins",
    "register_game",
    "register_variant",
    "tools_for",
]

#: The entry-point group in which installed packages declare their game plug-ins.
ENTRY_POINT_GROUP = "cardcrawl.games"


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
        tools: what the game brings to the generic tools (a variant: its base's).

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
    tools: GameTools = attrs.field(factory=GameTools)


_REGISTRY: dict[str, GameSpec] = {}


# -------------------------------------------------------------- plug-ins
@attrs.frozen
class _Failure:
    """A plug-in that failed: what it is (``name = value``), the sentence, the cause."""

    plugin: str
    message: str
    cause: BaseException


# Entry points are tried once each, keyed by "name = value"; a failure is kept, so every
# later lookup that needed plug-ins can say why a name may be missing.
_PLUGIN_LOCK = threading.RLock()
_DISCOVERED: list[importlib.metadata.EntryPoint] | None = None
_TRIED: set[str] = set()
_LOADED: list[str] = []
_FAILURES: list[_Failure] = []


def _plugin_key(entry_point: importlib.metadata.EntryPoint) -> str:
    return f"{entry_point.name} = {entry_point.value}"


def _discover() -> list[importlib.metadata.EntryPoint]:
    found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    # One order on every machine: by name, whatever order sys.path finds them in.
    return sorted(found, key=lambda ep: (ep.name, ep.value))


def _describe(entry_point: importlib.metadata.EntryPoint) -> str:
    dist = getattr(entry_point, "dist", None)
    source = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"plug-in {_plugin_key(entry_point)!r} (entry point{source} in {ENTRY_POINT_GROUP})"


def _cause_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _load_entry_point(entry_point: importlib.metadata.EntryPoint) -> None:
    """Import (and call) one plug-in; a failure is recorded, never raised."""
    what = _describe(entry_point)
    try:
        target = entry_point.load()
        if entry_point.attr is not None:
            if not callable(target) or isinstance(target, (type, ModuleType)):
                raise TypeError(
                    f"{entry_point.value} is {type(target).__name__}; a plug-in names a "
                    "module to import or a function to call (module:function)"
                )
            target()
    except Exception as exc:  # a plug-in's own code may raise anything
        message = f"{what} failed to load: {_cause_text(exc)}"
        _FAILURES.append(_Failure(_plugin_key(entry_point), message, exc))
        return
    _LOADED.append(_plugin_key(entry_point))


def _load_pending_plugins(*, rediscover: bool = False) -> None:
    """Load every plug-in not tried yet; entry points are discovered once unless asked."""
    global _DISCOVERED
    with _PLUGIN_LOCK:
        if _DISCOVERED is None or rediscover:
            _DISCOVERED = _discover()
        for entry_point in _DISCOVERED:
            key = _plugin_key(entry_point)
            # Marked before loading: a plug-in that looks up another plug-in's game
            # (to register a variant of it) loads the others from inside, never itself.
            if key in _TRIED:
                continue
            _TRIED.add(key)
            _load_entry_point(entry_point)


def _failures_error(prefix: str = "") -> PluginError | None:
    if not _FAILURES:
        return None
    message = "; ".join(f.message for f in _FAILURES)
    hint = "fix or uninstall the package, or import what it registers yourself"
    error = PluginError(f"{prefix}{message} ({hint})", [f.plugin for f in _FAILURES])
    error.__cause__ = _FAILURES[0].cause
    return error


def _import_module(name: str) -> ModuleType:
    """Import ``name`` for what it registers (the CLI's ``--import``).

    Raises:
        PluginError: the name is not a module name, the module cannot be found, or it
            raised while importing.
    """
    if not all(part.isidentifier() for part in name.split(".")):
        raise PluginError(
            f"{name!r} is not a module name: give one as an import statement would, "
            "such as my_variants or my_pkg.variants",
            [name],
        )
    try:
        return importlib.import_module(name)
    except Exception as exc:  # the module's own code may raise anything
        hint = ""
        if isinstance(exc, ModuleNotFoundError) and name.endswith(".py"):
            hint = f" (for the file {name}, give the module name {name[:-3]!r})"
        raise PluginError(
            f"module {name!r} cannot be imported: {_cause_text(exc)}{hint}", [name]
        ) from exc


def load_plugins() -> tuple[str, ...]:
    """Load every installed plug-in now, instead of at the first lookup that needs them.

    Plug-ins are the entry points of the group ``cardcrawl.games`` that installed
    packages declare, each a module to import or a ``module:function`` to call that
    registers games and variants (see the how-to guide on plug-ins). Lookups load them
    by themselves when a name is not registered yet; call this to load them at a time
    of your choosing, to pick up packages installed while the program runs, or to check
    that every plug-in loads. Each plug-in is loaded at most once per process.

    Returns:
        Every plug-in loaded so far, as ``name = value``, in the order loaded.

    Raises:
        PluginError: a plug-in failed to load (now or at an earlier lookup); the
            others are loaded all the same.

    Examples:
        >>> import cardcrawl
        >>> loaded = cardcrawl.load_plugins()  # none, unless your packages declare some
        >>> all(" = " in plugin for plugin in loaded)
        True
    """
    _load_pending_plugins(rediscover=True)
    error = _failures_error()
    if error is not None:
        raise error
    return tuple(_LOADED)


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
    tools: GameTools | None = None,
    replace: bool = False,
) -> GameSpec:
    """Register a game class under ``name`` so that :func:`load` and the CLI find it.

    Args:
        name: the registry name, a non-empty string without spaces.
        game_class: the :class:`~cardcrawl.GameBase` subclass implementing the rules.
        description: one line for listings (``cardcrawl games``).
        tools: what the game brings to the generic tools: its encoding, simulation
            figures, default limit, adapter settings and command-line shortcuts (see
            :class:`~cardcrawl.GameTools`); ``None`` for none of them.
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
        cardcrawl.errors.OptionsError: 'mapless-house' is already registered; pass replace=True ...
    """
    _check_name(name, replace)
    if tools is not None and not isinstance(tools, GameTools):
        raise OptionsError(f"tools is a cardcrawl.GameTools, not {tools!r}")
    spec = GameSpec(name, game_class, {}, description, None, tools or GameTools())
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
    spec = GameSpec(name, cls, preset, description, parent.base or parent.name, parent.tools)
    _REGISTRY[name] = spec
    return spec


def _set_slot_deprecated(
    function: str, what: str, family: str, slot: str, value: Any, unregistered: dict[str, Any]
) -> None:
    """What each registration function kept for one release does: warn that ``function``
    is deprecated, then set ``slot`` of the tools of the game ``family`` and its variants
    to ``value``, or keep it in ``unregistered`` while ``family`` is not registered."""
    warnings.warn(
        f"{function} is deprecated and will be removed in the next release: declare the "
        f"{what} where the game registers, register_game(..., tools=GameTools({slot}=...))",
        DeprecationWarning,
        stacklevel=3,
    )
    if not _set_tools(family, **{slot: value}):
        unregistered[family] = value


def _set_tools(family: str, **slots: Any) -> bool:
    """Set ``slots`` of the tools of the game ``family`` and of its variants, for the
    registration functions kept for one release; whether ``family`` is registered."""
    found = False
    for name, spec in list(_REGISTRY.items()):
        if (spec.base or spec.name) == family:
            _REGISTRY[name] = attrs.evolve(spec, tools=attrs.evolve(spec.tools, **slots))
            found = True
    return found


def specs() -> tuple[GameSpec, ...]:
    """Every registry entry, by name (no plug-in is loaded for it)."""
    return tuple(spec for _, spec in sorted(_REGISTRY.items()))


def get_spec(name: str) -> GameSpec:
    """The registry entry for ``name``.

    A name that is not registered yet is looked for in the plug-ins not loaded yet
    (see :func:`load_plugins`) before the lookup fails.

    Args:
        name: a registered game or variant name.

    Returns:
        Its registry entry.

    Raises:
        UnknownGameError: no game or variant has that name; the message lists them.
        PluginError: no game or variant has that name, and a plug-in that might have
            registered it failed to load; the message says why.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.get_spec("mapless-house").base is None
        True
        >>> cardcrawl.get_spec("mapless-mansion")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UnknownGameError: no game or variant is named 'mapless-mansion'; ...
    """
    spec = _REGISTRY.get(name) if isinstance(name, str) else None
    if spec is None and isinstance(name, str):
        # Only a name not registered yet needs the plug-ins.
        _load_pending_plugins()
        spec = _REGISTRY.get(name)
    if spec is not None:
        return spec
    message = f"no game or variant is named {name!r}; known: {', '.join(sorted(_REGISTRY))}"
    error = _failures_error(f"{message}; it may be one that a plug-in failed to register: ")
    if error is not None and isinstance(name, str):
        raise error
    raise UnknownGameError(message)


def tools_for(game: Any) -> GameTools:
    """What the game (a loaded game, or a registered name) brings to the generic tools.

    A variant has its base game's tools; a game that is not registered has none.

    Args:
        game: a loaded game (its ``name`` is looked up) or a game or variant name.

    Returns:
        Its :class:`~cardcrawl.GameTools`.

    Raises:
        UnknownGameError: ``game`` is a name that nothing registered.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.tools_for(cardcrawl.load("mapless-house")).limit
        ('max_turns', 200)
    """
    if isinstance(game, str):
        return get_spec(game).tools
    name = getattr(game, "name", None)
    spec = _REGISTRY.get(name) if isinstance(name, str) else None
    if spec is None or not isinstance(game, spec.game_class):
        return GameTools()
    return spec.tools


def game_names() -> tuple[str, ...]:
    """Every registered game and variant name, sorted.

    Plug-ins not loaded yet are loaded first (see :func:`load_plugins`).

    Returns:
        The names: built-in, registered by plug-ins and by the program alike.

    Raises:
        PluginError: a plug-in failed to load, so the list would be incomplete.

    Examples:
        >>> import cardcrawl
        >>> "mapless-house" in cardcrawl.game_names()
        True
    """
    _load_pending_plugins()
    error = _failures_error()
    if error is not None:
        raise error
    return _known_names()


def _known_names() -> tuple[str, ...]:
    """The names registered now, without loading plug-ins (for a listing despite one)."""
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
        UnknownGameError: ``name`` is not registered (a :class:`PluginError` when a
            plug-in that might have registered it failed to load).
        OptionsError: an option is unknown or invalid; the message says what is allowed.
    """
    spec = get_spec(name)
    opts = spec.game_class.options_type.from_data({**spec.preset, **options})
    return spec.game_class(opts, name=spec.name)
