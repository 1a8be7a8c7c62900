"""The standard dread-line table of The Mapless House.

Every card placed on the table gets one sentence of narration, read aloud as the house is
built. This table holds one such line for each of the 26 placeable cards, keyed by card code
(the Entrance, the Exit, and the spade and club corridors and rooms). The text is the
project's own, not taken from the rulebook; a user can supply a table of their own through
the game options.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["STANDARD_DREAD_LINES"]

STANDARD_DREAD_LINES: Mapping[str, str] = MappingProxyType(
    {
        "AD": "You wake on cold boards in a house you have never seen, and it already knows you.",
        "AH": "A door stands where no door should be, and you cannot tell which side is outside.",
        "2S": "A short black passage, two steps long, and your breath already hangs in the air.",
        "3S": (
            "You edge down a narrow hall where frost creeps along the skirting boards behind you."
        ),
        "4S": (
            "The corridor stretches further than you expect, its walls cold as wet slate under "
            "your hand."
        ),
        "5S": (
            "You count five doors along this dark hall, and every one is locked from the other "
            "side."
        ),
        "6S": (
            "The passage bends into darkness, and the cold settles into your teeth as you walk it."
        ),
        "7S": "You walk a long gray hall where the lamps gutter out one by one behind your back.",
        "8S": (
            "This corridor runs on and on through iron chill, and your footsteps return a moment "
            "late."
        ),
        "9S": "The hall grows so long and cold that you forget which end you entered from.",
        "10S": (
            "An endless black corridor swallows the light, and the frozen dark ahead begins to "
            "whisper your name."
        ),
        "JS": (
            "You step into a bare study where an ink-black figure has been sketched on every page."
        ),
        "QS": (
            "A frozen ballroom opens around you, its dancers carved from ice and turned to watch "
            "you."
        ),
        "KS": "You enter a vast throne hall of black stone where the empty seat is still warm.",
        "2C": "A brief damp passage, two steps long, and you smell wet earth and old leaves.",
        "3C": (
            "You squeeze through a low hall where moss softens the floorboards beneath your feet."
        ),
        "4C": (
            "You brush swollen plaster in this sagging corridor, and something pale sprouts from "
            "its cracks."
        ),
        "5C": "You push along a musty hall where roots have split the walls and taste the air.",
        "6C": (
            "The passage grows damp and spongy around you, and the wallpaper peels away like "
            "blistered skin."
        ),
        "7C": (
            "You wade down a long hall of rotting carpet that squelches and clings to each step."
        ),
        "8C": (
            "This corridor winds on and on, its walls weeping sap and breathing slowly beside you."
        ),
        "9C": (
            "The hall becomes a gullet of mildew and fungus, so long you feel it slowly "
            "swallowing you."
        ),
        "10C": (
            "An endless rotting passage stretches ahead, its floor soft as flesh and pulsing "
            "gently beneath your weight."
        ),
        "JC": (
            "You enter a greenhouse gone to ruin, where black vines turn their buds toward your "
            "warmth."
        ),
        "QC": (
            "A banquet hall waits for you, its feast long rotten and its chairs grown together "
            "with roots."
        ),
        "KC": (
            "You stand in a great cellar whose walls are living bark, and something deep below is "
            "feeding."
        ),
    }
)
"""The standard dread lines: for each of the 26 cards that can be placed (its code), the
line read as it is placed. The option ``dread_lines`` of :class:`MaplessOptions` replaces
the table."""
