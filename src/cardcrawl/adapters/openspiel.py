"""OpenSpiel games: The Mapless House and Escape from Haydes as ``pyspiel`` Python games.

Install with ``pip install "cardcrawl[openspiel]"``. Importing this module registers two
games with OpenSpiel, so that ``pyspiel.load_game`` finds them:

* ``cardcrawl_mapless_house``, parameters ``variant`` (default ``"mapless-house"``) and
  ``max_turns``;
* ``cardcrawl_escape_from_haydes``, parameters ``variant`` (default
  ``"escape-from-haydes"``), ``players`` (1 to 4), ``splits`` and ``max_rounds``.

``variant`` names any cardcrawl game or variant of that game, built in
(``"escape-from-haydes-tuybe"``, ``"-denizens"``, ``"-solo-timer"``) or registered by you
with :func:`cardcrawl.register_variant`. The limit (``max_turns`` / ``max_rounds``) is
always finite, since OpenSpiel needs a bound on the game's length: ``0``, the default,
takes the variant's own limit, or 200 turns / 100 rounds when it has none. ``splits`` gives
each player's (Charisma, Endurance) as ``"7/9;9/7"``; empty gives everyone 8/8.
:func:`load_game` does the same from a cardcrawl name and keyword options.

How the games appear to OpenSpiel:

* **chance** is explicit (``EXPLICIT_STOCHASTIC``): the states wrap cardcrawl states made
  with ``explicit_chance=True``, and ``chance_outcomes()`` lists the game's own outcomes
  with their exact probabilities (as floats; :meth:`CardcrawlState.exact_chance_outcomes`
  gives the fractions);
* **actions** and chance outcomes are numbered by :func:`cardcrawl.encoding.encoding_for`;
* **observations**: ``observation_tensor`` is the encoding of ``game.observe(state,
  player)``, with one named piece per segment of the encoding's layout;
  ``observation_string`` is that observation as canonical JSON;
* **information states**: the games hold no private information, and cardcrawl deals
  lazily (a card's identity is drawn only when it comes to light), so every action and
  every chance outcome is seen by every player the moment it happens. A player's
  information state is therefore the whole history: ``information_state_string`` lists
  it move by move (perfect recall). No information-state *tensor* is offered, since a
  fixed-size perfect-recall tensor would have to hold the whole history; the observation
  tensor already determines everything that matters for the rest of the game;
* **information type** ``IMPERFECT_INFORMATION``: the physical games hide cards (shuffled
  decks, face-down cells), and the adapter keeps OpenSpiel's information-state contract so
  that information-set algorithms such as ISMCTS run. Each information state holds a
  single history, so :meth:`CardcrawlState.resample_from_infostate` (through
  :meth:`~cardcrawl.Game.determinize`) returns the same position with a fresh generator;
* **returns**: the game's returns at the end (1.0 for a win, else 0.0), 0 before
  (``GENERAL_SUM``, terminal rewards);
* **serialization** (``pyspiel.serialize_game_and_state``, ``pickle``) stores the state as
  cardcrawl's own saved data (:meth:`~cardcrawl.Game.state_to_data`) with the history.

Bots: ``pyspiel.MCTSBot`` plays these games through ``step_with_policy`` (its ``step``
releases Python's lock and then calls back into Python, which crashes OpenSpiel 2.0 with
any Python game). For information-set search use the Python
``open_spiel.python.algorithms.ismcts.ISMCTSBot``: the C++ ``pyspiel.ISMCTSBot`` cannot
reach a Python game's ``resample_from_infostate``.

Examples:
    >>> import pyspiel
    >>> import cardcrawl.adapters.openspiel
    >>> game = pyspiel.load_game("cardcrawl_escape_from_haydes", {"players": 2})
    >>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
    (2, 321, 67)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), [state.action_to_string(a) for a in state.legal_actions()]
    (True, ['first 0', 'first 1'])
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import cardcrawl
from cardcrawl.core._codec import encode
from cardcrawl.core._protocol import CHANCE
from cardcrawl.core._tools import OpenSpielSettings
from cardcrawl.encoding import Encoding, encoding_for
from cardcrawl.errors import OptionsError

__all__ = [
    "DEFAULT_LIMITS",
    "SHORT_NAMES",
    "CardcrawlGame",
    "CardcrawlState",
    "game_class",
    "load_game",
    "register_games",
]

#: The OpenSpiel short name of each cardcrawl base game registered with OpenSpiel (each
#: game declares it in its ``GameTools``; see :func:`register_games`).
SHORT_NAMES: dict[str, str] = {}

#: The limit a game gets when neither its parameters nor its variant set one (the
#: game's declared ``GameTools.limit``), for each base game in :data:`SHORT_NAMES`.
DEFAULT_LIMITS: dict[str, tuple[str, int]] = {}

_GAME_TYPES: dict[str, Any] = {}
_CLASSES: dict[str, type[CardcrawlGame]] = {}


# --------------------------------------------------------------------- shared data
class _Shared:
    """What every state of one game shares: the cardcrawl game, its encoding and caches.

    Found through :func:`_shared` by the game's name and options, so that a state
    restored from saved data shares the object of the game that loads it.
    """

    def __init__(self, name: str, options_json: str) -> None:
        self.name = name
        self.options_json = options_json
        self.game: Any = cardcrawl.load(name, **json.loads(options_json))
        self.encoding: Encoding = encoding_for(self.game)
        self.initial = self.game.initial_state(seed=0, explicit_chance=True)
        self._texts: dict[tuple[bool, int], str] = {}

    def action_text(self, chance: bool, index: int) -> str:
        """The text of decision (or chance outcome) number ``index``."""
        key = (chance, index)
        text = self._texts.get(key)
        if text is None:
            enc = self.encoding
            action = enc.decode_chance(index) if chance else enc.decode_action(index)
            text = self._texts[key] = self.game.format_action(action)
        return text

    def __deepcopy__(self, memo: Any) -> _Shared:
        return self  # immutable in all that matters; the caches only grow

    def __reduce__(self) -> tuple[Any, ...]:
        return (_shared, (self.name, self.options_json))


@functools.lru_cache(maxsize=64)
def _shared(name: str, options_json: str) -> _Shared:
    return _Shared(name, options_json)


class _Trail:
    """One move of a history, linked to the moves before it (a persistent list)."""

    __slots__ = ("index", "parent", "player")

    def __init__(self, player: int, index: int, parent: _Trail | None) -> None:
        self.player = player
        self.index = index
        self.parent = parent

    def moves(self) -> list[tuple[int, int]]:
        """Every (player, index) of the history, oldest first."""
        found: list[tuple[int, int]] = []
        node: _Trail | None = self
        while node is not None:
            found.append((node.player, node.index))
            node = node.parent
        found.reverse()
        return found


class _Position:
    """The immutable content of a :class:`CardcrawlState`: a cardcrawl state and the
    history that led to it. Clones share it; applying an action replaces it."""

    __slots__ = ("_chances", "_legal", "shared", "state", "trail")

    def __init__(self, shared: _Shared, state: Any, trail: _Trail | None) -> None:
        self.shared = shared
        self.state = state
        self.trail = trail
        self._legal: list[int] | None = None
        self._chances: list[tuple[int, float]] | None = None

    def legal(self) -> list[int]:
        """The ascending integers of the legal decisions (cached)."""
        if self._legal is None:
            self._legal = list(self.shared.encoding.legal_indices(self.state))
        return self._legal

    def chances(self) -> list[tuple[int, float]]:
        """The chance outcomes' integers and probabilities, ascending (cached).

        Searches ask for these at every chance event they pass, so they come from the
        game's integer weights (the numbers behind :meth:`~cardcrawl.Game.chance_outcomes`)
        rather than through fractions: ``w / total`` is the correctly rounded float of the
        exact probability, as ``float(Fraction(w, total))`` is.
        """
        if self._chances is None:
            game = self.shared.game
            encode_chance = self.shared.encoding.encode_chance
            if game.current_player(self.state) != CHANCE:
                self._chances = []
            else:
                weights = game._chances(self.state)
                total = sum(w for _, w in weights)
                self._chances = sorted((encode_chance(o), w / total) for o, w in weights)
        return self._chances

    def __deepcopy__(self, memo: Any) -> _Position:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        shared = self.shared
        data = json.dumps(shared.game.state_to_data(self.state), separators=(",", ":"))
        moves = self.trail.moves() if self.trail is not None else []
        return (_restore_position, (shared.name, shared.options_json, data, moves))


def _restore_position(
    name: str, options_json: str, data: str, moves: list[tuple[int, int]]
) -> _Position:
    shared = _shared(name, options_json)
    trail: _Trail | None = None
    for player, index in moves:
        trail = _Trail(player, index, trail)
    return _Position(shared, shared.game.state_from_data(json.loads(data)), trail)


# --------------------------------------------------------------------- parameters
def _resolve(base: str, variant: Any) -> tuple[str, dict[str, Any]]:
    """The variant's registry name and its preset options, checked to vary ``base``.

    Raises:
        OptionsError: ``variant`` is not a string or varies another game.
        UnknownGameError: no game or variant has that name.
    """
    if not isinstance(variant, str):
        raise OptionsError(f"variant is a cardcrawl game or variant name, not {variant!r}")
    spec = cardcrawl.get_spec(variant)
    root = spec.base or spec.name
    if root != base:
        raise OptionsError(
            f"{variant!r} plays {root}, not {base}; load it as {SHORT_NAMES.get(root, root)!r}"
        )
    return spec.name, dict(spec.preset)


def _limit(base: str, preset: Mapping[str, Any], value: Any) -> tuple[str, int]:
    """The limit option's name and value: ``value`` if positive, else the variant's
    own, else the default."""
    option, default = DEFAULT_LIMITS[base]
    if type(value) is not int or value < 0:
        raise OptionsError(
            f"{option} is an integer >= 1, or 0 for the variant's own limit "
            f"(else {default}), not {value!r}"
        )
    if value == 0:
        value = preset.get(option) or default
    return option, int(value)


def _options_of(base: str, params: Mapping[str, Any]) -> tuple[str, str]:
    """The cardcrawl name and all its options (as sorted JSON) that OpenSpiel parameters
    ask for."""
    spec = _GAME_TYPES[base].parameter_specification
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise OptionsError(
            f"{SHORT_NAMES[base]} has no parameter {', '.join(map(repr, unknown))}; "
            f"the parameters are: {', '.join(sorted(spec))}"
        )
    values = {**spec, **params}
    name, preset = _resolve(base, values["variant"])
    option, limit = _limit(base, preset, values[DEFAULT_LIMITS[base][0]])
    settings = _settings(base)
    extra = {k: values[k] for k in settings.parameters}
    options: dict[str, Any] = dict(settings.options(extra) if settings.options else extra)
    options[option] = limit
    # Every option, not just those given: a variant registered again under its name
    # with other presets is then another game, not one found in the cache.
    full = cardcrawl.load(name, **options).options.to_data()
    return name, json.dumps(full, sort_keys=True)


# --------------------------------------------------------------------- game types
def _settings(base: str) -> OpenSpielSettings:
    settings = cardcrawl.tools_for(base).openspiel
    assert settings is not None  # only games that declare them are registered
    return settings


def _game_type(base: str) -> Any:
    settings = _settings(base)
    option, _ = DEFAULT_LIMITS[base]
    # 0 stands for "the variant's own limit, else the game's default" (see _limit).
    parameters = {"variant": base, **settings.parameters, option: 0}
    return pyspiel.GameType(
        short_name=settings.short_name,
        long_name=settings.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=settings.max_players,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


# --------------------------------------------------------------------- the game
class CardcrawlGame(pyspiel.Game):  # type: ignore[misc]
    """A cardcrawl game as an OpenSpiel game; load it with ``pyspiel.load_game``."""

    base: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        shared = _shared(*_options_of(self.base, params))
        game = shared.game
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.encoding.num_actions,
            max_chance_outcomes=shared.encoding.num_chance_outcomes,
            num_players=game.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=_settings(self.base).max_game_length(game.options),
        )
        spec = _GAME_TYPES[self.base].parameter_specification
        super().__init__(_GAME_TYPES[self.base], info, {**spec, **params})
        self.__dict__["_shared_cache"] = shared

    # A pickled OpenSpiel game comes back without the attributes of its instance, so
    # what the states share is found from the game's parameters (and kept, as a cache).
    @property
    def _shared(self) -> _Shared:
        cache = self.__dict__
        shared: _Shared | None = cache.get("_shared_cache")
        if shared is None:
            shared = cache["_shared_cache"] = _shared(
                *_options_of(self.base, self.get_parameters())
            )
        return shared

    @property
    def cardcrawl_game(self) -> Any:
        """The cardcrawl game, loaded with the options that the parameters give."""
        return self._shared.game

    def max_chance_nodes_in_history(self) -> int:
        """An upper bound on the chance nodes of one game.

        The game's OpenSpiel settings give it, from the options, as ``max_chance_nodes``
        when they declare it; else it is OpenSpiel's own default for a Python game,
        ``max_game_length()``, which bounds the chance nodes of a game with at most one
        chance node per decision (Escape from Haydes: a reveal per move, a roll per
        choice, and the first player) but not those of The Mapless House, whose every
        turn draws two cards, held or not (M-15, M-16).
        """
        bound = getattr(_settings(self.base), "max_chance_nodes", None)
        if bound is None:
            return int(super().max_chance_nodes_in_history())
        return int(bound(self._shared.game.options))

    @property
    def encoding(self) -> Encoding:
        """The game's :class:`~cardcrawl.encoding.Encoding`, which numbers the actions."""
        return self._shared.encoding

    def new_initial_state(self) -> CardcrawlState:
        """The state before the first chance event."""
        return CardcrawlState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _Observer | _InfoStateObserver:
        """An observer: observations, or information states when ``iig_obs_type`` asks
        for perfect recall.

        Raises:
            OptionsError: observer parameters were given, or no public information is
                asked for (all information in these games is public).
        """
        if params:
            raise OptionsError(f"cardcrawl observers take no parameters, not {dict(params)!r}")
        if iig_obs_type is not None and not iig_obs_type.public_info:
            raise OptionsError(
                "every piece of information in cardcrawl's games is public: an observer "
                "without public information would see nothing"
            )
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return _InfoStateObserver()
        return _Observer(self.encoding)


