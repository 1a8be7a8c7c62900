"""benchmarks/fusion_ceiling.py: what it counts, the layers it adds and takes away, the
ceiling it works out, its command line."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl.haydes._figures import HaydesFigures
from cardcrawl.haydes._kernel import rollout_kernel
from cardcrawl.haydes._play import Rules

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import fusion_ceiling  # noqa: E402


def test_its_examples_hold() -> None:
    failed, tried = doctest.testmod(fusion_ceiling)
    assert tried >= 5
    assert failed == 0


class _Rules:
    def __init__(self) -> None:
        self.table = (1, 2, 3)

    def play(self, k: int) -> int:
        return self.value(k) + self.table[0]

    def value(self, k: int) -> int:
        return self.table[k]


def _hook(rules: _Rules) -> int:
    return rules.value(0)


def test_a_call_from_rule_to_rule_is_removable_and_one_from_a_hook_is_kept() -> None:
    rules = _Rules()
    tracer = fusion_ceiling.Tracer(lambda module: module == __name__)
    hook_only = fusion_ceiling.Tracer(lambda module: module == "elsewhere")
    assert tracer.run(lambda: rules.play(2)) == 4
    # play from the lambda (a rule frame here), value from play: both removable.
    assert tracer.counts.removable[f"{__name__}._Rules.play"] == 1
    assert tracer.counts.removable[f"{__name__}._Rules.value"] == 1
    assert tracer.counts.self_reads == 2
    assert hook_only.run(lambda: _hook(rules)) == 1
    assert not hook_only.counts.removable
    assert hook_only.counts.kept_calls == 3  # the lambda, the hook, value
    assert hook_only.counts.self_reads == 0  # reads outside the rule modules
    assert hook_only.counts.instructions > 0


def test_the_layers_add_a_call_each_and_go_away_again() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
    kernel = rollout_kernel(game)
    before = [kernel.summary(seed, 10**6, HaydesFigures) for seed in (1, 2)]
    play, end_turn = Rules.play, Rules._end_turn
    callees = ["cardcrawl.haydes._play.Rules.play", "cardcrawl.haydes._play.Rules._end_turn"]
    patches = fusion_ceiling.layered(callees)
    try:
        assert Rules.play is not play
        assert Rules._end_turn is not end_turn
        tracer = fusion_ceiling.Tracer(lambda module: False)
        layered = tracer.run(lambda: [kernel.summary(s, 10**6, HaydesFigures) for s in (1, 2)])
    finally:
        fusion_ceiling.unlayered(patches)
    assert Rules.play is play
    assert Rules._end_turn is end_turn
    assert layered == before
    decisions = sum(played[1] for played in before if played is not None)
    # A layer around play: one call more per decision; and more for the turns ended.
    assert tracer.counts.layers > decisions


def test_a_module_function_is_layered_wherever_a_module_holds_it() -> None:
    from cardcrawl.core import _random
    from cardcrawl.haydes import _kernel, _play

    below = _random._below
    patches = fusion_ceiling.layered(["cardcrawl.core._random._below"])
    try:
        assert _play._below is not below
        assert _kernel._below is _play._below
        assert _play._below(12345, 52) == below(12345, 52)
    finally:
        fusion_ceiling.unlayered(patches)
    assert _random._below is below
    assert _play._below is below
    assert _kernel._below is below


def _row(**changes: object) -> fusion_ceiling.Row:
    fields = {
        "label": "a game", "floor": 0.9, "plain": 100e-6, "kernel": 200e-6,
        "layered": 250e-6, "decisions": 50.0, "calls": 10.0, "layer_calls": 10.0,
        "reads": 20.0, "instructions": 500.0, "top": (("m.Rules.play", 1.0),),
    }  # fmt: skip
    fields.update(changes)
    return fusion_ceiling.Row(**fields)  # type: ignore[arg-type]


def test_the_ceiling_is_the_kernel_less_its_calls_and_reads() -> None:
    unit = fusion_ceiling.Units(self_read=5e-9)
    row = _row()
    # A layer adds 50 µs a game over 50 decisions of 10 calls each: 0.1 µs a call.
    assert row.per_call() == pytest.approx(0.1e-6)
    assert row.ceiling(unit) == pytest.approx(4e-6 - 10 * 0.1e-6 - 20 * 5e-9)
    now, fused = row.ratios(unit)
    assert now == pytest.approx(0.5)
    assert fused == pytest.approx(100 / (50 * (4 - 1 - 0.1)))
    # Fewer calls through the layers than removed: each costs more.
    assert _row(layer_calls=5.0).per_call() == pytest.approx(0.2e-6)
    # A layer that measured faster than the kernel saves nothing.
    assert _row(layered=150e-6).ceiling(unit) == pytest.approx(4e-6 - 20 * 5e-9)


def test_the_report_has_a_row_per_game_in_each_table() -> None:
    lines = fusion_ceiling.report([_row()], fusion_ceiling.Units(self_read=5e-9))
    rows = [line for line in lines if line.startswith("| a game |")]
    assert [len(row.strip("|").split("|")) for row in rows] == [10, 3]
    assert "0.50x" in rows[0]
    assert "0.90x" in rows[0]


@pytest.mark.parametrize("flag", ["--games", "--traced", "--repeat"])
def test_a_count_below_one_is_a_usage_error(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        fusion_ceiling.main([flag, "0"])
    assert exit_.value.code == 2
    assert "at least 1" in capsys.readouterr().err


@pytest.mark.slow
def test_a_quick_run_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert fusion_ceiling.main(["--games", "3", "--traced", "2", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for subject in fusion_ceiling.SUBJECTS:
        rows = [line for line in out.splitlines() if line.startswith(f"| {subject.label} |")]
        assert [len(row.strip("|").split("|")) for row in rows] == [10, 3]
