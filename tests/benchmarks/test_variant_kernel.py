"""benchmarks/variant_kernel.py: the Haydes kernel against the public path, for the stock
rules and two variants made of hooks. Only the shape of its table and the agreement of
the two paths are checked, never the timings."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import variant_kernel  # noqa: E402


def test_every_row_is_measured_and_both_paths_agree(capsys: pytest.CaptureFixture[str]) -> None:
    assert variant_kernel.main(["--games", "8", "--repeat", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")][2:]
    assert len(rows) == 2 * len(variant_kernel.GAMES)
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert float(cells[2].replace(",", "")) > 0
        assert float(cells[3].replace(",", "")) > 0
        assert cells[-1] == "yes"


def test_the_variants_play_other_games_than_the_stock_rules() -> None:
    games = 12
    stock, equal, backwards = (
        variant_kernel._results(
            cls(
                variant_kernel.cardcrawl.load(
                    "escape-from-haydes", players=4, max_rounds=50
                ).options
            ),
            games,
            True,
        )
        for _, cls in variant_kernel.GAMES
    )
    assert equal != stock
    assert backwards != stock


def test_a_bad_count_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        variant_kernel.main(["--games", "0"])
    assert exit_.value.code == 2
    assert "--games and --repeat must be >= 1" in capsys.readouterr().err
