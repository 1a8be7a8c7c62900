"""Many games from one position: each game is the position with its generator re-seeded
from its own seed (``GameBase.reseed``), its stacked tops kept; the result says it
started from the position. Without a position, nothing changes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl import OptionsError, rng_derive
from cardcrawl.errors import InvalidStateError, NotationError
from cardcrawl.simulate import play_game, simulate
from cardcrawl.simulate._run import start_from_position

GAME = cardcrawl.load("mapless-house", max_turns=200)
#: The K♠ drawn, to be placed; the 5♣ stacked to come next.
PUZZLE = "AD phase=place:KS player=0,0 narrative=5C rng=0000000000000001"


def test_reseed_changes_only_the_generator() -> None:
    state = GAME.position(PUZZLE)
    again = GAME.reseed(state, 99)
    assert again.rng == 99
    assert attrs.evolve(again, rng=state.rng) == state
    assert GAME.notation(again) == PUZZLE.replace("0000000000000001", f"{99:016x}")
    with pytest.raises(OptionsError):
        GAME.reseed(state, -1)
    with pytest.raises(InvalidStateError, match="reseed takes a state of"):
        GAME.reseed("AD phase=move", 3)  # type: ignore[arg-type]


def test_every_game_is_the_position_reseeded_by_its_own_seed() -> None:
    result = simulate(GAME, "random", games=12, seed=3, workers=1, position=PUZZLE)
    assert result.position == PUZZLE
    start = GAME.position(PUZZLE)
    for r in result.results:
        assert r.seed == rng_derive(3, r.index)
        assert play_game(GAME, ["random"], r.seed, index=r.index, start=PUZZLE) == r
        assert play_game(GAME, ["random"], r.seed, index=r.index, start=start) == r


def test_the_games_from_one_position_differ() -> None:
    """Re-seeded, the games sample what can happen from the position on: not one game
    played many times over."""
    result = simulate(GAME, "random", games=30, seed=1, workers=1, position=PUZZLE)
    assert len({(r.outcome, r.decisions, r.figures) for r in result.results}) > 1


def test_the_stacked_top_is_kept_in_every_game() -> None:
    """The 5♣ stacked under the K♠ is the next card drawn, whatever the seed."""
    seen: list[Any] = []

    class Recorder:
        def __init__(self, game: Any, seed: int, seat: int) -> None:
            self.decisions = 0

        def choose(self, game: Any, observation: Any, legal: Any) -> Any:
            self.decisions += 1
            if self.decisions == 2:
                seen.append(observation.drawn)
            return legal[0]

    simulate(GAME, Recorder, games=8, seed=2, workers=1, position=PUZZLE)
    assert [str(card) for card in seen] == ["5C"] * 8


def test_same_results_from_a_position_with_a_process_pool() -> None:
    one = simulate(GAME, "heuristic", games=16, seed=4, workers=1, position=PUZZLE)
    pool = simulate(GAME, "heuristic", games=16, seed=4, workers=2, batch_size=3, position=PUZZLE)
    assert pool.results == one.results
    assert pool.position == PUZZLE


def test_a_haydes_position_of_two_players_in_a_pool() -> None:
    haydes = cardcrawl.load("escape-from-haydes", players=2, max_rounds=30)
    state = haydes.initial_state(7)
    for _ in range(3):
        state = haydes.step(state, haydes.legal_actions(state)[0])
    text = haydes.notation(state)
    one = simulate(haydes, "random", games=6, seed=1, workers=1, position=text)
    pool = simulate(haydes, "random", games=6, seed=1, workers=2, batch_size=2, position=text)
    assert pool.results == one.results
    assert (
        play_game(haydes, ["random"] * 2, one.results[5].seed, index=5, start=text)
        == (one.results[5])
    )


def test_without_a_position_the_results_and_files_are_as_before(tmp_path: Path) -> None:
    plain = simulate(GAME, "random", games=5, seed=5, workers=1)
    assert plain.position is None
    assert [r.seed for r in plain.results] == [rng_derive(5, i) for i in range(5)]
    assert all(play_game(GAME, ["random"], r.seed, index=r.index) == r for r in plain.results)
    assert "position" not in plain.to_data()
    assert all("position" not in row for row in plain.rows())


def test_the_files_say_the_games_started_from_the_position(tmp_path: Path) -> None:
    result = simulate(GAME, "random", games=3, seed=5, workers=1, position=PUZZLE)
    data = json.loads(result.to_json())
    assert data["position"] == PUZZLE
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [row["position"] for row in rows] == [PUZZLE] * 3
    path = tmp_path / "games.json"
    result.write(path)
    assert json.loads(path.read_text(encoding="utf-8"))["position"] == PUZZLE


def test_a_position_with_explicit_chance_is_refused() -> None:
    explicit = GAME.notation(GAME.initial_state(1, explicit_chance=True))
    with pytest.raises(OptionsError, match=r"^explicit_chance: "):
        simulate(GAME, "random", games=2, workers=1, position=explicit)
    with pytest.raises(OptionsError, match=r"^explicit_chance: "):
        play_game(GAME, ["random"], 1, start=GAME.position(explicit))


def test_a_bad_position_fails_before_any_game() -> None:
    with pytest.raises(NotationError) as caught:
        simulate(GAME, "random", games=2, workers=1, position=PUZZLE.replace("0,0", "4,0"))
    assert caught.value.field == "player"
    with pytest.raises(OptionsError, match="as text"):
        simulate(GAME, "random", games=2, workers=1, position=GAME.position(PUZZLE))  # type: ignore[arg-type]


class _Without:
    """The Mapless House without one of its methods, as a game of one's own may be."""

    def __init__(self, game: Any, missing: str) -> None:
        self._game, self._missing = game, missing

    def __getattr__(self, name: str) -> Any:
        if name == self._missing:
            raise AttributeError(name)
        return getattr(self._game, name)


def test_a_game_that_cannot_reseed_or_read_a_position_says_so() -> None:
    with pytest.raises(OptionsError, match="cannot re-seed a state"):
        start_from_position(_Without(GAME, "reseed"), PUZZLE)
    with pytest.raises(OptionsError, match="has no position notation"):
        start_from_position(_Without(GAME, "position"), PUZZLE)
    # Given as a state, a position needs no notation.
    state = GAME.position(PUZZLE)
    assert start_from_position(_Without(GAME, "position"), state) is state
