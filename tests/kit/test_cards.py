"""Cards: the 54 cards, their text forms, and what is not a card."""

from __future__ import annotations

import pytest

from cardcrawl import Card, ParseError, Suit, parse_cards
from cardcrawl.kit import standard_deck
from cardcrawl.kit._cards import RANK_NAMES

ALL_54 = standard_deck(jokers=True)


def test_there_are_54_distinct_cards_in_canonical_order() -> None:
    assert len(ALL_54) == len(set(ALL_54)) == 54
    assert list(ALL_54) == sorted(ALL_54)
    assert standard_deck() == ALL_54[:52]
    assert ALL_54[-2:] == (Card.BLACK_JOKER, Card.RED_JOKER)
    assert [c.suit for c in ALL_54[:52:13]] == [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]


@pytest.mark.parametrize("card", ALL_54, ids=str)
def test_text_form_round_trips(card: Card) -> None:
    assert Card.parse(card.code) == card
    assert Card.parse(str(card)) == card
    assert Card.parse(card.code.lower()) == card
    assert Card.parse(f"  {card.code} ") == card
    assert eval(repr(card), {"Card": Card}) == card  # the repr is valid Python
    if not card.is_joker:
        assert card.code == RANK_NAMES[card.rank] + card.suit.value  # type: ignore[union-attr]
        assert Card.of(card.rank, card.suit) == card  # type: ignore[arg-type]
        assert card.symbol == RANK_NAMES[card.rank] + card.suit.symbol  # type: ignore[union-attr]
    else:
        assert card.rank == 0
        assert card.suit is None
        assert card.symbol == card.code


def test_a_few_cards_by_name() -> None:
    queen = Card.parse("QS")
    assert (queen.rank, queen.suit, queen.symbol, queen.is_red) == (12, Suit.SPADES, "Q♠", False)
    ten = Card.parse("10h")
    assert (ten.rank, ten.suit, str(ten), ten.is_red) == (10, Suit.HEARTS, "10H", True)
    assert Card.parse("1D") == Card.parse("AD")  # an ace may be written 1
    assert Card.parse("rj").is_red
    assert Card.parse("RJ").is_joker
    assert not Card.parse("BJ").is_red
    assert Suit.CLUBS.is_black
    assert Suit.SPADES.is_black
    assert not Suit.HEARTS.is_black
    assert not Suit.DIAMONDS.is_black


@pytest.mark.parametrize(
    "text",
    ["", " ", "ZZ", "Q", "S", "11S", "0S", "14H", "QX", "QSS", "10", "JJ", "AD AD", "Q S", "♠Q"],
)
def test_text_that_names_no_card_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError, match="is not a card"):
        Card.parse(text)


@pytest.mark.parametrize("value", [None, 12, b"QS", ["QS"]])
def test_parse_of_a_non_string_is_a_parse_error(value: object) -> None:
    with pytest.raises(ParseError):
        Card.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [-1, 54, 100, True, 1.0, "3"])
def test_a_bad_index_is_a_parse_error(index: object) -> None:
    with pytest.raises(ParseError, match="integer from 0 to 53"):
        Card(index)  # type: ignore[arg-type]


@pytest.mark.parametrize("rank", [0, 14, -1, "Q", 1.0])
def test_of_with_a_bad_rank_is_a_parse_error(rank: object) -> None:
    with pytest.raises(ParseError, match="a rank is an integer"):
        Card.of(rank, Suit.SPADES)  # type: ignore[arg-type]


def test_of_with_a_bad_suit_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        Card.of(12, "S")  # type: ignore[arg-type]


def test_parse_cards() -> None:
    assert parse_cards("QS, 10H AD") == (Card.parse("QS"), Card.parse("10H"), Card.parse("AD"))
    assert parse_cards(["2c", Card.parse("3C")]) == parse_cards("2C 3C")
    assert parse_cards("") == ()
    with pytest.raises(ParseError, match="'XX' is not a card"):
        parse_cards("QS XX")


def test_parse_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse("nope")
