"""The random bots' seeds in a rollout kernel: ``rng_derive(seed, key)`` for the first
few keys at once.

``simulate`` seats ``RandomBot(seed=rng_derive(game_seed, seat))`` in every seat, so a
kernel playing its games needs those seeds at every game. rng_derive's three
``rng_next`` calls per key are written out here, on the generator's own constants, and
the build compiles this module with the kernels (``hatch_build.py``, ``_seeds.pxd``),
where the arithmetic runs on 64-bit words. ``rng_derive`` stays the definition:
``tests/core/test_random.py`` checks that the two agree.
"""

from __future__ import annotations

from cardcrawl.core._random import _GAMMA, _MASK, _MUL1, _MUL2, rng_next

__all__ = ["derived_seeds"]

# rng_derive scrambles each key through rng_next before mixing it with the seed: those
# of the keys a kernel asks for (seats 0 to 3, and a few more), once.
_SCRAMBLED_KEYS = tuple(rng_next((key * _MUL2 + _GAMMA) & _MASK)[1] for key in range(8))


def derived_seeds(seed: int, count: int) -> list[int]:
    """``[rng_derive(seed, key) for key in range(count)]``, for a seed from 0 to
    2**64 - 1 (unchecked: the kernels pass seeds that rng_derive made) and a count up
    to 8.

    Examples:
        >>> from cardcrawl import rng_derive
        >>> derived_seeds(7, 3) == [rng_derive(7, k) for k in range(3)]
        True
    """
    mask, gamma, mul1, mul2 = _MASK, _GAMMA, _MUL1, _MUL2
    # rng_next(seed)'s output: the seed scrambled.
    z = seed
    z = (z + gamma) & mask
    z = ((z ^ (z >> 30)) * mul1) & mask
    z = ((z ^ (z >> 27)) * mul2) & mask
    scrambled = z ^ (z >> 31)
    seeds = []
    for key in range(count):
        # rng_next(scrambled seed ^ scrambled key * _MUL1)'s output.
        scrambled_key = _SCRAMBLED_KEYS[key]
        z = ((scrambled ^ ((scrambled_key * mul1) & mask)) + gamma) & mask
        z = ((z ^ (z >> 30)) * mul1) & mask
        z = ((z ^ (z >> 27)) * mul2) & mask
        seeds.append(z ^ (z >> 31))
    return seeds
