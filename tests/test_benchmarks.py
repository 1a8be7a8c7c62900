"""The performance suite (benchmarks/bench.py) runs and fills its whole table.

Only the shape and sign of the numbers are checked, never their size: timings depend on
the machine.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

import cardcrawl

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"


def _load() -> ModuleType:
    # Registered under a name, so that worker processes find its functions by reference.
    name = "cardcrawl_benchmarks"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCH)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


bench = _load()


def _number(cell: str) -> float:
    return float(cell.strip().removesuffix("x").replace(",", ""))


def test_quickest_run_fills_every_row_and_column(tmp_path: Path) -> None:
    out = tmp_path / "table.md"
    assert bench.main(["--scale", "0.0005", "--repeat", "1", "--markdown-out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header == ["game"] + [c.heading for c in bench.COLUMNS]
    rows = [line for line in lines[2:] if line.startswith("| ")]
    assert [r.strip("|").split("|")[0].strip() for r in rows] == [s.label for s in bench.SUBJECTS]
    for row in rows:
        cells = row.strip().strip("|").split("|")[1:]
        assert len(cells) == len(bench.COLUMNS)
        for cell in cells:
            value = _number(cell)
            assert math.isfinite(value)
            assert value > 0, row
    notes = "\n".join(lines[len(rows) + 2 :])
    assert "Load average" in notes
    assert "Machine ceiling" in notes
    assert notes.count("- ") >= len(bench.TARGETS)  # one line per target, met or not


def test_explicit_chance_play_resolves_every_chance_event() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
    states: list[object] = []
    decisions = bench.play(game, 3, explicit=True, keep=states)
    assert decisions > 0
    assert game.is_terminal(states[-1])
    assert any(s.explicit_chance for s in states)  # type: ignore[attr-defined]


def test_weights_are_proportional_to_the_probabilities() -> None:
    outcomes = [("a", Fraction(1, 6)), ("b", Fraction(1, 2)), ("c", Fraction(1, 3))]
    assert bench._weights(outcomes) == [1, 3, 2]


def test_update_docs_rewrites_only_between_the_markers(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    start, end = bench.START_MARKER, bench.END_MARKER
    page.write_text(f"intro\n{start}\nold table\n{end}\noutro\n", encoding="utf-8")
    bench.update_docs("| new |\n", page)
    assert page.read_text(encoding="utf-8") == f"intro\n{start}\n| new |\n{end}\noutro\n"
    page.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(ValueError, match="markers"):
        bench.update_docs("| new |\n", page)