def game_class(name: str) -> type[CardcrawlGame]:
    """The OpenSpiel game class of a cardcrawl game (or of the game a variant varies).

    Each is made, and registered with OpenSpiel, from what the game declares in its
    :class:`~cardcrawl.GameTools` (``openspiel=``), by :func:`register_games`.

    Args:
        name: a registered game or variant name.

    Returns:
        A subclass of :class:`CardcrawlGame`.

    Raises:
        UnknownGameError: no game or variant has that name.
        OptionsError: the game declares no OpenSpiel settings.

    Examples:
        >>> import pyspiel
        >>> from cardcrawl.adapters.openspiel import game_class
        >>> game = pyspiel.load_game("cardcrawl_mapless_house(max_turns=50)")
        >>> type(game) is game_class("mapless-house")
        True
        >>> game.cardcrawl_game.options.max_turns, game.max_game_length()
        (50, 76)
    """
    spec = cardcrawl.get_spec(name)
    base = spec.base or spec.name
    register_games()
    if base not in _CLASSES:
        raise OptionsError(
            f"{name!r} has no OpenSpiel game (its game declares no GameTools.openspiel); "
            f"these do: {', '.join(sorted(SHORT_NAMES))}"
        )
    return _CLASSES[base]


# --------------------------------------------------------------------- the state
class CardcrawlState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an immutable cardcrawl state (explicit chance).

    OpenSpiel's states change in place; this one swaps the cardcrawl state it holds for
    the next one, never changing a cardcrawl state. Clones share what they can.
    """

    def __init__(self, game: CardcrawlGame) -> None:
        super().__init__(game)
        shared = game._shared
        self._position = _Position(shared, shared.initial, None)

    # -- cardcrawl views
    @property
    def cardcrawl_state(self) -> Any:
        """The cardcrawl state this state holds (immutable)."""
        return self._position.state

    # -- OpenSpiel's API
    def current_player(self) -> int:
        """The player to decide, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``
        (cardcrawl's :data:`~cardcrawl.CHANCE` and :data:`~cardcrawl.TERMINAL` are the
        same numbers)."""
        position = self._position
        return int(position.shared.game.current_player(position.state))

    def _legal_actions(self, player: int) -> list[int]:
        return self._position.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each chance outcome's integer with its probability, ascending by integer."""
        return self._position.chances()

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """:meth:`chance_outcomes` with the exact probabilities, as fractions."""
        position = self._position
        return sorted(position.shared.encoding.chance_outcomes(position.state))

    def _apply_action(self, action: int) -> None:
        position = self._position
        shared = position.shared
        game = shared.game
        player = game.current_player(position.state)
        if player == CHANCE:
            move = shared.encoding.decode_chance(action)
        else:
            move = shared.encoding.decode_action(action)
        state = game.step(position.state, move)
        self._position = _Position(shared, state, _Trail(player, int(action), position.trail))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._position.shared.action_text(player == CHANCE, int(action))

    def is_terminal(self) -> bool:
        """True once the game is over."""
        position = self._position
        return bool(position.shared.game.is_terminal(position.state))

    def returns(self) -> list[float]:
        """Each player's return: 1.0 for a win, else 0.0; all 0.0 before the end."""
        position = self._position
        return [float(r) for r in position.shared.game.returns(position.state)]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CardcrawlState:
        """A state that ``player_id`` cannot tell from this one, hidden information
        drawn afresh (:meth:`cardcrawl.Game.determinize`, seeded from the sampler).

        Args:
            player_id: the player whose information state is kept.
            probability_sampler: a callable giving uniform numbers in [0, 1), such as
                ``pyspiel.UniformProbabilitySampler(0., 1.)``.

        Returns:
            A new state with the same history and information states.

        Raises:
            PlayerError: ``player_id`` is not a seat of this game.
        """
        seed = int(probability_sampler() * 2.0**53)
        position = self._position
        state = position.shared.game.determinize(position.state, player_id, seed)
        other: CardcrawlState = self.clone()
        other._position = _Position(position.shared, state, position.trail)
        return other

    def information_state_lines(self, player: int) -> Iterator[str]:
        """The lines of :meth:`information_state_string`: who did what, move by move."""
        position = self._position
        shared = position.shared
        yield f"player {player}"
        moves = position.trail.moves() if position.trail is not None else []
        for who, index in moves:
            chance = who == CHANCE
            yield f"{'chance' if chance else f'p{who}'}: {shared.action_text(chance, index)}"

    def __str__(self) -> str:
        position = self._position
        return str(position.shared.game.render(position.state))


