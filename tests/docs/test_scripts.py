"""The study scripts in scripts/ run and print what the library computes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_haydes_seats_prints_each_seats_wins(capsys: pytest.CaptureFixture[str]) -> None:
    _load("haydes_seats").main(["--games", "6", "--players", "2", "--workers", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 2 |")]
    assert [row.split("|")[2].strip() for row in rows] == [
        "`heuristic` in seat 0",
        "`heuristic` in seat 1",
        "`heuristic` in every seat",
    ]
    # The first line's seat-0 figure is the share of games the heuristic won there.
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=30)
    result = simulate(game, ["heuristic", "random"], games=3, seed=1, workers=1)
    wins = sum(0 in r.winners for r in result.results)
    shown = float(re.match(r"\s*([\d.]+)", rows[0].split("|")[4]).group(1))  # type: ignore[union-attr]
    assert shown == pytest.approx(100 * wins / 3, abs=0.05)
