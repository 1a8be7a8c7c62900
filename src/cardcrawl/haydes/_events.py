"""What can happen in a step of Escape from Haydes.

Every step leaves its events, in order, on the state it returns (``state.events``), so
a user interface or a narrator never has to compare two states. ``str(event)`` is a
line of plain narration; players are named by seat ("Player 0").
"""

from __future__ import annotations

import attrs

from cardcrawl.haydes._actions import Guess
from cardcrawl.haydes._creatures import Characteristic
from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell, cell_text

__all__ = [
    "AllTrapped",
    "AlmostThere",
    "Announced",
    "CardsReplaced",
    "EncounterBegan",
    "Escaped",
    "FirstPlayerDrawn",
    "HaydesEvent",
    "Held",
    "JokerShuffledIn",
    "Lowered",
    "Moved",
    "Overcame",
    "Released",
    "ReplacementReshuffled",
    "Revealed",
    "Rolled",
    "TimeUp",
    "Trapped",
    "TurnBegan",
    "TurnEnded",
    "TurnStarted",
    "TurnedFaceDown",
]


@attrs.frozen
class FirstPlayerDrawn:
    """Chance picked the first player (H-5).

    Attributes:
        seat: the first player.

    Examples:
        With the first player stacked, the setup's first event:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state.events[0]
        FirstPlayerDrawn(seat=1)
        >>> print(state.events[0])
        Player 1 goes first.
    """

    seat: int

    def __str__(self) -> str:
        return f"Player {self.seat} goes first."


@attrs.frozen
class TurnStarted:
    """A player's turn began (H-5); ``round`` counts from 1 (H-13).

    Named like The Mapless House's :class:`~cardcrawl.mapless.TurnStarted`, so that
    code that follows turns looks for one name in both games. ``TurnBegan``, its former
    name, still answers (the same class) with a ``DeprecationWarning``, for one release.

    Attributes:
        seat: whose turn it is.
        round: the round the turn belongs to.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.haydes import TurnStarted
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state.events[1]
        TurnStarted(seat=1, round=1)
        >>> print(state.events[1])
        Round 1: Player 1's turn.
    """

    seat: int
    round: int

    def __str__(self) -> str:
        return f"Round {self.round}: Player {self.seat}'s turn."


#: Deprecated: the former name of :class:`TurnStarted`. The same class, so that
#: ``isinstance(event, TurnBegan)`` keeps working; new code should use ``TurnStarted``.
TurnBegan = TurnStarted


@attrs.frozen
class Announced:
    """A player aimed at a face-down card, announcing higher or lower (H-6, the Tuybe).

    Attributes:
        seat: the player moving.
        source: the cell the figure moves from.
        target: the face-down cell aimed at.
        guess: the announcement.
        tuybe: whether the move rides the Tuybe (the Tuybe variant).

    Examples:
        The first event of a move, with the Build deck stacked:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> print(state.events[0])
        Player 1 moves toward (-1, 0), announcing higher.
    """

    seat: int
    source: Cell
    target: Cell
    guess: Guess
    tuybe: bool

    def __str__(self) -> str:
        how = "rides the Tuybe toward" if self.tuybe else "moves toward"
        return f"Player {self.seat} {how} {cell_text(self.target)}, announcing {self.guess.value}."


@attrs.frozen
class Revealed:
    """A face-down card was turned face up, and the announcement judged (H-7).

    ``correct`` is whether ``card`` is strictly higher (or lower, as announced) than
    ``from_value``, the value of the card the figure moved from: equal is never correct.

    Attributes:
        cell: the cell turned.
        card: the card it turned out to be.
        guess: the announcement judged.
        from_value: the value of the card the figure moved from (0 for the Black Joker).
        correct: whether the announcement was right.

    Examples:
        From the Black Joker (value 0), any card is higher:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> print(state.events[1])
        The card at (-1, 0) is turned: Q♥; higher than 0: correct.

        Equal values are never correct:

        >>> from cardcrawl import Card
        >>> from cardcrawl.haydes import Guess, Revealed
        >>> print(Revealed((2, 0), Card.parse("7S"), Guess.LOWER, 7, False))
        The card at (2, 0) is turned: 7♠; lower than 7: wrong.
    """

    cell: Cell
    card: Card
    guess: Guess
    from_value: int
    correct: bool

    def __str__(self) -> str:
        verdict = "correct" if self.correct else "wrong"
        return (
            f"The card at {cell_text(self.cell)} is turned: {self.card.symbol}; "
            f"{self.guess.value} than {self.from_value}: {verdict}."
        )


