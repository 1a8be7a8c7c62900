"""``--position TEXT``: ``cardcrawl play`` starts from a position in the game's notation,
in place of ``--seed``; its record keeps the position, and ``replay`` and ``render`` read
it. A bad position exits 2 with the notation's error naming the field. ``simulate`` and
``tournament`` play every game from the position, its generator re-seeded from
``--seed`` for each game, and their files say so."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl import Record
from cardcrawl.cli._main import main
from cardcrawl.simulate import play_game, simulate

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


MANY = [
    ["simulate", "mapless-house", "--games", "4", "--workers", "1", "--progress", "none"],
    [
        "tournament", "mapless-house", "--bot", "random", "--bot", "heuristic", "--games", "4",
        "--workers", "1", "--progress", "none",
    ],
]  # fmt: skip


@pytest.mark.parametrize("argv", MANY)
def test_many_games_from_one_position_reseeded_from_the_seed(
    argv: list[str], tmp_path: Path
) -> None:
    """--seed and --position together: every game the position, re-seeded by --seed."""
    path = tmp_path / "games.json"
    code, out, err = run(*argv, "--position", PUZZLE, "--seed", "7", "--output", str(path))
    assert code == 0, err
    assert ", seed 7, from a position" in out.splitlines()[0]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["position"] == PUZZLE
    assert data["seed"] == 7
    game = cardcrawl.load("mapless-house", max_turns=200)
    for row in data["results"]:
        # A tournament's rows name their lineup and the position; a simulation's, in
        # its one object, leave both to the object.
        assert row.get("position", PUZZLE) == PUZZLE
        assert row["seed"] == cardcrawl.rng_derive(7, row["game"])
        bots = row["bots"].split(",") if "bots" in row else data["bots"]
        again = play_game(game, bots, row["seed"], start=PUZZLE)
        assert again.outcome == row["outcome"]
        assert again.decisions == row["decisions"]


def test_simulate_from_a_position_matches_the_library() -> None:
    code, out, _ = run(*MANY[0], "--bot", "heuristic", "--position", PUZZLE)
    assert code == 0
    game = cardcrawl.load("mapless-house", max_turns=200)
    sim = simulate(game, "heuristic", games=4, seed=0, workers=1, position=PUZZLE)
    escaped = sim.summary().rate("escaped").format(percent=True, digits=1)
    assert escaped in out


@pytest.mark.parametrize("argv", MANY)
def test_many_games_refuse_a_position_with_explicit_chance(argv: list[str]) -> None:
    text = HOUSE.notation(HOUSE.initial_state(1, explicit_chance=True))
    code, out, err = run(*argv, "--position", text)
    assert code == 2
    assert out == ""
    assert f"--position: explicit_chance: {argv[0]} resolves chance itself" in err


@pytest.mark.parametrize("argv", MANY)
def test_many_games_from_a_bad_position_exit_2_naming_the_field(argv: list[str]) -> None:
    code, out, err = run(*argv, "--position", "AD phase=move player=4,0 rng=0000000000000001")
    assert code == 2
    assert out == ""
    assert "error: --position: player: " in err
