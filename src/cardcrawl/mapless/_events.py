"""What can happen in a step of The Mapless House.

Every step leaves its events, in order, on the state it returns (``state.events``), so
a user interface or a narrator never has to compare two states. ``str(event)`` is a
line of plain narration.
"""

from __future__ import annotations

import attrs

from cardcrawl._cards import Card
from cardcrawl._grid import Cell

__all__ = [
    "CardDrawn",
    "CardPlaced",
    "CardRefused",
    "Consumed",
    "DeckRanDry",
    "Encounter",
    "Escaped",
    "ExitPlaced",
    "ExitShuffledBack",
    "LostInTheHouse",
    "MaplessEvent",
    "MoveSkipped",
    "Moved",
    "StalkerArrived",
    "StalkerStepped",
    "StalkerWaited",
    "TurnStarted",
]


def _at(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


@attrs.frozen
class CardDrawn:
    """A card was drawn from the Narrative deck (M-9, M-13)."""

    card: Card

    def __str__(self) -> str:
        return f"You draw {self.card.symbol} from the Narrative deck."


@attrs.frozen
class CardPlaced:
    """A Narrative card was placed on ``cell``; ``dread`` is its dread line."""

    card: Card
    cell: Cell
    dread: str

    def __str__(self) -> str:
        return f"{self.card.symbol} goes to {_at(self.cell)}. {self.dread}"


@attrs.frozen
class CardRefused:
    """The drawn card had no legal cell and went to the Refused pile (M-8)."""

    card: Card

    def __str__(self) -> str:
        return f"The house refuses {self.card.symbol}."


@attrs.frozen
class ExitShuffledBack:
    """The Exit was drawn before a black suit was exhausted and went back (M-10)."""

    def __str__(self) -> str:
        return "The Exit is drawn too early and shuffled back: the house is not ready."


@attrs.frozen
class ExitPlaced:
    """The Exit was placed on ``cell`` among ``candidates``; the ♠A waits on it (M-11)."""

    cell: Cell
    candidates: tuple[Cell, ...]
    dread: str

    def __str__(self) -> str:
        return f"The Exit opens at {_at(self.cell)}, and the A♠ Stalker waits on it. {self.dread}"


@attrs.frozen
class TurnStarted:
    """Turn ``turn`` of the hunt began (M-12; the opening Move is not a turn)."""

    turn: int

    def __str__(self) -> str:
        return f"Turn {self.turn}."


@attrs.frozen
class Moved:
    """The player moved from ``source`` to ``target`` (M-14)."""

    source: Cell
    target: Cell

    def __str__(self) -> str:
        return f"You move from {_at(self.source)} to {_at(self.target)}."


@attrs.frozen
class MoveSkipped:
    """The player is held and cannot move this turn (M-16)."""

    cell: Cell

    def __str__(self) -> str:
        return f"The house holds you at {_at(self.cell)}: you cannot move."


@attrs.frozen
class DeckRanDry:
    """The Mind or Body deck was empty when a card was needed (M-17).

    ``reshuffled`` cards of its Aside pile became the new deck (0: no card to draw).
    """

    deck: str
    reshuffled: int

    def __str__(self) -> str:
        if self.reshuffled:
            return f"The {self.deck} deck runs dry: its Aside pile ({self.reshuffled}) is shuffled."
        return f"The {self.deck} deck runs dry with nothing aside: that draw counts 0."


@attrs.frozen
class Encounter:
    """An Encounter (M-15, M-16): ``total`` of the turned cards and holders vs ``threshold``.

    ``mind`` or ``body`` is ``None`` when that deck had no card to give (M-17).
    """

    mind: Card | None
    body: Card | None
    holding: tuple[Card, ...]
    total: int
    threshold: int
    held: bool

    def __str__(self) -> str:
        turned = " + ".join(c.symbol if c else "nothing" for c in (self.mind, self.body))
        extra = f" + held {' '.join(c.symbol for c in self.holding)}" if self.holding else ""
        verdict = "the house holds you" if self.held else "you hold your nerve"
        return f"Encounter: {turned}{extra} = {self.total} against {self.threshold}: {verdict}."


@attrs.frozen
class StalkerStepped:
    """A Stalker (``"AS"`` or ``"AC"`` card) took a step (M-18, M-19)."""

    stalker: Card
    source: Cell
    target: Cell

    def __str__(self) -> str:
        return f"The {self.stalker.symbol} Stalker steps to {_at(self.target)}."


@attrs.frozen
class StalkerWaited:
    """The ♠A could not step without re-entering the Exit, so it waited (M-19)."""

    stalker: Card
    cell: Cell

    def __str__(self) -> str:
        return f"The {self.stalker.symbol} Stalker will not return to the Exit and waits."


@attrs.frozen
class StalkerArrived:
    """The ♣A Stalker appeared on the Entrance at the end of the first dry turn (M-17)."""

    stalker: Card
    cell: Cell

    def __str__(self) -> str:
        return f"The {self.stalker.symbol} Stalker appears on the Entrance."


@attrs.frozen
class Escaped:
    """The player stepped onto the Exit with no Stalker on it (M-14): the game is won."""

    cell: Cell
    score: int

    def __str__(self) -> str:
        return f"You step through the Exit and escape. The house had {self.score} cards."


@attrs.frozen
class Consumed:
    """A Stalker and the player shared a cell (M-20): the game is lost."""

    stalker: Card
    cell: Cell
    score: int

    def __str__(self) -> str:
        return f"The {self.stalker.symbol} Stalker consumes you. The house had {self.score} cards."


@attrs.frozen
class LostInTheHouse:
    """The ``max_turns`` limit ended the game (M-22): neither escaped nor consumed."""

    turns: int
    score: int

    def __str__(self) -> str:
        return f"After {self.turns} turns you are lost in the house. It had {self.score} cards."


MaplessEvent = (
    CardDrawn
    | CardPlaced
    | CardRefused
    | ExitShuffledBack
    | ExitPlaced
    | TurnStarted
    | Moved
    | MoveSkipped
    | DeckRanDry
    | Encounter
    | StalkerStepped
    | StalkerWaited
    | StalkerArrived
    | Escaped
    | Consumed
    | LostInTheHouse
)
