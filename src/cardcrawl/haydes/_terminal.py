"""Escape from Haydes at the keyboard: its map view, what its actions mean, its rules in
short and its hint bot, for ``cardcrawl play`` (declared in the game's tools)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcrawl.core._terminal import TerminalPlay
from cardcrawl.haydes._render import render_terminal
from cardcrawl.kit._grid import Cell

__all__ = ["TERMINAL"]


def _view(
    game: Any,
    state: Any,
    legal: Sequence[Any],
    *,
    width: int | None = 80,
    focus: Cell | None = None,
) -> str:
    return render_terminal(state, legal, width=width, focus=focus, creature=game._rules.creature_of)


_FACE = (
    "face the creature with your {0}: 2D6 are rolled, and a roll of at most your {0} "
    "overcomes it, so you may go on; either way your {0} drops by 1. Not overcome, you are "
    "held there and your turn ends; you face it again at the start of your next turn "
    "(H-8). At 0 you are out (H-11)."
)

ACTIONS = {
    "higher": "move onto that touching face-down card, announcing that it is higher than the "
    "card you stand on. It is turned: strictly higher and you may move again or end your "
    "turn; equal or lower and your turn ends there (H-6, H-7). A court card (J, Q, K) is a "
    "creature to face (H-8).",
    "lower": "the same, announcing lower: strictly lower and you may go on (H-6, H-7). "
    "Lower onto the Red Joker is the way out: you escape and win (H-9); any other move onto "
    "it fails and it is shuffled away again (H-10).",
    "step": "step onto that touching face-up card, with no announcement; your turn ends "
    "there, unless a creature not yet overcome waits on it (H-6, H-8).",
    "tuybe": "(the Tuybe) aim at the face-down card two cells away in a straight line, "
    "announcing higher or lower: correct and you move there; wrong and you stay, and your "
    "turn ends.",
    "end": "end your turn now. Every face-up card without a figure on it (but the Black "
    "Joker) is replaced by a face-down one (H-12), and the next player plays (H-5).",
    "charisma": _FACE.format("Charisma"),
    "endurance": _FACE.format("Endurance"),
    "first": "the player a chance draw picks to go first (explicit-chance play only).",
    "reveal": "the card a turned cell turns out to be (explicit-chance play only).",
    "roll": "the total of a 2D6 roll (explicit-chance play only).",
}

RULES = """\
Escape from Haydes, in short (the rulings are in docs/rules/escape-from-haydes.md):
- Haydes is a grid of face-down cards around the Black Joker at (0, 0), where every
  figure starts (H-4, H-5). Somewhere under them is the Red Joker: the way out.
- Values: A 1, 2-10, J 11, Q 12, K 13, Jokers 0 (H-1). Each player has Charisma and
  Endurance, 16 points split between them (H-2).
- On your turn, move to a touching cell (never diagonally) or end your turn (H-6). Onto a
  face-down card, first announce higher or lower than your card; it is turned, and a
  strictly correct guess lets you go on; otherwise your turn ends (H-7). Onto a face-up
  card you simply step, and your turn ends.
- A J, Q or K is a creature: choose Charisma or Endurance and roll 2D6; at most that value
  overcomes it; either way it drops by 1. Not overcome, you are held there (H-8). At 0
  you are out (H-11).
- Lower onto the Red Joker and you escape: you win (H-9). Any other move onto it fails,
  and it is shuffled in among the cards replaced at the end of the turn (H-10, H-12).
- At the end of a turn, face-up cards nobody stands on are replaced face down (H-12).
  --max-rounds ends the game with no winner after that many rounds (H-13)."""

TERMINAL = TerminalPlay(view=_view, actions=ACTIONS, rules=RULES, hint_bot="heuristic")