@attrs.frozen
class Moved:
    """A figure moved (after a reveal, or a step onto a face-up card).

    Attributes:
        seat: the player whose figure moved.
        source: where it stood.
        target: where it stands now.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> state.events[2]
        Moved(seat=1, source=(0, 0), target=(-1, 0))
        >>> print(state.events[2])
        Player 1 moves to (-1, 0).
    """

    seat: int
    source: Cell
    target: Cell

    def __str__(self) -> str:
        return f"Player {self.seat} moves to {cell_text(self.target)}."


@attrs.frozen
class EncounterBegan:
    """A figure met a creature not yet overcome (H-8).

    Attributes:
        seat: the player facing the creature.
        cell: where the creature's card lies.
        card: the court card.
        creature: the creature's name, from the options' creature table.

    Examples:
        The standard table names every creature plainly:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> print(state.events[3])
        Player 1 faces Q♥: creature.
        >>> state.phase
        <Phase.ENCOUNTER: 'encounter'>
    """

    seat: int
    cell: Cell
    card: Card
    creature: str

    def __str__(self) -> str:
        return f"Player {self.seat} faces {self.card.symbol}: {self.creature}."


@attrs.frozen
class Rolled:
    """The 2D6 roll of an encounter (H-8): overcome when total + modifier <= value.

    Attributes:
        seat: the player rolling.
        characteristic: the characteristic chosen to face the creature.
        total: the 2D6 total.
        modifier: the creature's modifier to the roll (0 in the standard table).
        value: the characteristic's value before the roll.
        overcome: whether the creature was overcome.

    Examples:
        A stacked roll of 12 against charisma 8:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> state = game.step(state, game.parse_action("charisma"))
        >>> print(state.events[0])
        Player 1 rolls 12 against charisma 8: not overcome.

        A modifier shows with its sign:

        >>> from cardcrawl.haydes import Characteristic, Rolled
        >>> print(Rolled(0, Characteristic.ENDURANCE, 6, 1, 7, True))
        Player 0 rolls 6 +1 against endurance 7: overcome.
    """

    seat: int
    characteristic: Characteristic
    total: int
    modifier: int
    value: int
    overcome: bool

    def __str__(self) -> str:
        mod = f" {self.modifier:+d}" if self.modifier else ""
        verdict = "overcome" if self.overcome else "not overcome"
        return (
            f"Player {self.seat} rolls {self.total}{mod} against "
            f"{self.characteristic.value} {self.value}: {verdict}."
        )


@attrs.frozen
class Lowered:
    """An encounter's effort lowered a characteristic (H-8).

    Attributes:
        seat: the player.
        characteristic: the characteristic lowered.
        before: its value before.
        after: its value now.

    Examples:
        Facing a creature costs a point whatever the roll:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> state = game.step(state, game.parse_action("charisma"))
        >>> print(state.events[1])
        Player 1's charisma drops from 8 to 7.
    """

    seat: int
    characteristic: Characteristic
    before: int
    after: int

    def __str__(self) -> str:
        return (
            f"Player {self.seat}'s {self.characteristic.value} drops from "
            f"{self.before} to {self.after}."
        )


@attrs.frozen
class Overcame:
    """The creature is gone; its card stays as plain ground until replaced (H-8).

    Attributes:
        seat: the player who overcame it.
        cell: where its card lies.
        card: the court card.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=1)
        >>> state = game.initial_state(seed=1, stack={"build": ["JS"], "rolls": [2]})
        >>> state = game.step(state, game.parse_action("higher 1,0"))
        >>> state = game.step(state, game.parse_action("endurance"))
        >>> print(state.events[-1])
        The creature of J♠ at (1, 0) is gone.
    """

    seat: int
    cell: Cell
    card: Card

    def __str__(self) -> str:
        return f"The creature of {self.card.symbol} at {cell_text(self.cell)} is gone."


