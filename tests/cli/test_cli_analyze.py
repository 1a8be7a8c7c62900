"""``cardcrawl analyze``: each decision valued (exactly by the solver where it can, else
by IS-MCTS), the losses marked, the worst listed, the marks carried to the replay page.

The toy game Twenty-one (tests/core/twentyone.py) has positions whose values are
worked out here by plain enumeration, independently of the solver and of the search.
"""

from __future__ import annotations

import io
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl import Card
from cardcrawl.cli._analyze import MARKS, Review, analyze_match
from cardcrawl.cli._main import main

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))
import twentyone

twentyone.register()
GAME = cardcrawl.load(twentyone.NAME)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@cache
def exact(hand: tuple[Card, ...], left: tuple[Card, ...]) -> dict[str, float]:
    """Hit's and stand's values in Twenty-one, playing on at best."""
    total = sum(twentyone.value(c) for c in hand)
    values = {"stand": total / 21}
    if left:
        hit = 0.0
        for card in left:
            after = (*hand, card)
            rest = tuple(c for c in left if c != card)
            over = sum(twentyone.value(c) for c in after) > 21
            hit += 0.0 if over else max(exact(after, rest).values())
        values["hit"] = hit / len(left)
    return values


def match_of(seed: int, actions: list[str]) -> Any:
    match = cardcrawl.Match.start(GAME, seed=seed)
    for action in actions:
        match.play(action)
    return match


def saved(tmp_path: Path, match: Any) -> str:
    path = tmp_path / "game.json"
    match.to_record().save(path)
    return str(path)


# Seed 1 deals 7♠ then 9♠: hitting a third time on 16 is worth 0.411, standing 0.762.
HITS_ON_16 = ["hit", "hit", "hit"]


def test_the_seed_deals_what_the_tests_say() -> None:
    match = match_of(1, HITS_ON_16[:2])
    assert [str(c) for c in match.state.hand] == ["7S", "9S"]
    values = exact(match.state.hand, match.state.deck.cards)
    assert values["stand"] - values["hit"] > MARKS[0][0]


def test_small_positions_are_valued_exactly_by_the_solver() -> None:
    match = match_of(1, HITS_ON_16)
    reviews = analyze_match(match, iterations=50)
    solved = [r for r in reviews if r.method == "solver"]
    assert solved, reviews
    states = match.states
    for r in solved:
        before = states[r.step - 1]
        values = exact(before.hand, before.deck.cards)
        for action, value in r.values:
            assert value == pytest.approx(values[str(action)])
    on_16 = next(r for r in reviews if r.step == 3)
    assert on_16.method == "solver"
    assert str(on_16.played) == "hit"
    assert str(on_16.best) == "stand"
    assert on_16.loss == pytest.approx(0.762 - 0.411, abs=0.001)
    assert (on_16.mark, on_16.label) == ("??", "blunder")


def test_without_the_solver_the_search_marks_the_blunder(tmp_path: Path) -> None:
    """Standing at once on nothing (worth 0) when hitting is worth about 0.7."""
    path = saved(tmp_path, match_of(2, ["stand"]))
    code, out, err = run("analyze", path, "--solver-nodes", "0", "--iterations", "300")
    assert code == 0, err
    assert "verified" in err
    lines = out.splitlines()
    assert lines[0].startswith(f"Analysis of {twentyone.NAME}, seed 2: 1 decisions valued")
    assert "0 by the exact solver, 1 by IS-MCTS" in lines[0]
    assert "step 1: played stand?? (blunder)" in out
    assert "best: hit" in out


def test_a_game_well_played_has_no_marks(tmp_path: Path) -> None:
    """Seed 1: hit, hit, then stand on 16 (the better choice there)."""
    path = saved(tmp_path, match_of(1, ["hit", "hit", "stand"]))
    code, out, err = run("analyze", path, "--iterations", "300")
    assert code == 0, err
    assert "No decision lost 0.05 or more." in out


def test_the_replay_page_carries_the_marks(tmp_path: Path) -> None:
    path = saved(tmp_path, match_of(1, HITS_ON_16))
    page = tmp_path / "page.html"
    code, out, err = run("analyze", path, "--iterations", "50", "--html", str(page))
    assert code == 0, err
    assert f"written to {page}" in out
    text = page.read_text(encoding="utf-8")
    assert "Step 3: hit (?? blunder: loses 0.351, best stand)" in text


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--iterations", "0"], "--iterations is at least 1"),
        (["--solver-nodes", "-1"], "--solver-nodes is at least 0"),
        (["--seat", "1"], "--seat 1: seats of"),
    ],
)
def test_bad_arguments_are_usage_errors(tmp_path: Path, flags: list[str], message: str) -> None:
    path = saved(tmp_path, match_of(1, ["stand"]))
    code, _, err = run("analyze", path, *flags)
    assert code == 2
    assert message in err


def test_a_missing_record_fails(tmp_path: Path) -> None:
    code, _, err = run("analyze", str(tmp_path / "none.json"))
    assert code == 1
    assert "none.json" in err


def test_with_several_players_only_the_seats_asked_for_are_valued() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=2)
    match = cardcrawl.Match.start(game, seed=4)
    while not game.is_terminal(match.state):
        match.play(game.legal_actions(match.state)[0])
    everyone = analyze_match(match, iterations=8)
    assert {r.player for r in everyone} == {0, 1}
    only = analyze_match(match, seats=[1], iterations=8)
    assert only
    assert {r.player for r in only} == {1}
    assert all(r.method == "ismcts" for r in only)  # the solver plays solo games only
    assert [r.step for r in only] == [r.step for r in everyone if r.player == 1]


def test_a_loss_within_the_search_margin_is_not_marked() -> None:
    review = Review(1, 0, "a", (("a", 0.5), ("b", 0.8)), "b", "ismcts", margin=0.35)
    assert review.loss == pytest.approx(0.3)
    assert review.mark == review.label == ""
    sure = Review(1, 0, "a", (("a", 0.5), ("b", 0.8)), "b", "ismcts", margin=0.1)
    assert (sure.mark, sure.label) == ("??", "blunder")


def test_rollouts_that_never_win_are_told(tmp_path: Path) -> None:
    """Random play never escapes The Mapless House: every value would be 0, so the
    analysis says to play the rollouts with the heuristic."""
    game = cardcrawl.load("mapless-house", max_turns=200)
    match = cardcrawl.Match.start(game, seed=3)
    for _ in range(3):
        match.play(game.legal_actions(match.state)[0])
    path = saved(tmp_path, match)
    code, out, err = run("analyze", path, "--iterations", "6", "--solver-nodes", "0")
    assert code == 0, err
    assert "its rollouts never won. Try --rollout heuristic." in out
    code, out, err = run("analyze", str(path), "--iterations", "6", "--rollout", "heuristic")
    assert code == 0, err
    assert "never won" not in out


def test_a_record_from_a_position_says_so_and_gives_the_position(tmp_path: Path) -> None:
    """A record that starts from a position has no seed: the head names the position."""
    house = cardcrawl.load("mapless-house")
    puzzle = "AD phase=place:KS player=0,0 rng=0000000000000001"
    path = tmp_path / "puzzle.json"
    cardcrawl.Record.of(house, position=puzzle, actions=["place 1,0"]).save(path)
    code, out, err = run("analyze", str(path), "--solver-nodes", "0", "--iterations", "10")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Analysis of mapless-house, from a position: 1 decisions valued")
    assert lines[1] == f"Position: {puzzle}"
    assert "seed None" not in out
