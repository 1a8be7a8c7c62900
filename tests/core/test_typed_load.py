"""``cardcrawl.load`` is typed as the game it returns for the built-in names, and as a
GameBase of unknown states and actions for any other name; a ``Match`` of a loaded game
is typed by that game's states."""

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
cardcrawl.no_such_name
"""


def revealed_types(tmp_path: Path, snippet: str) -> tuple[list[str], str]:
    """What ``mypy --strict`` reveals in ``snippet``, in order, and its whole output."""
    pytest.importorskip("mypy")
    path = tmp_path / "snippet.py"
    path.write_text(snippet)
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(path)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    revealed = [
        line.split("Revealed type is ")[1] for line in out.splitlines() if "Revealed" in line
    ]
    return revealed, out


@pytest.mark.slow
def test_load_is_typed_by_name(tmp_path: Path) -> None:
    revealed, out = revealed_types(tmp_path, SNIPPET)
    assert revealed == [
        '"cardcrawl.mapless._game.MaplessHouse"',
        '"cardcrawl.mapless._state.MaplessState"',
        '"cardcrawl.haydes._game.EscapeFromHaydes"',
        '"cardcrawl.core._engine.GameBase[cardcrawl.core._protocol.GameState, Any, Any]"',
        '"cardcrawl.core._protocol.GameState"',
    ], out
    # The old names' __getattr__ is hidden from mypy: a name the package lacks is an error.
    assert 'Module has no attribute "no_such_name"' in out, out


MATCH_SNIPPET = """
import cardcrawl
game = cardcrawl.load("mapless-house")
match = cardcrawl.Match.start(game, seed=1)
reveal_type(match)
reveal_type(match.state)
reveal_type(match.play("place 1,0"))
reveal_type(match.history[-1].state)
reveal_type(match.states)
reveal_type(cardcrawl.Match.start("mapless-house", seed=1))
record = cardcrawl.Record.of(game, seed=1, actions=["place 1,0"])
reveal_type(cardcrawl.Match.from_record(record))
reveal_type(record.replay())
match.state.no_such_field
"""


@pytest.mark.slow
def test_a_match_is_typed_by_its_games_states(tmp_path: Path) -> None:
    revealed, out = revealed_types(tmp_path, MATCH_SNIPPET)
    state = '"cardcrawl.mapless._state.MaplessState"'
    assert revealed == [
        '"cardcrawl.play._match.Match[cardcrawl.mapless._state.MaplessState]"',
        state,
        state,
        state,
        '"tuple[cardcrawl.mapless._state.MaplessState, ...]"',
        '"cardcrawl.play._match.Match[cardcrawl.core._protocol.GameState]"',
        '"cardcrawl.play._match.Match[cardcrawl.core._protocol.GameState]"',
        '"cardcrawl.core._protocol.GameState"',
    ], out
    # A field the state does not have is caught, as it was not when the state was Any.
    assert '"MaplessState" has no attribute "no_such_field"' in out, out
