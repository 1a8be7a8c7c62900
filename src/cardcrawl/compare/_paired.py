"""Paired differences: one measure of the same games under two rules, game by game."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import attrs

from cardcrawl.simulate._results import GameResult, outcome_order
from cardcrawl.simulate._stats import Interval, mean_interval, wilson_interval

__all__ = ["Measure", "PairedDifference", "measures_of", "paired_difference"]


@attrs.frozen
class Measure:
    """One number a game's result gives, compared between the arms.

    Attributes:
        key: its name in code and on the command line: ``rate:LABEL`` (1 when the
            game ended with that outcome, else 0), ``return:SEAT``, ``score:SEAT``,
            ``advantage:SEAT`` (the seat's return minus the mean of every seat's, with
            two seats or more), ``decisions`` (the game's length), or a figure of the
            game's own figure tracker by its name (``turns``, ``rounds``...).
        label: how tables show it.
        read: the value of a game's result, or ``None`` where the game has none (no
            score in an unfinished game): such a pair of games is left out.
        percent: a rate, shown in percentage points.

    Examples:
        >>> from cardcrawl.simulate import GameResult
        >>> from cardcrawl.compare import measures_of
        >>> game = GameResult(0, 1, "escaped", (1.0,), (26,), (0,), 40, (("turns", 5),))
        >>> [(m.key, m.read(game)) for m in measures_of([game], ("escaped", "consumed"))]
        ... # doctest: +NORMALIZE_WHITESPACE
        [('rate:escaped', 1.0), ('rate:consumed', 0.0), ('return:0', 1.0), ('score:0', 26.0),
         ('decisions', 40.0), ('turns', 5.0)]
    """

    key: str
    label: str
    read: Callable[[GameResult], float | None] = attrs.field(eq=False, repr=False)
    percent: bool = False


def _rate(label: str) -> Callable[[GameResult], float | None]:
    return lambda r: 1.0 if r.outcome == label else 0.0


def _return(seat: int) -> Callable[[GameResult], float | None]:
    return lambda r: r.returns[seat]


def _score(seat: int) -> Callable[[GameResult], float | None]:
    return lambda r: None if r.scores is None else float(r.scores[seat])


def _advantage(seat: int) -> Callable[[GameResult], float | None]:
    return lambda r: r.returns[seat] - math.fsum(r.returns) / len(r.returns)


def _figure(name: str) -> Callable[[GameResult], float | None]:
    def read(r: GameResult) -> float | None:
        for key, value in r.figures:
            if key == name:
                return float(value)
        return None  # a game stopped before the tracker saw it (none here)

    return read


def measures_of(
    results: Sequence[GameResult], outcomes: Sequence[str] = (), seats: int | None = None
) -> tuple[Measure, ...]:
    """Every measure the games' results give, in a fixed order.

    The order: each outcome's rate (the declared outcomes, then any other seen, as
    :func:`~cardcrawl.simulate.outcome_order` puts them), each seat's return, each
    seat's score (for games that keep one), each seat's advantage (two seats or more),
    the decisions, then the game's own figures in its tracker's order.

    Args:
        results: the games of every arm, together.
        outcomes: the declared outcomes of the game.
        seats: the number of seats (default: read from the first result).

    Returns:
        The measures.

    Examples:
        >>> from cardcrawl.simulate import GameResult
        >>> from cardcrawl.compare import measures_of
        >>> games = [GameResult(0, 1, "won", (1.0, 0.0), None, (0,), 12, (("rounds", 3),))]
        >>> [m.key for m in measures_of(games, ("won", "lost"))]
        ... # doctest: +NORMALIZE_WHITESPACE
        ['rate:won', 'rate:lost', 'return:0', 'return:1', 'advantage:0', 'advantage:1',
         'decisions', 'rounds']
    """
    seats = len(results[0].returns) if seats is None and results else (seats or 0)
    labels = outcome_order(outcomes, (r.outcome for r in results))
    found = [Measure(f"rate:{label}", f"{label} rate", _rate(label), True) for label in labels]

    def who(seat: int) -> str:
        return f", seat {seat}" if seats > 1 else ""

    found += [Measure(f"return:{s}", f"return{who(s)}", _return(s)) for s in range(seats)]
    if any(r.scores is not None for r in results):
        found += [Measure(f"score:{s}", f"score{who(s)}", _score(s)) for s in range(seats)]
    if seats > 1:
        found += [
            Measure(f"advantage:{s}", f"seat {s} advantage", _advantage(s)) for s in range(seats)
        ]
    found.append(Measure("decisions", "decisions", lambda r: float(r.decisions)))
    names: dict[str, None] = {}
    for r in results:
        names.update(dict.fromkeys(name for name, _ in r.figures))
    found += [Measure(name, name, _figure(name)) for name in names if name != "decisions"]
    return tuple(found)


def _variance(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return math.nan
    mean = math.fsum(values) / n
    return math.fsum((v - mean) ** 2 for v in values) / (n - 1)


@attrs.frozen
class PairedDifference:
    """One measure compared between a variant and the first arm, on the same games.

    Attributes:
        measure: what was compared.
        games: the pairs of games counted (both have a value).
        base: the first arm's mean, with its 95% interval.
        variant: the variant's mean, with its 95% interval.
        difference: the mean of the game-by-game differences (variant minus first arm),
            with its 95% interval (normal approximation).
        efficiency: how many times as many games two independent runs (another seed
            for each arm) need for an interval of the same width:
            ``(var(base) + var(variant)) / var(difference)``, from these games. ``inf``
            when every pair agrees while the arms vary; ``nan`` when nothing varies.

    Examples:
        >>> from cardcrawl.compare import Measure, paired_difference
        >>> length = Measure("decisions", "decisions", lambda r: r)
        >>> d = paired_difference(length, [10, 12, 14, 16], [11, 13, 14, 18])
        >>> d.difference.estimate, d.verdict
        (1.0, 'different')
        >>> d.efficiency > 1
        True
        >>> paired_difference(length, [10, 12], [10, 12]).verdict
        'not shown to differ at 2 games'
    """

    measure: Measure
    games: int
    base: Interval
    variant: Interval
    difference: Interval
    efficiency: float

    @property
    def differs(self) -> bool:
        """The difference's 95% interval leaves out 0."""
        d = self.difference
        return not math.isnan(d.low) and (d.low > 0 or d.high < 0)

    @property
    def width(self) -> float:
        """The width of the difference's interval (``inf`` with fewer than two games)."""
        d = self.difference
        return math.inf if math.isnan(d.low) else d.high - d.low

    @property
    def verdict(self) -> str:
        """``"different"``, or ``"not shown to differ at N games"``."""
        if self.differs:
            return "different"
        return f"not shown to differ at {self.games:,} games"

    @property
    def independent_games(self) -> float:
        """The games two independent runs would need for the same interval width."""
        return self.games * self.efficiency

    def format(self) -> str:
        """The difference as text, in percentage points for a rate.

        Examples:
            >>> from cardcrawl.compare import Measure, paired_difference
            >>> win = Measure("rate:win", "win rate", lambda r: r, percent=True)
            >>> paired_difference(win, [0, 1, 1, 0], [1, 1, 1, 0]).format()
            '+25.0 points [-24.0, +74.0]'
        """
        d = self.difference
        if self.measure.percent:
            scale, unit, digits = 100.0, " points", 1
        else:
            scale, unit, digits = 1.0, "", 3
        if math.isnan(d.low):
            return f"{scale * d.estimate:+.{digits}f}{unit}"
        return (
            f"{scale * d.estimate:+.{digits}f}{unit} "
            f"[{scale * d.low:+.{digits}f}, {scale * d.high:+.{digits}f}]"
        )


