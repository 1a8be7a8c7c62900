"""Tuning a bot's declared parameters by racing candidates on common seeds."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from cardcrawl.bots._base import get_bot_spec
from cardcrawl.bots._params import Parameter, bot_parameters
from cardcrawl.compare._paired import Measure, PairedDifference, paired_difference
from cardcrawl.core._random import rng_below, rng_derive, rng_from_seed
from cardcrawl.errors import OptionsError
from cardcrawl.simulate._results import GameResult
from cardcrawl.simulate._run import simulate
from cardcrawl.simulate._stats import Interval, mean_interval

__all__ = ["Candidate", "Configured", "TuneResult", "tune"]


@attrs.frozen
class Configured:
    """A bot factory with parameters given: ``Configured(factory, values)(game, seed, seat)``.

    A plain value (not a closure), so that simulations can send it to worker processes.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import ISMCTSBot
        >>> from cardcrawl.tune import Configured
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=3)
        >>> bot = Configured(ISMCTSBot, (("exploration", 1.5),))(game, 1, 0)
        >>> bot._c
        1.5
    """

    factory: Any
    values: tuple[tuple[str, Any], ...] = ()

    def __call__(self, game: Any, seed: int, seat: int = 0) -> Any:
        return self.factory(game, seed, seat, **dict(self.values))


@attrs.frozen
class Candidate:
    """One set of parameter values in the race, and how it scored.

    Attributes:
        values: the parameters' values, by name.
        score: the mean return of its seat over the games it played, with a 95%
            interval (for several seats, the mean over the seats it played in turn).
        games: the training games it played before it was dropped (or won).

    Examples:
        >>> from cardcrawl.simulate import Interval
        >>> from cardcrawl.tune import Candidate
        >>> Candidate((("exploration", 0.7),), Interval(0.4, 0.3, 0.5), 40).games
        40
    """

    values: tuple[tuple[str, Any], ...]
    score: Interval
    games: int


@attrs.frozen
class TuneResult:
    """What :func:`tune` found: the best values, the race, and the held-out check.

    Attributes:
        bot: the bot's registered name.
        game: the game's name.
        options: the game's options.
        best: the winner's values, by name.
        default: the bot's default values.
        race: every candidate, in the order they were drawn (the default first).
        held_out: the winner's score minus the default's, game by game on held-out
            seeds that the race never played, with its 95% interval.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import ISMCTSBot, register_bot
        >>> from cardcrawl.tune import tune
        >>> class QuickSearch(ISMCTSBot):
        ...     def __init__(self, game, seed, seat=0, **parameters):
        ...         super().__init__(game, seed, seat, iterations=5, **parameters)
        >>> _ = register_bot("quick-search", QuickSearch, replace=True)
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=2)
        >>> result = tune(game, "quick-search", candidates=2, games=2, held_out=2)
        >>> data = result.to_data()
        >>> data["bot"], sorted(data["parameters"]), data["held_out"]["games"]
        ('quick-search', ['common_draws', 'exploration'], 2)
    """

    bot: str
    game: str
    options: tuple[tuple[str, Any], ...]
    best: tuple[tuple[str, Any], ...]
    default: tuple[tuple[str, Any], ...]
    race: tuple[Candidate, ...]
    held_out: PairedDifference

    def to_data(self) -> dict[str, Any]:
        """The result as a parameter file's data (``bot`` and ``parameters``, which
        ``NAME:FILE.json`` loads) with how it was found."""
        d = self.held_out.difference
        return {
            "bot": self.bot,
            "parameters": dict(self.best),
            "game": self.game,
            "options": dict(self.options),
            "default": dict(self.default),
            "held_out": {
                "games": self.held_out.games,
                "best": self.held_out.variant.estimate,
                "default": self.held_out.base.estimate,
                "difference": d.to_data(),
                "verdict": self.held_out.verdict,
            },
            "race": [
                {"parameters": dict(c.values), "games": c.games, "score": c.score.to_data()}
                for c in self.race
            ],
        }

    def save(self, path: str | Path) -> None:
        """Write the parameter file (:meth:`to_data` as JSON) to ``path``.

        Raises:
            OSError: the file cannot be written.
        """
        Path(path).write_text(json.dumps(self.to_data(), indent=1) + "\n", encoding="utf-8")

    def format(self) -> str:
        """The race and the held-out check as text: each candidate by the parameters
        whose values differ in the race."""
        varied = {
            name for name, _ in self.default if len({dict(c.values)[name] for c in self.race}) > 1
        }
        header = f"{self.bot} on {self.game}: {len(self.race)} candidates raced"
        if varied and len(varied) < len(self.default):
            header += " (the other parameters at their defaults)"
        lines = [header]
        for c in sorted(self.race, key=lambda c: (-c.games, -c.score.estimate)):
            mark = "  <- best" if c.values == self.best else ""
            shown = [(k, v) for k, v in c.values if k in varied] if varied else c.values
            lines.append(f"  {_values(shown)}: {c.score.estimate:.3f} over {c.games:,} games{mark}")
        h = self.held_out
        lines.append(
            f"Held out ({h.games:,} other games): best {h.variant.estimate:.3f}, default "
            f"{h.base.estimate:.3f}, difference {h.format()}: {h.verdict}"
        )
        return "\n".join(lines)


def _values(values: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in values) or "(no parameter)"


def _draw(parameter: Parameter, rng: int) -> tuple[int, Any]:
    """A value of ``parameter`` drawn uniformly, with the generator after it."""
    if parameter.choices is not None:
        rng, k = rng_below(rng, len(parameter.choices))
        return rng, parameter.choices[k]
    assert parameter.low is not None
    assert parameter.high is not None
    if parameter.integer:
        span = int(parameter.high) - int(parameter.low) + 1
        rng, k = rng_below(rng, span)
        return rng, int(parameter.low) + k
    rng, k = rng_below(rng, 1_000_001)
    return rng, round(parameter.low + (parameter.high - parameter.low) * k / 1_000_000, 3)


class _Scores:
    """Each candidate's return, game by game, on the race's common seeds."""

    def __init__(
        self, game: Any, factory: Any, default: tuple[tuple[str, Any], ...], opponent: Any
    ) -> None:
        self.game = game
        self.factory = factory
        self.opponent = opponent if opponent is not None else Configured(factory, default)

    def play(
        self, values: tuple[tuple[str, Any], ...], seed: int, first: int, games: int, workers: int
    ) -> list[float]:
        """The candidate's mean return over the seats, for games ``first`` onward."""
        seats = self.game.num_players
        totals = [0.0] * games
        for seat in range(seats):
            lineup: list[Any] = [self.opponent] * seats
            lineup[seat] = Configured(self.factory, values)
            run = simulate(
                self.game, lineup, games=games, seed=seed, first_game=first, workers=workers
            )
            for k, result in enumerate(run.results):
                totals[k] += result.returns[seat] / seats
        return totals


