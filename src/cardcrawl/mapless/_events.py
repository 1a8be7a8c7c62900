"""What can happen in a step of The Mapless House.

Every step leaves its events, in order, on the state it returns (``state.events``), so
a user interface or a narrator never has to compare two states. ``str(event)`` is a
line of plain narration.
"""

from __future__ import annotations

import attrs

from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell, cell_text

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


@attrs.frozen
class CardDrawn:
    """A card was drawn from the Narrative deck (M-9, M-13).

    Attributes:
        card: the card drawn.

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.mapless import CardDrawn
        >>> print(CardDrawn(Card.parse("7S")))
        You draw 7♠ from the Narrative deck.
    """

    card: Card

    def __str__(self) -> str:
        return f"You draw {self.card.symbol} from the Narrative deck."


@attrs.frozen
class CardPlaced:
    """A Narrative card was placed on ``cell``; ``dread`` is its dread line.

    Attributes:
        card: the card placed.
        cell: where it went.
        dread: the card's dread line, from the options' table (the standard one unless
            ``dread_lines`` replaces it).

    Examples:
        The first placement of a game, with the Narrative deck stacked and the standard
        dread lines:

        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
        >>> placed = game.step(state, game.parse_action("place 1,0")).events[0]
        >>> placed.card, placed.cell
        (Card.parse('KS'), (1, 0))
        >>> placed.dread == game.options.dread_line(placed.card)
        True
        >>> str(placed) == "K♠ goes to (1, 0). " + placed.dread
        True
    """

    card: Card
    cell: Cell
    dread: str

    def __str__(self) -> str:
        return f"{self.card.symbol} goes to {cell_text(self.cell)}. {self.dread}"


@attrs.frozen
class CardRefused:
    """The drawn card had no legal cell and went to the Refused pile (M-8).

    Attributes:
        card: the card refused.

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.mapless import CardRefused
        >>> print(CardRefused(Card.parse("3C")))
        The house refuses 3♣.
    """

    card: Card

    def __str__(self) -> str:
        return f"The house refuses {self.card.symbol}."


@attrs.frozen
class ExitShuffledBack:
    """The Exit was drawn before a black suit was exhausted and went back (M-10).

    Examples:
        >>> from cardcrawl.mapless import ExitShuffledBack
        >>> print(ExitShuffledBack())
        The Exit is drawn too early and shuffled back: the house is not ready.
    """

    def __str__(self) -> str:
        return "The Exit is drawn too early and shuffled back: the house is not ready."


@attrs.frozen
class ExitPlaced:
    """The Exit was placed on ``cell`` among ``candidates``; the ♠A waits on it (M-11).

    Attributes:
        cell: where the Exit went.
        candidates: every cell it could have gone to, sorted (see
            :func:`~cardcrawl.mapless.exit_candidates`); with one candidate, no decision
            was asked.
        dread: the Exit's dread line.

    Examples:
        >>> from cardcrawl.mapless import ExitPlaced
        >>> event = ExitPlaced((3, 0), ((2, 1), (3, 0)), "A door waits.")
        >>> print(event)
        The Exit opens at (3, 0), and the A♠ Stalker waits on it. A door waits.
    """

    cell: Cell
    candidates: tuple[Cell, ...]
    dread: str

    def __str__(self) -> str:
        at = cell_text(self.cell)
        return f"The Exit opens at {at}, and the A♠ Stalker waits on it. {self.dread}"


@attrs.frozen
class TurnStarted:
    """Turn ``turn`` of the hunt began (M-12; the opening Move is not a turn).

    Attributes:
        turn: the turn's number, from 1.

    Examples:
        >>> from cardcrawl.mapless import TurnStarted
        >>> print(TurnStarted(1))
        Turn 1.
    """

    turn: int

    def __str__(self) -> str:
        return f"Turn {self.turn}."


@attrs.frozen
class Moved:
    """The player moved from ``source`` to ``target`` (M-14).

    Attributes:
        source: the cell the player left.
        target: the touching cell the player moved to.

    Examples:
        >>> from cardcrawl.mapless import Moved
        >>> print(Moved((0, 0), (-1, 0)))
        You move from (0, 0) to (-1, 0).
    """

    source: Cell
    target: Cell

    def __str__(self) -> str:
        return f"You move from {cell_text(self.source)} to {cell_text(self.target)}."


@attrs.frozen
class MoveSkipped:
    """The player is held and cannot move this turn (M-16).

    Attributes:
        cell: where the player stays.

    Examples:
        >>> from cardcrawl.mapless import MoveSkipped
        >>> print(MoveSkipped((2, 0)))
        The house holds you at (2, 0): you cannot move.
    """

    cell: Cell

    def __str__(self) -> str:
        return f"The house holds you at {cell_text(self.cell)}: you cannot move."