# --------------------------------------------------------------------- observers
class _Observer:
    """OpenSpiel's observer protocol over :func:`~cardcrawl.encoding.encoding_for`."""

    def __init__(self, encoding: Encoding) -> None:
        self.tensor: Any = np.zeros(encoding.observation_shape, np.float32)
        self.dict: dict[str, Any] = {
            seg.name: self.tensor[seg.start : seg.stop].reshape(seg.shape)
            for seg in encoding.layout
        }

    def set_from(self, state: CardcrawlState, player: int) -> None:
        position = state._position
        shared = position.shared
        observation = shared.game.observe(position.state, player)
        self.tensor[:] = shared.encoding.encode_observation(observation)

    def string_from(self, state: CardcrawlState, player: int) -> str:
        position = state._position
        observation = position.shared.game.observe(position.state, player)
        return json.dumps(encode(observation), sort_keys=True, separators=(",", ":"))


class _InfoStateObserver:
    """Information states: strings only (see the module's documentation)."""

    tensor = None
    dict: dict[str, Any] = {}  # noqa: RUF012 - OpenSpiel reads it; never written

    def set_from(self, state: CardcrawlState, player: int) -> None:
        """Nothing to set: there is no information-state tensor."""

    def string_from(self, state: CardcrawlState, player: int) -> str:
        state._position.shared.game._check_player(player)
        return "\n".join(state.information_state_lines(player))


