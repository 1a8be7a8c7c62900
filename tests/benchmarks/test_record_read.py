"""benchmarks/record_read.py: the record it reads is the 104-action match it names, and
the record reads back to itself. Only the shape of its figures is checked, never their
size."""

from __future__ import annotations

import sys
from pathlib import Path

import cardcrawl

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import record_read  # noqa: E402


def test_the_match_measured_is_the_one_named_and_reads_back() -> None:
    record = record_read.match_record()
    assert len(record.actions) == 104
    assert record.verified
    assert cardcrawl.Record.from_json(record.to_json()) == record


def test_every_figure_is_measured() -> None:
    found = record_read.measure(number=1, repeat=1)
    assert found["actions"] == 104
    assert found["from_json_ms"] > 0
    assert found["to_json_ms"] > 0
