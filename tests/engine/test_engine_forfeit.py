"""Engines that fail their seat forfeit the game, at the caller's choice; every engine
hears the outcome.

A Python engine (``engines/scripted.py``) plays the first legal action and then
misbehaves as told (garbage, a crash, a hang). With ``on_bot_error="forfeit"`` the game
ends there as a ``"forfeit"``, the seat and the error recorded, the same whatever the
number of workers, and the state it stopped in is the one the good answers led to; a
tournament counts the game as a loss for the engine. With ``"raise"`` the typed error
propagates. A well-behaved engine is sent the game's outcome in ``end`` (``null`` when
the game stopped before its end).
"""

from __future__ import annotations

import io
import json
import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import EngineBot, EngineError, EngineTimeoutError
from cardcrawl.cli import main
from cardcrawl.errors import CardcrawlError, OptionsError
from cardcrawl.simulate import GameResult, play_game, simulate
from cardcrawl.tournament import HeadToHead, tournament

SCRIPTED = Path(__file__).parent / "engines" / "scripted.py"

MAPLESS = cardcrawl.load("mapless-house", max_turns=40)
HAYDES = cardcrawl.load("escape-from-haydes", players=2, max_rounds=8)


def scripted(mode: str, after: int = 0, end_file: Path | None = None) -> list[str]:
    """The command line of the scripted engine."""
    tail = [] if end_file is None else [str(end_file)]
    return [sys.executable, str(SCRIPTED), mode, str(after), *tail]


def engine(mode: str, after: int = 0, timeout: float = 5.0, **options: Any) -> Any:
    return EngineBot.factory(command=scripted(mode, after, **options), timeout=timeout)


class First:
    """The in-process twin of the scripted engine's good answers: the first legal action."""

    __name__ = "first"

    def __init__(self, game: Any = None, seed: int = 0, seat: int = 0) -> None:
        pass

    def choose(self, game: Any, observation: Any, legal: Sequence[Any]) -> Any:
        return legal[0]


def children() -> set[str]:
    """This process's child processes still in the process table (zombies included)."""
    proc, me, found = Path("/proc"), str(os.getpid()), set()
    if not proc.is_dir():
        return found
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me:
                found.add(entry.name)
    return found


@pytest.fixture(autouse=True)
def no_engine_outlives_its_test() -> Iterator[None]:
    before = children()
    yield
    # No collection needed: every game tells its bots it is over, and they stop.
    assert children() - before == set()


# ------------------------------------------------------------------ forfeits
FAILURES = [
    # mode, good answers first, time limit, error class, words of the message
    ("garbage", 2, 5.0, "EngineError", "not JSON: b'I would rather not.\\n'"),
    ("crash", 2, 5.0, "EngineError", "exited with code 3 before answering decision 3; "
     "its standard error ends: scripted: out of ideas"),
    ("hang", 0, 0.5, "EngineTimeoutError", "no answer to decision 1 within 0.5 s"),
]  # fmt: skip


@pytest.mark.parametrize(("mode", "after", "timeout", "error", "words"), FAILURES)
def test_a_failing_engine_forfeits_the_same_games_whatever_the_workers(
    mode: str, after: int, timeout: float, error: str, words: str
) -> None:
    lineup = ["random", engine(mode, after, timeout)]
    games = 2
    one = simulate(HAYDES, lineup, games=games, seed=3, workers=1, on_bot_error="forfeit")
    two = simulate(HAYDES, lineup, games=games, seed=3, workers=2, on_bot_error="forfeit")
    assert one.results == two.results
    for r in one.results:
        assert (r.outcome, r.forfeited, r.winners, r.scores) == ("forfeit", 1, (), None)
        assert r.returns == (0.0, 0.0)
        assert r.error is not None
        assert r.error.startswith(f"{error}: engine ")
        assert words in r.error
        # The game stopped in the state the good answers led to: the engine's failure
        # changed nothing.
        replay = play_game(HAYDES, ["random", First], r.seed, max_decisions=r.decisions)
        assert (replay.outcome, replay.figures) == ("unfinished", r.figures)
    summary = one.summary()
    assert [o.label for o in summary.outcomes][-1] == "forfeit"
    assert summary.rate("forfeit").estimate == 1.0
    row = one.rows()[0]
    assert (row["forfeited"], row["error"]) == (1, one.results[0].error)
    assert json.loads(one.to_json())["results"][0]["forfeited"] == 1


