"""The ``compare`` command, driven through ``main``."""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import pytest

from cardcrawl.cli._main import main

STOCK = "escape-from-haydes"
SHORT = "escape-from-haydes(max_rounds=3)"


def run_main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["compare", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_compare_prints_a_table_and_a_verdict_per_measure() -> None:
    code, out, _ = run_main(STOCK, SHORT, "--games", "40", "--workers", "1", "--progress", "none")
    assert code == 0
    assert f"A: {STOCK}\nB: {SHORT}, 40 games on the same seeds, bots random" in out
    verdicts = out.split("Verdicts, B against A:\n")[1].split("\n\n")[0].splitlines()
    assert "  rounds: " in "\n".join(verdicts)
    assert all(line.endswith(("different", "at 40 games")) for line in verdicts)
    assert any("rounds" in line and line.endswith("different") for line in verdicts)


def test_common_options_go_to_every_game_and_a_game_s_own_win() -> None:
    code, out, _ = run_main(
        STOCK, SHORT, "--max-rounds", "20", "--games", "10", "--workers", "1", "--progress", "none"
    )
    assert code == 0
    assert "turns          " not in out or "rounds" in out
    code, out, _ = run_main(
        STOCK, STOCK, "--max-rounds", "20", "--games", "10", "--workers", "1", "--progress", "none"
    )
    assert code == 0
    assert "rounds: +0.000 [+0.000, +0.000]: not shown to differ at 10 games" in out


def test_output_and_until(tmp_path: Path) -> None:
    path = tmp_path / "found.json"
    code, out, _ = run_main(
        STOCK,
        "escape-from-haydes-tuybe",
        "--games",
        "20",
        "--until",
        "guesses=1e-9",
        "--max-games",
        "60",
        "--workers",
        "1",
        "--progress",
        "none",
        "--output",
        str(path),
    )
    assert code == 0, out
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["games"] == 60
    assert [a["label"] for a in data["arms"]] == [STOCK, "escape-from-haydes-tuybe"]


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib")
def test_plot(tmp_path: Path) -> None:
    path = tmp_path / "found.png"
    code, _out, _ = run_main(
        STOCK, SHORT, "--games", "20", "--workers", "1", "--progress", "none", "--plot", str(path)
    )
    assert code == 0
    assert path.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([STOCK], "two games or more"),
        ([STOCK, "mapless-house"], "one game and its variants"),
        ([STOCK, "escape-from-haydes(players=2)"], "seats"),
        ([STOCK, "nowhere-house"], "nowhere-house"),
        ([STOCK, "escape-from-haydes(max_rounds=3"], "not a game to compare"),
        ([STOCK, SHORT, "--games", "0"], "--games"),
        ([STOCK, SHORT, "--until", "rounds"], "KEY=WIDTH"),
        ([STOCK, SHORT, "--until", "house_size=1"], "no such measure"),
        ([STOCK, SHORT, "--bot", "random", "--bot", "heuristic"], "one line-up"),
        ([STOCK, SHORT, "--bot", "nobody"], "nobody"),
        ([STOCK, SHORT, "--output", "x.csv"], ".json"),
        ([STOCK, SHORT, "-o", "colour=red"], "colour"),
    ],
)
def test_bad_arguments_are_usage_errors(argv: list[str], message: str) -> None:
    code, out, err = run_main(*argv, "--workers", "1", "--progress", "none")
    assert code == 2, out + err
    assert message in err
    assert "usage: cardcrawl compare" in err
