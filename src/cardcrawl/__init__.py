"""cardcrawl: exact, pure rules engines for grid-crawling card games.

The public surface is re-exported here; game-specific names live in
:mod:`cardcrawl.mapless` (and, as they arrive, other game packages). Nothing else
is promised.

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("mapless-house", max_turns=200)
    >>> state = game.initial_state(seed=42)
    >>> game.current_player(state)
    0
"""

from cardcrawl._cards import RANK_NAMES, Card, Suit, parse_cards, standard_deck
from cardcrawl._deck import Deck
from cardcrawl._engine import FORMAT_VERSION, GameBase
from cardcrawl._errors import (
    ActionError,
    CardcrawlError,
    IllegalActionError,
    InvalidStateError,
    OptionsError,
    ParseError,
    PlayerError,
    RecordError,
    SerializationError,
    StackError,
    UnknownGameError,
)
from cardcrawl._grid import Cell, Grid, distance, neighbours, touching
from cardcrawl._html import replay_html
from cardcrawl._match import Match, MatchEntry, UndoError
from cardcrawl._options import OptionsBase
from cardcrawl._protocol import CHANCE, TERMINAL, Game, GameState, Outcome
from cardcrawl._random import rng_below, rng_choice_weighted, rng_derive, rng_from_seed, rng_next
from cardcrawl._record import Record
from cardcrawl._registry import (
    ENTRY_POINT_GROUP,
    GameSpec,
    PluginError,
    game_names,
    get_spec,
    load,
    load_plugins,
    register_game,
    register_variant,
)
from cardcrawl._svg import NoRendererError, Picture, find_renderer, register_svg, svg
from cardcrawl._version import __version__

__all__ = [
    "CHANCE",
    "ENTRY_POINT_GROUP",
    "FORMAT_VERSION",
    "RANK_NAMES",
    "TERMINAL",
    "ActionError",
    "Card",
    "CardcrawlError",
    "Cell",
    "Deck",
    "Game",
    "GameBase",
    "GameSpec",
    "GameState",
    "Grid",
    "IllegalActionError",
    "InvalidStateError",
    "Match",
    "MatchEntry",
    "NoRendererError",
    "OptionsBase",
    "OptionsError",
    "Outcome",
    "ParseError",
    "Picture",
    "PlayerError",
    "PluginError",
    "Record",
    "RecordError",
    "SerializationError",
    "StackError",
    "Suit",
    "UndoError",
    "UnknownGameError",
    "__version__",
    "distance",
    "find_renderer",
    "game_names",
    "get_spec",
    "load",
    "load_plugins",
    "neighbours",
    "parse_cards",
    "register_game",
    "register_svg",
    "register_variant",
    "replay_html",
    "rng_below",
    "rng_choice_weighted",
    "rng_derive",
    "rng_from_seed",
    "rng_next",
    "standard_deck",
    "svg",
    "touching",
]


def _register_builtin_games() -> None:
    from cardcrawl.haydes import EscapeFromHaydes
    from cardcrawl.mapless import MaplessHouse

    register_game(
        "mapless-house",
        MaplessHouse,
        description="The Mapless House: build the house card by card, then escape the Stalkers.",
    )
    register_game(
        "escape-from-haydes",
        EscapeFromHaydes,
        description="Escape from Haydes: guess higher or lower across Haydes to the Red Joker.",
    )
    register_variant(
        "escape-from-haydes-solo-timer",
        base="escape-from-haydes",
        options={"max_rounds": 30},
        description="Escape from Haydes, solo timer: nobody escapes after 30 rounds (H-13).",
    )
    register_variant(
        "escape-from-haydes-tuybe",
        base="escape-from-haydes",
        options={"tuybe": True},
        description="Escape from Haydes with the Tuybe: moves may aim two cells away.",
    )
    register_variant(
        "escape-from-haydes-denizens",
        base="escape-from-haydes",
        options={"creatures": "denizens"},
        description="Escape from Haydes with its denizens: footmen, Lucifers, captains, Vakhraca.",
    )


_register_builtin_games()
