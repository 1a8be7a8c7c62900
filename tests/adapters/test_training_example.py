"""examples/train_haydes_policy.py: it starts, trains a few updates on the native vector
environment, writes its learning curve and plays fresh seeds; and the features it reads
from the compact rows are the game's own odds. The training itself is an example, left
out of the suite."""

from __future__ import annotations

import csv
import runpy
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from adapters.conftest import require

np = require("numpy")
require("gymnasium")

import cardcrawl  # noqa: E402
from cardcrawl.encoding import encoding_for  # noqa: E402
from cardcrawl.haydes import Guess, Move  # noqa: E402
from cardcrawl.simulate import simulate  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_haydes_policy.py"


def test_the_example_trains_a_few_updates_and_reports(tmp_path: Path) -> None:
    curve = tmp_path / "curve.csv"
    args = ["--envs", "8", "--updates", "3", "--episodes", "8", "--every", "1"]
    args += ["--eval-games", "6", "--eval-seed", "5", "--curve", str(curve)]
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    with curve.open(encoding="utf-8") as handle:
        points = list(csv.DictReader(handle))
    assert [int(p["update"]) for p in points] == [1, 2, 3]
    assert all(int(p["episodes"]) >= 8 for p in points)
    assert all(0.0 <= float(p["escape_rate"]) <= 1.0 for p in points)
    steps = [int(p["env_steps"]) for p in points]
    assert steps == sorted(steps)
    assert steps[0] > 0
    # The bots' lines are simulate's own results on the same seeds.
    game = cardcrawl.load("escape-from-haydes-solo-timer")
    for bot in ("random", "heuristic"):
        games = simulate(game, bot, games=6, seed=5, workers=1).results
        rate = sum(g.outcome == "escaped" for g in games) / 6
        assert f"  {bot:<15} {rate:.3f} [" in result.stdout
    assert "  trained policy  " in result.stdout


def test_the_move_features_are_the_games_odds() -> None:
    """Read from the compact row, the share of higher and lower cards under an aimed-at
    cell is the chance the game gives the turned card (H-6, H-7)."""
    example: dict[str, Any] = runpy.run_path(str(SCRIPT), run_name="example")
    game = cardcrawl.load("escape-from-haydes-solo-timer")
    features = example["Features"](game)
    compact = encoding_for(game).compact()
    state = game.initial_state(3, explicit_chance=True)
    state = game.step(state, game.parse_action("higher 1,0"))
    state = game.step(state, game.parse_action("reveal 5S"))  # correct: 5 over 0
    row = np.frombuffer(compact.encode(game.observe(state, 0)), dtype=np.uint8)
    encoding = encoding_for(game)
    phi = features(row[None], np.array(encoding.action_mask(state))[None])[0]
    checked = 0
    for action in game.legal_actions(state):
        if not isinstance(action, Move):
            continue
        odds = game.chance_outcomes(game.step(state, action))
        total = sum(Fraction(w) for _, w in odds)
        right = sum(
            Fraction(w)
            for outcome, w in odds
            if game.guess_is_correct(action.guess, 5, game.card_value(outcome.card))
        )
        feature = phi[encoding.encode_action(action), 0]
        assert abs(float(right / total) - feature) < 1e-9, action
        checked += action.guess is Guess.LOWER
    assert checked >= 2
