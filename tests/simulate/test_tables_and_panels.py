"""Tables and plots people can read: each game's outcomes in the order it declares (never
by count), its own figures and panels, whole-game histograms, tables within 100 columns."""

from __future__ import annotations

import io
import math
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.cli._main import main
from cardcrawl.simulate import (
    GameResult,
    Panel,
    SimulationResult,
    Summary,
    outcome_order,
    simulate,
)
from cardcrawl.simulate._plot import DEFAULT_PANELS, histogram_bins, panels_for
from cardcrawl.simulate._table import TABLE_WIDTH, format_table

HAYDES = cardcrawl.load("escape-from-haydes-solo-timer")


def cli(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["simulate", *argv, "--workers", "1", "--progress", "none"],
        stdin=io.StringIO(),
        stdout=out,
        stderr=err,
    )
    assert code == 0, err.getvalue()
    return out.getvalue()


def table_lines(out: str) -> list[str]:
    """The first table's lines, from its head on."""
    lines = out.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("bot ")) :]


def result(label: str, index: int = 0) -> GameResult:
    return GameResult(index, index, label, (0.0,), None, (), 3)


# ------------------------------------------------------------- outcome order
def test_every_stock_game_declares_its_outcomes_win_first() -> None:
    assert cardcrawl.tools_for("mapless-house").outcomes == ("escaped", "consumed", "lost")
    for name in cardcrawl.game_names():
        if name.startswith("escape-from-haydes"):
            assert cardcrawl.tools_for(name).outcomes == ("escaped", "trapped", "time-up")


@pytest.mark.parametrize("name", ["mapless-house", "escape-from-haydes-solo-timer"])
def test_the_declared_outcomes_are_every_outcome_played(name: str) -> None:
    game = cardcrawl.load(name, **({"max_turns": 200} if name == "mapless-house" else {}))
    declared = cardcrawl.tools_for(game).outcomes
    played = simulate(game, "random", games=30, seed=4, workers=1)
    assert {r.outcome for r in played.results} <= set(declared)


def test_outcome_order_is_declared_then_alphabetical_then_unfinished() -> None:
    assert outcome_order(("b", "a"), ["unfinished", "z", "c", "a"]) == (
        "b",
        "a",
        "c",
        "z",
        "unfinished",
    )
    assert outcome_order((), []) == ()


def test_a_forfeit_comes_after_every_outcome_and_before_unfinished() -> None:
    assert outcome_order(("b", "a"), ["unfinished", "forfeit", "z", "a"]) == (
        "b",
        "a",
        "z",
        "forfeit",
        "unfinished",
    )
    assert outcome_order(("b",), ["forfeit"]) == ("b", "forfeit")


def forfeited(index: int) -> GameResult:
    return GameResult(index, index, "forfeit", (0.0,), None, (), 2, forfeited=0, error="E: x")


def test_the_tables_list_forfeits_after_the_declared_outcomes() -> None:
    from cardcrawl.cli._simulate import _table

    games = [forfeited(0), result("trapped", 1), forfeited(2), result("escaped", 3)]
    outcomes = ("escaped", "trapped", "time-up")
    summary = Summary.of(games, outcomes=outcomes)
    assert [(o.label, o.count) for o in summary.outcomes] == [
        ("escaped", 1),
        ("trapped", 1),
        ("time-up", 0),
        ("forfeit", 2),
    ]
    run = SimulationResult(HAYDES.name, (), ("random",), 0, 4, tuple(games), outcomes=outcomes)
    head = [c.strip() for c in _table([run]).splitlines()[0].split("  ") if c.strip()]
    assert head[2:] == [f"{label} % [95% CI]" for label in (*outcomes, "forfeit")]
    # Only forfeited games' rows carry the seat and the error; the CSV gets the columns.
    assert "forfeited" not in games[1].to_row()
    header, first, second = run.to_csv().splitlines()[:3]
    assert header.split(",")[-2:] == ["forfeited", "error"]
    assert first.split(",")[-2:] == ["0", "E: x"]
    assert second.split(",")[-2:] == ["", ""]


