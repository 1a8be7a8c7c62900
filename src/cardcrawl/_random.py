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

from cardcrawl._errors import OptionsError

__all__ = ["rng_below", "rng_choice_weighted", "rng_derive", "rng_from_seed", "rng_next"]

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB
# rng_below's rejection limit for each small n, worked out once.
_SMALL = 256
_LIMITS = tuple((1 << 64) - (1 << 64) % n if n else 0 for n in range(_SMALL))


def rng_from_seed(seed: int) -> int:
    """The generator state for a seed: any integer from 0 to 2**64 - 1.

    Raises:
        OptionsError: the seed is not an integer in that range.
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK:
        raise OptionsError(f"a seed is an integer from 0 to 2**64 - 1, not {seed!r}")
    return seed


def rng_next(state: int) -> tuple[int, int]:
    """Advance the generator once: ``(new_state, 64-bit output)``."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _MUL1) & _MASK
    z = ((z ^ (z >> 27)) * _MUL2) & _MASK
    return state, z ^ (z >> 31)


def rng_below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)``: ``(new_state, value)``, exactly unbiased."""
    if n <= 0:
        raise ValueError(f"rng_below needs n >= 1, not {n}")
    if n <= 1 << 64:
        # Reject the top sliver of outputs that would favour small values. The body of
        # rng_next is repeated here: this is the hottest call of sampled play.
        limit = _LIMITS[n] if n < _SMALL else (1 << 64) - (1 << 64) % n
        while True:
            state = (state + _GAMMA) & _MASK
            z = ((state ^ (state >> 30)) * _MUL1) & _MASK
            z = ((z ^ (z >> 27)) * _MUL2) & _MASK
            z ^= z >> 31
            if z < limit:
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
    """
    state, r = rng_below(state, sum(weights))
    for i, w in enumerate(weights):
        if r < w:
            return state, i
        r -= w
    raise AssertionError("unreachable: r < sum(weights)")  # pragma: no cover


def rng_derive(seed: int, *keys: int) -> int:
    """A new seed derived from ``seed`` and integer keys (per-game seeds of a simulation).

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
