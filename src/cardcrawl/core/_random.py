"""The one source of randomness: SplitMix64, a small documented PRNG held as an integer.

cardcrawl never touches Python's global ``random`` module. Every game state carries the
whole state of its generator as one integer (``state.rng``), so a state is plain data,
and the same seed with the same actions gives the same game on every platform and every
Python version: the arithmetic below is exact integer arithmetic modulo 2**64.

SplitMix64 (Steele, Lea and Flood, 2014; the seeding generator of Java's
``SplittableRandom`` and of xoshiro) advances its state by a fixed odd constant and
scrambles it with two multiply-xorshift rounds. Uniform integers below ``n`` are drawn by
rejection, so every outcome is exactly equally likely.

Examples:
    >>> from cardcrawl import rng_below, rng_from_seed
    >>> state = rng_from_seed(7)
    >>> state, value = rng_below(state, 6)
    >>> value
    3
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcrawl.errors import OptionsError, short_repr

__all__ = ["rng_below", "rng_choice_weighted", "rng_derive", "rng_from_seed", "rng_next"]

# The rollout kernels inline the generator on these same constants.
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB
# Ranges below this draw their rejection limit from a table (_TOPS): every deck and board
# of the games, the 16-deck pools of a big Haydes among them, and any game's legal actions.
_SMALL = 1024


def _highest_accepted(n: int) -> int:
    """The largest generator output ``rng_below(state, n)`` accepts (its rejection test is
    ``z <= top``). Not the rejection limit ``top + 1``: for a power of two that limit is
    ``2**64``, one more than a 64-bit word holds, and the kernels' compiled build keeps
    the outputs in such words.

    Examples:
        >>> _highest_accepted(1) == _MASK  # every output is accepted
        True
        >>> _highest_accepted(3) == _MASK - 1  # 2**64 leaves 1 over when divided by 3
        True
    """
    return (1 << 64) - (1 << 64) % n - 1


# The same for each small n, worked out once (0 for n = 0, which rng_below refuses).
_TOPS = tuple(_highest_accepted(n) if n else 0 for n in range(_SMALL))


def rng_from_seed(seed: int) -> int:
    """The generator state for a seed: any integer from 0 to 2**64 - 1.

    The state of SplitMix64 is the seed itself, so this only checks it; games call it
    with the seed given to ``initial_state``, and so should any code of your own that
    wants draws of the same kind.

    Args:
        seed: an ``int`` from 0 to 2**64 - 1 (a ``bool`` is refused).

    Returns:
        The generator state to pass to :func:`rng_next`, :func:`rng_below` or
        :func:`rng_choice_weighted`.

    Raises:
        OptionsError: the seed is not an integer in that range.

    Examples:
        >>> from cardcrawl import rng_from_seed
        >>> rng_from_seed(7)
        7
        >>> rng_from_seed(-1)
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: a seed is an integer from 0 to 2**64 - 1, not -1
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK:
        raise OptionsError(f"a seed is an integer from 0 to 2**64 - 1, not {short_repr(seed)}")
    return seed


def rng_next(state: int) -> tuple[int, int]:
    """Advance the generator once: ``(new_state, 64-bit output)``.

    The generator state is a plain integer and is never changed in place: keep the new
    state this returns and pass it to the next draw.

    Args:
        state: a generator state, from :func:`rng_from_seed` or an earlier draw.

    Returns:
        The new state and one output, an integer from 0 to 2**64 - 1.

    Examples:
        The first output from state 0 is the one every SplitMix64 implementation gives:

        >>> from cardcrawl import rng_next
        >>> state, output = rng_next(0)
        >>> hex(output)
        '0xe220a8397b1dcdaf'
        >>> rng_next(state)[1] != output
        True
    """
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _MUL1) & _MASK
    z = ((z ^ (z >> 27)) * _MUL2) & _MASK
    return state, z ^ (z >> 31)


def _below(
    rng: int, n: int, mask: int = _MASK, gamma: int = _GAMMA, mul1: int = _MUL1, mul2: int = _MUL2
) -> tuple[int, int]:
    """``rng_below(rng, n)`` for ``1 <= n < _SMALL``, unchecked: ``(new_rng, value)``.

    Every chance draw of the games' rules and every choice of their rollout kernels'
    random bots comes through here, so the body of :func:`rng_next` is written out on
    local constants rather than called (a call costs about as much as the draw). The
    constants are bound once, as defaults no caller passes: in the compiled build
    (``_random.pxd``) they are then C integers made once, not converted from Python
    integers at every draw, its words are C integers too, and the games' compiled
    modules call it as C.

    Examples:
        >>> from cardcrawl import rng_below, rng_next
        >>> _below(12345, 52) == rng_below(12345, 52)
        True
        >>> state, z = rng_next(12345)
        >>> _below(12345, 1) == (state, 0)
        True
    """
    top = _TOPS[n]
    while True:
        rng = (rng + gamma) & mask
        z = ((rng ^ (rng >> 30)) * mul1) & mask
        z = ((z ^ (z >> 27)) * mul2) & mask
        z ^= z >> 31
        if z <= top:
            return rng, z % n


