"""Simulation: reproducible whatever the executor, interruptible, with honest intervals."""

from __future__ import annotations

import csv
import io
import json
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import OptionsError, rng_derive
from cardcrawl.bots import UnknownBotError
from cardcrawl.simulate import (
    GameResult,
    Interval,
    Progress,
    SimulationResult,
    Summary,
    play_game,
    simulate,
    wilson_interval,
)
from cardcrawl.simulate._plot import main_outcome, rate_by
from cardcrawl.simulate._results import write_results
from cardcrawl.simulate._stats import mean_interval

GAME = cardcrawl.load("mapless-house", max_turns=200)


def serial(bots: Any = "random", games: int = 24, seed: int = 5) -> SimulationResult:
    return simulate(GAME, bots, games=games, seed=seed, workers=1)


# ------------------------------------------------------------ intervals
def test_wilson_interval_known_values() -> None:
    interval = wilson_interval(50, 100)
    assert interval.estimate == 0.5
    assert interval.low == pytest.approx(0.403832, abs=1e-6)
    assert interval.high == pytest.approx(0.596168, abs=1e-6)
    # Rare events: the upper end of 0 successes in n is about 3.84 / n.
    zero = wilson_interval(0, 10_000)
    assert (zero.estimate, zero.low) == (0.0, 0.0)
    assert zero.high == pytest.approx(3.8415 / 10_003.8415, rel=1e-4)
    assert wilson_interval(7, 7).high == 1.0


@given(n=st.integers(1, 10**6), data=st.data())
def test_wilson_interval_contains_the_rate_within_0_and_1(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    interval = wilson_interval(k, n)
    assert 0.0 <= interval.low <= interval.estimate + 1e-12
    assert interval.estimate - 1e-12 <= interval.high <= 1.0


def test_wilson_interval_rejects_impossible_counts_and_is_nan_without_trials() -> None:
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson_interval(3, 2)
    assert math.isnan(wilson_interval(0, 0).estimate)


def test_mean_interval_is_the_normal_approximation() -> None:
    interval = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 1.959963984540054 * math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3 / 4)
    assert interval == Interval(2.5, 2.5 - half, 2.5 + half)
    assert math.isnan(mean_interval([3.0]).low)
    assert mean_interval([3.0]).estimate == 3.0
    assert math.isnan(mean_interval([]).estimate)


# ----------------------------------------------------------- one game
def test_play_game_is_the_game_its_seed_names() -> None:
    result = play_game(GAME, ["heuristic"], seed=7, index=3)
    state = GAME.initial_state(7)
    bot = cardcrawl.bots.make_bot("heuristic", GAME, 7, 0)
    decisions = 0
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        state = GAME.step(state, bot.choose(GAME, GAME.observe(state, 0), legal))
        decisions += 1
    outcome = GAME.outcome(state)
    assert result == GameResult(
        index=3,
        seed=7,
        outcome=outcome.label,
        returns=outcome.returns,
        scores=outcome.scores,
        winners=outcome.winners,
        decisions=decisions,
        figures=result.figures,
    )
    figures = dict(result.figures)
    assert figures["turns"] == state.turn
    assert figures["house_size"] == state.score == len(state.table)
    assert figures["refused"] == len(state.refused)
    assert 2 <= figures["house_at_exit"] <= figures["house_size"]
    assert figures["exit_distance"] == sum(map(abs, state.exit_cell))


def test_play_game_stops_at_the_decision_cap() -> None:
    result = play_game(GAME, ["random"], seed=1, max_decisions=5)
    assert (result.outcome, result.decisions, result.returns) == ("unfinished", 5, (0.0,))


# ------------------------------------------------------- reproducible
def test_the_seeds_derive_from_the_simulation_seed() -> None:
    result = serial(games=6, seed=11)
    assert [r.index for r in result.results] == list(range(6))
    assert [r.seed for r in result.results] == [rng_derive(11, i) for i in range(6)]
    assert result.results[4] == play_game(GAME, ["random"], rng_derive(11, 4), index=4)


