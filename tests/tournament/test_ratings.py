"""Bradley-Terry ratings: the fit solves the likelihood equations, the intervals are the
Fisher-information ones, and the schedule seats every bot fairly."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcrawl import OptionsError
from cardcrawl.simulate._stats import Z95
from cardcrawl.tournament import HeadToHead, bradley_terry, schedule
from cardcrawl.tournament._ratings import ELO_BASE, ELO_SCALE
from cardcrawl.tournament._schedule import pairings


def expected_score(ri: float, rj: float) -> float:
    return 1.0 / (1.0 + 10 ** ((rj - ri) / 400))


def test_two_bots_have_the_closed_form() -> None:
    wins, ties, losses = 70, 10, 20
    a, b = bradley_terry(["a", "b"], [HeadToHead("a", "b", wins, ties, losses)], prior=0)
    ratio = (wins + ties / 2) / (losses + ties / 2)
    assert a.rating - b.rating == pytest.approx(400 * math.log10(ratio), abs=1e-6)
    assert (a.rating + b.rating) / 2 == pytest.approx(ELO_BASE)
    # Fisher: var(theta_a - theta_b) = 1 / (n p (1 - p)); theta_a = -theta_b.
    p = (wins + ties / 2) / 100
    se = math.sqrt(1 / (100 * p * (1 - p))) / 2
    assert a.high - a.rating == pytest.approx(Z95 * se * ELO_SCALE, rel=1e-6)
    assert a.rating - a.low == pytest.approx(Z95 * se * ELO_SCALE, rel=1e-6)
    assert (a.games, a.score, b.score) == (100, 0.75, 0.25)


@given(
    counts=st.lists(
        st.tuples(st.integers(1, 40), st.integers(0, 10), st.integers(0, 40)),
        min_size=6,
        max_size=6,
    )
)
def test_the_fit_solves_the_likelihood_equations(counts: list[tuple[int, int, int]]) -> None:
    """For every bot, the points it scored equal the points the model expects."""
    bots = ["a", "b", "c", "d"]
    pairs = [
        HeadToHead(bots[i], bots[j], *c)
        for (i, j), c in zip(itertools.combinations(range(4), 2), counts, strict=True)
    ]
    ratings = {r.bot: r for r in bradley_terry(bots, pairs)}
    mean = sum(r.rating for r in ratings.values() if not math.isnan(r.rating))
    active = [r for r in ratings.values() if not math.isnan(r.rating)]
    if active:
        assert mean / len(active) == pytest.approx(ELO_BASE, abs=1e-6)
    points = dict.fromkeys(bots, 0.0)
    expected = dict.fromkeys(bots, 0.0)
    for pair in pairs:
        if not pair.games:
            continue
        n = pair.games + 1  # the prior's virtual tie
        points[pair.first] += pair.wins + pair.ties / 2 + 0.5
        points[pair.second] += pair.losses + pair.ties / 2 + 0.5
        p = expected_score(ratings[pair.first].rating, ratings[pair.second].rating)
        expected[pair.first] += n * p
        expected[pair.second] += n * (1 - p)
    for bot in bots:
        assert points[bot] == pytest.approx(expected[bot], abs=1e-5)
        rating = ratings[bot]
        if not math.isnan(rating.rating):
            assert rating.low < rating.rating < rating.high


def test_a_bot_that_always_won_still_has_a_finite_rating() -> None:
    a, b = bradley_terry(["a", "b"], [HeadToHead("a", "b", 50, 0, 0)])
    assert math.isfinite(a.rating)
    assert a.rating > b.rating + 400
    assert a.low > b.high


def test_ratings_that_cannot_be_compared_are_refused() -> None:
    pairs = [HeadToHead("a", "b", 3, 0, 1), HeadToHead("c", "d", 2, 0, 2)]
    with pytest.raises(OptionsError, match="not all connected"):
        bradley_terry(["a", "b", "c", "d"], pairs)
    with pytest.raises(OptionsError, match="not among the bots"):
        bradley_terry(["a"], [HeadToHead("a", "z", 1, 0, 0)])
    with pytest.raises(OptionsError, match="prior"):
        bradley_terry(["a", "b"], [], prior=-1)


def test_a_bot_that_never_played_has_no_rating() -> None:
    a, b, c = bradley_terry(["a", "b", "c"], [HeadToHead("a", "b", 3, 1, 2)])
    assert math.isnan(c.rating)
    assert c.games == 0
    assert not math.isnan(a.rating + b.rating)


def test_head_to_head_scores() -> None:
    pair = HeadToHead("a", "b", 3, 2, 5)
    assert (pair.games, pair.score) == (10, 0.4)
    assert pair.swapped() == HeadToHead("b", "a", 5, 2, 3)
    assert pair.swapped().score == pytest.approx(0.6)
    interval = pair.score_interval()
    assert 0 <= interval.low < 0.4 < interval.high <= 1
    assert math.isnan(HeadToHead("a", "b", 0, 0, 0).score)


# --------------------------------------------------------------- schedule
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("bots", [2, 3, 4])
def test_every_bot_sits_in_every_seat_equally_often(bots: int, seats: int) -> None:
    lineups = schedule(bots, seats)
    assert len(set(lineups)) == len(lineups)
    assert all(len(lineup) == seats for lineup in lineups)
    if seats == 1:
        assert lineups == tuple((b,) for b in range(bots))
        return
    for a, b in pairings(bots):
        of_pair = [lineup for lineup in lineups if set(lineup) == {a, b}]
        assert len(of_pair) == (2 if seats == 2 else 2 * seats)
        for bot in (a, b):
            per_seat = [sum(lineup[s] == bot for lineup in of_pair) for s in range(seats)]
            assert len(set(per_seat)) == 1  # the same in every seat
        # Alone against the other as often as the other is alone against it.
        alone = [sum(lineup.count(bot) == 1 for lineup in of_pair) for bot in (a, b)]
        assert alone[0] == alone[1]
    assert all(len(set(lineup)) == 2 for lineup in lineups)


def test_a_gauntlet_pairs_the_first_bot_with_each_other() -> None:
    assert pairings(4, "gauntlet") == ((0, 1), (0, 2), (0, 3))
    assert all(0 in lineup for lineup in schedule(4, 2, "gauntlet"))
    assert schedule(3, 1, "gauntlet") == ((0,), (1,), (2,))
    with pytest.raises(OptionsError, match="round-robin or gauntlet"):
        pairings(3, "swiss")
    with pytest.raises(OptionsError, match="two bots or more"):
        schedule(1, 2)
