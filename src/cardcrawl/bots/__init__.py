"""Bots: players the computer controls, for every game, and a registry of them by name.

A bot is built for one game with a seed and a seat (:func:`make_bot`), and each decision
it is shown only the seat's observation and the legal actions, never the state. The
same seed gives the same choices. Registered bots:

* ``"random"`` (every game): uniform over the legal actions (:class:`RandomBot`).
* ``"shortest-path"`` (The Mapless House): the baseline; builds anyhow and walks the
  shortest path to the Exit (:class:`ShortestPathBot`).
* ``"heuristic"`` (The Mapless House): a building plan and a hunt planner
  (:class:`MaplessHeuristicBot`).
* ``"search"`` (The Mapless House): the heuristic, with the decisions its planner
  cannot settle searched by rollouts on sampled states (:class:`SearchBot`).
* ``"heuristic"`` (Escape from Haydes, when :mod:`cardcrawl.haydes` is installed):
  guesses by the exact odds of the unseen cards (``make_bot("heuristic", game, seed)``).

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.bots import make_bot
    >>> game = cardcrawl.load("mapless-house", max_turns=200)
    >>> state = game.initial_state(seed=1)
    >>> bot = make_bot("heuristic", game, seed=1)
    >>> while not game.is_terminal(state):
    ...     legal = game.legal_actions(state)
    ...     state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
    >>> game.outcome(state).label
    'escaped'
"""

from cardcrawl.bots._base import (
    Bot,
    BotFactory,
    BotSpec,
    UnknownBotError,
    bot_names,
    game_family,
    get_bot_spec,
    make_bot,
    register_bot,
)
from cardcrawl.bots._mapless_bots import (
    MaplessHeuristicBot,
    MaplessSearchModel,
    ShortestPathBot,
)
from cardcrawl.bots._mapless_model import EncounterOdds, HuntPlanner, state_from_observation
from cardcrawl.bots._random_bot import RandomBot
from cardcrawl.bots._search import SearchBot, SearchModel, register_search_model, search_model

__all__ = [
    "Bot",
    "BotFactory",
    "BotSpec",
    "EncounterOdds",
    "HuntPlanner",
    "MaplessHeuristicBot",
    "MaplessSearchModel",
    "RandomBot",
    "SearchBot",
    "SearchModel",
    "ShortestPathBot",
    "UnknownBotError",
    "bot_names",
    "game_family",
    "get_bot_spec",
    "make_bot",
    "register_bot",
    "register_search_model",
    "search_model",
    "state_from_observation",
]

_MAPLESS = ("mapless-house",)


def _register_builtin_bots() -> None:
    register_bot("random", RandomBot, description="uniformly random over the legal actions")
    register_bot(
        "shortest-path",
        ShortestPathBot,
        games=_MAPLESS,
        description="first legal placement, then the shortest path to the Exit",
    )
    register_bot(
        "heuristic",
        MaplessHeuristicBot,
        games=_MAPLESS,
        description="a spine-and-lane building plan and an expectimax hunt planner",
    )
    register_search_model("mapless-house", MaplessSearchModel())
    register_bot(
        "search",
        SearchBot,
        games=_MAPLESS,
        description="the heuristic, with close hunt decisions searched by rollouts",
    )
    try:
        from cardcrawl.bots._haydes_bots import HaydesHeuristicBot
    except ImportError:  # pragma: no cover - Escape from Haydes not installed
        return
    register_bot(
        "heuristic",
        HaydesHeuristicBot,
        games=("escape-from-haydes",),
        description="guesses by the exact odds of the unseen cards, faces creatures with "
        "the higher characteristic",
    )


_register_builtin_bots()
