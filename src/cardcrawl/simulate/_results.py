"""The records a simulation returns: one per game, and the whole run with its summary."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

import attrs

from cardcrawl.errors import OptionsError, UnknownFigureError
from cardcrawl.simulate._stats import Interval, mean_interval, wilson_interval

__all__ = [
    "GameResult",
    "OutcomeRate",
    "SimulationResult",
    "Summary",
    "outcome_order",
    "write_results",
]

Figure = int | float

#: The label of a game stopped by the decision cap (see :func:`play_game`).
UNFINISHED = "unfinished"

#: The label of a game ended by a bot that failed its seat (see :func:`play_game`).
FORFEIT = "forfeit"

#: The labels the library gives games that did not reach an outcome of their own, in
#: the order tables show them, after every other label.
_LIBRARY_LABELS = (FORFEIT, UNFINISHED)


def outcome_order(declared: Sequence[str], seen: Iterable[str] = ()) -> tuple[str, ...]:
    """The outcome labels in the order tables show them: those the game declares
    (:attr:`cardcrawl.GameTools.outcomes`), in its order, then the others seen,
    alphabetically, and last the library's own labels seen: ``"forfeit"`` (a bot failed
    its seat), then ``"unfinished"`` (the decision cap stopped the game).

    The order never depends on how often each outcome happened, so the columns of a
    table are the same from run to run.

    Args:
        declared: the game's declared outcomes.
        seen: the labels of the games played.

    Returns:
        Every declared label and every label seen, each once.

    Examples:
        >>> from cardcrawl.simulate import outcome_order
        >>> outcome_order(("escaped", "trapped", "time-up"), ["unfinished", "time-up", "odd"])
        ('escaped', 'trapped', 'time-up', 'odd', 'unfinished')
        >>> outcome_order(("escaped", "consumed"), ["unfinished", "forfeit", "escaped"])
        ('escaped', 'consumed', 'forfeit', 'unfinished')
    """
    order = dict.fromkeys(declared)
    rest = set(seen) - set(order)
    order.update(dict.fromkeys(sorted(rest - set(_LIBRARY_LABELS))))
    order.update(dict.fromkeys(label for label in _LIBRARY_LABELS if label in rest))
    return tuple(order)


@attrs.frozen
class GameResult:
    """How one simulated game went.

    Attributes:
        index: the game's number in its simulation, from 0.
        seed: the game's own seed (``rng_derive(simulation seed, index)``): the game is
            ``game.initial_state(seed)`` played by bots built with this seed, or in a
            simulation from a position, that position re-seeded with it
            (``game.reseed(state, seed)``).
        outcome: the outcome's label (``"escaped"``, ``"consumed"``, ``"lost"``...),
            ``"unfinished"`` when the decision cap stopped it, or ``"forfeit"`` when a
            bot failed its seat (see :func:`~cardcrawl.simulate.play_game`'s
            ``on_bot_error``).
        returns: each player's return (all 0.0 for a game that is unfinished or
            forfeited: it has no outcome of its own).
        scores: each player's score, for games that keep one (``None`` for a game that
            is unfinished or forfeited).
        winners: the players who won (none in a game unfinished or forfeited).
        decisions: the decisions taken (chance events not counted), before the forfeit
            for a forfeited game.
        figures: game-specific numbers, in a fixed order per game (for The Mapless House:
            ``turns``, ``house_size``, ``house_at_exit``, ``refused``, ``exit_distance``),
            of the state the game stopped in.
        forfeited: the seat whose bot failed, for a forfeited game; else ``None``.
        error: why it failed, for a forfeited game: the error's class and message
            (``"EngineTimeoutError: engine ... gave no answer ..."``); else ``None``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import simulate
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> first = simulate(game, "heuristic", games=1, seed=1, workers=1).results[0]
        >>> first.outcome, first.seed == cardcrawl.rng_derive(1, 0), first.figure("turns")
        ('escaped', True, 5)
        >>> first.to_row()["house_size"]
        26
    """

    index: int
    seed: int
    outcome: str
    returns: tuple[float, ...]
    scores: tuple[int, ...] | None
    winners: tuple[int, ...]
    decisions: int
    figures: tuple[tuple[str, Figure], ...] = ()
    forfeited: int | None = None
    error: str | None = None

    def figure(self, name: str) -> Figure:
        """The figure called ``name``.

        Args:
            name: a figure of the game, such as ``"turns"``.

        Returns:
            Its value in this game.

        Raises:
            UnknownFigureError: the game has no such figure (a ``KeyError``).
        """
        for key, value in self.figures:
            if key == name:
                return value
        known = ", ".join(key for key, _ in self.figures)
        raise UnknownFigureError(
            f"this game records no figure {name!r}; "
            + (f"its figures are {known}" if known else "it records none")
        )

    def to_row(self) -> dict[str, Any]:
        """The result as one flat row (the CSV columns, JSON-compatible values).

        A forfeited game's row ends with ``forfeited`` (the seat) and ``error``; other
        games' rows have neither, so the files of a run without a forfeit keep their
        columns (a CSV of several games gets the columns if any game has them).

        Examples:
            >>> from cardcrawl.simulate import GameResult
            >>> result = GameResult(0, 5, "forfeit", (0.0,), None, (), 3, forfeited=0,
            ...                     error="EngineError: engine ... exited")
            >>> row = result.to_row()
            >>> row["outcome"], row["forfeited"], row["error"]
            ('forfeit', 0, 'EngineError: engine ... exited')
        """
        row: dict[str, Any] = {
            "game": self.index,
            "seed": self.seed,
            "outcome": self.outcome,
            "decisions": self.decisions,
        }
        for seat, value in enumerate(self.returns):
            row[f"return_{seat}"] = value
        if self.scores is not None:
            for seat, score in enumerate(self.scores):
                row[f"score_{seat}"] = score
        row["winners"] = " ".join(map(str, self.winners))
        row.update(self.figures)
        if self.forfeited is not None:
            row["forfeited"] = self.forfeited
            row["error"] = self.error
        return row


@attrs.frozen
class OutcomeRate:
    """How often one outcome happened.

    Attributes:
        label: the outcome's label.
        count: games that ended so.
        rate: the rate with its Wilson 95% interval.

    Examples:
        >>> from cardcrawl.simulate import GameResult, Summary
        >>> games = [GameResult(i, i, "escaped" if i < 3 else "consumed", (0.0,), None, (), 9)
        ...          for i in range(4)]
        >>> escaped = Summary.of(games, outcomes=("escaped", "consumed")).outcomes[0]
        >>> escaped.label, escaped.count, escaped.rate.estimate
        ('escaped', 3, 0.75)
        >>> [o.label for o in Summary.of(games).outcomes]  # none declared: alphabetical
        ['consumed', 'escaped']
    """

    label: str
    count: int
    rate: Interval


@attrs.frozen
class Summary:
    """Summary statistics of a simulation, each with a 95% confidence interval.

    Attributes:
        games: games played to the end (or to the decision cap).
        outcomes: every outcome the game declares and every other one seen, with its
            rate, in the fixed order of :func:`outcome_order` (never by count).
        returns: each player's mean return.
        scores: each player's mean score, for games that keep one (over the games that
            reached an outcome: unfinished and forfeited games keep no score).
        decisions: mean decisions per game.
        figures: each game-specific figure's mean.
        elapsed: wall-clock seconds the simulation took.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import simulate
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> summary = simulate(game, "heuristic", games=10, seed=1, workers=1).summary()
        >>> [(o.label, o.count) for o in summary.outcomes]
        [('escaped', 8), ('consumed', 2), ('lost', 0)]
        >>> print(summary.format())  # doctest: +ELLIPSIS
        10 games in ... s (... games/s)
          escaped (8)            80.00% [49.02, 94.33]
          consumed (2)           20.00% [5.67, 50.98]
          lost (0)               0.00% [0.00, 27.75]
          mean return, player 0  0.800 [0.539, 1.061]
        ...
    """

    games: int
    outcomes: tuple[OutcomeRate, ...]
    returns: tuple[Interval, ...]
    scores: tuple[Interval, ...] | None
    decisions: Interval
    figures: tuple[tuple[str, Interval], ...]
    elapsed: float

    @classmethod
    def of(
        cls, results: Sequence[GameResult], elapsed: float = 0.0, outcomes: Sequence[str] = ()
    ) -> Summary:
        """Summarize some game results.

        Args:
            results: the games, such as a :class:`SimulationResult`'s ``results``.
            elapsed: the wall-clock seconds they took (0 if not timed).
            outcomes: the game's declared outcomes (:attr:`cardcrawl.GameTools.outcomes`),
                listed first and in that order, even those that never happened.

        Returns:
            Their summary.
        """
        n = len(results)
        counts: dict[str, int] = {}
        for r in results:
            counts[r.outcome] = counts.get(r.outcome, 0) + 1
        rates = tuple(
            OutcomeRate(label, counts.get(label, 0), wilson_interval(counts.get(label, 0), n))
            for label in outcome_order(outcomes, counts)
        )
        seats = len(results[0].returns) if results else 0
        returns = tuple(mean_interval([r.returns[s] for r in results]) for s in range(seats))
        scores = None
        # Games without an outcome (unfinished, forfeited) keep no scores: the first
        # game that does tells whether the game keeps them.
        kept = [r.scores for r in results if r.scores is not None]
        if kept:
            scores = tuple(
                mean_interval([float(s[seat]) for s in kept]) for seat in range(len(kept[0]))
            )
        names = [name for name, _ in results[0].figures] if results else []
        figures = tuple(
            (name, mean_interval([float(r.figure(name)) for r in results])) for name in names
        )
        decisions = mean_interval([float(r.decisions) for r in results])
        return cls(n, rates, returns, scores, decisions, figures, elapsed)

    @property
    def games_per_second(self) -> float:
        """Games per second of wall-clock time (``nan`` if not timed)."""
        return self.games / self.elapsed if self.elapsed > 0 else math.nan

    def rate(self, label: str) -> Interval:
        """The rate of outcome ``label`` (0 with its interval if it never happened).

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.simulate import simulate
            >>> game = cardcrawl.load("mapless-house", max_turns=200)
            >>> summary = simulate(game, "random", games=20, workers=1).summary()
            >>> summary.rate("escaped").estimate
            0.0
        """
        for outcome in self.outcomes:
            if outcome.label == label:
                return outcome.rate
        return wilson_interval(0, self.games)

    def format(self) -> str:
        """The summary as a plain-text table."""
        head = f"{self.games} games"
        if self.elapsed > 0:
            head += f" in {self.elapsed:.1f} s ({self.games_per_second:,.0f} games/s)"
        lines = [head]
        rows: list[tuple[str, str]] = []
        for o in self.outcomes:
            rows.append((f"{o.label} ({o.count})", o.rate.format(percent=True)))
        for seat, value in enumerate(self.returns):
            rows.append((f"mean return, player {seat}", value.format(digits=3)))
        for seat, value in enumerate(self.scores or ()):
            rows.append((f"mean score, player {seat}", value.format()))
        rows.append(("mean decisions", self.decisions.format()))
        for name, value in self.figures:
            rows.append((f"mean {name}", value.format()))
        width = max(len(label) for label, _ in rows)
        lines += [f"  {label:<{width}}  {text}" for label, text in rows]
        return "\n".join(lines)

    def to_data(self) -> dict[str, Any]:
        """The summary as JSON-compatible data."""
        return {
            "games": self.games,
            "elapsed": self.elapsed,
            "outcomes": {o.label: {"count": o.count, **o.rate.to_data()} for o in self.outcomes},
            "returns": [r.to_data() for r in self.returns],
            "scores": None if self.scores is None else [s.to_data() for s in self.scores],
            "decisions": self.decisions.to_data(),
            "figures": {name: value.to_data() for name, value in self.figures},
        }


@attrs.frozen
class SimulationResult:
    """A whole simulation: what was played, and every game's result in game order.

    Attributes:
        game: the game's registry name.
        options: the game's options as JSON-compatible ``(name, value)`` pairs.
        bots: the bot playing each seat (its registered name, or its factory's name).
        seed: the simulation's seed; game ``i`` was seeded with ``rng_derive(seed, i)``.
        requested: how many games were asked for.
        results: the games played, sorted by index (fewer than asked if interrupted).
        interrupted: the simulation was stopped early (Ctrl-C) and ``results`` holds the
            games finished by then.
        elapsed: wall-clock seconds taken.
        outcomes: the game's declared outcomes (:attr:`cardcrawl.GameTools.outcomes`),
            the order of the summary's and the tables' outcomes.
        position: the notation of the position every game started from, each with its
            generator re-seeded from its own seed; ``None`` for games dealt from their
            seeds. When set, the data and every row say so under ``position``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import simulate
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> result = simulate(game, "heuristic", games=10, seed=1, workers=1)
        >>> result.outcomes
        ('escaped', 'consumed', 'lost')
        >>> result.lineup, result.requested, len(result.results), result.interrupted
        ('heuristic', 10, 10, False)
        >>> result.rows()[0]["outcome"], result.to_data()["summary"]["games"]
        ('escaped', 10)
    """

    game: str
    options: tuple[tuple[str, Any], ...]
    bots: tuple[str, ...]
    seed: int
    requested: int
    results: tuple[GameResult, ...]
    interrupted: bool = False
    elapsed: float = 0.0
    outcomes: tuple[str, ...] = ()
    position: str | None = None

    @property
    def lineup(self) -> str:
        """The bots as one label: the name if every seat has the same bot."""
        return self.bots[0] if len(set(self.bots)) == 1 else ",".join(self.bots)

    def summary(self) -> Summary:
        """Summary statistics with 95% confidence intervals."""
        return Summary.of(self.results, self.elapsed, self.outcomes)

    def rows(self) -> list[dict[str, Any]]:
        """One flat row per game, each starting with the lineup under ``bots`` (and,
        from a position, ending with it under ``position``)."""
        return [{"bots": self.lineup, **r.to_row(), **self._start()} for r in self.results]

    def _start(self) -> dict[str, str]:
        # Only when set: the files of games dealt from seeds keep their layout.
        return {} if self.position is None else {"position": self.position}

    def to_data(self) -> dict[str, Any]:
        """The whole simulation as JSON-compatible data, summary included (and
        ``position``, for games from a position)."""
        return {
            "game": self.game,
            "options": dict(self.options),
            "bots": list(self.bots),
            "seed": self.seed,
            **self._start(),
            "requested": self.requested,
            "outcomes": list(self.outcomes),
            "interrupted": self.interrupted,
            "elapsed": self.elapsed,
            "summary": self.summary().to_data(),
            "results": [r.to_row() for r in self.results],
        }

    def to_json(self) -> str:
        """The simulation as JSON text (see :meth:`to_data`)."""
        return json.dumps(self.to_data(), indent=1)

    def to_csv(self, file: IO[str] | None = None) -> str:
        """The games as CSV, one row per game; written to ``file`` if given.

        Returns:
            The CSV text (also when written to ``file``).

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.simulate import simulate
            >>> game = cardcrawl.load("mapless-house", max_turns=200)
            >>> text = simulate(game, "random", games=3, workers=1).to_csv()
            >>> text.splitlines()[0]
            'bots,game,seed,outcome,decisions,return_0,score_0,winners,turns,house_size,house_at_exit,refused,exit_distance'
        """
        return _csv_text(self.rows(), file)

    def write(self, path: str | Path) -> None:
        """Write the simulation to ``path``: CSV for ``.csv``, JSON for ``.json``.

        Raises:
            ValueError: the extension is neither.
            OSError: the file cannot be written.
        """
        write_results(path, [self])


def _csv_text(rows: Iterable[dict[str, Any]], file: IO[str] | None) -> str:
    rows = list(rows)
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    text = buffer.getvalue()
    if file is not None:
        file.write(text)
    return text


def write_results(path: str | Path, simulations: Sequence[SimulationResult]) -> None:
    """Write one or more simulations to ``path``, CSV or JSON by its extension.

    CSV has one row per game, the lineup in the ``bots`` column; JSON is a list with one
    object per simulation (a single object for one simulation).

    Args:
        path: the file to write, ending in ``.csv`` or ``.json``.
        simulations: the simulations to write, such as one per bot compared.

    Raises:
        OptionsError: the extension is neither ``.csv`` nor ``.json``.
        OSError: the file cannot be written.

    Examples:
        >>> import tempfile
        >>> from pathlib import Path
        >>> import cardcrawl
        >>> from cardcrawl.simulate import simulate
        >>> from cardcrawl.simulate._results import write_results
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> runs = [simulate(game, bot, games=3, workers=1) for bot in ("random", "heuristic")]
        >>> path = Path(tempfile.mkdtemp()) / "games.csv"
        >>> write_results(path, runs)
        >>> lines = path.read_text(encoding="utf-8").splitlines()
        >>> len(lines), lines[1].split(",")[0], lines[-1].split(",")[0]
        (7, 'random', 'heuristic')
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        with path.open("w", encoding="utf-8", newline="") as file:
            _csv_text((row for s in simulations for row in s.rows()), file)
    elif suffix == ".json":
        data: Any = [s.to_data() for s in simulations]
        if len(simulations) == 1:
            data = data[0]
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    else:
        raise OptionsError(f"results go to a file ending in .csv or .json, not {path.name!r}")
