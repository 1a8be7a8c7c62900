"""The bot protocol and the registry of bots by name.

A bot is a player the computer controls. It is built for one game with a seed and a
seat, and from then on it only ever sees what that seat may know: each decision it is
given the game (the rules, never a state), the seat's observation and the legal
actions, and it returns one of those actions. The same seed gives the same choices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import attrs

from cardcrawl.bots._params import bot_parameters, check_parameters, read_parameter_file
from cardcrawl.core._registry import get_spec
from cardcrawl.errors import CardcrawlError, OptionsError, UnknownBotError

__all__ = [
    "Bot",
    "BotFactory",
    "BotSpec",
    "DeterministicPolicy",
    "UnknownBotError",
    "bot_names",
    "game_family",
    "get_bot_spec",
    "make_bot",
    "notify_game_over",
    "register_bot",
]


@runtime_checkable
class Bot(Protocol):
    """A player the computer controls, for one seat of one game.

    Build bots with :func:`make_bot` (or a bot class called as ``Bot(game, seed, seat)``).
    A bot lives for one game: make a new one for the next game.

    Some members are optional, and those who play bots look for them with ``getattr``
    (a bot without them is still a :class:`Bot`):

    * ``reads_observation``: a class attribute; ``False`` tells a simulation that the
      bot never reads its observation, so ``None`` may be passed instead.
    * ``game_over(game, observation, outcome)``: called once, for every seat's bot,
      when the game stops being played: ``observation`` is the seat's view of the last
      state (``None`` for a bot that does not read observations) and ``outcome`` the
      game's :class:`~cardcrawl.Outcome`, or ``None`` when the game stopped before its
      end (the decision cap, a forfeit, an error, a person who left). Its return value
      is ignored. :class:`~cardcrawl.bots.EngineBot` tells its engine the outcome here
      and stops it; a bot that learns could learn here. Without it, nothing is done
      (:func:`notify_game_over` is how the library calls it). ``play_game``,
      ``simulate``, ``tournament`` and ``cardcrawl play`` call it.
    * ``action_probabilities(game, observation, legal_actions)``: how likely the bot
      is to choose each action, as exact fractions; the exact solver plays the bot so
      (:class:`DeterministicPolicy` gives a deterministic bot its one-hot one).
    * ``parameters``: a class attribute, the weights the bot takes as keyword
      arguments, which :func:`cardcrawl.tune.tune` fits (see
      :class:`~cardcrawl.bots.Parameter`).
    * ``weighs_hooks``: a class attribute, the names of the game's rule hooks the bot
      asks when it decides, so that it plays a variant by the variant's rules;
      :func:`cardcrawl.testing.check_bot_hooks` proves the claim.

    Examples:
        Escape from Haydes' heuristic bot makes its first move, shown only the seat's
        observation:

        >>> import cardcrawl
        >>> from cardcrawl.bots import Bot, make_bot
        >>> game = cardcrawl.load("escape-from-haydes", players=1)
        >>> state = game.initial_state(seed=1)
        >>> bot = make_bot("heuristic", game, seed=1)
        >>> isinstance(bot, Bot)
        True
        >>> legal = game.legal_actions(state)
        >>> action = bot.choose(game, game.observe(state, 0), legal)
        >>> action in legal
        True
    """

    def choose(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``, chosen from ``observation`` alone.

        Args:
            game: the game being played (its rules and options; never a state).
            observation: ``game.observe(state, seat)`` for the bot's seat.
            legal_actions: ``game.legal_actions(state)``, never empty.
        """


