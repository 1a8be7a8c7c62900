"""cardcrawl.tune: a bot's declared parameters raced on common seeds; parameter files."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl import rng_below, rng_derive
from cardcrawl.bots import Parameter, get_bot_spec, make_bot, register_bot
from cardcrawl.cli._main import main
from cardcrawl.errors import OptionsError
from cardcrawl.simulate import simulate
from cardcrawl.tune import Configured, tune


class Ender:
    """Ends its turn whenever it may, ``end_percent`` times in a hundred; else moves at
    random. Ending at once every turn never escapes, so the less it ends, the better."""

    parameters = (Parameter("end_percent", 90, low=0, high=100, integer=True),)
    reads_observation = False

    def __init__(self, game: Any, seed: int, seat: int = 0, end_percent: int = 90) -> None:
        self.rng = rng_derive(seed, seat)
        self.end_percent = end_percent

    def choose(self, game: Any, observation: Any, legal: list[Any]) -> Any:
        self.rng, k = rng_below(self.rng, 100)
        ends = [a for a in legal if game.format_action(a) == "end"]
        if ends and k < self.end_percent:
            return ends[0]
        others = [a for a in legal if a not in ends] or legal
        self.rng, i = rng_below(self.rng, len(others))
        return others[i]


register_bot("test-ender", Ender, games=["escape-from-haydes"], replace=True)
GAME = cardcrawl.load("escape-from-haydes", max_rounds=30)


def test_the_race_drops_a_bad_default() -> None:
    result = tune(GAME, "test-ender", candidates=4, games=30, held_out=120, seed=1)
    best = dict(result.best)["end_percent"]
    assert best < 90
    assert result.default == (("end_percent", 90),)
    assert len(result.race) == 4
    assert result.race[0].values == result.default
    # The winner played the most games; the held-out games are others.
    assert max(c.games for c in result.race) == next(
        c.games for c in result.race if c.values == result.best
    )
    assert result.held_out.games == 120
    assert result.held_out.difference.estimate > 0


def test_the_parameter_file_round_trip(tmp_path: Path) -> None:
    result = tune(GAME, "test-ender", candidates=2, games=4, held_out=4, seed=2)
    path = tmp_path / "ender.json"
    result.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["bot"] == "test-ender"
    assert data["parameters"] == dict(result.best)
    bot = make_bot(f"test-ender:{path}", GAME, seed=1)
    assert bot.end_percent == dict(result.best)["end_percent"]
    # The file's bot plays exactly as the bot given those values.
    tuned = simulate(GAME, f"test-ender:{path}", games=10, workers=1)
    given = simulate(GAME, Configured(Ender, result.best), games=10, workers=1)
    assert tuned.results == given.results


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("not json", "not JSON"),
        ('{"bot": "test-ender"}', "is not"),
        ('{"bot": "random", "parameters": {}}', "is for bot 'random'"),
        ('{"bot": "test-ender", "parameters": {"speed": 1}}', "no parameter 'speed'"),
        ('{"bot": "test-ender", "parameters": {"end_percent": 150}}', "from 0 to 100"),
        ('{"bot": "test-ender", "parameters": {"end_percent": 2.5}}', "whole number"),
    ],
)
def test_bad_parameter_files_are_refused(tmp_path: Path, content: str, match: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(OptionsError, match=match):
        get_bot_spec(f"test-ender:{path}", GAME)
    with pytest.raises(OptionsError, match="cannot read"):
        get_bot_spec(f"test-ender:{tmp_path / 'none.json'}", GAME)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(OptionsError, match="declares no parameters"):
        tune(GAME, "random")
    with pytest.raises(OptionsError, match="candidates"):
        tune(GAME, "test-ender", candidates=1)
    with pytest.raises(OptionsError, match="held_out"):
        tune(GAME, "test-ender", held_out=0)


def test_the_command(tmp_path: Path) -> None:
    path = tmp_path / "ender.json"
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["tune", "escape-from-haydes", "--bot", "test-ender", "--candidates", "2",
         "--games", "4", "--held-out", "4", "--output", str(path)],
        stdout=out, stderr=err,
    )  # fmt: skip
    assert code == 0, err.getvalue()
    assert f"use it as --bot test-ender:{path}" in out.getvalue()
    out = io.StringIO()
    code = main(
        ["simulate", "escape-from-haydes", "--bot", f"test-ender:{path}", "--games", "5",
         "--workers", "1", "--progress", "none"],
        stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    assert code == 0
    err = io.StringIO()
    assert main(["tune", "escape-from-haydes", "--bot", "random"], stderr=err) == 2
    assert "declares no parameters" in err.getvalue()
    err = io.StringIO()
    code = main(
        ["tune", "escape-from-haydes", "--bot", "heuristic", "--search", "speed",
         "--output", str(path)],
        stderr=err,
    )  # fmt: skip
    assert code == 2
    assert "no parameter 'speed'" in err.getvalue()


def test_a_parameter_file_nested_too_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"bot": "test-ender", "parameters": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(OptionsError, match="not JSON that can be read: RecursionError"):
        get_bot_spec(f"test-ender:{path}", GAME)
    path.write_text('{"bot": "test-ender", "parameters": {"end_percent": NaN}}')
    with pytest.raises(OptionsError, match="from 0 to 100"):
        get_bot_spec(f"test-ender:{path}", GAME)
