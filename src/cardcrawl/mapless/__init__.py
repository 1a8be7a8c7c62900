"""The Mapless House: a solo game in which the house is built card by card, then hunted.

Load it with ``cardcrawl.load("mapless-house")``. Everything public about the game is
importable from here; the rules are explained, ruling by ruling, in the documentation.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.mapless import Ending
    >>> game = cardcrawl.load("mapless-house", max_turns=300)
    >>> state = game.initial_state(seed=11)
    >>> while not game.is_terminal(state):
    ...     state = game.step(state, game.legal_actions(state)[0])
    >>> state.ending in set(Ending)
    True
"""

from typing import TYPE_CHECKING

from cardcrawl.core._deprecation import moved_names
from cardcrawl.mapless._actions import Action, Draw, Move, Place, PlaceExit, parse_action
from cardcrawl.mapless._bot_model import state_from_observation
from cardcrawl.mapless._bots import MaplessHeuristicBot
from cardcrawl.mapless._encoding import MaplessEncoding
from cardcrawl.mapless._events import (
    CardDrawn,
    CardPlaced,
    CardRefused,
    Consumed,
    DeckRanDry,
    Encounter,
    Escaped,
    ExitPlaced,
    ExitShuffledBack,
    LostInTheHouse,
    MaplessEvent,
    Moved,
    MoveSkipped,
    StalkerArrived,
    StalkerStepped,
    StalkerWaited,
    TurnStarted,
)
from cardcrawl.mapless._game import RULES_VERSION, MaplessHouse
from cardcrawl.mapless._render import render
from cardcrawl.mapless._rules import (
    card_value,
    corridor_cells,
    exit_candidates,
    is_corridor,
    is_room,
    newly_closed,
    room_cells,
    stalker_step,
)
from cardcrawl.mapless._state import (
    BODY_CARDS,
    CLUB_STALKER,
    ENTRANCE,
    ENTRANCE_CELL,
    EXIT,
    MIND_CARDS,
    NARRATIVE_CARDS,
    PLACEABLE_CARDS,
    SPADE_STALKER,
    Ending,
    MaplessObservation,
    MaplessOptions,
    MaplessState,
    Phase,
)
from cardcrawl.mapless._svg import render_svg

__all__ = [
    "BODY_CARDS",
    "CLUB_STALKER",
    "ENTRANCE",
    "ENTRANCE_CELL",
    "EXIT",
    "MIND_CARDS",
    "NARRATIVE_CARDS",
    "PLACEABLE_CARDS",
    "RULES_VERSION",
    "SPADE_STALKER",
    "Action",
    "CardDrawn",
    "CardPlaced",
    "CardRefused",
    "Consumed",
    "DeckRanDry",
    "Draw",
    "Encounter",
    "Ending",
    "Escaped",
    "ExitPlaced",
    "ExitShuffledBack",
    "LostInTheHouse",
    "MaplessEncoding",
    "MaplessEvent",
    "MaplessHeuristicBot",
    "MaplessHouse",
    "MaplessObservation",
    "MaplessOptions",
    "MaplessState",
    "Move",
    "MoveSkipped",
    "Moved",
    "Phase",
    "Place",
    "PlaceExit",
    "StalkerArrived",
    "StalkerStepped",
    "StalkerWaited",
    "TurnStarted",
    "card_value",
    "corridor_cells",
    "exit_candidates",
    "is_corridor",
    "is_room",
    "newly_closed",
    "parse_action",
    "render",
    "render_svg",
    "room_cells",
    "stalker_step",
    "state_from_observation",
]

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "MAPLESS_RADIUS": "cardcrawl.mapless._encoding",
            "MAPLESS_SIDE": "cardcrawl.mapless._encoding",
            "STANDARD_DREAD_LINES": "cardcrawl.mapless._dread",
            "EncounterOdds": "cardcrawl.mapless._bot_model",
            "HuntPlanner": "cardcrawl.mapless._bot_model",
            "MaplessPlannerBot": "cardcrawl.mapless._bots",
            "MaplessSearchModel": "cardcrawl.mapless._bots",
            "ShortestPathBot": "cardcrawl.mapless._bots",
        },
    )