class DeterministicPolicy:
    """A mixin for a bot whose choice is a function of what it is shown: the same
    observation and legal actions, the same choice, whatever came before.

    Its policy is then one-hot on that choice, and :meth:`action_probabilities` says so,
    as a randomized bot says how likely each action is: the exact solver plays the bot so
    (see :func:`cardcrawl.solve.best_response_gains`), from one bot for every position.

    Examples:
        >>> from cardcrawl.bots import DeterministicPolicy
        >>> class First(DeterministicPolicy):
        ...     def choose(self, game, observation, legal_actions):
        ...         return legal_actions[0]
        >>> First().action_probabilities(None, None, ["a", "b"])
        (('a', Fraction(1, 1)),)
    """

    def choose(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The bot's choice (the class that mixes this in defines it)."""
        raise NotImplementedError

    def action_probabilities(
        self, game: Any, observation: Any, legal_actions: Sequence[Any]
    ) -> tuple[tuple[Any, Fraction], ...]:
        """The chance of each action the bot may choose: 1 for its choice, which is
        certain (the actions it never chooses are left out).

        Args:
            game: the game being played.
            observation: the seat's observation.
            legal_actions: the legal actions, never empty.
        """
        return ((self.choose(game, observation, legal_actions), Fraction(1)),)


def notify_game_over(bot: Any, game: Any, observation: Any, outcome: Any) -> None:
    """Tell ``bot`` that its game is over, if it has the optional ``game_over`` hook.

    The neutral default of the hook (see :class:`Bot`): a bot without ``game_over`` is
    told nothing.

    Args:
        bot: a bot.
        game: the game it played.
        observation: its seat's view of the last state, or ``None``.
        outcome: the game's :class:`~cardcrawl.Outcome`, or ``None`` when the game
            stopped before its end.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import make_bot, notify_game_over
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> class Listener:
        ...     def choose(self, game, observation, legal_actions):
        ...         return legal_actions[0]
        ...     def game_over(self, game, observation, outcome):
        ...         self.heard = outcome
        >>> listener = Listener()
        >>> outcome = cardcrawl.Outcome("escaped", returns=(1.0,), scores=(26,), winners=(0,))
        >>> notify_game_over(listener, game, None, outcome)
        >>> listener.heard.label
        'escaped'
        >>> notify_game_over(make_bot("random", game, seed=1), game, None, outcome)  # no hook
    """
    hook = getattr(bot, "game_over", None)
    if hook is not None:
        hook(game, observation, outcome)


#: What builds a bot: ``factory(game, seed, seat)``. Bot classes are factories themselves.
BotFactory = Callable[[Any, int, int], Bot]


@attrs.frozen
class BotSpec:
    """A registry entry: a bot factory under a name, for some games or for all.

    Attributes:
        name: the registry name (``"heuristic"``).
        factory: builds the bot, ``factory(game, seed, seat)``.
        games: the game families it plays (base game names such as
            ``"mapless-house"``); ``None`` for a bot that plays every game.
        description: one line for listings.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import get_bot_spec
        >>> haydes = cardcrawl.load("escape-from-haydes")
        >>> spec = get_bot_spec("heuristic", haydes)
        >>> spec.name, sorted(spec.games), spec.factory.__name__
        ('heuristic', ['escape-from-haydes'], 'HaydesHeuristicBot')
        >>> spec.plays(haydes), spec.plays(cardcrawl.load("mapless-house"))
        (True, False)
    """

    name: str
    factory: BotFactory
    games: frozenset[str] | None = None
    description: str = ""

    def plays(self, game: Any) -> bool:
        """True when this bot can play ``game``."""
        return self.games is None or game_family(game) in self.games


# A name may have one entry per game family (one "heuristic" per game) and one for all.
_BOTS: dict[str, list[BotSpec]] = {}


def game_family(game: Any) -> str:
    """The base game's name of ``game``: for a variant, the game it varies.

    Found in the registry, or (for a game this process has not registered, such as a
    variant registered in another process) from the game class's own ``game_name``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots._base import game_family
        >>> game_family(cardcrawl.load("mapless-house"))
        'mapless-house'
    """
    name: str = game.name
    try:
        spec = get_spec(name)
    except CardcrawlError:
        return str(getattr(type(game), "game_name", name))
    return spec.base or spec.name


def register_bot(
    name: str,
    factory: BotFactory,
    *,
    games: Iterable[str] | None = None,
    description: str = "",
    replace: bool = False,
) -> BotSpec:
    """Register a bot under ``name`` so that :func:`make_bot`, simulations and the CLI find it.

    One name may be registered once per game family, so that ``"heuristic"`` names a
    different bot for each game.

    Args:
        name: the bot's name, without spaces.
        factory: builds the bot, ``factory(game, seed, seat)``; a bot class will do.
        games: the game families it plays; ``None`` (the default) for every game.
        description: one line for listings.
        replace: allow replacing an entry with the same name and games.

    Returns:
        The new registry entry.

    Raises:
        OptionsError: the name is malformed, or already registered for these games and
            ``replace`` is false.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import RandomBot, make_bot, register_bot
        >>> spec = register_bot("my-random", RandomBot, replace=True)
        >>> bot = make_bot("my-random", cardcrawl.load("mapless-house"), seed=1)
        >>> type(bot).__name__
        'RandomBot'
    """
    if not isinstance(name, str) or not name or name != name.strip() or " " in name:
        raise OptionsError(f"a bot name is a non-empty string without spaces, not {name!r}")
    spec = BotSpec(name, factory, None if games is None else frozenset(games), description)
    entries = _BOTS.setdefault(name, [])
    for i, old in enumerate(entries):
        if old.games == spec.games:
            if not replace:
                raise OptionsError(
                    f"bot {name!r} is already registered for these games; "
                    "pass replace=True to override it"
                )
            entries[i] = spec
            return spec
    # Game-specific entries are found before a catch-all one.
    entries.append(spec)
    entries.sort(key=lambda s: s.games is None)
    return spec


def bot_names(game: Any = None) -> tuple[str, ...]:
    """The registered bot names, sorted; only those that play ``game`` if one is given.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import bot_names
        >>> {"random", "heuristic"} <= set(bot_names(cardcrawl.load("mapless-house")))
        True
    """
    return tuple(
        sorted(
            name
            for name, entries in _BOTS.items()
            if game is None or any(s.plays(game) for s in entries)
        )
    )


def get_bot_spec(name: str, game: Any) -> BotSpec:
    """The registry entry for bot ``name`` playing ``game``.

    One name may have an entry per game family, so the game picks the entry.

    Args:
        name: a registered bot name.
        game: the game it would play.

    Returns:
        The entry for that game's family, else the name's entry for every game.

    Raises:
        UnknownBotError: no bot of that name plays that game; the message lists those
            that do.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import get_bot_spec
        >>> get_bot_spec("heuristic", cardcrawl.load("mapless-house")).factory.__name__
        'MaplessHeuristicBot'
        >>> get_bot_spec("random", cardcrawl.load("escape-from-haydes")).games is None
        True
        >>> get_bot_spec("search", cardcrawl.load("escape-from-haydes"))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UnknownBotError: no bot plays this game as 'search' for ...
    """
    for spec in _BOTS.get(name, ()):
        if spec.plays(game):
            return spec
    if isinstance(name, str) and ":" in name and name.partition(":")[0] in _BOTS:
        return _with_parameter_file(name, game)
    known = ", ".join(bot_names(game)) or "none"
    what = "no bot is named" if name not in _BOTS else "no bot plays this game as"
    raise UnknownBotError(f"{what} {name!r} for {game.name}; bots for {game.name}: {known}")


def _with_parameter_file(name: str, game: Any) -> BotSpec:
    """The entry of ``NAME:FILE.json``: bot ``NAME`` with the parameters of the file
    (see :mod:`cardcrawl.bots._params`), checked against those the bot declares.

    Raises:
        UnknownBotError: no bot ``NAME`` plays the game.
        OptionsError: the file cannot be read, is for another bot, or holds a parameter
            the bot does not declare or a value out of its range.
    """
    base, _, path = name.partition(":")
    spec = get_bot_spec(base, game)
    for_bot, values = read_parameter_file(path)
    if for_bot != base:
        raise OptionsError(f"the parameter file {path!r} is for bot {for_bot!r}, not {base!r}")
    checked = check_parameters(spec.factory, values, base)
    factory = spec.factory

    def tuned(game: Any, seed: int, seat: int = 0, **options: Any) -> Bot:
        return factory(game, seed, seat, **{**checked, **options})

    tuned.parameters = bot_parameters(factory)  # type: ignore[attr-defined]
    tuned.__name__ = name
    return BotSpec(name, tuned, spec.games, f"{base} with the parameters of {path}")


def make_bot(name: str | BotFactory, game: Any, seed: int, seat: int = 0, **options: Any) -> Bot:
    """A new bot for one game: by registered name, or from a factory.

    Args:
        name: a registered bot name, or a factory ``factory(game, seed, seat)``.
        game: the game it will play.
        seed: its seed; the same seed gives the same choices.
        seat: the seat it plays.
        **options: passed on to the factory, for a bot that takes options (such as
            the ``command`` of ``"engine"``).

    Raises:
        UnknownBotError: no bot of that name plays that game.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import make_bot
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=5)
        >>> bot = make_bot("heuristic", game, seed=5)
        >>> legal = game.legal_actions(state)
        >>> bot.choose(game, game.observe(state, 0), legal) in legal
        True
    """
    factory = get_bot_spec(name, game).factory if isinstance(name, str) else name
    if options:
        return factory(game, seed, seat, **options)
    return factory(game, seed, seat)
