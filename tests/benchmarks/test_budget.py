"""benchmarks/budget.py: the draws it counts, the budgets it works out, its command line."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl import rng_below, rng_derive, rng_next
from cardcrawl.haydes import Revealed, Rolled

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import budget  # noqa: E402


@pytest.mark.parametrize("count", [0, 1, 2, 17, 1000])
def test_outputs_between_counts_every_output(count: int) -> None:
    state = start = 0xDEADBEEF
    for _ in range(count):
        state, _ = rng_next(state)
    assert budget.outputs_between(start, state) == count


def test_outputs_between_counts_a_rejected_output_too() -> None:
    # Just over half the 64-bit outputs are rejected below this n, so some draws take
    # two outputs or more; the count is of outputs, not of draws.
    n = (1 << 63) + 1
    state = start = 5
    outputs = 0
    for _ in range(200):
        before = state
        state, _ = rng_below(state, n)
        outputs += budget.outputs_between(before, state)
    assert outputs > 200
    assert budget.outputs_between(start, state) == outputs


def test_the_kernel_counts_one_output_per_card_turned_and_per_roll() -> None:
    # The same game the public way (initial_state, legal_actions, each seat's RandomBot
    # on rng_derive(seed, seat), step): in Escape from Haydes the game's generator draws
    # once per card turned and once per roll, so the events say how many outputs to find.
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
    decisions, draws = budget._kernel_runner(game)
    for seed in (3, 4):
        state = start = game.initial_state(seed)
        bots = [rng_derive(seed, seat) for seat in range(2)]
        turned = played = 0
        while not game.is_terminal(state):
            seat = game.current_player(state)
            legal = game.legal_actions(state)
            bots[seat], k = rng_below(bots[seat], len(legal))
            state = game.step(state, legal[k])
            played += 1
            turned += sum(isinstance(e, (Revealed, Rolled)) for e in state.events)
        assert turned > 0
        assert budget.outputs_between(start.rng, state.rng) == turned
        assert draws(seed) == turned
        assert decisions(seed) == played


def _row(**changes: object) -> budget.Row:
    fields = {
        "label": "a game", "goal": 0.8, "plain": 100e-6, "plain_deal": 20e-6, "kernel": 120e-6,
        "api": 500e-6, "decisions": 50.0, "plain_decisions": 40.0, "game_draws": 1.0,
    }  # fmt: skip
    fields.update(changes)
    return budget.Row(**fields)  # type: ignore[arg-type]


def _cells(lines: list[str], table: int) -> list[float]:
    rows = [line for line in lines if line.startswith("| a game")]
    return [
        float(cell.split()[0].replace(",", ""))
        for cell in rows[table].strip("|").split("|")[1:]
        if cell.strip() != "-"
    ]


def test_the_budgets_are_worked_out_from_the_measures() -> None:
    unit = budget.UnitCosts(splitmix=0.25e-6, choice=0.1e-6, frame=0.2e-6)
    lines = budget.report([_row()], unit)
    draws, other, plain, allows, beyond, goal = _cells(lines, 1)
    assert draws == pytest.approx(2 * 0.25, abs=0.005)  # a bot's draw and the game's
    assert other == pytest.approx(120 / 50 - 0.5, abs=0.005)
    assert plain == pytest.approx(80 / 40 - 0.1, abs=0.005)
    assert allows == pytest.approx(100 / 50 - 0.5, abs=0.005)
    assert beyond == pytest.approx((500 - 120) / 50 + 0.15, abs=0.005)
    assert goal == pytest.approx((100 / 0.8 - 120) / 50 + 0.15, abs=0.005)


def test_a_plain_simulator_without_a_deal_leaves_its_cells_empty() -> None:
    unit = budget.UnitCosts(splitmix=0.25e-6, choice=0.1e-6, frame=0.2e-6)
    lines = budget.report([_row(plain_deal=None)], unit)
    assert len(_cells(lines, 0)) == 5
    assert len(_cells(lines, 1)) == 5


def test_a_compiled_kernel_is_not_split_into_draws_and_the_rest() -> None:
    unit = budget.UnitCosts(splitmix=0.25e-6, choice=0.1e-6, frame=0.2e-6)
    lines = budget.report([_row()], unit, pure=False)
    plain, beyond, goal = _cells(lines, 1)
    assert plain == pytest.approx(80 / 40 - 0.1, abs=0.005)
    assert beyond == pytest.approx((500 - 120) / 50 - 0.1, abs=0.005)
    assert goal == pytest.approx((100 / 0.8 - 120) / 50 - 0.1, abs=0.005)


@pytest.mark.slow
def test_a_quick_run_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert budget.main(["--games", "3", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for subject in budget.SUBJECTS:
        rows = [line for line in out.splitlines() if line.startswith(f"| {subject.label} |")]
        assert [len(row.strip("|").split("|")) for row in rows] == [7, 7]
        for row in rows:
            for cell in row.strip("|").split("|")[1:]:
                number = cell.split()[0].replace(",", "")
                assert number == "-" or (math.isfinite(float(number)) and float(number) >= -1e3)
        # Each row is held to its own goal, the one of the build that runs it.
        build = "compiled" if cardcrawl.compiled_modules() else "pure"
        assert rows[1].endswith(f"(goal {budget.API_GOALS[build][subject.label]}x) |")


def test_every_row_has_a_goal_in_each_build_and_compiled_asks_more() -> None:
    for subject in budget.SUBJECTS:
        pure = budget.API_GOALS["pure"][subject.label]
        compiled = budget.API_GOALS["compiled"][subject.label]
        assert 0 < pure < compiled


@pytest.mark.parametrize("flag", ["--games", "--repeat"])
def test_a_count_below_one_is_a_usage_error(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        budget.main([flag, "0"])
    assert exit_.value.code == 2
    assert "at least 1" in capsys.readouterr().err