def test_same_results_with_a_process_pool_and_other_batch_sizes() -> None:
    expected = serial("heuristic", games=16)
    pooled = simulate(GAME, "heuristic", games=16, seed=5, workers=2, batch_size=3)
    assert pooled.results == expected.results
    assert not pooled.interrupted


def test_same_results_on_any_executor() -> None:
    expected = serial(games=20)
    with ThreadPoolExecutor(3) as executor:
        threaded = simulate(GAME, "random", games=20, seed=5, executor=executor, batch_size=6)
        assert threaded.results == expected.results
        # The caller's executor is left running.
        assert executor.submit(int, "7").result() == 7


def test_simulate_on_dask() -> None:
    """The ``cardcrawl[dask]`` extra: a Dask client's executor runs the batches."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        result = simulate(
            GAME, "random", games=20, seed=5, executor=client.get_executor(), batch_size=6
        )
    assert result.results == serial(games=20).results


def test_bots_per_seat_as_a_sequence_or_a_mapping() -> None:
    a = simulate(GAME, ["random"], games=4, workers=1)
    b = simulate(GAME, {0: "random"}, games=4, workers=1)
    assert a.results == b.results
    assert a.bots == ("random",)


def test_a_factory_can_stand_for_a_bot() -> None:
    result = simulate(GAME, cardcrawl.bots.RandomBot, games=4, seed=5, workers=1)
    assert result.results == serial(games=4).results
    assert result.bots == ("RandomBot",)


# ------------------------------------------------------------- refusals
def test_simulations_always_run_with_a_limit() -> None:
    """M-22: bots and simulations always run with a turn limit."""
    with pytest.raises(OptionsError, match="max_turns"):
        simulate(cardcrawl.load("mapless-house"), "random", games=1, workers=1)


def test_bad_lineups_and_arguments_fail_before_any_game() -> None:
    with pytest.raises(OptionsError, match="1 seat"):
        simulate(GAME, ["random", "random"], games=1, workers=1)
    with pytest.raises(OptionsError, match="seat"):
        simulate(GAME, {1: "random"}, games=1, workers=1)
    with pytest.raises(UnknownBotError):
        simulate(GAME, "nobody", games=1, workers=2)
    with pytest.raises(OptionsError, match="workers"):
        simulate(GAME, "random", games=1, workers=0)
    with pytest.raises(OptionsError, match="games"):
        simulate(GAME, "random", games=-1, workers=1)
    with pytest.raises(OptionsError, match="seed"):
        simulate(GAME, "random", games=1, seed=-1, workers=1)


# ----------------------------------------------------------- interrupts
class StopAfter:
    """A progress callback that presses Ctrl-C once ``games`` games are done."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.seen: list[Progress] = []

    def __call__(self, progress: Progress) -> None:
        self.seen.append(progress)
        if progress.done >= self.games:
            raise KeyboardInterrupt


def test_ctrl_c_keeps_the_games_finished_in_process() -> None:
    expected = serial(games=30)
    stop = StopAfter(10)
    result = simulate(GAME, "random", games=30, seed=5, workers=1, batch_size=5, progress=stop)
    assert result.interrupted
    assert result.results == expected.results[:10]
    assert [p.done for p in stop.seen] == [0, 5, 10]
    assert result.summary().games == 10


def test_ctrl_c_keeps_the_games_finished_in_a_pool() -> None:
    """Batches not started are cancelled; those running finish and are kept."""
    expected = {r.index: r for r in serial(games=40).results}
    result = simulate(
        GAME, "random", games=40, seed=5, workers=2, batch_size=4, progress=StopAfter(8)
    )
    assert result.interrupted
    assert len(result.results) >= 8
    assert all(r == expected[r.index] for r in result.results)
    assert [r.index for r in result.results] == sorted(r.index for r in result.results)


def test_ctrl_c_before_the_first_game() -> None:
    result = simulate(GAME, "random", games=10, workers=1, progress=StopAfter(0))
    assert result.interrupted
    assert result.results == ()
    summary = result.summary()
    assert summary.games == 0
    # The declared outcomes are still listed, counted 0, their rates unknown.
    assert [(o.label, o.count) for o in summary.outcomes] == [
        ("escaped", 0),
        ("consumed", 0),
        ("lost", 0),
    ]
    assert all(math.isnan(o.rate.estimate) for o in summary.outcomes)


