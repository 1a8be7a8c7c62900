"""Pure rule functions of Escape from Haydes, each small enough to test on its own."""

from __future__ import annotations

from cardcrawl.haydes._actions import Guess
from cardcrawl.kit._cards import Card

__all__ = [
    "ROLL_WEIGHTS",
    "card_value",
    "guess_is_correct",
    "is_court",
    "is_escape",
    "next_seat",
]

#: The 2D6 totals 2..12 with their number of ways out of 36 (H-8).
ROLL_WEIGHTS: tuple[tuple[int, int], ...] = tuple(
    (total, 6 - abs(total - 7)) for total in range(2, 13)
)

# By card index: 0 for the jokers, else the rank (H-1). A table, because this is hot.
_VALUES = tuple(Card(i).rank for i in range(54))


def card_value(card: Card) -> int:
    """The value of a card (H-1): ace 1, 2-10 face value, J 11, Q 12, K 13, jokers 0.

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.haydes import card_value
        >>> card_value(Card.parse("AS")), card_value(Card.parse("QH")), card_value(Card.RED_JOKER)
        (1, 12, 0)
    """
    return _VALUES[card.index]


def is_court(card: Card) -> bool:
    """J, Q and K are court cards, creatures (H-1).

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.haydes import is_court
        >>> is_court(Card.parse("JD")), is_court(Card.parse("10D")), is_court(Card.BLACK_JOKER)
        (True, False, False)
    """
    return _VALUES[card.index] >= 11


def guess_is_correct(guess: Guess, from_value: int, value: int) -> bool:
    """Whether an announcement was right (H-7): strictly higher or strictly lower.

    Equal values are never correct.

    Examples:
        >>> from cardcrawl.haydes import Guess, guess_is_correct
        >>> guess_is_correct(Guess.HIGHER, 5, 7), guess_is_correct(Guess.LOWER, 5, 7)
        (True, False)
        >>> guess_is_correct(Guess.HIGHER, 7, 7), guess_is_correct(Guess.LOWER, 7, 7)
        (False, False)
    """
    if guess is Guess.HIGHER:
        return value > from_value
    return value < from_value


def is_escape(guess: Guess, from_value: int) -> bool:
    """Whether moving onto the Red Joker with this announcement escapes (H-9).

    Only *lower* from a card worth 1 or more is correct against the joker's 0.

    Examples:
        >>> from cardcrawl.haydes import Guess, is_escape
        >>> is_escape(Guess.LOWER, 1), is_escape(Guess.LOWER, 0), is_escape(Guess.HIGHER, 9)
        (True, False, False)
    """
    return guess is Guess.LOWER and from_value >= 1


def next_seat(current: int, first: int, seats_in: tuple[bool, ...]) -> tuple[int, bool] | None:
    """Who plays after ``current`` (H-5), and whether a new round starts (H-13).

    Play passes in seat order, skipping players who are out. Rounds start with the first
    player: a new round begins when play passes the first player's seat again, so that a
    round is one turn for each player still in, even after some are out.

    Args:
        current: the seat whose turn ends (who may have just gone out).
        first: the first player's seat.
        seats_in: for each seat, whether that player is still in.

    Returns:
        ``(seat, new_round)``, or ``None`` when nobody is in.

    Examples:
        >>> from cardcrawl.haydes import next_seat
        >>> next_seat(1, 1, (True, True, True)), next_seat(0, 1, (True, True, True))
        ((2, False), (1, True))
        >>> next_seat(2, 1, (True, False, True)), next_seat(0, 0, (True,))
        ((0, False), (0, True))
    """
    n = len(seats_in)
    for step in range(1, n + 1):
        seat = (current + step) % n
        if seats_in[seat]:
            # Positions counted from the first player: wrapping back past it is a new round.
            new_round = (seat - first) % n <= (current - first) % n
            return seat, new_round
    return None
