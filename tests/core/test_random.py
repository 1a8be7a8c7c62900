"""SplitMix64 and the uniform draws built on it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcrawl import (
    OptionsError,
    rng_below,
    rng_choice_weighted,
    rng_derive,
    rng_from_seed,
    rng_next,
)
from cardcrawl.core._seeds import derived_seed, derived_seeds

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB


def unxorshift(y: int, k: int) -> int:
    """The inverse of ``x ^ (x >> k)`` on 64 bits."""
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x & MASK


def state_before_output(z: int) -> int:
    """The generator state whose next output is ``z`` (SplitMix64's mixer is a bijection)."""
    z = unxorshift(z, 31)
    z = (z * pow(MUL2, -1, 1 << 64)) & MASK
    z = unxorshift(z, 27)
    z = (z * pow(MUL1, -1, 1 << 64)) & MASK
    z = unxorshift(z, 30)
    return (z - GAMMA) & MASK


def test_splitmix64_matches_the_reference_outputs_for_seed_0() -> None:
    state = rng_from_seed(0)
    outputs = []
    for _ in range(3):
        state, z = rng_next(state)
        outputs.append(z)
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert state == 3 * GAMMA & MASK


@given(z=st.integers(0, MASK))
def test_the_inverse_mixer_used_below_is_right(z: int) -> None:
    assert rng_next(state_before_output(z))[1] == z


@given(seed=st.integers(0, MASK), n=st.integers(1, 2**200))
def test_rng_below_stays_in_range_and_advances(seed: int, n: int) -> None:
    state, value = rng_below(seed, n)
    assert 0 <= value < n
    assert state != seed


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 52, 1000, 2**32 + 1, 2**63 + 1, 2**64 - 1])
def test_rng_below_rejects_exactly_the_biased_tail(n: int) -> None:
    """Unbiased by rejection: the accepted 64-bit outputs are those below the largest
    multiple of n that fits, so each value has exactly the same number of outputs."""
    limit = (1 << 64) // n * n
    assert limit % n == 0
    assert limit > (1 << 64) - n
    # The last accepted output is taken, reduced modulo n, in one step.
    state = state_before_output(limit - 1)
    assert rng_below(state, n) == (rng_next(state)[0], (limit - 1) % n)
    if limit < 1 << 64:
        # The first rejected output is skipped: the draw takes the next output instead.
        state = state_before_output(limit)
        after, _ = rng_next(state)
        expected = rng_below(after, n)
        assert rng_below(state, n) == expected


def test_rng_below_is_uniform_on_small_n_by_counting() -> None:
    """A smoke check of the distribution: 6000 draws of a die land near 1000 each."""
    state = rng_from_seed(2024)
    counts = [0] * 6
    for _ in range(6000):
        state, value = rng_below(state, 6)
        counts[value] += 1
    assert all(880 < c < 1120 for c in counts), counts


def test_rng_below_beyond_64_bits_returns_or_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardcrawl.core import _random

    real = _random.rng_next
    calls = 0

    def counting(state: int) -> tuple[int, int]:
        nonlocal calls
        calls += 1
        if calls > 1_000:  # a fair draw is rejected this often with odds below 2**-1000
            raise RuntimeError("rng_below keeps rejecting every output")
        return real(state)

    monkeypatch.setattr(_random, "rng_next", counting)
    n = 2**64 + 1
    try:
        _, value = rng_below(0, n)
    except ValueError:
        return
    assert 0 <= value < n


def test_rng_below_needs_a_positive_n() -> None:
    with pytest.raises(ValueError, match="n >= 1"):
        rng_below(1, 0)


@given(seed=st.integers(0, MASK), weights=st.lists(st.integers(1, 5), min_size=1, max_size=8))
def test_rng_choice_weighted_walks_the_cumulative_weights(seed: int, weights: list[int]) -> None:
    state, index = rng_choice_weighted(seed, weights)
    expected_state, r = rng_below(seed, sum(weights))
    assert state == expected_state
    assert sum(weights[:index]) <= r < sum(weights[: index + 1])


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.5, "7", None])
def test_a_bad_seed_is_an_options_error(seed: object) -> None:
    with pytest.raises(OptionsError, match="a seed is an integer"):
        rng_from_seed(seed)  # type: ignore[arg-type]


def test_rng_derive_gives_distinct_valid_seeds() -> None:
    seeds = {rng_derive(1, k) for k in range(100)}
    assert len(seeds) == 100
    assert all(0 <= s <= MASK for s in seeds)
    assert rng_derive(5, 1, 2) == rng_derive(5, 1, 2) != rng_derive(5, 2, 1)
    assert rng_derive(9) == 9


def test_rng_derive_separates_base_seeds() -> None:
    assert rng_derive(1, 0) != rng_derive(0, 1)
    firsts = {rng_derive(1, k) for k in range(100)}
    seconds = {rng_derive(2, k) for k in range(100)}
    assert not firsts & seconds


@given(st.integers(0, MASK), st.integers(0, 8))
def test_the_kernels_bot_seeds_are_rng_derive_s(seed: int, count: int) -> None:
    assert derived_seeds(seed, count) == [rng_derive(seed, key) for key in range(count)]


@pytest.mark.parametrize("seed", [0, 1, MASK, MASK - GAMMA, MASK - GAMMA + 1, GAMMA])
def test_the_kernels_bot_seeds_at_the_edges_of_64_bits(seed: int) -> None:
    # The compiled build adds and multiplies on 64-bit words: it must wrap exactly where
    # the Python source masks.
    assert derived_seeds(seed, 8) == [rng_derive(seed, key) for key in range(8)]


@given(st.integers(0, MASK), st.integers(0, 2**70))
def test_a_simulation_s_game_seeds_are_rng_derive_s(seed: int, key: int) -> None:
    assert derived_seed(seed, key) == rng_derive(seed, key)


@pytest.mark.parametrize("seed", [0, 1, MASK, MASK - GAMMA, MASK - GAMMA + 1, GAMMA])
@pytest.mark.parametrize("key", [0, 7, 8, MASK, MASK + 1, 2**64 + 2**63])
def test_a_simulation_s_game_seeds_at_the_edges_of_64_bits(seed: int, key: int) -> None:
    assert derived_seed(seed, key) == rng_derive(seed, key)
