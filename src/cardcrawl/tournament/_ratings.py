"""Bradley-Terry ratings from head-to-head counts, with Fisher-information intervals.

No numerical library: the fit is Hunter's MM iteration (each step raises the
likelihood), the intervals come from the inverse of the information matrix, found by
Gauss-Jordan elimination on a matrix as small as the number of bots.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from cardcrawl.errors import OptionsError
from cardcrawl.simulate import Interval
from cardcrawl.simulate._stats import Z95, mean_interval

__all__ = ["ELO_BASE", "ELO_SCALE", "HeadToHead", "Rating", "bradley_terry"]

#: The rating of a bot of average strength.
ELO_BASE = 1500.0
#: Rating points per unit of log-strength: 400 points is a strength ten times as great,
#: as on the Elo scale (a 400-point gap wins 10 games of 11).
ELO_SCALE = 400.0 / math.log(10.0)


@attrs.frozen
class HeadToHead:
    """How two bots fared against each other: the games they were compared in.

    Attributes:
        first: the first bot's label.
        second: the second bot's label.
        wins: games the first bot won (the second lost).
        ties: games neither won.
        losses: games the second bot won.

    Examples:
        >>> from cardcrawl.tournament import HeadToHead
        >>> pair = HeadToHead("heuristic", "random", wins=7, ties=2, losses=1)
        >>> pair.games, pair.score
        (10, 0.8)
        >>> print(pair.score_interval())
        0.8000 [0.5833, 1.0000]
    """

    first: str
    second: str
    wins: int
    ties: int
    losses: int

    @property
    def games(self) -> int:
        """Games compared."""
        return self.wins + self.ties + self.losses

    @property
    def score(self) -> float:
        """The first bot's share of the points (a win 1, a tie 1/2); ``nan`` unplayed."""
        return (self.wins + self.ties / 2) / self.games if self.games else math.nan

    def score_interval(self) -> Interval:
        """The score with its normal-approximation 95% interval (points 1, 1/2, 0),
        kept within [0, 1]."""
        mean = mean_interval([1.0] * self.wins + [0.5] * self.ties + [0.0] * self.losses)
        return Interval(mean.estimate, max(0.0, mean.low), min(1.0, mean.high))

    def swapped(self) -> HeadToHead:
        """The same games, seen from the second bot."""
        return HeadToHead(self.second, self.first, self.losses, self.ties, self.wins)


@attrs.frozen
class Rating:
    """A bot's Bradley-Terry rating on the Elo scale, with its 95% interval.

    Attributes:
        bot: the bot's label.
        rating: ``1500 + 400 * log10(strength)``, the strengths' geometric mean being 1
            (so the ratings average 1500); a bot rated ``d`` points above another is
            expected to score ``1 / (1 + 10 ** (-d / 400))`` against it.
        low: the interval's lower end.
        high: the interval's upper end.
        games: the games the bot was compared in.
        score: its share of the points in them.

    Examples:
        >>> from cardcrawl.tournament import HeadToHead, bradley_terry
        >>> a, b = bradley_terry(["a", "b"], [HeadToHead("a", "b", 76, 0, 24)])
        >>> round(a.rating - b.rating), a.low < a.rating < a.high
        (198, True)
    """

    bot: str
    rating: float
    low: float
    high: float
    games: int
    score: float

    def format(self) -> str:
        """``1523 [1490, 1556]``."""
        return f"{self.rating:.0f} [{self.low:.0f}, {self.high:.0f}]"