# --------------------------------------------------------------------- loading
def load_game(name: str, /, **params: Any) -> Any:
    """The OpenSpiel game of a cardcrawl game or variant, with OpenSpiel parameters.

    Args:
        name: a cardcrawl game or variant name, such as ``"escape-from-haydes-tuybe"``.
        **params: the OpenSpiel parameters other than ``variant`` (``max_turns``;
            ``players``, ``splits``, ``max_rounds``).

    Returns:
        The ``pyspiel.Game``, a :class:`CardcrawlGame`.

    Raises:
        UnknownGameError: no game or variant has that name.
        OptionsError: a parameter is unknown or invalid.

    Examples:
        >>> from cardcrawl.adapters.openspiel import load_game
        >>> game = load_game("escape-from-haydes-tuybe", players=3)
        >>> str(game)
        'cardcrawl_escape_from_haydes(max_rounds=0,players=3,splits=,variant=escape-from-haydes-tuybe)'
    """
    spec = cardcrawl.get_spec(name)
    base = spec.base or spec.name
    game_class(name)  # registers late games; refuses a game with no OpenSpiel settings
    if "variant" in params:
        raise OptionsError("the variant is the name given; pass no 'variant' parameter")
    return pyspiel.load_game(SHORT_NAMES[base], {"variant": spec.name, **params})


