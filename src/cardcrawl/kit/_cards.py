"""Playing cards: suits, ranks and jokers, with a compact text form.

A card is identified by one small integer, so that cards hash, compare and sort fast
in the hot paths of both games. The text form is rank then suit: ``"QS"`` is the queen
of spades, ``"10H"`` the ten of hearts, ``"AD"`` the ace of diamonds; ``"RJ"`` and
``"BJ"`` are the red and black jokers. Card *values* are not defined here: each game
gives its own (an ace has no value in The Mapless House and is worth 1 in Haydes).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any, ClassVar

import attrs

from cardcrawl.errors import ParseError, action_argument_error

__all__ = ["RANK_NAMES", "Card", "Suit", "check_card_argument", "parse_cards", "standard_deck"]


class Suit(enum.Enum):
    """The four suits, in cardcrawl's canonical order (spades, hearts, diamonds, clubs).

    A suit's value is its letter in the text form of cards.

    Examples:
        >>> from cardcrawl import Card, Suit
        >>> list(Suit)
        [<Suit.SPADES: 'S'>, <Suit.HEARTS: 'H'>, <Suit.DIAMONDS: 'D'>, <Suit.CLUBS: 'C'>]
        >>> Card.parse("QS").suit is Suit("S"), Suit.SPADES.symbol, Suit.HEARTS.is_black
        (True, '♠', False)
    """

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def is_black(self) -> bool:
        """Spades and clubs are black; hearts and diamonds are red."""
        return self in (Suit.SPADES, Suit.CLUBS)

    @property
    def symbol(self) -> str:
        """The suit's symbol, such as ``"♠"``."""
        return _SYMBOLS[self]


_SUITS = tuple(Suit)
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}

#: Rank names by rank number: 1 is the ace, 11-13 the jack, queen and king.
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_BLACK_JOKER_INDEX = 52
_RED_JOKER_INDEX = 53


