"""Decks as immutable multisets, with an optional stacked top.

Drawing the top card of a well-shuffled deck is the same, in distribution, as drawing
uniformly from the cards left in it; so a :class:`Deck` keeps its cards as a sorted
multiset and a shuffle needs no chance event of its own. The exception is a *stacked*
deck (for tutorials, puzzles and tests): its ``stacked`` cards come off first, in the
order given, with no chance at all; a card shuffled back in joins the unstacked rest.
"""

from __future__ import annotations

import operator
from bisect import bisect_left as _bisect_left
from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs

from cardcrawl.core._random import rng_below
from cardcrawl.errors import ParseError, StackError
from cardcrawl.kit._cards import Card, parse_cards

__all__ = ["Deck"]


_INDEX = operator.attrgetter("index")


def _sorted_tuple(cards: Iterable[Card]) -> tuple[Card, ...]:
    # Cards order by index: sorting on it with a C-level key gives the same order
    # without calling Card.__lt__ at every comparison.
    return tuple(sorted(cards, key=_INDEX))


@attrs.frozen
class Deck:
    """A face-down deck: a stacked top (drawn in order) over an unordered rest.

    Examples:
        >>> from cardcrawl import Deck, parse_cards
        >>> deck = Deck.of(parse_cards("3S 2S 2S"))
        >>> deck.outcomes()
        ((Card.parse('2S'), 2), (Card.parse('3S'), 1))
        >>> stacked = Deck.stacked_on(parse_cards("3S"), deck.take(Card.parse("3S")))
        >>> stacked.outcomes(), len(stacked)
        (((Card.parse('3S'), 1),), 3)
    """

    stacked: tuple[Card, ...] = ()
    rest: tuple[Card, ...] = attrs.field(default=(), converter=_sorted_tuple)

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Deck:
        """A shuffled deck of these cards (order does not matter)."""
        return cls((), tuple(cards))

    @classmethod
    def stacked_on(cls, top: Iterable[Card], deck: Deck) -> Deck:
        """``deck`` with ``top`` laid on it, to be drawn first in the order given."""
        return cls(tuple(top) + deck.stacked, deck.rest)

    @classmethod
    def stacked_from(cls, source: str, cards: Iterable[Card], top: Any) -> Deck:
        """The deck of ``cards`` with the cards a user's stack names for it on top.

        This is how a game reads one deck's entry of ``initial_state(stack=...)``: the
        cards named come off first, in the order named, and the rest of ``cards`` stays
        shuffled. Every game reads its decks' entries here, so a bad entry is refused
        with the same message in every game.

        Args:
            source: the stack's name for the deck (``"mind"``), which messages repeat.
            cards: every card of the deck, a multiset in any order.
            top: the stack's entry: card codes or :class:`~cardcrawl.Card` values (an
                iterable, or one string of codes); empty or ``None`` for no stack.

        Returns:
            The deck, its stacked top drawn first.

        Raises:
            StackError: ``top`` is not a sequence of cards, or names a card more often
                than ``cards`` holds it.

        Examples:
            >>> from cardcrawl import Deck, parse_cards
            >>> deck = Deck.stacked_from("mind", parse_cards("2H 3H 4H"), ["4H", "2H"])
            >>> deck.stacked, len(deck)
            ((Card.parse('4H'), Card.parse('2H')), 3)
            >>> from cardcrawl import StackError
            >>> try:
            ...     Deck.stacked_from("mind", parse_cards("2H 3H"), "2H 2H")
            ... except StackError as error:
            ...     print(error)
            stack['mind'] names 2H, which the mind deck does not hold (or not that many times)
        """
        if not top:
            return cls((), tuple(cards))
        try:
            order = parse_cards(top)
        except (ParseError, TypeError) as exc:
            raise StackError(f"stack[{source!r}]: {exc}") from None
        left = Counter(cards)
        left.subtract(order)
        bad = sorted(c for c, n in left.items() if n < 0)
        if bad:
            raise StackError(
                f"stack[{source!r}] names {', '.join(map(str, bad))}, which the {source} deck "
                "does not hold (or not that many times)"
            )
        return cls(order, tuple(left.elements()))

    def __len__(self) -> int:
        return len(self.stacked) + len(self.rest)

    def __bool__(self) -> bool:
        return bool(self.stacked or self.rest)

    def __contains__(self, card: object) -> bool:
        return card in self.stacked or card in self.rest

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card in the deck as a sorted multiset (no order information)."""
        return _sorted_tuple(self.stacked + self.rest) if self.stacked else self.rest

    def outcomes(self) -> tuple[tuple[Card, int], ...]:
        """What the next draw can be, each distinct card with its weight (its count).

        A stacked deck has one certain outcome, its next stacked card.
        """
        if self.stacked:
            return ((self.stacked[0], 1),)
        counts: dict[Card, int] = {}
        for card in self.rest:
            counts[card] = counts.get(card, 0) + 1
        return tuple(counts.items())

    def sample(self, rng: int) -> tuple[Card, int]:
        """Draw at random with the generator state ``rng``: ``(card, new_rng)``.

        Gives exactly what :func:`cardcrawl.rng_choice_weighted` over :meth:`outcomes`
        would, faster: walking the counts of a sorted multiset is indexing it.
        """
        if self.stacked:
            return self.stacked[0], rng
        rng, i = rng_below(rng, len(self.rest))
        return self.rest[i], rng

    def draw(self, rng: int) -> tuple[Card, Deck, int]:
        """Draw at random and take the card: ``(card, deck after, new_rng)``.

        Exactly :meth:`sample` then :meth:`take`, in one go: the card's place in the deck
        is known from the draw, so it is not searched for again.

        Examples:
            >>> from cardcrawl import Deck, parse_cards
            >>> deck = Deck.of(parse_cards("2S 3S 4S"))
            >>> card, rest, rng = deck.draw(7)
            >>> (card, rng) == deck.sample(7) and rest == deck.take(card)
            True

        Raises:
            ValueError: the deck is empty.
        """
        stacked = self.stacked
        if stacked:
            return stacked[0], _make(stacked[1:], self.rest), rng
        rest = self.rest
        if not rest:
            raise ValueError("cannot draw from an empty deck")
        rng, i = rng_below(rng, len(rest))
        return rest[i], _make((), rest[:i] + rest[i + 1 :]), rng

    def take(self, card: Card) -> Deck:
        """The deck after ``card`` is drawn from it.

        Raises:
            ValueError: ``card`` cannot be the next draw (not in the deck, or not the
                next stacked card).
        """
        stacked = self.stacked
        if stacked:
            if stacked[0] != card:
                raise ValueError(f"the next card of this stacked deck is {stacked[0]}, not {card}")
            return _make(stacked[1:], self.rest)
        # Bisect on the card index with a C-level key, and compare indexes: comparing
        # Card objects would call a Python method at every probe.
        rest = self.rest
        index = card.index
        i = _bisect_left(rest, index, key=_INDEX)
        if i == len(rest) or rest[i].index != index:
            raise ValueError(f"{card} is not in the deck")
        return _make((), rest[:i] + rest[i + 1 :])

    def shuffle_in(self, cards: Iterable[Card]) -> Deck:
        """The deck with ``cards`` shuffled into its unstacked rest."""
        return _make(self.stacked, _sorted_tuple((*self.rest, *cards)))

    def unstacked(self) -> Deck:
        """The same cards with no known order: the deck as its holder would see it."""
        return _make((), self.cards)

    @classmethod
    def _make(cls, stacked: tuple[Card, ...], rest: tuple[Card, ...]) -> Deck:
        """A deck from an already sorted ``rest``, bypassing the sorting converter."""
        deck: Deck = _new(cls)
        _set_stacked(deck, stacked)
        _set_rest(deck, rest)
        return deck


_new = object.__new__
# The slots' own setters: a frozen class refuses ordinary assignment, and these are the
# cheapest way around that while a new deck is being made.
_set_stacked = Deck.__dict__["stacked"].__set__
_set_rest = Deck.__dict__["rest"].__set__


def _make(stacked: tuple[Card, ...], rest: tuple[Card, ...]) -> Deck:
    """A new deck from ``stacked`` and an already sorted ``rest`` (no converter runs)."""
    deck: Deck = _new(Deck)
    _set_stacked(deck, stacked)
    _set_rest(deck, rest)
    return deck
