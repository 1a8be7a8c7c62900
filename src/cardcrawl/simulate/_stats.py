"""95% confidence intervals: Wilson's for rates, the normal approximation for means."""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from cardcrawl.errors import OptionsError

__all__ = ["Z95", "Interval", "mean_interval", "wilson_interval"]

#: The standard normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@attrs.frozen
class Interval:
    """An estimate with a confidence interval around it.

    Attributes:
        estimate: the point estimate (a rate or a mean); ``nan`` with no data.
        low: the interval's lower end.
        high: the interval's upper end.

    Examples:
        >>> from cardcrawl.simulate import Interval
        >>> str(Interval(0.5, 0.25, 0.75))
        '0.5000 [0.2500, 0.7500]'
    """

    estimate: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.estimate:.4f} [{self.low:.4f}, {self.high:.4f}]"

    def format(self, percent: bool = False, digits: int = 2) -> str:
        """The interval as text, as a percentage if ``percent``.

        Examples:
            >>> from cardcrawl.simulate import Interval
            >>> Interval(0.5, 0.25, 0.75).format(percent=True, digits=1)
            '50.0% [25.0, 75.0]'
        """
        if percent:
            e, lo, hi = 100 * self.estimate, 100 * self.low, 100 * self.high
            return f"{e:.{digits}f}% [{lo:.{digits}f}, {hi:.{digits}f}]"
        return f"{self.estimate:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def to_data(self) -> dict[str, float | None]:
        """The interval as JSON-compatible data (``None`` for ``nan``)."""
        return {
            k: None if math.isnan(v) else v
            for k, v in (("estimate", self.estimate), ("low", self.low), ("high", self.high))
        }


_NAN = Interval(math.nan, math.nan, math.nan)


def wilson_interval(successes: int, n: int, z: float = Z95) -> Interval:
    """Wilson's score interval for a rate: ``successes`` out of ``n`` trials.

    Unlike the normal approximation it stays inside [0, 1] and is sound near 0 and 1,
    where a rare outcome (a random bot's escapes) lives. With no trials the estimate and
    ends are ``nan``.

    Args:
        successes: how many trials had the outcome.
        n: how many trials there were.
        z: the normal quantile of the interval's confidence (1.96 for 95%).

    Returns:
        The rate ``successes / n`` with its interval.

    Examples:
        >>> from cardcrawl.simulate import wilson_interval
        >>> wilson_interval(0, 10_000).format(percent=True, digits=3)
        '0.000% [0.000, 0.038]'
        >>> print(wilson_interval(50, 100))
        0.5000 [0.4038, 0.5962]

    Raises:
        OptionsError: ``successes`` is not between 0 and ``n``.
    """
    if not 0 <= successes <= n:
        raise OptionsError(f"successes is between 0 and n={n}, not {successes}")
    if n == 0:
        return _NAN
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean of ``values`` with the normal-approximation interval ``mean ± z·s/√n``.

    ``s`` is the sample standard deviation. With fewer than two values the ends are
    ``nan`` (and the estimate too with none).

    Args:
        values: the sample.
        z: the normal quantile of the interval's confidence (1.96 for 95%).

    Returns:
        The mean with its interval.

    Examples:
        >>> from cardcrawl.simulate._stats import mean_interval
        >>> print(mean_interval([1, 2, 3, 4]))
        2.5000 [1.2348, 3.7652]
    """
    n = len(values)
    if n == 0:
        return _NAN
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, math.nan, math.nan)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half)
