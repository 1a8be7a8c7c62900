"""The ``tournament`` command, driven through ``main`` as the ``cardcrawl`` script runs it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.cli._main import main
from cardcrawl.simulate._table import TABLE_WIDTH
from cardcrawl.tournament import tournament

USAGE = "usage: cardcrawl tournament "
ERROR = "cardcrawl tournament: error: "


def run(*argv: str, workers: str = "1") -> tuple[int, str, str]:
    """Run ``cardcrawl tournament ARGV`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    argv = ("tournament", *argv, "--workers", workers, "--progress", "none")
    code = main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_a_tournament_prints_standings_cross_table_and_outcomes() -> None:
    code, out, err = run("mapless-house", "--bot", "random", "--bot", "heuristic",
                         "--games", "8", "--seed", "2")  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "mapless-house, round-robin of 2 bots, 2 lineups of 8 deals, seed 2"
    assert lines[1] == "options max_turns=200"
    assert max(len(line) for line in lines) <= TABLE_WIDTH
    expected = tournament(cardcrawl.load("mapless-house", max_turns=200),
                          ["random", "heuristic"], games=8, seed=2, workers=1)  # fmt: skip
    assert expected.format() in out
    head = next(line for line in lines if "% [95% CI]" in line)
    assert head.index("escaped %") < head.index("consumed %") < head.index("lost %")


def test_a_many_seat_game_shows_the_win_share_by_seat(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    code, out, err = run("escape-from-haydes", "--players", "3", "--max-rounds", "6",
                         "--bot", "heuristic", "--bot", "random", "--games", "2",
                         "--output", str(path))  # fmt: skip
    assert code == 0, err
    assert "3 bots" not in out
    assert "6 lineups of 2 deals" in out.splitlines()[0]
    assert "seat 2 [95% CI]" in out
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 12
    assert {r["bots"] for r in rows} >= {"heuristic,random,random", "random,random,heuristic"}
    assert f"Wrote {path}." in out


def test_same_results_with_any_batch_size(tmp_path: Path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    args = ("escape-from-haydes-solo-timer", "--bot", "heuristic", "--bot", "random",
            "--games", "6", "--kind", "gauntlet")  # fmt: skip
    assert run(*args, "--output", str(one))[0] == 0
    assert run(*args, "--output", str(two), "--batch-size", "1")[0] == 0
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (one, two))
    for data in (a, b):
        del data["elapsed"]
    assert a == b
    assert a["kind"] == "gauntlet"


def test_the_plot_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "t.png"
    code, _, err = run("mapless-house", "--bot", "random", "--bot", "shortest-path",
                       "--games", "3", "--plot", str(path))  # fmt: skip
    assert code == 0, err
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--bot", "heuristic"), "two bots or more"),
        ((), "two bots or more"),
        (("--bot", "heuristic", "--bot", "nobody"), "--bot nobody: no bot is named 'nobody'"),
        (("--bot", "heuristic", "--bot", "heuristic"), "given twice: heuristic"),
        (("--bot", "heuristic", "--bot", "random", "--games", "0"), "--games is a number >= 1"),
        (("--bot", "heuristic", "--bot", "random", "--kind", "swiss"), "invalid choice"),
        (("--bot", "heuristic", "--bot", "random", "--out", "x.txt"), ".csv or a .json"),
        (("--bot", "heuristic", "--bot", "random", "--seed", "-1"), "--seed"),
        (("--bot", "heuristic", "--bot", "random", "--max-rounds", "3"), "max_rounds"),
    ],
)
def test_bad_arguments_are_usage_errors(argv: tuple[str, ...], message: str) -> None:
    code, out, err = run("mapless-house", *argv)
    assert code == 2
    assert out == ""
    assert err.startswith(USAGE), err
    assert message in err


def test_a_bot_that_does_not_play_the_game_is_a_usage_error() -> None:
    code, _, err = run("escape-from-haydes", "--bot", "heuristic", "--bot", "shortest-path")
    assert code == 2
    line = next(line for line in err.splitlines() if line.startswith(ERROR))
    assert "--bot shortest-path" in line
    assert "escape-from-haydes" in line


def test_the_command_is_listed_in_the_help() -> None:
    out = io.StringIO()
    assert main(["--help"], stdout=out) == 0
    assert "tournament" in out.getvalue()


def test_ctrl_c_rates_what_was_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardcrawl.cli import _tournament

    real = _tournament.tournament

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        def stop(progress: Any) -> None:
            if progress.done >= 2:
                raise KeyboardInterrupt

        return real(*args, **{**kwargs, "progress": stop, "batch_size": 1})

    monkeypatch.setattr(_tournament, "tournament", interrupted)
    code, out, err = run("mapless-house", "--bot", "random", "--bot", "shortest-path",
                         "--games", "5")  # fmt: skip
    assert code == 130
    assert "Interrupted" in err
    assert "rank  bot" in out
