"""``--position TEXT``: ``cardcrawl play`` starts from a position in the game's notation,
in place of ``--seed``; its record keeps the position, and ``replay`` and ``render`` read
it. A bad position exits 2 with the notation's error naming the field; ``simulate`` and
``tournament``, which play many games from seeds, refuse a position and say why."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl import Record
from cardcrawl.cli._main import main

HOUSE = cardcrawl.load("mapless-house")
PUZZLE = "AD phase=place:KS player=0,0 rng=0000000000000001"


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Run ``main`` with StringIO streams: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_play_starts_from_the_position_and_records_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out, _ = run(
        "play", "mapless-house", "--bot", "random", "--position", PUZZLE, "--record", str(path)
    )
    assert code == 0
    record = Record.load(path)
    assert record.position == PUZZLE
    assert record.seed is None
    states = list(record.states())
    assert states[0] == HOUSE.position(PUZZLE)
    assert out.splitlines()[-2].startswith("Result: ")
    assert HOUSE.render(states[-1]) in out
    code, told, err = run("replay", str(path))
    assert code == 0
    assert told.splitlines()[0].startswith("Replaying mapless-house from a position")
    assert "verified" in err
    code, picture, _ = run("render", str(path), "--step", "0")
    assert code == 0
    assert picture.startswith("<svg")


def test_a_person_plays_from_a_position_without_a_seed_said() -> None:
    """The first choice is the puzzle's: the drawn K♠ is placed by the person."""
    code, out, _ = run("play", "mapless-house", "--position", PUZZLE, stdin="1\nq\n")
    assert code == 0
    assert "Seed " not in out
    first = HOUSE.legal_actions(HOUSE.position(PUZZLE))[0]
    assert f"1) {HOUSE.format_action(first)}" in out


def test_play_from_a_mid_game_position_of_haydes(tmp_path: Path) -> None:
    """A position cut from a game of two players is played to its end and recorded."""
    game = cardcrawl.load("escape-from-haydes", players=2)
    for seed in range(100):
        state = game.initial_state(seed)
        choose = random.Random(seed).choice
        for _ in range(4):
            if game.is_terminal(state):
                break
            state = game.step(state, choose(game.legal_actions(state)))
        if not game.is_terminal(state):
            break
    assert not game.is_terminal(state)
    text = game.notation(state)
    path = tmp_path / "haydes.json"
    argv = ["play", "escape-from-haydes", "--players", "2", "--bot", "random"]
    code, _, err = run(*argv, "--position", text, "--record", str(path))
    assert code == 0, err
    record = Record.load(path)
    assert record.position == text
    assert next(record.states()) == game.position(text)
    # The options are the game's own: the same position read without them is refused.
    code, _, err = run("play", "escape-from-haydes", "--bot", "random", "--position", text)
    assert code == 2
    assert "--position: " in err


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("AD phase=move player=4,0 rng=0000000000000001", "player"),
        ("AD phase=place:KS player=0,0 rng=1", "rng"),
        ("AD phase=place:KS player=0,0 rng=0000000000000001 colour=red", "colour"),
    ],
)
def test_a_bad_position_exits_2_naming_the_field(text: str, field: str) -> None:
    code, out, err = run("play", "mapless-house", "--bot", "random", "--position", text)
    assert code == 2
    assert out == ""
    assert err.startswith("usage: cardcrawl play")
    assert f"error: --position: {field}: " in err


def test_seed_and_position_are_one_or_the_other() -> None:
    code, _, err = run("play", "mapless-house", "--seed", "3", "--position", PUZZLE)
    assert code == 2
    assert "argument --position: not allowed with argument --seed" in err


def test_play_refuses_a_position_with_explicit_chance() -> None:
    text = HOUSE.notation(HOUSE.initial_state(1, explicit_chance=True))
    code, _, err = run("play", "mapless-house", "--bot", "random", "--position", text)
    assert code == 2
    assert "--position: explicit_chance: " in err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "mapless-house", "--games", "2"],
        ["tournament", "mapless-house", "--bot", "random", "--bot", "heuristic", "--games", "2"],
    ],
)
def test_many_games_from_one_position_are_refused_with_the_reason(argv: list[str]) -> None:
    code, out, err = run(*argv, "--position", PUZZLE)
    assert code == 2
    assert out == ""
    assert f"--position: {argv[0]} plays many games, each from its own seed" in err
    assert "cardcrawl play GAME --position TEXT" in err
