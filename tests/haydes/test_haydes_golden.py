"""Golden transcripts of Escape from Haydes: seeded games written out action by action.

Any change of behaviour (rules, chance, narration or rendering) shows up as a diff. When
a change is intended, regenerate the files and review the diff:

    CARDCRAWL_REGEN_GOLDEN=1 python -m pytest tests/haydes/test_haydes_golden.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl import rng_below, rng_derive

GOLDEN = Path(__file__).parent / "golden"

#: name -> (options, seed)
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "haydes_solo": ({"max_rounds": 30}, 7),
    "haydes_four_players": ({"players": 4, "max_rounds": 6, "tuybe": True}, 3),
    "haydes_denizens": ({"players": 2, "max_rounds": 12, "creatures": "denizens"}, 21),
}


def transcript(options: dict[str, Any], seed: int) -> str:
    """One seeded game with a seeded random policy, as text: each decision and its events."""
    game = cardcrawl.load("escape-from-haydes", **options)
    state = game.initial_state(seed)
    lines = [
        f"# escape-from-haydes {options} seed {seed} (rules {game.rules_version})",
        game.render(state),
        *(f"  {e}" for e in state.events),
    ]
    policy = rng_derive(seed, 0x60)
    while not game.is_terminal(state):
        actions = game.legal_actions(state)
        policy, i = rng_below(policy, len(actions))
        player = game.current_player(state)
        state = game.step(state, actions[i])
        lines.append(f"> player {player}: {game.format_action(actions[i])}")
        lines.extend(f"  {e}" for e in state.events)
    outcome = game.outcome(state)
    assert outcome is not None
    lines.append(game.render(state))
    lines.append(f"# outcome: {outcome.label}, returns {outcome.returns}")
    return "\n".join(lines) + "\n"


def regenerate() -> None:
    """Rewrite every golden file from the current rules."""
    GOLDEN.mkdir(exist_ok=True)
    for name, (options, seed) in GAMES.items():
        (GOLDEN / f"{name}.txt").write_text(transcript(options, seed), encoding="utf-8")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    if os.environ.get("CARDCRAWL_REGEN_GOLDEN") == "1":
        regenerate()
    options, seed = GAMES[name]
    expected = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    actual = transcript(options, seed)
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                f"golden/{name}.txt",
                "now",
                n=2,
            )
        )
        pytest.fail(f"transcript {name} changed (CARDCRAWL_REGEN_GOLDEN=1 to accept):\n{diff}")
