"""Who plays whom: the lineups of a round robin or a gauntlet, seats rotated."""

from __future__ import annotations

import itertools

from cardcrawl.errors import OptionsError

__all__ = ["KINDS", "pairings", "schedule"]

#: The tournament kinds: every pair of bots, or the first bot against each other.
KINDS = ("round-robin", "gauntlet")


def pairings(bots: int, kind: str = "round-robin") -> tuple[tuple[int, int], ...]:
    """The pairs of bots (by number) that meet.

    Args:
        bots: how many bots.
        kind: ``"round-robin"`` (every pair) or ``"gauntlet"`` (bot 0 against each
            other bot).

    Returns:
        The pairs ``(i, j)``, ``i < j``, in order.

    Raises:
        OptionsError: the kind is neither, or there are fewer than two bots.

    Examples:
        >>> from cardcrawl.tournament._schedule import pairings
        >>> pairings(3)
        ((0, 1), (0, 2), (1, 2))
        >>> pairings(3, "gauntlet")
        ((0, 1), (0, 2))
    """
    if kind not in KINDS:
        raise OptionsError(f"a tournament is {' or '.join(KINDS)}, not {kind!r}")
    if bots < 2:
        raise OptionsError(f"a tournament needs two bots or more, not {bots}")
    if kind == "gauntlet":
        return tuple((0, j) for j in range(1, bots))
    return tuple(itertools.combinations(range(bots), 2))


def schedule(bots: int, seats: int, kind: str = "round-robin") -> tuple[tuple[int, ...], ...]:
    """The lineups to play, each a bot number per seat; every lineup plays the same
    deals.

    A one-seat game plays each bot alone (the pairs are compared deal by deal). In a
    game of ``n`` seats each pair ``(a, b)`` plays the ``n`` lineups with ``a`` in one
    seat and ``b`` in every other, and the ``n`` with the roles swapped, so that each
    bot sits in every seat, as often alone as among the many (for two seats that is
    ``(a, b)`` and ``(b, a)``).

    Args:
        bots: how many bots.
        seats: the game's seats.
        kind: see ``pairings``.

    Returns:
        The lineups, each once, in order.

    Raises:
        OptionsError: as ``pairings``.

    Examples:
        >>> from cardcrawl.tournament import schedule
        >>> schedule(3, 1)
        ((0,), (1,), (2,))
        >>> schedule(2, 2)
        ((0, 1), (1, 0))
        >>> schedule(2, 3)
        ((0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1))
    """
    pairs = pairings(bots, kind)
    if seats == 1:
        return tuple((i,) for i in sorted({i for pair in pairs for i in pair}))
    lineups: dict[tuple[int, ...], None] = {}
    for a, b in pairs:
        for one, many in ((a, b), (b, a)):
            for seat in range(seats):
                lineups[tuple(one if s == seat else many for s in range(seats))] = None
    return tuple(lineups)