# --------------------------------------------------------- the results
def test_summary_rates_and_means() -> None:
    result = serial("heuristic", games=20)
    summary = result.summary()
    assert summary.games == 20
    assert sum(o.count for o in summary.outcomes) == 20
    escaped = sum(r.outcome == "escaped" for r in result.results)
    assert summary.rate("escaped") == wilson_interval(escaped, 20)
    assert summary.rate("no-such-outcome") == wilson_interval(0, 20)
    mean_score = sum(r.scores[0] for r in result.results) / 20
    assert summary.scores is not None
    assert summary.scores[0].estimate == pytest.approx(mean_score)
    assert dict(summary.figures)["house_size"].estimate == pytest.approx(mean_score)
    text = summary.format()
    assert "escaped" in text
    assert "mean house_size" in text
    assert json.loads(json.dumps(summary.to_data()))["games"] == 20


def test_csv_has_one_row_per_game(tmp_path: Path) -> None:
    result = serial(games=5)
    path = tmp_path / "out.csv"
    result.write(path)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [int(r["game"]) for r in rows] == list(range(5))
    assert {r["bots"] for r in rows} == {"random"}
    assert [int(r["house_size"]) for r in rows] == [r.figure("house_size") for r in result.results]
    assert result.to_csv() == path.read_text(encoding="utf-8")
    buffer = io.StringIO()
    result.to_csv(buffer)
    assert buffer.getvalue() == result.to_csv()


def test_json_holds_the_run_the_summary_and_every_game(tmp_path: Path) -> None:
    result = serial(games=5)
    path = tmp_path / "out.json"
    result.write(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["game"] == "mapless-house"
    assert data["options"]["max_turns"] == 200
    assert data["seed"] == 5
    assert data["summary"]["games"] == 5
    assert len(data["results"]) == 5
    assert json.loads(result.to_json()) == data


def test_several_simulations_in_one_file(tmp_path: Path) -> None:
    a, b = serial(games=3), serial("shortest-path", games=3)
    write_results(tmp_path / "both.csv", [a, b])
    rows = list(csv.DictReader((tmp_path / "both.csv").open(encoding="utf-8")))
    assert [r["bots"] for r in rows] == ["random"] * 3 + ["shortest-path"] * 3
    write_results(tmp_path / "both.json", [a, b])
    assert len(json.loads((tmp_path / "both.json").read_text(encoding="utf-8"))) == 2
    with pytest.raises(ValueError, match=r"\.csv or \.json"):
        write_results(tmp_path / "both.txt", [a])


def test_rate_by_a_figure() -> None:
    result = serial("heuristic", games=12)
    table = rate_by(result.results, "house_size", "escaped")
    assert sum(n for _, n, _ in table) == 12
    assert [v for v, _, _ in table] == sorted({r.figure("house_size") for r in result.results})
    assert main_outcome(result.results) in ("escaped", "win")
    with pytest.raises(KeyError):
        rate_by(result.results, "nothing", "escaped")


def test_summary_of_no_games() -> None:
    summary = Summary.of([])
    assert summary.games == 0
    assert math.isnan(summary.decisions.estimate)
    assert "0 games" in summary.format()


def test_plot_report_draws_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from cardcrawl.simulate._plot import plot_report

    path = tmp_path / "report.png"
    plot_report([serial(games=8), serial("heuristic", games=8)], path, min_games=1)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ctrl_c_in_a_huge_simulation_waits_only_for_the_batches_in_flight() -> None:
    """Batches go out a few at a time, so stopping never waits for the whole run."""
    result = simulate(
        GAME, "random", games=1_000_000, seed=5, workers=2, batch_size=5, progress=StopAfter(5)
    )
    assert result.interrupted
    assert 5 <= len(result.results) <= 5 * (1 + 2 * 2)
