"""The ``simulate`` command, driven through ``main`` as the ``cardcrawl`` script runs it."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.cli import _simulate as _cli_simulate
from cardcrawl.cli._common import EXIT_INTERRUPTED
from cardcrawl.cli._main import main
from cardcrawl.simulate import simulate

USAGE = "usage: cardcrawl simulate "
ERROR = "cardcrawl simulate: error: "


def run_main(*argv: str) -> tuple[int, str, str]:
    """Run ``cardcrawl simulate ARGV`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(["simulate", *argv], stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def run(*argv: str) -> tuple[int, str, str]:
    """Run the command on one worker, without a progress display."""
    return run_main(*argv, "--workers", "1", "--progress", "none")


def error_line(err: str) -> str:
    """The error of a usage error: the line after the usage lines."""
    assert err.startswith(USAGE), err
    return next(line for line in err.splitlines() if line.startswith(ERROR))


def test_a_run_prints_the_header_and_the_summary_table() -> None:
    code, out, err = run("mapless-house", "--bot", "heuristic", "--games", "12", "--seed", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "mapless-house, 12 games per bot, seed 3, options max_turns=200"
    assert lines[1].split()[:2] == ["bot", "games"]
    assert "escaped % [95% CI]" in lines[1]
    assert lines[3].split()[:2] == ["heuristic", "12"]


def test_the_table_matches_the_library() -> None:
    code, out, _ = run("mapless-house", "--bot", "random", "--games", "10", "--seed", "2")
    assert code == 0
    summary = simulate(
        cardcrawl.load("mapless-house", max_turns=200), "random", games=10, seed=2, workers=1
    ).summary()
    assert summary.rate("consumed").format(percent=True, digits=1) in out
    assert summary.decisions.format() in out


def test_several_bots_are_compared_on_the_same_seeds(tmp_path: Path) -> None:
    path = tmp_path / "all.csv"
    code, out, err = run(
        "mapless-house", "--bot", "random", "--bot", "shortest-path", "--games", "6",
        "--out", str(path),
    )  # fmt: skip
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines()[3:5]] == ["random", "shortest-path"]
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [r["bots"] for r in rows] == ["random"] * 6 + ["shortest-path"] * 6
    assert [r["seed"] for r in rows[:6]] == [r["seed"] for r in rows[6:]]
    assert f"Wrote {path}." in out


def test_json_output_by_extension(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    code, _, _ = run("mapless-house", "--games", "4", "--out", str(path))
    assert code == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["bots"] == ["random"]
    assert data["summary"]["games"] == 4


def test_rates_by_a_figure() -> None:
    code, out, _ = run("mapless-house", "--bot", "heuristic", "--games", "8", "--by", "house_size")
    assert code == 0
    assert "escaped rate by house_size, heuristic:" in out


def test_options_and_limits() -> None:
    code, out, _ = run("mapless-house", "--games", "2", "--max-turns", "30")
    assert code == 0
    assert "options max_turns=30" in out.splitlines()[0]
    code, out, _ = run("mapless-house", "--games", "2", "-o", "max_turns=40")
    assert "options max_turns=40" in out.splitlines()[0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--bot", "nobody"), "no bot is named 'nobody'"),
        (("--bot", "0=heuristic", "--bot", "random"), "either bots for every seat"),
        (("--bot", "3=heuristic"), "seats of mapless-house are 0 to 0"),
        (("--games", "-1"), "--games"),
        (("--batch-size", "0"), "--batch-size"),
        (("--out", "results.txt"), ".csv or a .json"),
        (("--out", "/no/such/dir/results.csv"), "does not exist"),
        (("-o", "colour=red"), "has no option 'colour'"),
        (("-o", "max_turns"), "NAME=VALUE"),
        (("--max-rounds", "5"), "has no option 'max_rounds'"),
        (("--max-turns", "0"), "max_turns"),
        (("--by", "nothing"), "--by nothing"),
        (("--seed", "-3"), "--seed"),
        (("-o", "max_turns=" + "[" * 100_000), "JSON, but it nests lists or objects too deeply"),
        (("-o", "max_turns=" + "1" * 5_000), "JSON, but it holds an integer of more than 4300"),
        (("--import", "cc_no_such_module"), "No module named 'cc_no_such_module'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(argv: tuple[str, ...], message: str) -> None:
    code, out, err = run("mapless-house", "--games", "2", *argv)
    assert code == 2
    assert message in error_line(err)
    assert out == ""


def test_a_bot_on_one_seat() -> None:
    code, out, _ = run("mapless-house", "--bot", "0=shortest-path", "--games", "3")
    assert code == 0
    assert out.splitlines()[3].split()[0] == "shortest-path"


def test_plain_progress_reports_games_per_second() -> None:
    code, _, err = run_main(
        "mapless-house", "--games", "20", "--workers", "1", "--progress", "plain"
    )
    assert code == 0
    lines = err.splitlines()
    assert lines[-1].startswith("random: 20/20 games, ")
    assert lines[-1].endswith(" games/s")


def test_rich_progress_when_asked() -> None:
    pytest.importorskip("rich")
    code, _, err = run_main("mapless-house", "--games", "5", "--workers", "1", "--progress", "rich")
    assert code == 0
    assert "games/s" in err


def test_ctrl_c_summarizes_and_writes_the_games_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Any] = []

    def interrupt(self: Any, progress: Any) -> None:
        calls.append(progress)
        if progress.done >= 5:
            raise KeyboardInterrupt

    monkeypatch.setattr(_cli_simulate._PlainProgress, "__call__", interrupt)
    path = tmp_path / "partial.csv"
    code, out, err = run_main(
        "mapless-house", "--games", "50", "--workers", "1", "--batch-size", "5",
        "--progress", "plain", "--output", str(path),
    )  # fmt: skip
    assert code == EXIT_INTERRUPTED
    assert "Interrupted: 5 games of random finished." in err
    assert out.splitlines()[3].split()[:2] == ["random", "5"]
    assert len(list(csv.DictReader(path.open(encoding="utf-8")))) == 5


def test_plot_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "report.png"
    code, _, err = run("mapless-house", "--games", "6", "--plot", str(path))
    assert code == 0, err
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_a_plot_without_matplotlib_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = _cli_simulate.importlib.import_module

    def no_matplotlib(name: str, *args: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(_cli_simulate.importlib, "import_module", no_matplotlib)
    code, _, err = run("mapless-house", "--games", "2", "--plot", "report.png")
    assert code == 2
    assert "cardcrawl[plot]" in error_line(err)


# ---------------------------------------------------------- processes
def test_cardcrawl_simulate_subcommand(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    done = subprocess.run(
        [sys.executable, "-m", "cardcrawl", "simulate", "mapless-house", "--bot", "heuristic",
         "--games", "8", "--workers", "2", "--seed", "1", "--output", str(path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "heuristic" in done.stdout
    assert len(path.read_text(encoding="utf-8").splitlines()) == 9


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_process_pool_cleanly(tmp_path: Path) -> None:
    """A real SIGINT: workers ignore it, the parent stops, summarizes and writes."""
    path = tmp_path / "r.csv"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcrawl", "simulate", "mapless-house", "--bot", "heuristic",
         "--games", "100000", "--workers", "2", "--batch-size", "10", "--progress", "plain",
         "--out", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert proc.stdout is not None
    header = proc.stdout.readline()  # printed before the first game starts
    assert header.startswith("mapless-house, 100,000 games per bot")
    time.sleep(1.0)  # let a few batches finish (the result does not depend on how many)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Interrupted: " in err
    assert "Traceback" not in err
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) < 100_000
    table_row = next(line for line in out.splitlines() if line.startswith("heuristic"))
    assert int(table_row.split()[1].replace(",", "")) == len(rows)


def test_an_unknown_game_is_a_usage_error_suggesting_import() -> None:
    code, out, err = run("my-own-house", "--games", "2")
    assert (code, out) == (2, "")
    message = error_line(err)
    assert message.startswith(ERROR + "no game or variant is named 'my-own-house'")
    assert "--import MODULE" in message
