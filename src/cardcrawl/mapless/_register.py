"""The Mapless House joins the registry: the game, and what it brings to the generic
tools (its encoding, simulation figures, pictures, search model, oracle, default limit,
adapter settings, command-line shortcuts) and its bots. The one place a built-in game is
registered."""

from __future__ import annotations

from typing import Any

from cardcrawl.bots import register_bot
from cardcrawl.bots._search import SearchBot
from cardcrawl.core._registry import register_game
from cardcrawl.core._tools import GameTools, OpenSpielSettings
from cardcrawl.mapless._bots import (
    MaplessHeuristicBot,
    MaplessPlannerBot,
    MaplessSearchModel,
    ShortestPathBot,
)
from cardcrawl.mapless._encoding import MaplessEncoding
from cardcrawl.mapless._figures import OUTCOMES, PANELS, MaplessFigures
from cardcrawl.mapless._game import MaplessHouse
from cardcrawl.mapless._kernel import rollout_kernel
from cardcrawl.mapless._oracle import MaplessOracleBot
from cardcrawl.mapless._svg import _renderer
from cardcrawl.mapless._terminal import TERMINAL
from cardcrawl.mapless._working import working

__all__: list[str] = []

#: The limit bots, simulations and the adapters play with unless told otherwise (M-22).
TRAINING_TURNS = 200


def _max_game_length(options: Any) -> int:
    """An upper bound on the decisions of one game: each of the 24 Narrative cards other
    than the Exit is placed at most once (M-8), the Exit once (M-11), then one Move opens
    the hunt and at most one follows in each of ``max_turns`` turns (M-12, M-22)."""
    return 24 + 1 + 1 + int(options.max_turns)


def _max_chance_nodes(options: Any) -> int:
    """An upper bound on the chance events of one game: each of the 25 Narrative cards is
    drawn at most once as an explicit outcome (M-9, M-13; the Exit drawn too early is
    folded into the draw, M-10), and every turn turns a Mind and a Body card (M-15)."""
    return 25 + 2 * int(options.max_turns)


TOOLS = GameTools(
    limit=("max_turns", TRAINING_TURNS),
    shortcuts={"max_turns": "--max-turns"},
    encoding=MaplessEncoding,
    figures=MaplessFigures,
    outcomes=OUTCOMES,
    panels=PANELS,
    openspiel=OpenSpielSettings(
        short_name="cardcrawl_mapless_house",
        long_name="cardcrawl: The Mapless House",
        max_players=1,
        max_game_length=_max_game_length,
        max_chance_nodes=_max_chance_nodes,
    ),
    gymnasium={"cardcrawl/MaplessHouse-v0": {"game": "mapless-house", "max_turns": TRAINING_TURNS}},
    terminal=TERMINAL,
    rollout=rollout_kernel,
    working=working,
    svg=_renderer,
    search_model=MaplessSearchModel(),
    # Not a bot: it cheats (it sees the true state), so it is kept out of the bots'
    # registry, and only benchmarks/strength.py plays it, to bound the bots' strength.
    oracles={"oracle": MaplessOracleBot},
)


def register() -> None:
    """Register The Mapless House and its bots (done once, when cardcrawl is imported)."""
    register_game(
        "mapless-house",
        MaplessHouse,
        description="The Mapless House: build the house card by card, then escape the Stalkers.",
        tools=TOOLS,
    )
    only = ("mapless-house",)
    register_bot(
        "shortest-path",
        ShortestPathBot,
        games=only,
        description="first legal placement, then the shortest path to the Exit",
    )
    register_bot(
        "heuristic",
        MaplessHeuristicBot,
        games=only,
        description="a spine-and-lane building plan and an expectimax hunt planner",
    )
    register_bot(
        "planner",
        MaplessPlannerBot,
        games=only,
        description="the heuristic, with the last placements before the Exit searched exactly",
    )
    register_bot(
        "search",
        SearchBot,
        games=only,
        description="the heuristic, with close hunt decisions searched by rollouts",
    )
