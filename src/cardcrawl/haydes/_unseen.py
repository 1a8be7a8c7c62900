"""Face-down cards without hidden identities: turning them, and dealing new ones (H-12).

A face-down cell belongs to a *pool* (the cards of one shuffled deck not seen yet) or to
a *mix* (see :class:`~cardcrawl.haydes.Mix`). Turning a pool cell draws uniformly from the
pool's unseen cards; turning a mix cell first picks which part of the mixture it holds,
in proportion to the parts' counts, then the card. This is exactly the chance of the
physical game: a shuffled deck dealt face down puts every unseen card equally likely
under every unturned cell, whatever was turned before.

One subtlety keeps it exact: when the Replacement deck runs out while the new cards of a
Red Joker turn are being dealt (H-10, H-12), the mix holds cards of two pools, and a card
turned there may have come from either. The public knowledge is then a weighted mixture
of *beliefs* (how the unseen cards split between pools), which this module keeps exactly,
merging beliefs that coincide. In every other case there is a single belief and turning a
card is one draw from a sorted multiset.
"""

from __future__ import annotations

import bisect
import operator
from math import gcd, lcm
from typing import TYPE_CHECKING

from cardcrawl.haydes._state import FACE_UP, MIXED, Belief, HaydesState, Mix, pool_at
from cardcrawl.kit._cards import Card, standard_deck
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell

if TYPE_CHECKING:
    from cardcrawl.haydes._position import Position

__all__ = ["Dealer", "apply_reveal", "reveal_chances", "reveal_fast_deck"]

#: The source of a known card of a mix (the Red Joker), as opposed to a pool index.
KNOWN = -1
_CARDS = standard_deck(jokers=True)  # by index


def mix_index(mixes: tuple[Mix, ...], cell: Cell) -> int:
    """The index of the mix holding ``cell``."""
    for m, mix in enumerate(mixes):
        if cell in mix.cells:
            return m
    raise AssertionError(f"cell {cell} is in no mix")  # pragma: no cover


def reveal_fast_deck(state: HaydesState, index: int) -> Deck | None:
    """The pool a plain cell's card is drawn from, when that is all there is to it
    (a single belief); ``None`` when the general computation is needed."""
    pool = pool_at(state, index)
    if pool >= 0 and len(state.beliefs) == 1:
        return state.beliefs[0].unseen[pool]
    return None


_INDEX = operator.attrgetter("index")
_new = object.__new__
# A frozen, slotted Deck refuses assignment; its slots' own setters make one directly.
_set_stacked = Deck.__dict__["stacked"].__set__
_set_rest = Deck.__dict__["rest"].__set__


def take(deck: Deck, card: Card) -> Deck:
    """``deck.take(card)``, faster: bisecting on card indices compares integers in C,
    where :meth:`Deck.take` calls ``Card.__lt__`` at every step."""
    if deck.stacked:
        return deck.take(card)
    rest = deck.rest
    i = bisect.bisect_left(rest, card.index, key=_INDEX)
    if i == len(rest) or rest[i].index != card.index:
        return deck.take(card)  # raises the core's error
    # Deck._make, inlined (a card is turned at almost every move): the rest stays sorted.
    taken: Deck = _new(Deck)
    _set_stacked(taken, ())
    _set_rest(taken, rest[:i] + rest[i + 1 :])
    return taken


def _draws(deck: Deck) -> int:
    """How many equally likely draws the next card of ``deck`` is one of: the weights of
    its outcomes add up to this."""
    return 1 if deck.stacked else len(deck.rest)


def _copies(deck: Deck, card: Card) -> int:
    """Of the :func:`_draws` of ``deck``, how many give ``card``."""
    if deck.stacked:
        return int(deck.stacked[0] == card)
    rest = deck.rest
    low = bisect.bisect_left(rest, card.index, key=_INDEX)
    return bisect.bisect_right(rest, card.index, lo=low, key=_INDEX) - low


