"""Escape from Haydes as a plain, mutable Python simulator: the yardstick for cardcrawl.

This is the simulator a user would write by hand instead of using cardcrawl: the whole
game (rulings H-1 to H-13 of RULINGS.md, standard creatures) for 1 to 4 players in one
function, lists and sets mutated in place, explicit shuffled decks dealt face down, and
a uniform-random policy drawing every decision from its own ``random.Random(seed)``. It
imports nothing from cardcrawl, and is optimised the way a competent Python programmer
would do it (adjacency lists made once per layout, local names), and no further.

It plays the same game as ``cardcrawl.load("escape-from-haydes", players=...,
max_rounds=...)`` with a uniform-random policy, in distribution (not draw for draw: the
two use different generators); ``benchmarks/check_plain.py`` compares them.

Any layout works (``layout``, one cell per build card plus (0, 0), as cardcrawl's
``HaydesOptions.layout``), with ``deck_count`` standard decks: :func:`rect_layout` makes
a rectangular one of any size, such as the 418 cells of 16 decks.

Usage::

    from plain_haydes import Haydes
    result = Haydes().play(seed=1, players=4, max_rounds=100)  # result.ending...
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from typing import NamedTuple

ESCAPED, TRAPPED, TIME_UP = "escaped", "trapped", "time-up"

# A card is its value (H-1): 1 (ace) to 13 (king), 0 for the Black Joker. Suits play no
# part in the standard rules. The Red Joker is worth 0 too, but must be told apart.
BLACK_JOKER = 0
RED_JOKER = 14
VALUE = [*range(14), 0]  # by card: the Red Joker, 14, is worth 0
COURT = [False] * 11 + [True] * 3 + [False]  # J, Q, K are creatures (H-8)
# The decisions: (kind, cell index); ending the turn has no cell. A characteristic is
# the index of its value in a player's [charisma, endurance].
HIGHER, LOWER, STEP, END_TURN = range(4)
END = (END_TURN, -1)
CHARACTERISTICS = (0, 1)


def standard_layout() -> frozenset[tuple[int, int]]:
    """H-4: x from -5 to 5, y from -4 to 5, the four corners left empty (106 cells)."""
    corners = {(-5, -4), (5, -4), (-5, 5), (5, 5)}
    return frozenset((x, y) for x in range(-5, 6) for y in range(-4, 6) if (x, y) not in corners)


def rect_layout(deck_count: int) -> frozenset[tuple[int, int]]:
    """A layout for ``deck_count`` decks: 26 * deck_count + 2 cells (the build cards and
    the Black Joker) in a near-square rectangle around (0, 0), its top row trimmed at
    both ends to fit. Four decks give the standard layout itself.

    >>> len(rect_layout(16)), (0, 0) in rect_layout(16), rect_layout(4) == standard_layout()
    (418, True, True)
    """
    if deck_count == 4:
        return standard_layout()
    n = 26 * deck_count + 2
    width = math.isqrt(n - 1) + 1
    height = -(-n // width)
    xs = range(-(width // 2), width - width // 2)
    ys = range(-(height // 2), height - height // 2)
    cells = {(x, y) for x in xs for y in ys}
    top = ys[-1]
    trim = sorted((x for x in xs), key=lambda x: (-abs(x), x))  # the row's ends first
    for x in trim[: len(cells) - n]:
        cells.remove((x, top))
    return frozenset(cells)


class Result(NamedTuple):
    """How a game went."""

    ending: str  #: ``"escaped"``, ``"trapped"`` (everyone out) or ``"time-up"`` (H-13)
    decisions: int  #: moves, steps, ends of turn, characteristics chosen
    winner: int | None  #: the seat that escaped, if any
    rounds: int  #: the round the game ended in
    encounters: int  #: creatures faced (H-8)
    overcome: int  #: creatures overcome (H-8)
    almost_there: int  #: moves onto the Red Joker that failed (H-10)


class Haydes:
    """The board of one layout (the cells and who touches whom), made once, and
    :meth:`play` to play games on it."""

    def __init__(
        self, layout: Collection[tuple[int, int]] | None = None, deck_count: int = 4
    ) -> None:
        cells = sorted(standard_layout() if layout is None else layout, key=lambda c: (c[1], c[0]))
        if (0, 0) not in cells or len(cells) != 26 * deck_count + 2:
            raise ValueError("a layout holds (0, 0) and one cell per build card (H-4)")
        self.deck_count = deck_count
        self.cells = cells  # in dealing order: by y, then x (H-4)
        index = {c: i for i, c in enumerate(cells)}
        self.start = index[(0, 0)]
        self.adjacent = [
            [index[n] for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if n in index]
            for x, y in cells
        ]

    def deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """H-3: the shuffled Build and Replacement decks; H-4: the build cards dealt face
        down, in order, around the Black Joker. Returns (card by cell, Replacement deck)."""
        half = self.deck_count // 2
        build = [v for v in range(1, 14) for _ in range(4 * half)] + [RED_JOKER]
        rng.shuffle(build)
        card = [*build[: self.start], BLACK_JOKER, *build[self.start :]]
        replacement = [v for v in range(1, 14) for _ in range(4 * half)]
        rng.shuffle(replacement)
        return card, replacement

    def play(self, seed: int, players: int = 1, max_rounds: int | None = 100) -> Result:
        """One game, every decision uniformly random; everyone starts with (8, 8)."""
        rng = random.Random(seed)
        card, replacement = self.deal(rng)
        return self.play_dealt(rng, card, replacement, players, max_rounds)

    def play_dealt(
        self,
        rng: random.Random,
        card: list[int],
        replacement: list[int],
        players: int = 1,
        max_rounds: int | None = 100,
    ) -> Result:
        """The game after :meth:`deal`: ``card`` and ``replacement`` are what it dealt
        with ``rng``, which goes on drawing the game's chance and decisions. Both lists
        are used up."""
        choice, randint, shuffle = rng.choice, rng.randint, rng.shuffle
        adjacent, start = self.adjacent, self.start
        face_up = [False] * len(card)
        face_up[start] = True
        discard: list[int] = []
        shown: list[int] = []  # the face-up cells but the Black Joker's (H-12)
        overcome: set[int] = set()  # cells whose creature has been overcome (H-8)

        # H-2: (charisma, endurance) by seat; H-5: every figure on the Black Joker.
        stats = [[8, 8] for _ in range(players)]
        where: list[int | None] = [start] * players
        decisions = 0
        counts = [0, 0, 0]  # encounters, creatures overcome, Red Joker misses
        current = first = rng.randrange(players)  # H-5
        round_ = 1

        while True:
            # ---- one turn of ``current``
            me = stats[current]
            at = where[current]
            assert at is not None
            # H-8: a held player faces the creature again before anything else.
            meet = COURT[card[at]] and at not in overcome
            while True:
                if meet:
                    # H-8: choose a characteristic (a decision), roll 2D6, pay 1.
                    meet = False
                    decisions += 1
                    counts[0] += 1
                    which = choice(CHARACTERISTICS)
                    won = randint(1, 6) + randint(1, 6) <= me[which]
                    me[which] -= 1
                    if won:
                        counts[1] += 1
                        overcome.add(at)  # and everyone held there is freed
                    if me[which] == 0:  # H-11: out, figure removed, turn over
                        where[current] = None
                        if all(w is None for w in where):
                            return Result(TRAPPED, decisions, None, round_, *counts)
                        break
                    if not won:
                        break  # held: the turn ends
                    # overcome: move on or end the turn
                # H-6: the legal decisions are higher or lower onto each touching
                # face-down card, a step onto each touching face-up card, and ending the
                # turn: the policy picks one of them uniformly.
                legal = []
                for j in adjacent[at]:
                    if face_up[j]:
                        legal.append((STEP, j))
                    else:
                        legal.append((HIGHER, j))
                        legal.append((LOWER, j))
                legal.append(END)
                kind, j = choice(legal)
                decisions += 1
                if kind == STEP:
                    # A step onto a face-up card ends the turn, unless a creature waits.
                    where[current] = at = j
                    if COURT[card[j]] and j not in overcome:
                        meet = True
                        continue
                    break
                if kind == END_TURN:
                    break
                lower = kind == LOWER
                face_up[j] = True  # H-6: announced, then turned
                shown.append(j)
                turned, was = card[j], VALUE[card[at]]
                if turned == RED_JOKER:
                    if lower and was >= 1:
                        return Result(ESCAPED, decisions, current, round_, *counts)
                    counts[2] += 1
                    break  # H-10: the figure stays, the turn ends
                where[current] = at = j
                if COURT[turned]:
                    meet = True  # H-8, whatever the guess
                    continue
                value = VALUE[turned]
                if not (value < was if lower else value > was):  # H-7: wrong or equal
                    break

            # ---- H-12: replace every face-up card without a figure (but the Black Joker)
            if shown:
                keep, targets = [], []
                for c in shown:
                    (keep if c in where else targets).append(c)
                if targets:
                    targets.sort()  # dealing order
                    joker = None
                    for c in targets:  # discarding comes before dealing
                        old = card[c]
                        if old == RED_JOKER:
                            joker = c
                        elif c in overcome:
                            overcome.remove(c)  # an overcome creature leaves the game
                        else:
                            discard.append(old)
                        face_up[c] = False
                    dealt = targets if joker is None else [c for c in targets if c != joker]
                    new = []
                    for c in dealt:
                        if not replacement:
                            # The discard pile, shuffled, is the new deck. (Both empty
                            # would need over a hundred creatures overcome: impossible
                            # with four players of 16 points; then the old card stays.)
                            replacement, discard = discard, replacement
                            shuffle(replacement)
                        new.append(replacement.pop() if replacement else card[c])
                    if joker is None:
                        for c, value in zip(dealt, new, strict=True):
                            card[c] = value
                    else:  # H-10: the Red Joker shuffled in among the new cards
                        new.append(RED_JOKER)
                        shuffle(new)
                        for c, value in zip(targets, new, strict=True):
                            card[c] = value
                    shown = keep

            # ---- H-5, H-13: the next player still in; a round starts with the first
            nxt = current
            while True:
                nxt = nxt + 1 if nxt + 1 < players else 0
                if where[nxt] is not None:
                    break
            if (nxt - first) % players <= (current - first) % players:
                if max_rounds is not None and round_ >= max_rounds:
                    return Result(TIME_UP, decisions, None, round_, *counts)
                round_ += 1
            current = nxt
