"""Golden transcripts of The Mapless House: seeded games compared line by line.

Each game in ``regen_golden.GOLDENS`` is replayed and written out again; the text must
equal its file in ``tests/mapless/golden/``. A failure shows the diff. If the change of
behaviour is intended, run ``python tests/mapless/regen_golden.py`` and review
``git diff tests/mapless/golden/``.
"""

from __future__ import annotations

import difflib

import pytest
from regen_golden import GOLDENS, path_of, transcript

import cardcrawl
from cardcrawl import Record


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_transcript(name: str) -> None:
    path = path_of(name)
    assert path.exists(), f"{path} is missing: run python tests/mapless/regen_golden.py"
    expected = path.read_text(encoding="utf-8")
    actual = transcript(GOLDENS[name])
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=f"{path.name} (golden)",
                tofile=f"{path.name} (now)",
            )
        )
        pytest.fail(
            f"{path.name} no longer matches the game; if intended, run "
            f"python tests/mapless/regen_golden.py and review the diff:\n{diff}",
            pytrace=False,
        )


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_actions_replay_as_a_record(name: str) -> None:
    """The actions of a golden file, read back from the file, replay as a Record to the
    same final render: the file alone is a faithful account of the game."""
    golden = GOLDENS[name]
    lines = path_of(name).read_text(encoding="utf-8").splitlines()
    start = lines.index("start")
    end = lines.index("== final state ==")
    actions = [line for line in lines[start + 1 : end] if line.strip() and not line.startswith(" ")]
    game = cardcrawl.load("mapless-house", **golden.options)
    record = Record.of(
        game,
        golden.seed,
        [game.parse_action(a) for a in actions],
        explicit_chance=golden.explicit_chance,
    )
    final = record.replay()
    assert game.is_terminal(final)
    render = "\n".join(lines[end + 1 : -1])
    assert game.render(final) == render