def _check_index(_: object, __: object, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 53:
        raise ParseError(f"a card index is an integer from 0 to 53, not {value!r}")


@attrs.frozen(repr=False, eq=False)
class Card:
    """One playing card.

    Build cards with :meth:`parse` or :meth:`of`; the integer ``index`` is an
    implementation detail that orders cards suit by suit (spades, hearts, diamonds,
    clubs; ace to king), then the black and the red joker.

    Examples:
        >>> from cardcrawl import Card, Suit
        >>> Card.parse("QS").rank, Card.parse("QS").suit
        (12, <Suit.SPADES: 'S'>)
        >>> str(Card.of(10, Suit.HEARTS)), Card.parse("rj").is_joker
        ('10H', True)
        >>> sorted([Card.parse("2C"), Card.parse("KS")])
        [Card.parse('KS'), Card.parse('2C')]
    """

    index: int = attrs.field(validator=_check_index)

    #: The black joker (``"BJ"``).
    BLACK_JOKER: ClassVar[Card]
    #: The red joker (``"RJ"``).
    RED_JOKER: ClassVar[Card]

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Card:
        """The card of this rank (1 = ace ... 13 = king) and suit.

        Raises:
            ParseError: the rank is not 1 to 13.
        """
        if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= 13:
            raise ParseError(f"a rank is an integer from 1 (ace) to 13 (king), not {rank!r}")
        if not isinstance(suit, Suit):
            raise ParseError(f"a suit is a cardcrawl.Suit such as Suit.SPADES, not {suit!r}")
        return _ALL[_SUITS.index(suit) * 13 + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named by ``text`` (``"QS"``, ``"10h"``, ``"RJ"``; case-insensitive).

        Raises:
            ParseError: ``text`` names no card.
        """
        card = _BY_CODE.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise ParseError(
                f"{text!r} is not a card: expected a rank (A, 2-10, J, Q, K) followed by a "
                "suit (S, H, D, C), or RJ / BJ for a joker"
            )
        return card

    @property
    def is_joker(self) -> bool:
        """True for the two jokers."""
        return self.index >= _BLACK_JOKER_INDEX

    @property
    def is_red(self) -> bool:
        """True for hearts, diamonds and the red joker."""
        if self.index >= _BLACK_JOKER_INDEX:
            return self.index == _RED_JOKER_INDEX
        return not _SUITS[self.index // 13].is_black

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king); 0 for a joker."""
        return 0 if self.index >= _BLACK_JOKER_INDEX else self.index % 13 + 1

    @property
    def suit(self) -> Suit | None:
        """The suit, or ``None`` for a joker."""
        return None if self.index >= _BLACK_JOKER_INDEX else _SUITS[self.index // 13]

    @property
    def code(self) -> str:
        """The text form, such as ``"QS"`` or ``"RJ"``."""
        return _CODES[self.index]

    @property
    def symbol(self) -> str:
        """A short display form with the suit symbol, such as ``"Q♠"``."""
        suit = self.suit
        return self.code if suit is None else RANK_NAMES[self.rank] + suit.symbol

    # Hand-written comparisons and hash: cards are compared and hashed constantly in
    # decks and tables, and the generic ones attrs generates cost several times more.
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not Card:
            return NotImplemented
        return self.index == other.index

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __str__(self) -> str:
        return _CODES[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({_CODES[self.index]!r})"


_CODES = (*(RANK_NAMES[r] + s.value for s in _SUITS for r in range(1, 14)), "BJ", "RJ")
_ALL = tuple(Card(i) for i in range(54))
_BY_CODE = dict(zip(_CODES, _ALL, strict=True))
_BY_CODE.update({"1" + code[1:]: card for code, card in _BY_CODE.items() if code[0] == "A"})

Card.BLACK_JOKER = _ALL[_BLACK_JOKER_INDEX]
Card.RED_JOKER = _ALL[_RED_JOKER_INDEX]


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from space- or comma-separated text, or from an iterable of codes or cards.

    Args:
        text: card codes such as ``"QS 10H"`` (case does not matter), or an iterable of
            codes and :class:`Card` values.

    Returns:
        The cards, in the order given.

    Examples:
        >>> from cardcrawl import parse_cards
        >>> parse_cards("QS, 10H AD")
        (Card.parse('QS'), Card.parse('10H'), Card.parse('AD'))

    Raises:
        ParseError: an item names no card.
    """
    items: Iterable[str | Card] = text.replace(",", " ").split() if isinstance(text, str) else text
    return tuple(item if isinstance(item, Card) else Card.parse(item) for item in items)


def standard_deck(*, jokers: bool = False) -> tuple[Card, ...]:
    """One 52-card deck in canonical order, with the two jokers at the end if asked.

    Args:
        jokers: add the black and the red joker after the 52 cards.

    Returns:
        The cards, suit by suit (spades, hearts, diamonds, clubs), ace to king.

    Examples:
        >>> from cardcrawl.kit import standard_deck
        >>> len(standard_deck()), len(standard_deck(jokers=True))
        (52, 54)
    """
    return _ALL if jokers else _ALL[:52]


def check_card_argument(action: object, attribute: Any, value: Any) -> None:
    """An attrs validator for an action's card: a :class:`Card` itself; anything else (a
    card's code, a subclass) is an :class:`~cardcrawl.errors.ActionError`.

    Examples:
        >>> import attrs
        >>> from cardcrawl.kit._cards import Card, check_card_argument
        >>> @attrs.frozen
        ... class Show:
        ...     card: Card = attrs.field(validator=check_card_argument)
        >>> Show(Card.parse("QS")).card
        Card.parse('QS')
        >>> Show("QS")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.ActionError: Show(card=...) takes a Card such as Card.parse('QS')...
    """
    if type(value) is not Card:
        raise action_argument_error(
            type(action), attribute.name, "a Card such as Card.parse('QS')", value
        )
