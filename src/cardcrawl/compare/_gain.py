"""A sampled best-response gain for whole games: each seat replaced by a stronger bot."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from cardcrawl.compare._paired import Measure, PairedDifference, paired_difference
from cardcrawl.errors import OptionsError
from cardcrawl.simulate._results import GameResult, SimulationResult
from cardcrawl.simulate._run import BotChoice, _bot_label, _lineup, simulate
from cardcrawl.simulate._stats import Interval, mean_interval

__all__ = ["SampledGains", "sampled_best_response_gains"]


@attrs.frozen
class SampledGains:
    """Each seat's gain from playing the responder instead of its bot, on the same seeds.

    Attributes:
        lineup: the bots' labels, by seat.
        responder: the responder's label.
        games: the games of each simulation.
        seats: per seat, the paired difference of its return, responder minus its bot
            (:class:`~cardcrawl.compare.PairedDifference`).
        nash_conv: the sum of the seats' gains, game by game, with its 95% interval.
        lineup_run: the simulation of the line-up itself.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.compare import sampled_best_response_gains
        >>> game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=5)
        >>> gains = sampled_best_response_gains(game, "random", responder="random",
        ...                                     games=10, workers=1)
        >>> gains.lineup, gains.responder, gains.games, len(gains.seats)
        (('random', 'random'), 'random', 10, 2)
        >>> print(gains.format().splitlines()[-1])
          NashConv 0.000 [0.000, 0.000], exploitability 0.000 [0.000, 0.000]
    """

    lineup: tuple[str, ...]
    responder: str
    games: int
    seats: tuple[PairedDifference, ...]
    nash_conv: Interval
    lineup_run: SimulationResult = attrs.field(eq=False, repr=False)

    @property
    def exploitability(self) -> Interval:
        """The mean gain per seat, with its interval (``nash_conv / seats``)."""
        n = len(self.seats)
        c = self.nash_conv
        return Interval(c.estimate / n, c.low / n, c.high / n)

    def format(self) -> str:
        """The gains as text: one line per seat, then the totals."""
        lines = [
            f"{self.responder} in each seat against the others' bots, {self.games:,} games "
            "on the same seeds (a lower bound of the best-response gain):"
        ]
        for seat, d in enumerate(self.seats):
            lines.append(
                f"  seat {seat} ({self.lineup[seat]}): {d.base.estimate:.3f} with its bot, "
                f"{d.variant.estimate:.3f} with {self.responder}: gains {d.format()}"
            )
        lines.append(
            f"  NashConv {self.nash_conv.format(digits=3)}, "
            f"exploitability {self.exploitability.format(digits=3)}"
        )
        return "\n".join(lines)


def _return_of(seat: int) -> Callable[[GameResult], float | None]:
    return lambda r: r.returns[seat]


def sampled_best_response_gains(
    game: Any,
    bots: BotChoice | Sequence[BotChoice] | Mapping[int, BotChoice],
    *,
    responder: BotChoice = "ismcts",
    games: int = 200,
    seed: int = 0,
    workers: int | None = None,
    **simulate_options: Any,
) -> SampledGains:
    """Each seat's gain, sampled on whole games, from playing a stronger bot instead.

    An exact best reply is out of reach for a whole game, so each seat in turn plays the
    ``responder`` (IS-MCTS by default) against the others' bots, on the same seeds as
    the line-up itself (:func:`~cardcrawl.simulate.simulate`): the paired difference of
    the seat's return is its gain, with a 95% interval. The responder is not a best
    reply, so the gain it finds is a lower bound of the seat's best-response gain (as
    far as the interval goes); :func:`~cardcrawl.solve.best_response_gains` is exact
    for a position small enough to solve.

    Args:
        game: the game, with its limit set.
        bots: the line-up (as :func:`~cardcrawl.simulate.simulate` takes it).
        responder: the bot that replaces each seat's in turn.
        games: games per simulation (the line-up's, and one per seat).
        seed: the seed of every simulation.
        workers: processes (see :func:`~cardcrawl.simulate.simulate`).
        **simulate_options: passed on to :func:`~cardcrawl.simulate.simulate`.

    Returns:
        The :class:`SampledGains`.

    Raises:
        OptionsError: the bots do not fit the seats, or ``games`` is below 2.
        UnknownBotError: a bot name is not registered for the game.

    Examples:
        A responder that plays as the line-up's bot gains nothing: its games are the
        very same games.

        >>> import cardcrawl
        >>> from cardcrawl.compare import sampled_best_response_gains
        >>> game = cardcrawl.load("escape-from-haydes-solo-timer")
        >>> gains = sampled_best_response_gains(
        ...     game, "random", responder="random", games=20, workers=1)
        >>> gains.seats[0].difference.estimate, gains.seats[0].verdict
        (0.0, 'not shown to differ at 20 games')
    """
    if type(games) is not int or games < 2:
        raise OptionsError(f"games is an integer >= 2, not {games!r}")
    lineup = _lineup(game, bots)
    base = simulate(game, lineup, games=games, seed=seed, workers=workers, **simulate_options)
    seats = []
    totals = [0.0] * len(base.results)
    for seat in range(game.num_players):
        replaced = list(lineup)
        replaced[seat] = responder
        run = simulate(game, replaced, games=games, seed=seed, workers=workers, **simulate_options)
        measure = Measure(f"return:{seat}", f"return, seat {seat}", _return_of(seat))
        pairs = {r.index: r for r in run.results}
        before = [measure.read(r) for r in base.results]
        after = [measure.read(pairs[r.index]) if r.index in pairs else None for r in base.results]
        seats.append(paired_difference(measure, before, after))
        for k, (b, a) in enumerate(zip(before, after, strict=True)):
            totals[k] += math.nan if a is None or b is None else a - b
    kept = [t for t in totals if not math.isnan(t)]
    return SampledGains(
        tuple(_bot_label(b) for b in lineup),
        _bot_label(responder),
        len(kept),
        tuple(seats),
        mean_interval(kept),
        base,
    )
