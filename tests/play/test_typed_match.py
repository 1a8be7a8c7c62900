"""A match is typed by its game's states: ``Match.start(game)`` of a loaded game gives a
``Match`` whose ``state``, ``states``, ``play`` and ``history`` a type checker knows as
that game's states; a match started from a name is a ``Match[Any]``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl.mapless import MaplessState

SNIPPET = """
import cardcrawl
game = cardcrawl.load("mapless-house")
match = cardcrawl.Match.start(game, seed=1)
reveal_type(match)
reveal_type(match.state)
reveal_type(match.play("place 1,0"))
reveal_type(match.history[-1].state)
reveal_type(match.states)
reveal_type(cardcrawl.Match.start("mapless-house", seed=1))
match.state.no_such_field
"""


@pytest.mark.slow
def test_a_match_is_typed_by_its_games_states(tmp_path: Path) -> None:
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
    state = '"cardcrawl.mapless._state.MaplessState"'
    assert revealed == [
        '"cardcrawl.play._match.Match[cardcrawl.mapless._state.MaplessState]"',
        state,
        state,
        state,
        '"tuple[cardcrawl.mapless._state.MaplessState, ...]"',
        '"cardcrawl.play._match.Match[Any]"',
    ], out
    # A field the state does not have is caught, as it was not when the state was Any.
    assert '"MaplessState" has no attribute "no_such_field"' in out, out


def test_the_typed_match_plays_as_before() -> None:
    match = cardcrawl.Match.start(cardcrawl.load("mapless-house"), seed=1)
    after = match.play("place 1,0")
    assert isinstance(after, MaplessState)
    assert match.state is after is match.history[-1].state
    assert match.states == (match.initial_state, after)