@attrs.frozen
class Held:
    """The creature holds the player; the turn ends (H-8).

    Attributes:
        seat: the player held.
        cell: where the creature is.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> state = game.step(state, game.parse_action("charisma"))
        >>> print(state.events[2])
        Player 1 is held at (-1, 0).
    """

    seat: int
    cell: Cell

    def __str__(self) -> str:
        return f"Player {self.seat} is held at {cell_text(self.cell)}."


@attrs.frozen
class Released:
    """Figures held by a creature another player overcame are freed (H-8).

    Attributes:
        seats: the players freed.
        cell: where they were held.

    Examples:
        >>> from cardcrawl.haydes import Released
        >>> print(Released((0, 2), (1, -1)))
        Player 0, Player 2 freed at (1, -1).
    """

    seats: tuple[int, ...]
    cell: Cell

    def __str__(self) -> str:
        who = ", ".join(f"Player {s}" for s in self.seats)
        return f"{who} freed at {cell_text(self.cell)}."


@attrs.frozen
class Trapped:
    """A characteristic reached 0: the player is out, the figure removed (H-11).

    Attributes:
        seat: the player out.
        characteristic: the characteristic spent.

    Examples:
        >>> from cardcrawl.haydes import Characteristic, Trapped
        >>> print(Trapped(1, Characteristic.ENDURANCE))
        Player 1's endurance is spent: trapped in Haydes forever.
    """

    seat: int
    characteristic: Characteristic

    def __str__(self) -> str:
        return (
            f"Player {self.seat}'s {self.characteristic.value} is spent: trapped in Haydes forever."
        )


@attrs.frozen
class AlmostThere:
    """A move onto the Red Joker failed; the figure stays (H-10).

    Attributes:
        seat: the player who failed.
        cell: where the Red Joker was turned.

    Examples:
        >>> from cardcrawl.haydes import AlmostThere
        >>> print(AlmostThere(0, (3, 1)))
        Almost there: the Red Joker at (3, 1) escapes Player 0.
    """

    seat: int
    cell: Cell

    def __str__(self) -> str:
        return f"Almost there: the Red Joker at {cell_text(self.cell)} escapes Player {self.seat}."


@attrs.frozen
class TurnEnded:
    """A player's turn ended (H-12 follows).

    Attributes:
        seat: whose turn ended.

    Examples:
        Being held ends the turn, and the next player's begins:

        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> stack = {"first_player": [1], "build": ["QH"], "rolls": [12]}
        >>> state = game.initial_state(seed=1, stack=stack)
        >>> state = game.step(state, game.parse_action("higher -1,0"))
        >>> state = game.step(state, game.parse_action("charisma"))
        >>> [str(e) for e in state.events[-2:]]
        ["Player 1's turn ends.", "Round 1: Player 0's turn."]
    """

    seat: int

    def __str__(self) -> str:
        return f"Player {self.seat}'s turn ends."


@attrs.frozen
class CardsReplaced:
    """End of turn (H-12): the face-up cards on ``cells`` left; new ones lie face down.

    Attributes:
        cells: the cells that got a new face-down card.
        discarded: the cards that went to the discard pile.
        removed: the cards removed from the game (overcome creatures').

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.haydes import CardsReplaced
        >>> event = CardsReplaced(((1, 0), (2, 0)), (Card.parse("4D"),), (Card.parse("QH"),))
        >>> print(event)
        2 face-up cards replaced; Q♥ removed from the game.
        >>> print(CardsReplaced(((1, 0),), (Card.parse("4D"),), ()))
        1 face-up card replaced.
    """

    cells: tuple[Cell, ...]
    discarded: tuple[Card, ...]
    removed: tuple[Card, ...]

    def __str__(self) -> str:
        parts = [f"{len(self.cells)} face-up card{'s' if len(self.cells) != 1 else ''} replaced"]
        if self.removed:
            parts.append(f"{' '.join(c.symbol for c in self.removed)} removed from the game")
        return "; ".join(parts) + "."