def rng_below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)``: ``(new_state, value)``, exactly unbiased.

    Outputs from the biased top end of the 64-bit range are rejected and redrawn, so each
    value is exactly equally likely. A range wider than 2**64 joins several outputs.

    Args:
        state: a generator state, from :func:`rng_from_seed` or an earlier draw.
        n: how many values to choose from, at least 1; any size.

    Returns:
        The new state and the value, from 0 to ``n - 1``.

    Raises:
        OptionsError: ``n`` is 0 or negative.

    Examples:
        Ten rolls of a six-sided die (0 to 5), the state handed on from one to the next:

        >>> from cardcrawl import rng_below, rng_from_seed
        >>> state, rolls = rng_from_seed(7), []
        >>> for _ in range(10):
        ...     state, roll = rng_below(state, 6)
        ...     rolls.append(roll)
        >>> rolls
        [3, 0, 0, 3, 4, 3, 4, 0, 5, 5]
        >>> rng_below(state, 0)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: rng_below(state, n) draws from range(n) and needs ...
    """
    if n <= 0:
        raise OptionsError(
            f"rng_below(state, n) draws from range(n) and needs an integer n >= 1, not {n}"
        )
    if n < _SMALL:
        return _below(state, n)
    if n <= 1 << 64:
        # Reject the top sliver of outputs that would favour small values.
        top = _highest_accepted(n)
        while True:
            state, z = rng_next(state)
            if z <= top:
                return state, z % n
    # A range wider than one output: join as many 64-bit outputs as it takes.
    words = (n.bit_length() + 63) // 64
    span = 1 << (64 * words)
    limit = span - span % n
    while True:
        z = 0
        for _ in range(words):
            state, part = rng_next(state)
            z = (z << 64) | part
        if z < limit:
            return state, z % n


def rng_choice_weighted(state: int, weights: Sequence[int]) -> tuple[int, int]:
    """Pick an index with probability ``weights[i] / sum(weights)``: ``(new_state, index)``.

    Walking the cumulative weights in order means that picking from a sorted multiset by
    counts gives the same answer as indexing the multiset itself with one uniform draw.

    Args:
        state: a generator state, from :func:`rng_from_seed` or an earlier draw.
        weights: non-negative integer weights, at least one of them positive.

    Returns:
        The new state and the index picked; an index of weight 0 is never picked.

    Raises:
        ValueError: the weights sum to 0 or less.

    Examples:
        Three thousand picks with weights 1, 0 and 2: index 1 never comes up, and index
        2 about twice as often as index 0.

        >>> from collections import Counter
        >>> from cardcrawl import rng_choice_weighted, rng_from_seed
        >>> state, picks = rng_from_seed(1), Counter()
        >>> for _ in range(3000):
        ...     state, index = rng_choice_weighted(state, [1, 0, 2])
        ...     picks[index] += 1
        >>> sorted(picks.items())
        [(0, 1030), (2, 1970)]
    """
    state, r = rng_below(state, sum(weights))
    for i, w in enumerate(weights):
        if r < w:
            return state, i
        r -= w
    raise AssertionError("unreachable: r < sum(weights)")  # pragma: no cover


def rng_derive(seed: int, *keys: int) -> int:
    """A new seed derived from ``seed`` and integer keys (per-game seeds of a simulation).

    Args:
        seed: the parent seed, an integer from 0 to 2**64 - 1.
        *keys: integers naming the child (a game's number, say); each is taken modulo
            2**64. With no keys the seed itself is returned.

    Returns:
        A seed for :func:`rng_from_seed`; different keys give unrelated seeds.

    Raises:
        OptionsError: ``seed`` is not an integer from 0 to 2**64 - 1.

    Examples:
        >>> from cardcrawl import rng_derive
        >>> rng_derive(1, 0) != rng_derive(1, 1)
        True
    """
    state = rng_from_seed(seed)
    for key in keys:
        # Scramble the seed and the key separately before combining them, so that no two
        # (seed, key) pairs collide except by chance (xoring them first would make
        # rng_derive(1, 0) equal rng_derive(0, 1)).
        _, scrambled_seed = rng_next(state)
        _, scrambled_key = rng_next(((key & _MASK) * _MUL2 + _GAMMA) & _MASK)
        _, state = rng_next(scrambled_seed ^ ((scrambled_key * _MUL1) & _MASK))
    return state
