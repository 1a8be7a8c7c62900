"""Tournaments: duplicate deals, seats rotated, the same results on any executor, the
comparisons one-seat and many-seat games are rated by, and the files and tables."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl import OptionsError, rng_derive
from cardcrawl.bots import UnknownBotError
from cardcrawl.core import _registry
from cardcrawl.simulate import Progress, simulate
from cardcrawl.simulate._table import TABLE_WIDTH
from cardcrawl.tournament import TournamentResult, compare_games, tournament

MAPLESS = cardcrawl.load("mapless-house", max_turns=200)
HAYDES_2 = cardcrawl.load("escape-from-haydes", players=2, max_rounds=15)


def twentyone_module() -> Any:
    """The test suite's toy game (tests/core/twentyone.py), imported once."""
    if "twentyone" in sys.modules:
        return sys.modules["twentyone"]
    path = Path(__file__).resolve().parents[1] / "core" / "twentyone.py"
    spec = importlib.util.spec_from_file_location("twentyone", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["twentyone"] = module
    spec.loader.exec_module(module)
    return module


class Stand:
    """A bot of the toy game that stands at once, whatever it holds."""

    def __init__(self, game: Any, seed: int, seat: int) -> None:
        pass

    def choose(self, game: Any, observation: Any, legal: Any) -> Any:
        return next(a for a in legal if str(a) == "stand")


@pytest.fixture
def twentyone() -> Iterator[Any]:
    before = dict(_registry._REGISTRY)
    module = twentyone_module()
    module.register()
    yield module
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(before)


# ------------------------------------------------------------ the deals
def test_every_lineup_plays_the_same_deals() -> None:
    result = tournament(MAPLESS, ["heuristic", "random", "shortest-path"], games=5, seed=3,
                        workers=1)  # fmt: skip
    seeds = [rng_derive(3, i) for i in range(5)]
    assert len(result.simulations) == 3
    for sim in result.simulations:
        assert [r.seed for r in sim.results] == seeds


def test_a_one_seat_lineup_is_the_bots_own_simulation() -> None:
    result = tournament(MAPLESS, ["heuristic", "random"], games=6, seed=2, workers=1)
    for bot, sim in zip(("heuristic", "random"), result.simulations, strict=True):
        assert sim.results == simulate(MAPLESS, bot, games=6, seed=2, workers=1).results


def test_one_seat_games_are_compared_deal_by_deal() -> None:
    """Return first (escaped beats consumed), then the score (the house size, M-21)."""
    a = simulate(MAPLESS, "random", games=12, seed=8, workers=1).results
    b = simulate(MAPLESS, "shortest-path", games=12, seed=8, workers=1).results
    expected = [0, 0, 0]
    for x, y in zip(a, b, strict=True):
        key_x, key_y = (x.returns[0], x.scores[0]), (y.returns[0], y.scores[0])
        expected[0 if key_x > key_y else 1 if key_x == key_y else 2] += 1
    (pair,) = tournament(MAPLESS, ["random", "shortest-path"], games=12, seed=8,
                         workers=1).head_to_head()  # fmt: skip
    assert [pair.wins, pair.ties, pair.losses] == expected


def test_many_seat_games_rotate_the_seats_and_compare_at_the_table() -> None:
    result = tournament(HAYDES_2, ["heuristic", "random"], games=8, seed=4, workers=1)
    assert result.lineups == ((0, 1), (1, 0))
    wins = ties = losses = 0
    for bots in (["heuristic", "random"], ["random", "heuristic"]):
        for r in simulate(HAYDES_2, bots, games=8, seed=4, workers=1).results:
            mine = bots.index("heuristic")
            if mine in r.winners:
                wins += 1
            elif r.winners:
                losses += 1
            else:
                ties += 1
    (pair,) = result.head_to_head()
    assert (pair.wins, pair.ties, pair.losses) == (wins, ties, losses)


def test_seat_shares_count_every_game_of_a_bot_in_a_seat() -> None:
    game = cardcrawl.load("escape-from-haydes", players=3, max_rounds=10)
    result = tournament(game, ["heuristic", "random"], games=3, seed=1, workers=1)
    assert len(result.lineups) == 6
    shares = result.seat_shares()
    for b, bot in enumerate(result.bots):
        for seat in range(3):
            won = sum(
                seat in r.winners
                for lineup, sim in zip(result.lineups, result.simulations, strict=True)
                if lineup[seat] == b
                for r in sim.results
            )
            sat = sum(lineup[seat] == b for lineup in result.lineups) * 3
            assert shares[b][seat].estimate == pytest.approx(won / sat), bot


def test_compare_games_by_mean_return_then_score() -> None:
    game = cardcrawl.simulate.GameResult(0, 1, "escaped", (0.0, 1.0, 0.0), None, (1,), 9)
    assert compare_games(game, [1], game, [0, 2]) == 1
    assert compare_games(game, [0], game, [2]) == 0
    left = cardcrawl.simulate.GameResult(0, 1, "consumed", (0.0,), (25,), (), 9)
    right = cardcrawl.simulate.GameResult(0, 1, "consumed", (0.0,), (26,), (), 9)
    assert compare_games(left, [0], right, [0]) == -1


def test_the_toy_game_plays_a_tournament(twentyone: Any) -> None:
    """Written against the protocol: a game of the test suite works as the stock ones."""
    game = cardcrawl.load(twentyone.NAME, max_hits=13)
    result = tournament(game, ["random", Stand], games=20, seed=1, workers=1)
    assert result.bots == ("random", "Stand")
    (pair,) = result.head_to_head()
    assert pair.games == 20
    # Standing on nothing scores 0: random never does worse.
    assert pair.losses == 0
    assert result.standings()[0].bot == "random"
    assert result.outcomes == ()  # not declared: the table falls back to sorted labels
    assert "bust % [95% CI]" in result.format()


# --------------------------------------------------------- reproducible
def test_the_same_results_on_any_executor_and_batch_size() -> None:
    bots = ["heuristic", "random"]
    serial = tournament(HAYDES_2, bots, games=6, seed=9, workers=1)
    with ThreadPoolExecutor(2) as pool:
        threaded = tournament(HAYDES_2, bots, games=6, seed=9, executor=pool, batch_size=4)
    pooled = tournament(HAYDES_2, bots, games=6, seed=9, workers=2, batch_size=2)
    for other in (threaded, pooled):
        assert [s.results for s in other.simulations] == [s.results for s in serial.simulations]
        assert other.ratings() == serial.ratings()
        assert other.format() == serial.format()


def test_a_tournament_on_dask() -> None:
    """The ``cardcrawl[dask]`` extra: a Dask client's executor runs the batches."""
    distributed = pytest.importorskip("distributed")
    bots = ["random", "shortest-path"]
    with (
        distributed.LocalCluster(
            processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = tournament(MAPLESS, bots, games=6, seed=2, executor=client.get_executor(),
                             batch_size=2)  # fmt: skip
    serial = tournament(MAPLESS, bots, games=6, seed=2, workers=1)
    assert [s.results for s in on_dask.simulations] == [s.results for s in serial.simulations]


def test_progress_counts_every_lineups_games() -> None:
    seen: list[Progress] = []
    tournament(MAPLESS, ["heuristic", "random"], games=4, workers=1, batch_size=2,
               progress=seen.append)  # fmt: skip
    assert [(p.done, p.total) for p in seen] == [(0, 8), (2, 8), (4, 8), (6, 8), (8, 8)]


def test_ctrl_c_keeps_the_deals_finished_and_rates_those_every_lineup_has() -> None:
    def stop(progress: Progress) -> None:
        if progress.done >= 6:
            raise KeyboardInterrupt

    result = tournament(MAPLESS, ["random", "shortest-path"], games=10, workers=1, batch_size=3,
                        progress=stop)  # fmt: skip
    assert result.interrupted
    assert [len(s.results) for s in result.simulations] == [3, 3]
    assert result.head_to_head()[0].games == 3


# ------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("bots", "options", "error", "match"),
    [
        (["heuristic"], {}, OptionsError, "two bots or more"),
        ("heuristic", {}, OptionsError, "a list of two or more"),
        (["heuristic", "heuristic"], {}, OptionsError, "given twice: heuristic"),
        (["heuristic", "nobody"], {}, UnknownBotError, "nobody"),
        (["heuristic", "random"], {"games": 0}, OptionsError, "games is an integer >= 1"),
        (["heuristic", "random"], {"kind": "swiss"}, OptionsError, "round-robin or gauntlet"),
        (["heuristic", "random"], {"workers": 0}, OptionsError, "workers"),
        (["heuristic", "random"], {"batch_size": 0}, OptionsError, "batch_size"),
        (["heuristic", "random"], {"seed": -1}, OptionsError, "seed"),
    ],
)
def test_bad_arguments_are_refused_before_any_game(
    bots: Any, options: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        tournament(MAPLESS, bots, **{"games": 2, "workers": 1, **options})


def test_a_bot_that_does_not_play_the_game_is_refused() -> None:
    with pytest.raises(UnknownBotError, match="shortest-path"):
        tournament(HAYDES_2, ["heuristic", "shortest-path"], games=2, workers=1)


def test_a_tournament_always_runs_with_a_limit() -> None:
    """M-22: bots always play with a turn limit."""
    with pytest.raises(OptionsError, match="max_turns"):
        tournament(cardcrawl.load("mapless-house"), ["heuristic", "random"], games=1, workers=1)


# -------------------------------------------------------- tables, files
@pytest.fixture(scope="module")
def four_bots() -> TournamentResult:
    bots = ["heuristic", "random", "shortest-path", cardcrawl.bots.RandomBot]
    return tournament(MAPLESS, bots, games=3, seed=5, workers=1, kind="gauntlet")


def test_a_gauntlet_pairs_only_the_first_bot(four_bots: TournamentResult) -> None:
    pairs = four_bots.head_to_head()
    assert [(p.first, p.second) for p in pairs] == [
        ("heuristic", "random"),
        ("heuristic", "shortest-path"),
        ("heuristic", "RandomBot"),
    ]
    cross = four_bots.cross_table()
    assert cross[1][2] is None
    assert cross[0][0] is None
    assert cross[1][0] == pairs[0].swapped()


def test_the_tables_fit_in_100_columns_in_the_declared_outcome_order(
    four_bots: TournamentResult,
) -> None:
    text = four_bots.format()
    assert max(len(line) for line in text.splitlines()) <= TABLE_WIDTH
    head = next(line for line in text.splitlines() if "% [95% CI]" in line)
    assert head.index("escaped") < head.index("consumed") < head.index("lost")
    assert text.splitlines()[0].split()[:3] == ["rank", "bot", "rating"]


def test_csv_and_json(tmp_path: Path, four_bots: TournamentResult) -> None:
    path = tmp_path / "games.csv"
    four_bots.write(path)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 4 * 3
    assert [r["bots"] for r in rows[::3]] == ["heuristic", "random", "shortest-path", "RandomBot"]
    path = tmp_path / "all.json"
    four_bots.write(path)

    def no_nan(text: str) -> None:
        raise AssertionError(f"not JSON: {text}")

    data = json.loads(path.read_text(encoding="utf-8"), parse_constant=no_nan)
    assert data["kind"] == "gauntlet"
    assert [r["bot"] for r in data["ratings"]] == list(four_bots.bots)
    assert len(data["head_to_head"]) == 3
    assert len(data["results"]) == 12
    assert four_bots.to_csv(io.StringIO()) == (tmp_path / "games.csv").read_text("utf-8")
    with pytest.raises(OptionsError, match=r"\.csv or \.json"):
        four_bots.write(tmp_path / "all.txt")


def test_the_plot_has_ratings_cross_table_and_outcomes(four_bots: TournamentResult) -> None:
    pytest.importorskip("matplotlib")
    from cardcrawl.simulate._plot import pyplot
    from cardcrawl.tournament._plot import tournament_figure

    fig = tournament_figure(four_bots)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    legend = fig.axes[2].get_legend()
    pyplot().close(fig)
    assert titles == ["ratings", "score % of row vs column", "outcomes by bot"]
    assert [t.get_text() for t in legend.get_texts()] == ["escaped", "consumed", "lost"]
