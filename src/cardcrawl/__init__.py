"""cardcrawl: exact, pure rules engines for grid-crawling card games.

The package, layer by layer (each layer uses only those above it, and nothing but the
game packages names a game):

- :mod:`cardcrawl.core`: what every game stands on: the :class:`Game` protocol, the
  engine :class:`GameBase` that implements it over a game's hooks, options, the JSON
  codec, the generator carried in every state, and the registry of games, variants and
  plug-ins;
- :mod:`cardcrawl.kit`: the card-and-grid kit a game author builds with: cards, decks,
  grids and SVG primitives;
- :mod:`cardcrawl.errors`: every error the library raises on purpose, rooted in
  :class:`CardcrawlError`;
- the games, one package each, holding everything the game knows (rules and their
  hooks, actions, events, text and SVG pictures, encodings, simulation figures, the
  settings of the adapters and the command line), declared where the game registers:
  :mod:`cardcrawl.mapless` (The Mapless House) and :mod:`cardcrawl.haydes` (Escape from
  Haydes);
- generic tools written once against the protocol, for every game and variant:
  :mod:`cardcrawl.play` (:class:`Match` with fair undo, :class:`Record`, HTML replays),
  :mod:`cardcrawl.testing` (the conformance checker), :mod:`cardcrawl.bots`,
  :mod:`cardcrawl.simulate`, :mod:`cardcrawl.tournament`, :mod:`cardcrawl.solve` (the
  exact solver), :mod:`cardcrawl.encoding`, :mod:`cardcrawl.adapters` (OpenSpiel,
  PettingZoo, Gymnasium) and :mod:`cardcrawl.cli` (the command line).

The names most programs need are re-exported here. Nothing else is promised.

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("mapless-house", max_turns=200)
    >>> state = game.initial_state(seed=42)
    >>> game.current_player(state)
    0
"""

from typing import TYPE_CHECKING, Any, Literal, overload

from cardcrawl._version import __version__
from cardcrawl.core._compiled import compiled_kernels, compiled_modules
from cardcrawl.core._deprecation import moved_names
from cardcrawl.core._engine import GameBase
from cardcrawl.core._options import OptionsBase
from cardcrawl.core._protocol import CHANCE, TERMINAL, Game, GameState, Outcome
from cardcrawl.core._random import (
    rng_below,
    rng_choice_weighted,
    rng_derive,
    rng_from_seed,
    rng_next,
)
from cardcrawl.core._registry import (
    ENTRY_POINT_GROUP,
    GameSpec,
    PluginError,
    game_names,
    get_spec,
    load_plugins,
    register_game,
    register_variant,
    tools_for,
)
from cardcrawl.core._terminal import TerminalPlay
from cardcrawl.core._tools import GameTools, OpenSpielSettings, RolloutKernel
from cardcrawl.core._working import StateWorking, Working, working_for
from cardcrawl.errors import (
    ActionError,
    CardcrawlError,
    HookError,
    IllegalActionError,
    InvalidStateError,
    NoRendererError,
    NotationError,
    OptionsError,
    ParseError,
    PlayerError,
    RecordError,
    SerializationError,
    StackError,
    UndoError,
    UnknownGameError,
)
from cardcrawl.kit._cards import Card, Suit, parse_cards
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, Grid, distance, neighbours
from cardcrawl.kit._svg import Picture, find_renderer, svg
from cardcrawl.play._html import replay_html
from cardcrawl.play._match import Match
from cardcrawl.play._record import Agent, Record

__all__ = [
    "CHANCE",
    "ENTRY_POINT_GROUP",
    "TERMINAL",
    "ActionError",
    "Agent",
    "Card",
    "CardcrawlError",
    "Cell",
    "Deck",
    "Game",
    "GameBase",
    "GameSpec",
    "GameState",
    "GameTools",
    "Grid",
    "HookError",
    "IllegalActionError",
    "InvalidStateError",
    "Match",
    "NoRendererError",
    "NotationError",
    "OpenSpielSettings",
    "OptionsBase",
    "OptionsError",
    "Outcome",
    "ParseError",
    "Picture",
    "PlayerError",
    "PluginError",
    "Record",
    "RecordError",
    "RolloutKernel",
    "SerializationError",
    "StackError",
    "StateWorking",
    "Suit",
    "TerminalPlay",
    "UndoError",
    "UnknownGameError",
    "Working",
    "__version__",
    "compiled_kernels",
    "compiled_modules",
    "distance",
    "find_renderer",
    "game_names",
    "get_spec",
    "load",
    "load_plugins",
    "neighbours",
    "parse_cards",
    "register_game",
    "register_variant",
    "replay_html",
    "rng_below",
    "rng_choice_weighted",
    "rng_derive",
    "rng_from_seed",
    "rng_next",
    "svg",
    "tools_for",
    "working_for",
]


if TYPE_CHECKING:
    # The documented entry point keeps its types: the built-in names load their game
    # classes, so editors and mypy see the game, its states and actions.
    from cardcrawl.haydes import EscapeFromHaydes
    from cardcrawl.mapless import MaplessHouse

    @overload
    def load(name: Literal["mapless-house"], /, **options: Any) -> MaplessHouse: ...
    @overload
    def load(
        name: Literal[
            "escape-from-haydes",
            "escape-from-haydes-solo-timer",
            "escape-from-haydes-tuybe",
            "escape-from-haydes-denizens",
        ],
        /,
        **options: Any,
    ) -> EscapeFromHaydes: ...
    # Any other name (a plug-in's, or a name held in a variable) is still some game of
    # the engine: its methods are known, and its states are GameStates (what every
    # state carries); its actions are not known.
    @overload
    def load(name: str, /, **options: Any) -> GameBase[GameState, Any, Any]: ...
    def load(name: str, /, **options: Any) -> Any: ...
else:
    from cardcrawl.core._registry import load


def _register_builtin_games() -> None:
    # Each built-in game registers itself, from its own package: the game, its variants,
    # what it brings to the generic tools, and its bots.
    from cardcrawl.haydes import _register as haydes
    from cardcrawl.mapless import _register as mapless

    mapless.register()
    haydes.register()


_register_builtin_games()

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "FORMAT_VERSION": "cardcrawl.core._saving",
            "RANK_NAMES": "cardcrawl.kit._cards",
            "MatchEntry": "cardcrawl.play._match",
            "RecordClaims": "cardcrawl.play._record",
            "register_svg": "cardcrawl.kit._svg",
            "standard_deck": "cardcrawl.kit",
            "touching": "cardcrawl.kit",
        },
    )
