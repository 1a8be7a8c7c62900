"""Bots: players the computer controls, for every game, and a registry of them by name.

A bot is built for one game with a seed and a seat (:func:`make_bot`), and each decision
it is shown only the seat's observation and the legal actions, never the state. The
same seed gives the same choices. This package holds what works for every game: the
bot protocol and registry, :class:`RandomBot` (``"random"``), :class:`ISMCTSBot`
(``"ismcts"``, information-set Monte Carlo tree search over any game that can draw a
state from an observation) and :class:`SearchBot` (rollouts over a game's registered
:class:`SearchModel`). Each game's own bots follow
one convention: they live in the game's package, use its public names, and register
themselves when the game registers:

* The Mapless House (:mod:`cardcrawl.mapless`): ``"heuristic"``
  (:class:`~cardcrawl.mapless.MaplessHeuristicBot`), ``"shortest-path"``, ``"search"``
  and ``"planner"``;
* Escape from Haydes (:mod:`cardcrawl.haydes`): ``"heuristic"``
  (:class:`~cardcrawl.haydes.HaydesHeuristicBot`) and ``"lookahead"``.

``bot_names(game)`` lists what plays a given game.

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

from typing import TYPE_CHECKING

from cardcrawl.bots._base import (
    Bot,
    BotFactory,
    BotSpec,
    DeterministicPolicy,
    UnknownBotError,
    bot_names,
    get_bot_spec,
    make_bot,
    notify_game_over,
    register_bot,
)
from cardcrawl.bots._engine_bot import (
    EngineBot,
    EngineError,
    EngineTimeoutError,
    serve_engine,
)
from cardcrawl.bots._ismcts import ActionStats, ISMCTSBot, LineStep, SearchResult
from cardcrawl.bots._language_model import LanguageModelBot, ModelReplyError
from cardcrawl.bots._params import Parameter, bot_parameters
from cardcrawl.bots._random_bot import RandomBot
from cardcrawl.bots._search import SearchBot, SearchModel, search_model
from cardcrawl.core._deprecation import moved_names

__all__ = [
    "ActionStats",
    "Bot",
    "BotFactory",
    "BotSpec",
    "DeterministicPolicy",
    "EngineBot",
    "EngineError",
    "EngineTimeoutError",
    "ISMCTSBot",
    "LanguageModelBot",
    "LineStep",
    "ModelReplyError",
    "Parameter",
    "RandomBot",
    "SearchBot",
    "SearchModel",
    "SearchResult",
    "UnknownBotError",
    "bot_names",
    "bot_parameters",
    "get_bot_spec",
    "make_bot",
    "notify_game_over",
    "register_bot",
    "search_model",
    "serve_engine",
]


def _register_generic_bots() -> None:
    # Game bots register themselves with their game (each game package's registration).
    register_bot("random", RandomBot, description="uniformly random over the legal actions")
    register_bot(
        "engine",
        EngineBot,
        description="a program playing over the engine protocol (command=[...])",
    )
    register_bot(
        "ismcts",
        ISMCTSBot,
        description="information-set MCTS from the observation (iterations=N or seconds=S)",
    )


_register_generic_bots()


# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "ENGINE_PROTOCOL": "cardcrawl.bots._engine_bot",
            "check_parameters": "cardcrawl.bots._params",
            "decide_message": "cardcrawl.bots._engine_bot",
            "game_family": "cardcrawl.bots._base",
            "hello_message": "cardcrawl.bots._engine_bot",
            "read_parameter_file": "cardcrawl.bots._params",
            "register_search_model": "cardcrawl.bots._search",
        },
    )