def test_scores_are_the_mean_of_the_games_that_kept_one() -> None:
    scored = [attrs.evolve(result("escaped", i), scores=(10 * i,)) for i in (1, 2)]
    summary = Summary.of([forfeited(0), *scored])
    assert summary.scores is not None
    assert summary.scores[0].estimate == 15.0


def test_the_summary_keeps_the_declared_order_whatever_happened_most() -> None:
    # Counts ranked trapped > time-up > escaped: the old order (by count) was that.
    games = [result("trapped", i) for i in range(5)]
    games += [result("time-up", 5), result("time-up", 6), result("escaped", 7)]
    summary = Summary.of(games, outcomes=("escaped", "trapped", "time-up"))
    assert [(o.label, o.count) for o in summary.outcomes] == [
        ("escaped", 1),
        ("trapped", 5),
        ("time-up", 2),
    ]
    assert [line.split()[0] for line in summary.format().splitlines()[1:4]] == [
        "escaped",
        "trapped",
        "time-up",
    ]


def test_the_order_is_the_same_across_seeds_and_bots() -> None:
    labels = set()
    orders = set()
    for seed in (1, 2, 3):
        for bot in ("random", "heuristic"):
            run = simulate(HAYDES, bot, games=12, seed=seed, workers=1)
            labels.update(r.outcome for r in run.results)
            orders.add(tuple(o.label for o in run.summary().outcomes))
            orders.add(tuple(run.summary().to_data()["outcomes"]))
    assert len(labels) >= 2  # the runs did differ in what happened
    assert orders == {("escaped", "trapped", "time-up")}


def test_the_cli_columns_are_the_declared_order_on_every_seed() -> None:
    heads = set()
    for seed in ("1", "2", "5"):
        out = cli("escape-from-haydes-solo-timer", "--bot", "random", "--games", "15",
                  "--seed", seed)  # fmt: skip
        heads.add(table_lines(out)[0])
    (head,) = heads
    assert head.split("  ")[0] == "bot"
    columns = [c.strip() for c in head.split("  ") if c.strip()]
    assert columns == [
        "bot",
        "games",
        "escaped % [95% CI]",
        "trapped % [95% CI]",
        "time-up % [95% CI]",
    ]


def test_the_rates_under_each_column_are_that_outcomes() -> None:
    out = cli("escape-from-haydes-solo-timer", "--bot", "random", "--games", "20", "--seed", "2")
    run = simulate(HAYDES, "random", games=20, seed=2, workers=1).summary()
    row = table_lines(out)[2]
    cells = [c.strip() for c in row.split("  ") if c.strip()]
    expected = [run.rate(label).format(percent=True, digits=1) for label in run_labels(run)]
    assert cells[2:] == expected


def run_labels(summary: Summary) -> list[str]:
    return [o.label for o in summary.outcomes]


# -------------------------------------------------------------------- width
@pytest.mark.parametrize(
    "argv",
    [
        ("mapless-house", "--bot", "random", "--bot", "shortest-path", "--bot", "heuristic"),
        ("escape-from-haydes", "--players", "4", "--bot", "0=heuristic", "--max-rounds", "8"),
        ("escape-from-haydes-solo-timer", "--bot", "random", "--by", "rounds"),
    ],
)
def test_every_line_fits_in_100_columns(argv: tuple[str, ...]) -> None:
    out = cli(*argv, "--games", "6")
    assert max(len(line) for line in out.splitlines()) <= TABLE_WIDTH
    assert "games/s" in out


def test_format_table_splits_wide_tables_and_repeats_the_name() -> None:
    head = ["name", *(f"column {i}" for i in range(30))]
    rows = [["a row", *(f"{i:>8}" for i in range(30))]]
    text = format_table(head, rows, width=60)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 60
    parts = text.split("\n\n")
    assert len(parts) > 1
    assert all(part.startswith("name") and "\na row" in part for part in parts)
    # Every column is there exactly once.
    found = [c for part in parts for c in part.splitlines()[0].split("  ") if "column" in c]
    assert [c.strip() for c in found] == head[1:]