@attrs.frozen
class DeckRanDry:
    """The Mind or Body deck was empty when a card was needed (M-17).

    ``reshuffled`` cards of its Aside pile became the new deck (0: no card to draw).

    Attributes:
        deck: ``"Mind"`` or ``"Body"``.
        reshuffled: how many cards of the Aside pile were shuffled into the new deck.

    Examples:
        >>> from cardcrawl.mapless import DeckRanDry
        >>> print(DeckRanDry("Mind", 12))
        The Mind deck runs dry: its Aside pile (12) is shuffled.
        >>> print(DeckRanDry("Body", 0))
        The Body deck runs dry with nothing aside: that draw counts 0.
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

    Attributes:
        mind: the Mind card turned, or ``None``.
        body: the Body card turned, or ``None``.
        holding: the cards that were already holding the player, which count too.
        total: the value of all those cards (see :func:`~cardcrawl.mapless.card_value`).
        threshold: the value of the card the player stands on.
        held: the total fell short of the threshold, so the cards now hold the player.

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.mapless import Encounter
        >>> print(Encounter(Card.parse("QH"), Card.parse("9D"), (), 21, 2, False))
        Encounter: Q♥ + 9♦ = 21 against 2: you hold your nerve.
        >>> print(Encounter(Card.parse("2H"), None, (Card.parse("3D"),), 5, 13, True))
        Encounter: 2♥ + nothing + held 3♦ = 5 against 13: the house holds you.
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
    """A Stalker (``"AS"`` or ``"AC"`` card) took a step (M-18, M-19).

    Attributes:
        stalker: the Stalker's card, ♠A or ♣A.
        source: the cell it left.
        target: the cell it stepped to (see :func:`~cardcrawl.mapless.stalker_step`).

    Examples:
        >>> from cardcrawl.mapless import SPADE_STALKER, StalkerStepped
        >>> print(StalkerStepped(SPADE_STALKER, (4, 0), (3, 0)))
        The A♠ Stalker steps to (3, 0).
    """

    stalker: Card
    source: Cell
    target: Cell

    def __str__(self) -> str:
        return f"The {self.stalker.symbol} Stalker steps to {cell_text(self.target)}."


@attrs.frozen
class StalkerWaited:
    """The ♠A could not step without re-entering the Exit, so it waited (M-19).

    Attributes:
        stalker: the Stalker's card, the ♠A.
        cell: where it waits.

    Examples:
        >>> from cardcrawl.mapless import SPADE_STALKER, StalkerWaited
        >>> print(StalkerWaited(SPADE_STALKER, (3, 1)))
        The A♠ Stalker will not return to the Exit and waits.
    """

    stalker: Card
    cell: Cell

    def __str__(self) -> str:
        return f"The {self.stalker.symbol} Stalker will not return to the Exit and waits."


@attrs.frozen
class StalkerArrived:
    """The ♣A Stalker appeared on the Entrance at the end of the first dry turn (M-17).

    Attributes:
        stalker: the Stalker's card, the ♣A.
        cell: where it appeared, the Entrance's cell.

    Examples:
        >>> from cardcrawl.mapless import CLUB_STALKER, ENTRANCE_CELL, StalkerArrived
        >>> print(StalkerArrived(CLUB_STALKER, ENTRANCE_CELL))
        The A♣ Stalker appears on the Entrance.
    """

    stalker: Card
    cell: Cell

    def __str__(self) -> str:
        return f"The {self.stalker.symbol} Stalker appears on the Entrance."


@attrs.frozen
class Escaped:
    """The player stepped onto the Exit with no Stalker on it (M-14): the game is won.

    Attributes:
        cell: the Exit's cell.
        score: the number of cards on the table (M-21).

    Examples:
        >>> from cardcrawl.mapless import Escaped
        >>> print(Escaped((5, -2), 27))
        You step through the Exit and escape. The house had 27 cards.
    """

    cell: Cell
    score: int

    def __str__(self) -> str:
        return f"You step through the Exit and escape. The house had {self.score} cards."


@attrs.frozen
class Consumed:
    """A Stalker and the player shared a cell (M-20): the game is lost.

    Attributes:
        stalker: the Stalker's card, ♠A or ♣A.
        cell: the cell they shared.
        score: the number of cards on the table (M-21).

    Examples:
        >>> from cardcrawl.mapless import SPADE_STALKER, Consumed
        >>> print(Consumed(SPADE_STALKER, (-13, 0), 26))
        The A♠ Stalker consumes you. The house had 26 cards.
    """

    stalker: Card
    cell: Cell
    score: int

    def __str__(self) -> str:
        return f"The {self.stalker.symbol} Stalker consumes you. The house had {self.score} cards."


@attrs.frozen
class LostInTheHouse:
    """The ``max_turns`` limit ended the game (M-22): neither escaped nor consumed.

    Attributes:
        turns: the turns played, the limit.
        score: the number of cards on the table (M-21).

    Examples:
        >>> from cardcrawl.mapless import LostInTheHouse
        >>> print(LostInTheHouse(300, 25))
        After 300 turns you are lost in the house. It had 25 cards.
        >>> print(LostInTheHouse(1, 24))
        After 1 turn you are lost in the house. It had 24 cards.
    """

    turns: int
    score: int

    def __str__(self) -> str:
        turns = "1 turn" if self.turns == 1 else f"{self.turns} turns"
        return f"After {turns} you are lost in the house. It had {self.score} cards."


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
"""Any event of The Mapless House, as a state's ``events`` hold them; ``str(event)`` is
its line of narration."""
