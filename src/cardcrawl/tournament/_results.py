"""A tournament's results: every lineup's games, the head-to-head counts, the ratings and
the tables made of them."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import attrs

from cardcrawl.errors import OptionsError
from cardcrawl.simulate import GameResult, Interval, SimulationResult, wilson_interval
from cardcrawl.simulate._results import _csv_text, outcome_order
from cardcrawl.simulate._table import format_table
from cardcrawl.tournament._ratings import HeadToHead, Rating, bradley_terry
from cardcrawl.tournament._schedule import pairings

__all__ = ["TournamentResult", "compare_games"]


def compare_games(
    a: GameResult, a_seats: Sequence[int], b: GameResult, b_seats: Sequence[int]
) -> int:
    """Which of two bots did better: 1 for the first, -1 for the second, 0 for neither.

    A bot that forfeited (one of its seats is the game's ``forfeited``, see
    :func:`~cardcrawl.simulate.play_game`) did worse than one that did not, whatever the
    returns; two that both forfeited tie. Otherwise each bot's result is the mean return
    of its seats (``a_seats`` in game ``a``, ``b_seats`` in game ``b``), then, if those
    are equal, the mean score of its seats, for games that keep one. In a game of
    several seats both bots sit at the same table (``a`` is ``b``); in a one-seat game
    ``a`` and ``b`` are the two bots' games on the same deal.

    Args:
        a: the first bot's game.
        a_seats: the seats the first bot played in it.
        b: the second bot's game.
        b_seats: the seats the second bot played in it.

    Returns:
        1, 0 or -1.

    Examples:
        >>> from cardcrawl.simulate import GameResult
        >>> from cardcrawl.tournament import compare_games
        >>> table = GameResult(0, 1, "escaped", (0.0, 1.0, 0.0), None, (1,), 40)
        >>> compare_games(table, [0], table, [1, 2])  # seat 1 escaped
        -1
        >>> escaped = GameResult(0, 1, "escaped", (1.0,), (26,), (0,), 30)
        >>> consumed = GameResult(0, 1, "consumed", (0.0,), (26,), (), 33)
        >>> compare_games(escaped, [0], consumed, [0])
        1
        >>> forfeit = GameResult(0, 1, "forfeit", (0.0,), None, (), 3, forfeited=0)
        >>> compare_games(forfeit, [0], consumed, [0]), compare_games(forfeit, [0], forfeit, [0])
        (-1, 0)
    """
    a_forfeited = a.forfeited is not None and a.forfeited in a_seats
    b_forfeited = b.forfeited is not None and b.forfeited in b_seats
    if a_forfeited or b_forfeited:
        return int(b_forfeited) - int(a_forfeited)

    def key(game: GameResult, seats: Sequence[int]) -> tuple[float, float]:
        value = math.fsum(game.returns[s] for s in seats) / len(seats)
        scores = game.scores
        score = math.fsum(scores[s] for s in seats) / len(seats) if scores else 0.0
        return value, score

    first, second = key(a, a_seats), key(b, b_seats)
    return (first > second) - (first < second)


@attrs.frozen
class TournamentResult:
    """A whole tournament: who played, every lineup's games on the same deals, and what
    they say.

    Attributes:
        game: the game's registry name.
        options: the game's options as JSON-compatible ``(name, value)`` pairs.
        bots: the bots' labels (registered names, or their factories' names).
        kind: ``"round-robin"`` or ``"gauntlet"`` (see ``pairings``).
        seed: the tournament's seed: deal ``i`` of every lineup is
            ``rng_derive(seed, i)``, and the bots are built with that same seed.
        games: games (deals) per lineup.
        lineups: each lineup as a bot number per seat (see :func:`schedule`).
        simulations: each lineup's games, in the order of ``lineups``.
        interrupted: stopped early (Ctrl-C); only the deals every lineup finished are
            compared.
        elapsed: wall-clock seconds taken.
        outcomes: the game's declared outcomes, the order of its tables.
        position: the notation of the position every deal started from, re-seeded
            from the deal's seed; ``None`` for deals dealt from their seeds. When set,
            the data and every row say so under ``position``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.tournament import tournament
        >>> game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
        >>> result = tournament(game, ["heuristic", "random"], games=6, seed=1, workers=1)
        >>> result.lineups, [len(s.results) for s in result.simulations]
        (((0, 1), (1, 0)), [6, 6])
        >>> pair = result.head_to_head()[0]
        >>> pair.first, pair.second, pair.games
        ('heuristic', 'random', 12)
    """

    game: str
    options: tuple[tuple[str, Any], ...]
    bots: tuple[str, ...]
    kind: str
    seed: int
    games: int
    lineups: tuple[tuple[int, ...], ...]
    simulations: tuple[SimulationResult, ...]
    interrupted: bool = False
    elapsed: float = 0.0
    outcomes: tuple[str, ...] = ()
    position: str | None = None

    @property
    def seats(self) -> int:
        """The game's seats."""
        return len(self.lineups[0]) if self.lineups else 0

    def _deals(self) -> list[int]:
        """The deals every lineup finished (all of them, unless interrupted)."""
        common: set[int] | None = None
        for sim in self.simulations:
            indices = {r.index for r in sim.results}
            common = indices if common is None else common & indices
        return sorted(common or ())

    def head_to_head(self) -> tuple[HeadToHead, ...]:
        """Each pair's wins, ties and losses, in the order of ``pairings``.

        In a one-seat game, each deal both bots played is one comparison of their two
        games (:func:`compare_games`). In a game of several seats, each game of a lineup
        of the pair is one comparison of the two bots at that table.
        """
        deals = self._deals()
        by_index = [{r.index: r for r in sim.results} for sim in self.simulations]
        lineup_of = {lineup: n for n, lineup in enumerate(self.lineups)}
        pairs = []
        for a, b in pairings(len(self.bots), self.kind):
            tally = [0, 0, 0]  # wins, ties, losses of a
            if self.seats == 1:
                games_a, games_b = by_index[lineup_of[(a,)]], by_index[lineup_of[(b,)]]
                for i in deals:
                    tally[1 - compare_games(games_a[i], [0], games_b[i], [0])] += 1
            else:
                for n, lineup in enumerate(self.lineups):
                    if set(lineup) != {a, b}:
                        continue
                    seats_a = [s for s, bot in enumerate(lineup) if bot == a]
                    seats_b = [s for s, bot in enumerate(lineup) if bot == b]
                    for i in deals:
                        game = by_index[n][i]
                        tally[1 - compare_games(game, seats_a, game, seats_b)] += 1
            pairs.append(HeadToHead(self.bots[a], self.bots[b], *tally))
        return tuple(pairs)

    def ratings(self) -> tuple[Rating, ...]:
        """Each bot's Bradley-Terry rating with its 95% interval, in the order of
        ``bots`` (see :func:`bradley_terry`)."""
        return bradley_terry(self.bots, self.head_to_head())

    def standings(self) -> tuple[Rating, ...]:
        """The ratings, best first (ties in the order of ``bots``)."""
        ratings = self.ratings()
        order = sorted(range(len(ratings)), key=lambda i: (-_finite(ratings[i].rating), i))
        return tuple(ratings[i] for i in order)

    def cross_table(self) -> tuple[tuple[HeadToHead | None, ...], ...]:
        """By row bot and column bot, the row's results against the column (``None``
        on the diagonal and for pairs that did not meet)."""
        k = len(self.bots)
        table: list[list[HeadToHead | None]] = [[None] * k for _ in range(k)]
        index = {bot: i for i, bot in enumerate(self.bots)}
        for pair in self.head_to_head():
            i, j = index[pair.first], index[pair.second]
            table[i][j], table[j][i] = pair, pair.swapped()
        return tuple(tuple(row) for row in table)

    def seat_shares(self) -> tuple[tuple[Interval, ...], ...]:
        """By bot, by seat: the share of its games in that seat that it won, with its
        Wilson 95% interval (every lineup it sat in counted)."""
        deals = set(self._deals())
        wins = [[0] * self.seats for _ in self.bots]
        games = [[0] * self.seats for _ in self.bots]
        for lineup, sim in zip(self.lineups, self.simulations, strict=True):
            for r in sim.results:
                if r.index in deals:
                    for seat, bot in enumerate(lineup):
                        games[bot][seat] += 1
                        wins[bot][seat] += seat in r.winners
        return tuple(
            tuple(wilson_interval(w, n) for w, n in zip(wins[b], games[b], strict=True))
            for b in range(len(self.bots))
        )

    # --------------------------------------------------------------- tables
    def format(self) -> str:
        """The standings, the cross-table and, by bot, the outcomes (one seat) or the
        win share by seat (several), as plain-text tables within 100 columns; then, if a
        bot forfeited a game, the forfeits by bot."""
        parts = [self._standings_table(), self._cross_table()]
        parts.append(self._outcomes_table() if self.seats == 1 else self._seats_table())
        forfeits = self.forfeits()
        if any(forfeits):
            head = ["bot", "games forfeited"]
            rows = [[bot, f"{n:,}"] for bot, n in zip(self.bots, forfeits, strict=True)]
            parts.append(format_table(head, rows, right=[1]))
        return "\n\n".join(parts)

    def forfeits(self) -> tuple[int, ...]:
        """By bot, the games it forfeited (see :func:`~cardcrawl.simulate.play_game`'s
        ``on_bot_error``), every game played counted.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.tournament import tournament
            >>> game = cardcrawl.load("mapless-house", max_turns=200)
            >>> tournament(game, ["heuristic", "random"], games=2, workers=1).forfeits()
            (0, 0)
        """
        counts = [0] * len(self.bots)
        for lineup, sim in zip(self.lineups, self.simulations, strict=True):
            for r in sim.results:
                if r.forfeited is not None:
                    counts[lineup[r.forfeited]] += 1
        return tuple(counts)

    def _standings_table(self) -> str:
        head = ["rank", "bot", "rating [95% CI]", "games", "score %"]
        rows = [
            [str(n), r.bot, r.format(), f"{r.games:,}", _percent(r.score)]
            for n, r in enumerate(self.standings(), 1)
        ]
        return format_table(head, rows, keep=2, right=[0, 3, 4])

    def _cross_table(self) -> str:
        cross = self.cross_table()
        head = ["score % of row vs column", *self.bots]
        rows = []
        for bot, row in zip(self.bots, cross, strict=True):
            rows.append([bot, *("-" if cell is None else _percent(cell.score) for cell in row)])
        return format_table(head, rows, right=range(1, len(head)))

    def _outcomes_table(self) -> str:
        labels = outcome_order(
            self.outcomes, (r.outcome for s in self.simulations for r in s.results)
        )
        head = ["bot", "games", *(f"{label} % [95% CI]" for label in labels)]
        rows = []
        for sim in self.simulations:
            summary = sim.summary()
            rates = [summary.rate(label) for label in labels]
            rows.append([sim.lineup, f"{summary.games:,}", *(_rate(r) for r in rates)])
        return format_table(head, rows, right=[1])

    def _seats_table(self) -> str:
        head = ["win % by seat", *(f"seat {s} [95% CI]" for s in range(self.seats))]
        rows = [
            [bot, *(_rate(share) for share in shares)]
            for bot, shares in zip(self.bots, self.seat_shares(), strict=True)
        ]
        return format_table(head, rows)

    # ---------------------------------------------------------------- files
    def rows(self) -> list[dict[str, Any]]:
        """One flat row per game, each starting with its lineup (a bot per seat, comma
        separated) under ``bots`` (and, from a position, ending with it under
        ``position``)."""
        start = {} if self.position is None else {"position": self.position}
        return [
            {"bots": ",".join(sim.bots), **r.to_row(), **start}
            for sim in self.simulations
            for r in sim.results
        ]

    def to_data(self) -> dict[str, Any]:
        """The tournament as JSON-compatible data: the ratings, the head-to-head counts,
        the games each bot forfeited and every game."""
        ratings = [
            {
                "bot": r.bot,
                "rating": _number(r.rating),
                "low": _number(r.low),
                "high": _number(r.high),
                "games": r.games,
                "score": _number(r.score),
            }
            for r in self.ratings()
        ]
        pairs = [
            {"first": p.first, "second": p.second, "wins": p.wins, "ties": p.ties,
             "losses": p.losses}
            for p in self.head_to_head()
        ]  # fmt: skip
        return {
            "game": self.game,
            "options": dict(self.options),
            "bots": list(self.bots),
            "kind": self.kind,
            "seed": self.seed,
            # Only when set: the files of deals from seeds keep their layout.
            **({} if self.position is None else {"position": self.position}),
            "games": self.games,
            "outcomes": list(self.outcomes),
            "interrupted": self.interrupted,
            "elapsed": self.elapsed,
            "ratings": ratings,
            "head_to_head": pairs,
            "seat_shares": [[s.to_data() for s in row] for row in self.seat_shares()],
            "forfeits": list(self.forfeits()),
            "lineups": [
                {"bots": list(sim.bots), "summary": sim.summary().to_data()}
                for sim in self.simulations
            ],
            "results": self.rows(),
        }

    def to_json(self) -> str:
        """The tournament as JSON text (see :meth:`to_data`)."""
        return json.dumps(self.to_data(), indent=1)

    def to_csv(self, file: IO[str] | None = None) -> str:
        """The games as CSV, one row per game (see :meth:`rows`); written to ``file`` if
        given.

        Returns:
            The CSV text.
        """
        return _csv_text(self.rows(), file)

    def write(self, path: str | Path) -> None:
        """Write the tournament to ``path``: every game as CSV for ``.csv``, everything
        as JSON for ``.json``.

        Raises:
            OptionsError: the extension is neither.
            OSError: the file cannot be written.
        """
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".csv":
            with path.open("w", encoding="utf-8", newline="") as file:
                self.to_csv(file)
        elif suffix == ".json":
            path.write_text(self.to_json() + "\n", encoding="utf-8")
        else:
            raise OptionsError(f"results go to a file ending in .csv or .json, not {path.name!r}")


def _finite(value: float) -> float:
    return -math.inf if math.isnan(value) else value


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}"


def _rate(rate: Interval) -> str:
    return "-" if math.isnan(rate.estimate) else rate.format(percent=True, digits=1)