# ------------------------------------------------------------------ figures
def test_haydes_has_figures_of_its_own() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=12)
    run = simulate(game, ["heuristic", "random"], games=10, seed=3, workers=1)
    for r in run.results:
        names = [name for name, _ in r.figures]
        assert names == ["rounds", "turns", "guesses", "correct", "encounters", "overcome", "out"]
        assert 1 <= r.figure("rounds") <= 12
        assert r.figure("correct") <= r.figure("guesses")
        assert r.figure("overcome") <= r.figure("encounters")
        if r.outcome == "trapped":
            assert r.figure("out") == 2
        if r.outcome == "escaped":
            assert r.figure("out") <= 1


def test_each_game_declares_its_own_panels() -> None:
    mapless, haydes = panels_for("mapless-house"), panels_for("escape-from-haydes-tuybe")
    assert any(p.figure == "house_size" for p in mapless)
    assert not any(p.figure in ("house_size", "score") for p in haydes)
    assert [p.figure for p in haydes if p.kind == "histogram"] == ["rounds", "encounters"]
    assert panels_for("no-such-game") == DEFAULT_PANELS
    with pytest.raises(cardcrawl.OptionsError, match="kind is one of"):
        Panel("pie")


def test_histogram_bins_hold_whole_values() -> None:
    for values in ([0], [3, 5, 4], list(range(7, 300, 7)), [1, 1000]):
        edges = histogram_bins(values)
        assert edges[0] < min(values)
        assert edges[-1] > max(values)
        assert all(math.isclose(e % 1, 0.5) for e in edges)
        assert len(edges) - 1 <= 60


# --------------------------------------------------------------------- plots
def axes_of(simulations: list[SimulationResult]) -> Any:
    pytest.importorskip("matplotlib")
    from cardcrawl.simulate._plot import pyplot, report_figure

    fig = report_figure(simulations, min_games=1)
    axes = list(fig.axes)
    info = [
        (ax.get_title(), ax.get_xlabel(), [t.get_text() for t in ax.get_xticklabels()])
        for ax in axes
    ]
    yticks = [list(ax.get_yticks()) for ax in axes]
    pyplot().close(fig)
    return info, yticks


def test_the_haydes_plot_shows_haydes_panels_in_whole_games() -> None:
    runs = [simulate(HAYDES, bot, games=8, seed=1, workers=1) for bot in ("random", "heuristic")]
    info, yticks = axes_of(runs)
    titles = [title for title, _, _ in info]
    assert titles == ["outcomes by bot", "game length", "creatures met"]
    assert not any("house size" in t or x == "score" for t, x, _ in info)
    assert info[0][2] == ["random", "heuristic"]
    for ticks in yticks[1:]:  # the histograms count whole games
        assert all(float(t).is_integer() for t in ticks)


def test_the_outcomes_panel_lists_the_declared_outcomes_in_order() -> None:
    pytest.importorskip("matplotlib")
    from cardcrawl.simulate._plot import pyplot, report_figure

    runs = [simulate(HAYDES, "random", games=6, seed=9, workers=1)]
    fig = report_figure(runs)
    legend = fig.axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["escaped", "trapped", "time-up"]
    pyplot().close(fig)


def test_panels_of_figures_not_recorded_are_left_out() -> None:
    """A program's own figures (register_figures) replace the game's: the plot keeps the
    panels it can draw, and a panel asked for by name still fails loudly."""
    pytest.importorskip("matplotlib")
    from cardcrawl.errors import UnknownFigureError
    from cardcrawl.simulate._plot import pyplot, report_figure

    run = simulate(HAYDES, "random", games=4, seed=1, workers=1)
    bare = attrs.evolve(run, results=tuple(attrs.evolve(r, figures=()) for r in run.results))
    fig = report_figure([bare])
    assert [ax.get_title() for ax in fig.axes] == ["outcomes by bot"]
    pyplot().close(fig)
    with pytest.raises(UnknownFigureError, match="rounds"):
        report_figure([bare], panels=[Panel("histogram", "rounds")])