def _seat_return(result: GameResult) -> float | None:
    """The mean return's measure reads no game: :class:`_Scores` has the values."""
    return None


def _searched(
    bot: str, declared: Sequence[Parameter], search: Sequence[str] | None
) -> frozenset[str]:
    """The names of the parameters to search, checked against those declared.

    Raises:
        OptionsError: ``search`` is empty or names a parameter the bot does not declare.
    """
    names = [p.name for p in declared]
    if search is None:
        return frozenset(names)
    if isinstance(search, str) or not search:
        raise OptionsError(f"search is a non-empty list of parameter names, not {search!r}")
    unknown = [name for name in search if name not in names]
    if unknown:
        raise OptionsError(
            f"bot {bot} has no parameter {unknown[0]!r}; its parameters: {', '.join(names)}"
        )
    return frozenset(search)


def tune(
    game: Any,
    bot: str,
    *,
    candidates: int = 8,
    games: int = 40,
    held_out: int = 200,
    seed: int = 0,
    opponent: Any = None,
    workers: int = 1,
    search: Sequence[str] | None = None,
) -> TuneResult:
    """Fit a bot's declared parameters to a game or variant, by racing on common seeds.

    The race (successive halving, a racing method): the bot's defaults and
    ``candidates - 1`` values drawn uniformly from its declared parameters
    (:class:`~cardcrawl.bots.Parameter`) each play ``games`` games on the same seeds;
    the better half by mean return goes on to twice as many games (the same games and
    more), and so on until one is left. Every candidate plays the very same deals (common
    random numbers), so the race compares the parameters, not the luck. The winner is
    then checked on ``held_out`` other games, never raced on, against the defaults,
    game by game, with a 95% interval: a winner of the race's luck shows there as not
    better.

    In a game of several seats the candidate plays each seat in turn against
    ``opponent`` (default: the bot with its defaults), and its score is its mean return.

    Args:
        game: the game or variant, with its limit set.
        bot: a registered bot name whose factory declares ``parameters``.
        candidates: how many sets of values race (the defaults among them), >= 2.
        games: the games of the first round, >= 2.
        held_out: the games of the held-out check, >= 2.
        seed: the seed of the draws, the race's games and the held-out games.
        opponent: the bot of the other seats (a name or factory).
        workers: processes (see :func:`~cardcrawl.simulate.simulate`).
        search: the names of the parameters to search (default: all it declares); the
            others keep their defaults. A few parameters the variant's rules bear on
            are found with far fewer candidates than all of them at once.

    Returns:
        The :class:`TuneResult`; ``result.save(path)`` writes the parameter file that
        ``--bot NAME:path`` loads.

    Raises:
        OptionsError: the bot declares no parameters (the message says what it must
            declare), ``search`` names one it does not declare, or a count is out of
            range.
        UnknownBotError: no bot of that name plays the game.

    Examples:
        IS-MCTS's parameters (its exploration constant, and whether it compares the
        root's actions on common draws) on a short solo game, at 10 iterations a
        decision and with very few games: an example, not a fit.

        >>> import cardcrawl
        >>> from cardcrawl.bots import ISMCTSBot, register_bot
        >>> from cardcrawl.tune import tune
        >>> class QuickSearch(ISMCTSBot):
        ...     def __init__(self, game, seed, seat=0, **parameters):
        ...         super().__init__(game, seed, seat, iterations=10, **parameters)
        >>> _ = register_bot("quick-search", QuickSearch, replace=True)
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=3)
        >>> result = tune(game, "quick-search", candidates=3, games=4, held_out=4)
        >>> [name for name, _ in result.best], len(result.race), result.held_out.games
        (['exploration', 'common_draws'], 3, 4)
        >>> [c.games for c in result.race if c.values == result.best]
        [8]

        A bot that declares no parameters cannot be tuned:

        >>> tune(game, "random")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: bot random declares no parameters to tune: ...
    """
    for name, value, low in (("candidates", candidates, 2), ("games", games, 2)):
        if type(value) is not int or value < low:
            raise OptionsError(f"{name} is an integer >= {low}, not {value!r}")
    if type(held_out) is not int or held_out < 2:
        raise OptionsError(f"held_out is an integer >= 2, not {held_out!r}")
    factory = get_bot_spec(bot, game).factory
    declared = bot_parameters(factory)
    if not declared:
        raise OptionsError(
            f"bot {bot} declares no parameters to tune: its factory needs a `parameters` "
            "attribute, a tuple of cardcrawl.bots.Parameter, and to take each as a "
            "keyword argument"
        )
    searched = _searched(bot, declared, search)
    if isinstance(opponent, str):
        opponent = get_bot_spec(opponent, game).factory
    default = tuple((p.name, p.default) for p in declared)
    rng = rng_from_seed(rng_derive(seed, 0))
    drawn: list[tuple[tuple[str, Any], ...]] = [default]
    for _ in range(50 * candidates):
        if len(drawn) == candidates:
            break
        values: list[tuple[str, Any]] = []
        for p in declared:
            value = p.default
            if p.name in searched:
                rng, value = _draw(p, rng)
            values.append((p.name, value))
        if tuple(values) not in drawn:
            drawn.append(tuple(values))
    scores = _Scores(game, factory, default, opponent)
    race_seed, held_seed = rng_derive(seed, 1), rng_derive(seed, 2)
    played: dict[tuple[tuple[str, Any], ...], list[float]] = {v: [] for v in drawn}
    alive = list(drawn)
    target = games
    while True:
        for entry in alive:
            have = played[entry]
            have += scores.play(entry, race_seed, len(have), target - len(have), workers)
        # Ties keep the earlier candidate (the defaults first): sorted() is stable.
        ranked = sorted(alive, key=lambda v: -math.fsum(played[v]) / len(played[v]))
        alive = ranked[: math.ceil(len(alive) / 2)] if len(alive) > 1 else ranked
        if len(alive) == 1:
            break
        target *= 2
    best = alive[0]
    race = tuple(Candidate(v, mean_interval(played[v]), len(played[v])) for v in drawn)
    score = Measure("return", "mean return", _seat_return)
    base = scores.play(default, held_seed, 0, held_out, workers)
    mine = base if best == default else scores.play(best, held_seed, 0, held_out, workers)
    checked = paired_difference(score, list(base), list(mine))
    return TuneResult(
        bot=bot,
        game=game.name,
        options=tuple(game.options.to_data().items()),
        best=best,
        default=default,
        race=race,
        held_out=checked,
    )
