"""The Mapless House at the keyboard: its map view, what its actions mean, its rules in
short and its hint bot, for ``cardcrawl play`` (declared in the game's tools)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcrawl.core._terminal import TerminalPlay
from cardcrawl.kit._grid import Cell
from cardcrawl.mapless._render import render_terminal

__all__ = ["TERMINAL"]


def _view(
    game: Any,
    state: Any,
    legal: Sequence[Any],
    *,
    width: int | None = 80,
    focus: Cell | None = None,
) -> str:
    return render_terminal(state, legal, width=width, focus=focus)


ACTIONS = {
    "place": "put the drawn card on that empty cell (its number is on the map). A corridor "
    "(2 to 10) goes where it touches exactly one card, a room (J, Q, K) anywhere touching the "
    "house; corridors never branch, and a corridor drawn while the last room is a dead end "
    "must touch that room (M-4 to M-8).",
    "exit": "open the Exit on that cell, one of those farthest from the Entrance; the ♠A "
    "Stalker waits on it and the hunt begins (M-11).",
    "move": "walk onto a touching card. Onto a free Exit you escape; onto a Stalker you are "
    "consumed (M-14, M-20). Otherwise the Encounter turns a Mind and a Body card: less than "
    "the card's value and the house holds you, so you cannot move next turn (M-15, M-16); "
    "then each Stalker steps toward you (M-18, M-19).",
    "draw": "the card a chance draw turns up (explicit-chance play only).",
}

RULES = """\
The Mapless House, in short (the rulings are in docs/rules/mapless-house.md):
- You build the house, then escape it. Narrative deck: ♠2-K, ♣2-K and the Exit (♥A);
  Mind deck ♥2-K, Body deck ♦2-K. The Entrance (♦A) is at (0, 0) with you on it (M-2).
- Phase one: place each drawn card (M-4 to M-8). 2-10 are corridors: they touch exactly
  one card and never branch. J, Q, K are rooms. The Exit comes once a black suit is used
  up (M-10), on a cell farthest from the Entrance, and the ♠A Stalker waits on it (M-11).
- Phase two: one opening Move, then turns of Expand (place a card), Move, Encounter,
  Stalkers (M-12 to M-18). Encounter: a Mind and a Body card against the value of your
  card; below it and the house holds you (M-16). Stalkers step toward you; the ♠A never
  goes back onto the Exit (M-19); the ♣A comes when a deck first runs dry (M-17).
- You escape onto a free Exit; you are consumed when a Stalker reaches you (M-20). The
  score is the number of cards on the table (M-21). --max-turns ends a long hunt (M-22)."""

TERMINAL = TerminalPlay(view=_view, actions=ACTIONS, rules=RULES, hint_bot="heuristic")
