"""Escape from Haydes joins the registry: the game and its variants, what it brings to
the generic tools (its encoding, simulation figures, pictures, default limit, adapter
settings, command-line shortcuts) and its bots. The one place a built-in game is registered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcrawl.bots import register_bot
from cardcrawl.core._registry import register_game, register_variant
from cardcrawl.core._tools import GameTools, OpenSpielSettings
from cardcrawl.errors import OptionsError
from cardcrawl.haydes._bots import HaydesHeuristicBot, HaydesLookaheadBot
from cardcrawl.haydes._encoding import HaydesEncoding
from cardcrawl.haydes._figures import OUTCOMES, PANELS, HaydesFigures
from cardcrawl.haydes._game import EscapeFromHaydes
from cardcrawl.haydes._kernel import rollout_kernel
from cardcrawl.haydes._svg import _renderer
from cardcrawl.haydes._terminal import TERMINAL
from cardcrawl.haydes._working import working

__all__: list[str] = []

#: The limit bots, simulations and the adapters play with unless told otherwise (H-13).
TRAINING_ROUNDS = 100


def _parse_splits(text: Any) -> list[tuple[int, int]] | None:
    """``"7/9;9/7"`` as ``[(7, 9), (9, 7)]``; the empty string as ``None``.

    Raises:
        OptionsError: the text is not of that form.
    """
    if not isinstance(text, str):
        raise OptionsError(f'splits is a string such as "7/9;9/7", not {text!r}')
    if not text.strip():
        return None
    splits = []
    for part in text.split(";"):
        pieces = [p.strip() for p in part.split("/")]
        if len(pieces) != 2 or not all(p.isascii() and p.isdigit() and len(p) < 4 for p in pieces):
            raise OptionsError(
                f"splits gives each player's Charisma/Endurance, separated by ';' "
                f'(such as "7/9;9/7"), not {text!r}'
            )
        splits.append((int(pieces[0]), int(pieces[1])))
    return splits


def _openspiel_options(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """OpenSpiel's ``players`` and ``splits`` (as ``"7/9;9/7"``) as options."""
    options: dict[str, Any] = {"players": parameters.get("players", 1)}
    splits = _parse_splits(parameters.get("splits", ""))
    if splits is not None:
        options["splits"] = splits
    return options


def _max_game_length(options: Any) -> int:
    """An upper bound on the decisions of one game: at most ``players * max_rounds``
    turns (H-13). Within a turn each of the ``c`` face-down cells is turned at most once
    (cards are replaced only at the end of the turn, H-12), and a step goes on only past
    a creature overcome there, at most once per cell: so at most ``1 + 2c`` turn
    decisions and ``2c + 2`` encounter choices (one per reveal or step, plus a held
    player's at the start of the turn)."""
    cells = len(options.cells) - 1
    return int(options.players) * int(options.max_rounds) * (4 * cells + 3)


def _players_out(game: Any, state: Any) -> frozenset[int]:
    """The seats out of the game (H-11): trapped, they play no more."""
    return frozenset(range(game.num_players)).difference(state.players_in)


def _gym(name: str, **options: Any) -> dict[str, Any]:
    return {"game": name, **options}


TOOLS = GameTools(
    limit=("max_rounds", TRAINING_ROUNDS),
    shortcuts={"max_rounds": "--max-rounds", "players": "--players"},
    encoding=HaydesEncoding,
    figures=HaydesFigures,
    rollout=rollout_kernel,
    working=working,
    players_out=_players_out,
    outcomes=OUTCOMES,
    panels=PANELS,
    openspiel=OpenSpielSettings(
        short_name="cardcrawl_escape_from_haydes",
        long_name="cardcrawl: Escape from Haydes",
        max_players=4,
        parameters={"players": 1, "splits": ""},
        options=_openspiel_options,
        max_game_length=_max_game_length,
    ),
    gymnasium={
        "cardcrawl/EscapeFromHaydes-v0": _gym("escape-from-haydes", max_rounds=TRAINING_ROUNDS),
        "cardcrawl/EscapeFromHaydesSoloTimer-v0": _gym("escape-from-haydes-solo-timer"),
        "cardcrawl/EscapeFromHaydesTuybe-v0": _gym(
            "escape-from-haydes-tuybe", max_rounds=TRAINING_ROUNDS
        ),
        "cardcrawl/EscapeFromHaydesDenizens-v0": _gym(
            "escape-from-haydes-denizens", max_rounds=TRAINING_ROUNDS
        ),
    },
    terminal=TERMINAL,
    svg=_renderer,
)


def register() -> None:
    """Register Escape from Haydes, its variants and its bot (done once, when cardcrawl
    is imported)."""
    register_game(
        "escape-from-haydes",
        EscapeFromHaydes,
        description="Escape from Haydes: guess higher or lower across Haydes to the Red Joker.",
        tools=TOOLS,
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
    register_bot(
        "heuristic",
        HaydesHeuristicBot,
        games=("escape-from-haydes",),
        description="guesses by the exact odds of the unseen cards, faces creatures with "
        "the higher characteristic",
    )
    register_bot(
        "lookahead",
        HaydesLookaheadBot,
        games=("escape-from-haydes",),
        description="the heuristic's odds, one reveal further: what each outcome leaves "
        "it to play next",
    )
