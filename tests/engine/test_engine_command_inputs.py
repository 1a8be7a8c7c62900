"""``cardcrawl engine`` refuses what it cannot answer in JSON, and an unknown bot, with a
message and a non-zero exit code."""

from __future__ import annotations

import io
import json

import pytest

import cardcrawl
from cardcrawl.bots._engine_bot import decide_message, hello_message
from cardcrawl.cli import main


def _lines(decide_id: str) -> str:
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(seed=2)
    decide = decide_message(game, game.observe(state, 0), game.legal_actions(state), seat=0)
    decide.pop("id", None)
    body = json.dumps(decide)[1:]
    return json.dumps(hello_message(game, 0, seed=2)) + "\n" + f'{{"id": {decide_id}, {body}\n'


@pytest.mark.parametrize("decide_id", ["1e400", "-1e400", "NaN", "1.5", '"7"', "true", "-1"])
def test_an_id_that_cannot_be_echoed_as_json_is_refused(decide_id: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["engine", "--bot", "random"], stdin=io.StringIO(_lines(decide_id)), stdout=out, stderr=err
    )
    assert code == 1
    assert "id is an integer" in err.getvalue()
    # Every line written is JSON, and no action was sent.
    assert [json.loads(line)["type"] for line in out.getvalue().splitlines()] == ["ready"]


def test_a_good_id_is_echoed() -> None:
    out = io.StringIO()
    assert main(["engine", "--bot", "random"], stdin=io.StringIO(_lines("12")), stdout=out) == 0
    assert json.loads(out.getvalue().splitlines()[-1])["id"] == 12


def test_an_unknown_bot_is_a_usage_error_even_with_no_input() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["engine", "--bot", "nope"], stdin=io.StringIO(""), stdout=out, stderr=err) == 2
    assert "no bot 'nope'" in err.getvalue()
    assert "random" in err.getvalue()
    assert out.getvalue() == ""