@pytest.mark.parametrize("workers", [1, 2])
def test_by_default_the_typed_error_stops_the_simulation(workers: int) -> None:
    with pytest.raises(EngineError, match="not JSON") as caught:
        simulate(MAPLESS, engine("garbage", 1), games=2, seed=3, workers=workers)
    assert (caught.value.reason, caught.value.seat) == ("garbage", 0)
    with pytest.raises(EngineTimeoutError):
        play_game(MAPLESS, [engine("hang", 0, timeout=0.5)], seed=1, on_bot_error="raise")


class Failing:
    """An in-process bot that fails at its third decision, with ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.asked = 0
        self.told: list[Any] = []

    def __call__(self, game: Any, seed: int, seat: int) -> Failing:
        return self

    def choose(self, game: Any, observation: Any, legal: Sequence[Any]) -> Any:
        self.asked += 1
        if self.asked == 3:
            raise self.error
        return legal[0]

    def game_over(self, game: Any, observation: Any, outcome: Any) -> None:
        self.told.append((observation, outcome))


def test_any_library_error_forfeits_but_a_bare_exception_is_a_bug() -> None:
    quitter = Failing(CardcrawlError("no more ideas"))
    result = play_game(MAPLESS, [quitter], seed=2, on_bot_error="forfeit")
    assert (result.outcome, result.forfeited, result.decisions) == ("forfeit", 0, 2)
    assert result.error == "CardcrawlError: no more ideas"
    assert [outcome for _, outcome in quitter.told] == [None]
    buggy = Failing(ZeroDivisionError("a bug"))
    with pytest.raises(ZeroDivisionError):
        play_game(MAPLESS, [buggy], seed=2, on_bot_error="forfeit")
    # Even stopped by an error, the bots are told that the game is over.
    assert [outcome for _, outcome in buggy.told] == [None]


def test_on_bot_error_is_checked() -> None:
    with pytest.raises(OptionsError, match="on_bot_error is 'raise' or 'forfeit'"):
        play_game(MAPLESS, ["random"], seed=1, on_bot_error="ignore")
    with pytest.raises(OptionsError, match="on_bot_error"):
        simulate(MAPLESS, "random", games=1, workers=1, on_bot_error="fallback")
    with pytest.raises(OptionsError, match="on_bot_error"):
        tournament(MAPLESS, ["random", "heuristic"], games=1, workers=1, on_bot_error="")


# ---------------------------------------------------------------- tournament
@pytest.mark.parametrize("game", [MAPLESS, HAYDES], ids=["one-seat", "two-seats"])
def test_a_tournament_counts_a_forfeit_as_a_loss(game: Any) -> None:
    result = tournament(
        game, ["random", engine("crash", 1)], games=2, seed=5, workers=1, on_bot_error="forfeit"
    )
    compared = 2 * len(result.lineups) if game.num_players > 1 else 2
    # The random bot rarely escapes the Mapless House: without the forfeit it would tie.
    assert result.head_to_head() == (HeadToHead("random", "engine", compared, 0, 0),)
    assert [r.bot for r in result.standings()] == ["random", "engine"]
    forfeits = [r for s in result.simulations for r in s.results if r.outcome == "forfeit"]
    assert len(forfeits) == (2 if game.num_players == 1 else 4)
    assert result.forfeits() == (0, len(forfeits))
    assert "games forfeited" in result.format()
    assert result.to_data()["forfeits"] == [0, len(forfeits)]


def test_two_forfeits_tie_and_a_forfeit_loses_to_any_return() -> None:
    from cardcrawl.tournament import compare_games

    lost = GameResult(0, 1, "forfeit", (0.0, 0.0), None, (), 4, forfeited=1, error="E: x")
    assert compare_games(lost, [0], lost, [1]) == 1
    assert compare_games(lost, [1], lost, [0]) == -1
    alone = GameResult(0, 1, "forfeit", (0.0,), None, (), 4, forfeited=0)
    consumed = GameResult(0, 1, "consumed", (0.0,), (3,), (), 9)
    assert compare_games(alone, [0], alone, [0]) == 0
    assert compare_games(consumed, [0], alone, [0]) == 1


# ------------------------------------------------------------------ outcomes
def outcome_data(result: GameResult) -> dict[str, Any]:
    return {
        "label": result.outcome,
        "returns": list(result.returns),
        "scores": None if result.scores is None else list(result.scores),
        "winners": list(result.winners),
    }


def test_a_well_behaved_engine_hears_the_outcome(tmp_path: Path) -> None:
    ends = tmp_path / "end-{seat}.json"
    lineup = [engine("play", end_file=ends)] * 2
    result = play_game(HAYDES, lineup, seed=4)
    assert result.outcome != "unfinished"
    for seat in (0, 1):
        told = json.loads((tmp_path / f"end-{seat}.json").read_text(encoding="utf-8"))
        assert told == {"type": "end", "outcome": outcome_data(result)}
    # Stopped by the decision cap, or by the other seat's forfeit: no outcome.
    assert play_game(HAYDES, lineup, seed=4, max_decisions=3).outcome == "unfinished"
    assert json.loads((tmp_path / "end-0.json").read_text())["outcome"] is None
    (tmp_path / "end-0.json").unlink()
    mixed = [engine("play", end_file=ends), engine("garbage", 1)]
    forfeit = play_game(HAYDES, mixed, seed=4, on_bot_error="forfeit")
    assert (forfeit.outcome, forfeit.forfeited) == ("forfeit", 1)
    assert json.loads((tmp_path / "end-0.json").read_text())["outcome"] is None


# ------------------------------------------------------------- command line
def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def command_text(command: list[str]) -> str:
    return shlex.join(command)


def test_the_command_lines_forfeit_or_fail_in_a_sentence(tmp_path: Path) -> None:
    garbage = command_text(scripted("garbage", 1))
    base = ["--max-turns", "40", "--games", "2", "--workers", "1", "--progress", "none"]
    simulate_args = ["simulate", "mapless-house", "--bot", "engine", "--engine", garbage]
    code, out, err = run([*simulate_args, *base, "--on-bot-error", "forfeit"])
    assert code == 0
    assert "forfeit % [95% CI]" in out
    assert "engine: 2 games forfeited; the first, game 0, by seat 0: EngineError:" in err
    code, out, err = run([*simulate_args, *base])
    assert code == 1
    assert "cardcrawl simulate: engine: engine " in err
    assert "Traceback" not in err
    tour = ["tournament", "mapless-house", "--bot", "engine", "--bot", "random"]
    code, out, err = run([*tour, "--engine", garbage, *base, "--on-bot-error", "forfeit"])
    assert code == 0
    assert "forfeited" in err
    code, _, err = run(["simulate", "mapless-house", "--engine", garbage, *base])
    assert code == 2
    assert "no seat plays the engine bot" in err


def test_cardcrawl_play_seats_an_engine_and_tells_it_the_outcome(tmp_path: Path) -> None:
    end = tmp_path / "end.json"
    play = ["play", "mapless-house", "--bot", "engine", "--max-turns", "40", "--seed", "6"]
    code, out, _ = run([*play, "--engine", command_text(scripted("play", 0, end))])
    assert code == 0
    result = play_game(MAPLESS, [First], seed=6)
    assert out.splitlines()[-1].startswith(f"Result: {result.outcome}")
    assert json.loads(end.read_text(encoding="utf-8"))["outcome"] == outcome_data(result)
    code, out, err = run([*play, "--engine", "0=" + command_text(scripted("crash", 2))])
    assert code == 1
    assert "player 0's bot failed: engine " in err
    assert "exited with code 3" in err
    assert out.splitlines()[-1] == "Game abandoned."
