"""The seeds of a simulation's games and of the random bots in a rollout kernel:
``rng_derive(seed, key)``, for one key or the first few at once.

``simulate`` plays game ``i`` from ``rng_derive(seed, i)`` and seats
``RandomBot(seed=rng_derive(game_seed, seat))`` in every seat, so a kernel playing its
games needs those seeds at every game. rng_derive's three
``rng_next`` calls per key are written out here, on the generator's own constants, and
the build compiles this module with the kernels (``hatch_build.py``, ``_seeds.pxd``),
where the arithmetic runs on 64-bit words. ``rng_derive`` stays the definition:
``tests/core/test_random.py`` checks that the two agree.
"""

from __future__ import annotations

from cardcrawl.core._random import _GAMMA, _MASK, _MUL1, _MUL2, rng_next

__all__ = ["derived_seed", "derived_seeds"]

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
    scrambled = _output(seed, mask, gamma, mul1, mul2)  # rng_next(seed)'s output
    seeds = []
    for key in range(count):
        # rng_next(scrambled seed ^ scrambled key * _MUL1)'s output.
        z = scrambled ^ ((_SCRAMBLED_KEYS[key] * mul1) & mask)
        seeds.append(_output(z, mask, gamma, mul1, mul2))
    return seeds


def derived_seed(seed: int, key: int) -> int:
    """``rng_derive(seed, key)`` for any integer ``key`` (taken modulo 2**64), a seed
    from 0 to 2**64 - 1 (unchecked: ``simulate`` checked its seed): a simulation's seed
    of each game.

    Examples:
        >>> from cardcrawl import rng_derive
        >>> [derived_seed(7, k) for k in (0, 9, 2**64 + 3)] == [
        ...     rng_derive(7, k) for k in (0, 9, 2**64 + 3)]
        True
    """
    mask, gamma, mul1, mul2 = _MASK, _GAMMA, _MUL1, _MUL2
    # rng_next of the scrambled seed ^ the scrambled key * _MUL1, as rng_derive mixes them.
    k = key & mask  # the key modulo 2**64
    scrambled_key = _output((k * mul2 + gamma) & mask, mask, gamma, mul1, mul2)
    z = _output(seed, mask, gamma, mul1, mul2) ^ ((scrambled_key * mul1) & mask)
    return _output(z, mask, gamma, mul1, mul2)


def _output(z: int, mask: int, gamma: int, mul1: int, mul2: int) -> int:
    """``rng_next(z)[1]``: the generator's output from the state ``z``, its constants
    given (bound once by the caller)."""
    z = (z + gamma) & mask
    z = ((z ^ (z >> 30)) * mul1) & mask
    z = ((z ^ (z >> 27)) * mul2) & mask
    return z ^ (z >> 31)