def paired_difference(
    measure: Measure, base: Sequence[float | None], variant: Sequence[float | None]
) -> PairedDifference:
    """The paired difference of ``measure`` between two lists of values, game by game.

    Args:
        measure: the measure (only its key, label and ``percent`` are used here).
        base: each game's value under the first arm (``None``: no value).
        variant: the same games' values under the variant, in the same order.

    Returns:
        The :class:`PairedDifference` over the games where both have a value.

    Examples:
        >>> from cardcrawl.compare import Measure, paired_difference
        >>> turns = Measure("turns", "turns", lambda r: r)
        >>> d = paired_difference(turns, [5, 7, None, 9], [4, 7, 3, 7])
        >>> d.games, d.difference.estimate, d.verdict
        (3, -1.0, 'not shown to differ at 3 games')
    """
    pairs = [(b, v) for b, v in zip(base, variant, strict=True) if b is not None and v is not None]
    xs = [b for b, _ in pairs]
    ys = [v for _, v in pairs]
    ds = [v - b for b, v in pairs]
    spread = _variance(xs) + _variance(ys)
    paired = _variance(ds)
    if math.isnan(spread) or (spread == 0 and paired == 0):
        efficiency = math.nan
    elif paired == 0:
        efficiency = math.inf
    else:
        efficiency = spread / paired
    difference = mean_interval(ds)
    if measure.percent:
        # A rate's difference lies between -1 and 1, whatever the normal approximation
        # says near the ends; each rate gets Wilson's interval, as simulate gives it.
        difference = Interval(
            difference.estimate, max(-1.0, difference.low), min(1.0, difference.high)
        )
        means = [wilson_interval(round(sum(v)), len(v)) for v in (xs, ys)]
    else:
        means = [mean_interval(xs), mean_interval(ys)]
    return PairedDifference(measure, len(pairs), means[0], means[1], difference, efficiency)