def _options(
    state: HaydesState, index: int, card: Card | None = None
) -> list[tuple[int, int, int, Card]]:
    """Every (weight, belief, source, card) a reveal of cell ``index`` can be; only those
    of ``card``, if given (the same entries, in the same order, found faster).

    The weights are integers proportional to the options' probabilities: each is the
    probability times the beliefs' total weight, the size of the cell's mix (1 for a
    pool's cell) and the least common multiple of the draws of the decks it may come
    from: one factor for all the options of a reveal, so that their sums and ratios are
    exact without fractions."""
    beliefs = state.beliefs
    pool = pool_at(state, index)
    options: list[tuple[int, int, int, Card]] = []
    if pool >= 0:
        scale = lcm(*[_draws(belief.unseen[pool]) for belief in beliefs])
        for bi, belief in enumerate(beliefs):
            deck = belief.unseen[pool]
            unit = belief.weight * (scale // _draws(deck))
            if card is not None:
                copies = _copies(deck, card)
                if copies:
                    options.append((unit * copies, bi, pool, card))
                continue
            for drawn, w in deck.outcomes():
                options.append((unit * w, bi, pool, drawn))
        return options
    m = mix_index(state.mixes, state.layout[index])
    mix = state.mixes[m]
    scale = lcm(
        *[
            _draws(belief.unseen[q])
            for belief in beliefs
            for q, count in enumerate(belief.mixed[m])
            if count
        ]
    )
    for bi, belief in enumerate(beliefs):
        for known in sorted(set(mix.known)):
            if card is None or known == card:
                weight = belief.weight * mix.known.count(known) * scale
                options.append((weight, bi, KNOWN, known))
        for q, count in enumerate(belief.mixed[m]):
            if count:
                deck = belief.unseen[q]
                unit = belief.weight * count * (scale // _draws(deck))
                if card is not None:
                    copies = _copies(deck, card)
                    if copies:
                        options.append((unit * copies, bi, q, card))
                    continue
                for drawn, w in deck.outcomes():
                    options.append((unit * w, bi, q, drawn))
    return options


def _mix_chances(
    mix: Mix, row: tuple[int, ...], unseen: tuple[Deck, ...]
) -> tuple[tuple[Card, int], ...]:
    """:func:`reveal_chances` for a cell of ``mix`` under a single belief (``row`` and
    ``unseen`` are its), in integers: the same weights as the general computation.

    A card's chance is (its copies among the known cards, plus, for each pool ``q`` of
    the mix, ``row[q]`` times the chance of drawing it from that pool) over the mix's
    size. Scaled by the size and the least common multiple of the pools' outcome totals,
    every term is an integer; divided by their greatest common divisor, the weights are
    the one coprime vector proportional to the chances, as the general way makes them.
    """
    parts = [(count, _index_outcomes(unseen[q])) for q, count in enumerate(row) if count]
    totals = [sum(outcomes.values()) for _, outcomes in parts]
    scale = lcm(*totals)
    weights: dict[int, int] = {}
    for card in mix.known:
        weights[card.index] = weights.get(card.index, 0) + scale
    for (count, outcomes), total in zip(parts, totals, strict=True):
        unit = count * (scale // total)
        for i, w in outcomes.items():
            weights[i] = weights.get(i, 0) + unit * w
    common = gcd(*weights.values())
    return tuple((_CARDS[i], weights[i] // common) for i in sorted(weights))


def _index_outcomes(deck: Deck) -> dict[int, int]:
    """``deck.outcomes()`` by card index: the same weights, counted without hashing
    cards (a card's hash is a call into Python)."""
    if deck.stacked:
        return {deck.stacked[0].index: 1}
    counts: dict[int, int] = {}
    for card in deck.rest:
        i = card.index
        counts[i] = counts.get(i, 0) + 1
    return counts


def _as_weights(weights: list[int]) -> list[int]:
    """Positive integer ``weights`` made the smallest in the same proportions."""
    common = gcd(*weights)
    return [w // common for w in weights]


def reveal_chances(state: HaydesState, index: int) -> tuple[tuple[Card, int], ...]:
    """Each card the face-down cell ``index`` can turn out to be, with an integer weight."""
    deck = reveal_fast_deck(state, index)
    if deck is not None:
        return deck.outcomes()
    if len(state.beliefs) == 1:
        m = mix_index(state.mixes, state.layout[index])
        belief = state.beliefs[0]
        return _mix_chances(state.mixes[m], belief.mixed[m], belief.unseen)
    by_card: dict[Card, int] = {}
    for weight, _, _, card in _options(state, index):
        by_card[card] = by_card.get(card, 0) + weight
    cards = sorted(by_card)
    return tuple(zip(cards, _as_weights([by_card[c] for c in cards]), strict=True))


def _merge(entries: list[tuple[int, Belief]]) -> tuple[Belief, ...]:
    """Beliefs with equal contents merged, weights (integers, in proportion to their
    probabilities) made small coprime integers."""
    if len(entries) == 1:
        # What the general way gives for one entry (of positive probability), at once.
        belief = entries[0][1]
        return (Belief(1, belief.unseen, belief.mixed),)
    acc: dict[tuple[tuple[Deck, ...], tuple[tuple[int, ...], ...]], int] = {}
    for weight, belief in entries:
        key = (belief.unseen, belief.mixed)
        acc[key] = acc.get(key, 0) + weight
    keys = list(acc)
    weights = _as_weights([acc[k] for k in keys])
    return tuple(Belief(w, unseen, mixed) for w, (unseen, mixed) in zip(weights, keys, strict=True))


def apply_reveal(
    state: HaydesState, index: int, card: Card, pool_of: list[int]
) -> tuple[tuple[Mix, ...], tuple[Belief, ...]]:
    """The face-down bookkeeping once cell ``index`` turned out to be ``card``.

    Updates ``pool_of``, a working list of the state's pools by cell that the caller
    turns back into the new state's (see ``_CELL_FORMS`` in cardcrawl.haydes._state),
    and returns the new ``mixes`` and ``beliefs``.
    """
    pool_of[index] = FACE_UP
    pool = pool_at(state, index)
    beliefs = state.beliefs
    if pool >= 0 and len(beliefs) == 1:
        # The common case (reveal_fast_deck's): one draw from one pool.
        belief = beliefs[0]
        pools = list(belief.unseen)
        pools[pool] = take(pools[pool], card)
        return state.mixes, (Belief(1, tuple(pools), belief.mixed),)
    cell = state.layout[index]
    options = _options(state, index, card)
    m = mix_index(state.mixes, cell) if pool == MIXED else None
    entries: list[tuple[int, Belief]] = []
    for weight, bi, source, _ in options:
        belief = beliefs[bi]
        unseen, mixed = belief.unseen, belief.mixed
        if source != KNOWN:
            decks = list(unseen)
            decks[source] = take(decks[source], card)
            unseen = tuple(decks)
            if m is not None:
                counts = list(mixed[m])
                counts[source] -= 1
                mixed = (*mixed[:m], tuple(counts), *mixed[m + 1 :])
        entries.append((weight, Belief(1, unseen, mixed)))
    new_beliefs = _merge(entries)
    mixes = state.mixes
    if m is not None:
        mix = mixes[m]
        known = list(mix.known)
        if card in known:
            # A known card of a mix (the Red Joker) is never also in a pool, so turning
            # it tells exactly which part of the mixture this cell held.
            assert all(o[2] == KNOWN for o in options)
            known.remove(card)
        cells = tuple(c for c in mix.cells if c != cell)
        mixes = (*mixes[:m], Mix(cells, tuple(known)), *mixes[m + 1 :])
        mixes, new_beliefs = _tidy_mix(mixes, new_beliefs, m, pool_of, state.layout)
    return mixes, new_beliefs


def _tidy_mix(
    mixes: tuple[Mix, ...],
    beliefs: tuple[Belief, ...],
    m: int,
    pool_of: list[int],
    layout: tuple[Cell, ...],
) -> tuple[tuple[Mix, ...], tuple[Belief, ...]]:
    """Drop mix ``m`` once nothing distinguishes its cells from plain pool cells.

    That is when it is empty, or when it holds no known card and every belief agrees
    that all its cells hold cards of one same pool.
    """
    mix = mixes[m]
    pools = {tuple(i for i, n in enumerate(b.mixed[m]) if n) for b in beliefs}
    if mix.cells and (mix.known or len(pools) != 1 or len(next(iter(pools))) != 1):
        return mixes, beliefs
    if mix.cells:
        (pool,) = next(iter(pools))
        for cell in mix.cells:
            pool_of[layout.index(cell)] = pool
    mixes = (*mixes[:m], *mixes[m + 1 :])
    entries = [(b.weight, Belief(1, b.unseen, (*b.mixed[:m], *b.mixed[m + 1 :]))) for b in beliefs]
    return mixes, _merge(entries)


class Dealer:
    """The end-of-turn deal (H-12), one card at a time, on a mutable copy of the discard
    pile, recording what it does in the knowledge of ``holder`` (a working position).

    The new cards are dealt face down, so dealing decides no card: a cell dealt from the
    Replacement deck joins the deck's pool. When the deck is empty, the discard pile is
    shuffled into a new pool (which, with a lazy deal, needs no chance event either:
    the shuffle's randomness is spent as its cards are turned).
    """

    def __init__(self, holder: Position, left: int, discard: list[Card]) -> None:
        self.holder = holder
        self.left = left
        self.discard = discard
        self.reshuffles: list[int] = []

    def take(self) -> int | None:
        """Deal one card face down: the pool it comes from, or ``None`` if the
        Replacement deck and the discard pile are both empty."""
        if not self.left:
            if not self.discard:
                return None
            self.holder.add_pool(self.discard)
            self.reshuffles.append(len(self.discard))
            self.left = len(self.discard)
            self.discard.clear()
        self.left -= 1
        pool: int = self.holder.pool_count() - 1
        return pool

    def add_mix(self, counts: list[int]) -> None:
        """Record, in every belief, how many cells of a new mix each pool fills."""
        self.holder.add_mix(counts)
