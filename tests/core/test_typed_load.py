"""``cardcrawl.load`` is typed as the game it returns for the built-in names, and as a
GameBase of unknown states and actions for any other name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SNIPPET = """
import cardcrawl
mapless = cardcrawl.load("mapless-house", max_turns=20)
reveal_type(mapless)
reveal_type(mapless.initial_state(seed=1))
haydes = cardcrawl.load("escape-from-haydes-tuybe")
reveal_type(haydes)
name: str = "mapless-house"
reveal_type(cardcrawl.load(name))
reveal_type(cardcrawl.load(name).initial_state(seed=1))
"""


@pytest.mark.slow
def test_load_is_typed_by_name(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    path = tmp_path / "snippet.py"
    path.write_text(SNIPPET)
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(path)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    revealed = [
        line.split("Revealed type is ")[1] for line in out.splitlines() if "Revealed" in line
    ]
    assert revealed == [
        '"cardcrawl.mapless._game.MaplessHouse"',
        '"cardcrawl.mapless._state.MaplessState"',
        '"cardcrawl.haydes._game.EscapeFromHaydes"',
        '"cardcrawl.core._engine.GameBase[Any, Any, Any]"',
        '"Any"',
    ], out