@attrs.frozen
class JokerShuffledIn:
    """The Red Joker was shuffled in among the new cards on ``cells`` (H-10).

    Attributes:
        cells: the cells one of which now hides the Red Joker.

    Examples:
        >>> from cardcrawl.haydes import JokerShuffledIn
        >>> print(JokerShuffledIn(((1, 0), (2, 0))))
        The Red Joker is shuffled in among the new cards: it lies under one of (1, 0), (2, 0).
        >>> print(JokerShuffledIn(((0, -1),)))
        The Red Joker is shuffled in among the new cards: it lies under (0, -1).
    """

    cells: tuple[Cell, ...]

    def __str__(self) -> str:
        where = ", ".join(cell_text(c) for c in self.cells)
        if len(self.cells) != 1:
            where = f"one of {where}"
        return f"The Red Joker is shuffled in among the new cards: it lies under {where}."


@attrs.frozen
class ReplacementReshuffled:
    """The Replacement deck was empty: the discard pile became the new deck (H-12).

    Attributes:
        cards: how many cards the discard pile held.

    Examples:
        >>> from cardcrawl.haydes import ReplacementReshuffled
        >>> print(ReplacementReshuffled(23))
        The Replacement deck is empty: the discard pile (23) is shuffled.
    """

    cards: int

    def __str__(self) -> str:
        return f"The Replacement deck is empty: the discard pile ({self.cards}) is shuffled."


@attrs.frozen
class TurnedFaceDown:
    """Replacement deck and discard pile both empty: the old card turned face down (H-12).

    Attributes:
        cell: the cell whose card was turned face down.
        card: that card (known to everyone).

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.haydes import TurnedFaceDown
        >>> print(TurnedFaceDown((0, 1), Card.parse("KC")))
        No card to deal: K♣ is turned face down at (0, 1).
    """

    cell: Cell
    card: Card

    def __str__(self) -> str:
        return f"No card to deal: {self.card.symbol} is turned face down at {cell_text(self.cell)}."


@attrs.frozen
class Escaped:
    """A player moved onto the Red Joker with a correct guess and wins (H-9).

    Attributes:
        seat: the winner.
        cell: where the Red Joker lay.

    Examples:
        >>> from cardcrawl.haydes import Escaped
        >>> print(Escaped(2, (4, 0)))
        Player 2 reaches the Red Joker and escapes Haydes!
    """

    seat: int
    cell: Cell

    def __str__(self) -> str:
        return f"Player {self.seat} reaches the Red Joker and escapes Haydes!"


@attrs.frozen
class AllTrapped:
    """Every player is out: the game ends with no winner (H-11).

    Examples:
        >>> from cardcrawl.haydes import AllTrapped
        >>> print(AllTrapped())
        Every player is trapped: Haydes keeps them all.
    """

    def __str__(self) -> str:
        return "Every player is trapped: Haydes keeps them all."


@attrs.frozen
class TimeUp:
    """The ``max_rounds`` limit ended the game with no winner (H-13).

    Attributes:
        rounds: the rounds played.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=1)
        >>> state = game.initial_state(seed=1)
        >>> state = game.step(state, game.parse_action("end"))
        >>> print(state.events[-1])
        After 1 rounds, time is up: nobody escapes.
    """

    rounds: int

    def __str__(self) -> str:
        return f"After {self.rounds} rounds, time is up: nobody escapes."


HaydesEvent = (
    FirstPlayerDrawn
    | TurnStarted
    | Announced
    | Revealed
    | Moved
    | EncounterBegan
    | Rolled
    | Lowered
    | Overcame
    | Held
    | Released
    | Trapped
    | AlmostThere
    | TurnEnded
    | CardsReplaced
    | JokerShuffledIn
    | ReplacementReshuffled
    | TurnedFaceDown
    | Escaped
    | AllTrapped
    | TimeUp
)
"""Any event of Escape from Haydes, as a state's ``events`` hold them; ``str(event)`` is
its line of narration."""