def bradley_terry(
    bots: Sequence[str],
    pairs: Sequence[HeadToHead],
    *,
    prior: float = 1.0,
    z: float = Z95,
    tolerance: float = 1e-10,
    max_iterations: int = 10_000,
) -> tuple[Rating, ...]:
    """Fit the Bradley-Terry model ``P(i beats j) = p_i / (p_i + p_j)`` to head-to-head
    counts, a tie counted as half a win to each.

    Each pair that played starts with ``prior`` virtual ties, so a bot that won every
    game still gets a finite rating; with a few hundred games a pair, one tie moves a
    rating by a point or two. Intervals are ``rating ± z·se``, the standard errors from
    the inverse of the Fisher information of the log-strengths (constrained to sum to 0).

    Args:
        bots: every bot's label, in the order the ratings are returned.
        pairs: the head-to-head counts (each pair once, either way round).
        prior: virtual ties added to each pair that played.
        z: the normal quantile of the intervals (1.96 for 95%).
        tolerance: the fit stops when no log-strength moves by more than this.
        max_iterations: the fit stops after this many steps in any case.

    Returns:
        One rating per bot, in the order of ``bots``.

    Raises:
        OptionsError: a pair names a bot not in ``bots``, ``prior`` is negative, or
            the bots that played are not all connected by games.

    Examples:
        >>> from cardcrawl.tournament import HeadToHead, bradley_terry
        >>> pairs = [HeadToHead("a", "b", 60, 0, 40), HeadToHead("b", "c", 60, 0, 40)]
        >>> [round(r.rating) for r in bradley_terry(["a", "b", "c"], pairs)]
        [1570, 1500, 1430]
    """
    if prior < 0 or math.isnan(prior):
        raise OptionsError(f"prior is a number >= 0, not {prior!r}")
    index = {bot: i for i, bot in enumerate(bots)}
    k = len(bots)
    won = [[0.0] * k for _ in range(k)]  # won[i][j]: i's points against j
    for pair in pairs:
        if pair.first not in index or pair.second not in index:
            raise OptionsError(f"{pair.first} vs {pair.second}: not among the bots {list(bots)}")
        i, j = index[pair.first], index[pair.second]
        extra = prior / 2 if pair.games else 0.0
        won[i][j] += pair.wins + pair.ties / 2 + extra
        won[j][i] += pair.losses + pair.ties / 2 + extra
    played = [[won[i][j] + won[j][i] for j in range(k)] for i in range(k)]
    games = [0] * k
    points = [0.0] * k
    for pair in pairs:
        for bot, p in (
            (pair.first, pair.wins + pair.ties / 2),
            (pair.second, pair.losses + pair.ties / 2),
        ):
            games[index[bot]] += pair.games
            points[index[bot]] += p
    _check_connected(bots, played)
    theta = _fit(won, played, tolerance, max_iterations)
    covariance = _covariance(theta, played)
    ratings = []
    for i, bot in enumerate(bots):
        if not any(played[i]):
            ratings.append(Rating(bot, math.nan, math.nan, math.nan, 0, math.nan))
            continue
        half = z * math.sqrt(max(0.0, covariance[i][i])) * ELO_SCALE
        value = ELO_BASE + ELO_SCALE * theta[i]
        score = points[i] / games[i] if games[i] else math.nan
        ratings.append(Rating(bot, value, value - half, value + half, games[i], score))
    return tuple(ratings)


def _check_connected(bots: Sequence[str], played: list[list[float]]) -> None:
    active = [i for i in range(len(bots)) if any(played[i])]
    if not active:
        return
    seen, todo = {active[0]}, [active[0]]
    while todo:
        i = todo.pop()
        for j, n in enumerate(played[i]):
            if n and j not in seen:
                seen.add(j)
                todo.append(j)
    apart = [bots[i] for i in active if i not in seen]
    if apart:
        raise OptionsError(
            f"the bots are not all connected by games ({', '.join(apart)} never meet the "
            "others, even through other bots): their ratings cannot be compared"
        )


def _fit(
    won: list[list[float]], played: list[list[float]], tolerance: float, max_iterations: int
) -> list[float]:
    """The log-strengths, summing to 0 over the bots that played (Hunter's MM step)."""
    k = len(won)
    active = [i for i in range(k) if any(played[i])]
    strength = [1.0] * k
    wins = [sum(row) for row in won]
    for _ in range(max_iterations):
        new = list(strength)
        for i in active:
            denominator = sum(
                played[i][j] / (strength[i] + strength[j]) for j in active if played[i][j]
            )
            new[i] = wins[i] / denominator if denominator else strength[i]
        # A bot with no points at all (prior 0) has strength 0: kept just above it.
        new = [max(s, 1e-300) for s in new]
        centre = math.fsum(math.log(new[i]) for i in active) / len(active) if active else 0.0
        new = [s / math.exp(centre) for s in new]
        moved = max((abs(math.log(new[i]) - math.log(strength[i])) for i in active), default=0)
        strength = new
        if moved < tolerance:
            break
    return [math.log(s) if i in active else 0.0 for i, s in enumerate(strength)]


def _covariance(theta: list[float], played: list[list[float]]) -> list[list[float]]:
    """The covariance of the log-strengths under the sum-to-zero constraint: the
    pseudo-inverse of the information matrix ``L``, as ``(L + J/m)^-1 - J/m`` over the
    ``m`` bots that played (``J`` all ones; ``L`` is a connected graph's Laplacian)."""
    k = len(theta)
    active = [i for i in range(k) if any(played[i])]
    m = len(active)
    cov = [[math.nan] * k for _ in range(k)]
    if m < 2:
        return cov
    info = [[0.0] * m for _ in range(m)]
    for a, i in enumerate(active):
        for b, j in enumerate(active):
            if a != b and played[i][j]:
                p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                w = played[i][j] * p * (1.0 - p)
                info[a][b] -= w
                info[a][a] += w
    shifted = [[info[a][b] + 1.0 / m for b in range(m)] for a in range(m)]
    inverse = _invert(shifted)
    for a, i in enumerate(active):
        for b, j in enumerate(active):
            cov[i][j] = inverse[a][b] - 1.0 / m
    return cov


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan elimination with partial pivoting (the matrix is positive definite)."""
    n = len(matrix)
    work = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(work[r][col]))
        work[col], work[pivot] = work[pivot], work[col]
        scale = work[col][col]
        work[col] = [v / scale for v in work[col]]
        for r in range(n):
            if r != col and work[r][col]:
                factor = work[r][col]
                work[r] = [v - factor * p for v, p in zip(work[r], work[col], strict=True)]
    return [row[n:] for row in work]
