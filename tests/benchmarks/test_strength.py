"""benchmarks/strength.py: paired games of two bots. Only the shape of what it prints is
checked, and that a paired run is a pair: the baseline's games are the same whatever the
tested bot."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import strength  # noqa: E402


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    assert strength.main(list(argv)) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_a_paired_run_prints_both_rates_and_its_progress(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, err = _run(
        capsys, "escape-from-haydes", "-o", "players=2", "-o", "max_rounds=10",
        "--bot", "lookahead", "--games", "6", "--progress", "3",
    )  # fmt: skip
    assert "6 paired games, seed 1; lookahead (defaults) vs heuristic" in out
    assert re.search(r"seat 0 \(3 games\): heuristic .*, lookahead ", out)
    assert re.search(r"seat 1 \(3 games\)", out)
    assert re.search(r"difference: [+-]\d+\.\d\d points", out)
    progress = [line for line in err.splitlines() if line.startswith("... ")]
    assert [line.split(" games")[0] for line in progress] == ["... 3", "... 6"]


def test_the_baselines_games_do_not_depend_on_the_tested_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("escape-from-haydes-solo-timer", "--games", "8")
    first, _ = _run(capsys, *args, "--bot", "lookahead")
    second, _ = _run(capsys, *args, "--bot", "random")
    baseline = [line for line in first.splitlines() if line.strip().startswith("heuristic:")]
    assert baseline
    assert baseline == [
        line for line in second.splitlines() if line.strip().startswith("heuristic:")
    ]


def test_a_negative_progress_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        strength.main(["escape-from-haydes-solo-timer", "--progress", "-1"])
    assert exit_.value.code == 2
    assert "--progress is a number of games, 0 or more, not -1" in capsys.readouterr().err