def register_games() -> tuple[str, ...]:
    """Register with OpenSpiel every registered game that declares OpenSpiel settings.

    Called when this module is imported, and again by :func:`load_game` and
    :func:`game_class`, so that games registered later (by plug-ins or by your code)
    are found too. Each game gets a :class:`CardcrawlGame` subclass of its own.

    Returns:
        The OpenSpiel short names registered by this call.

    Examples:
        >>> from cardcrawl.adapters.openspiel import SHORT_NAMES, register_games
        >>> register_games()  # the built-in games are registered on import
        ()
        >>> SHORT_NAMES["mapless-house"]
        'cardcrawl_mapless_house'
    """
    known = set(pyspiel.registered_names())
    added = []
    for name in cardcrawl.game_names():
        spec = cardcrawl.get_spec(name)
        settings = spec.tools.openspiel
        if spec.base is not None or settings is None or name in _CLASSES:
            continue
        if spec.tools.limit is None:
            continue  # OpenSpiel games need a bound on their length
        SHORT_NAMES[name] = settings.short_name
        DEFAULT_LIMITS[name] = spec.tools.limit
        game_type = _GAME_TYPES[name] = _game_type(name)
        words = "".join(part.capitalize() for part in name.split("-"))
        cls: type[CardcrawlGame] = type(
            f"{words}Game",
            (CardcrawlGame,),
            {"base": name, "__doc__": f"``{settings.short_name}``: {settings.long_name}."},
        )
        _CLASSES[name] = cls
        # Found by name, as pickle finds a class: games pickle as their class and state.
        globals()[cls.__name__] = cls
        if settings.short_name not in known:
            pyspiel.register_game(game_type, cls)
            added.append(settings.short_name)
    return tuple(added)


register_games()
