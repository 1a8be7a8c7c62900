"""Decks: an unordered multiset under an optional stacked top."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcrawl import Card, Deck, parse_cards, rng_choice_weighted, rng_from_seed
from cardcrawl.kit import standard_deck

some_cards = st.lists(st.sampled_from(standard_deck()[:8]), min_size=1, max_size=12)


def test_of_sorts_and_counts() -> None:
    deck = Deck.of(parse_cards("3S 2S 2S KD"))
    assert deck.rest == parse_cards("2S 2S 3S KD")
    assert deck.cards == deck.rest
    assert (len(deck), bool(deck), Card.parse("3S") in deck) == (4, True, True)
    assert deck.outcomes() == (
        (Card.parse("2S"), 2),
        (Card.parse("3S"), 1),
        (Card.parse("KD"), 1),
    )
    assert not Deck()
    assert len(Deck()) == 0
    assert Deck().outcomes() == ()


def test_take() -> None:
    deck = Deck.of(parse_cards("3S 2S 2S"))
    assert deck.take(Card.parse("2S")).cards == parse_cards("2S 3S")
    assert deck.take(Card.parse("3S")).cards == parse_cards("2S 2S")
    assert deck.cards == parse_cards("2S 2S 3S")  # unchanged
    with pytest.raises(ValueError, match="not in the deck"):
        deck.take(Card.parse("KS"))
    with pytest.raises(ValueError, match="not in the deck"):
        Deck().take(Card.parse("KS"))


def test_a_stacked_deck_deals_its_top_in_order_with_certainty() -> None:
    base = Deck.of(parse_cards("2C 3C 4C"))
    deck = Deck.stacked_on(parse_cards("QS KS"), base)
    assert len(deck) == 5
    assert Card.parse("KS") in deck
    assert deck.cards == parse_cards("QS KS 2C 3C 4C")
    assert deck.outcomes() == ((Card.parse("QS"), 1),)
    assert deck.sample(12345) == (Card.parse("QS"), 12345)  # no randomness used
    with pytest.raises(ValueError, match="next card of this stacked deck is QS"):
        deck.take(Card.parse("KS"))
    deck = deck.take(Card.parse("QS"))
    assert deck.outcomes() == ((Card.parse("KS"), 1),)
    deck = deck.take(Card.parse("KS"))
    assert deck == base
    again = Deck.stacked_on(parse_cards("2C"), Deck.stacked_on(parse_cards("3C"), base))
    assert again.stacked == parse_cards("2C 3C")


def test_shuffle_in_and_unstacked() -> None:
    deck = Deck.stacked_on(parse_cards("QS"), Deck.of(parse_cards("2C")))
    shuffled = deck.shuffle_in(parse_cards("AH 3C"))
    assert shuffled.stacked == parse_cards("QS")  # the stacked top stays on top
    assert shuffled.rest == parse_cards("AH 2C 3C")
    plain = shuffled.unstacked()
    assert plain.stacked == ()
    assert plain.cards == shuffled.cards


@given(cards=some_cards, seed=st.integers(0, 2**64 - 1))
def test_sample_is_rng_choice_weighted_over_outcomes(cards: list[Card], seed: int) -> None:
    """Deck.sample promises exactly what rng_choice_weighted over outcomes() gives."""
    deck = Deck.of(cards)
    rng = rng_from_seed(seed)
    outcomes = deck.outcomes()
    expected_rng, i = rng_choice_weighted(rng, [w for _, w in outcomes])
    assert deck.sample(rng) == (outcomes[i][0], expected_rng)


@given(cards=some_cards, seed=st.integers(0, 2**64 - 1))
def test_drawing_a_deck_to_the_end_deals_every_card_once(cards: list[Card], seed: int) -> None:
    deck = Deck.of(cards)
    rng = rng_from_seed(seed)
    dealt = []
    while deck:
        assert sum(w for _, w in deck.outcomes()) == len(deck)
        card, rng = deck.sample(rng)
        dealt.append(card)
        deck = deck.take(card)
    assert Counter(dealt) == Counter(cards)


@given(
    cards=st.lists(st.sampled_from(standard_deck()), min_size=1, max_size=30),
    top=st.integers(0, 3),
    rng=st.integers(0, 2**64 - 1),
)
def test_draw_is_sample_then_take(cards: list[Card], top: int, rng: int) -> None:
    # Deck.draw is the fast path of sampled play: it must be exactly sample + take.
    deck = Deck.stacked_on(cards[:top], Deck.of(cards[top:]))
    card, rest, new_rng = deck.draw(rng)
    assert (card, new_rng) == deck.sample(rng)
    assert rest == deck.take(card)
