"""A tournament from one position: every deal is the position re-seeded from the deal's
seed, every lineup on the same deals; the result says it started from the position."""

from __future__ import annotations

import json

import pytest

import cardcrawl
from cardcrawl import OptionsError, rng_derive
from cardcrawl.simulate import play_game
from cardcrawl.tournament import tournament

GAME = cardcrawl.load("mapless-house", max_turns=200)
PUZZLE = "AD phase=place:KS player=0,0 narrative=5C rng=0000000000000001"


def test_every_deal_of_every_lineup_is_the_position_reseeded() -> None:
    result = tournament(GAME, ["heuristic", "random"], games=8, seed=2, workers=1, position=PUZZLE)
    assert result.position == PUZZLE
    for sim in result.simulations:
        assert sim.position == PUZZLE
        for r in sim.results:
            assert r.seed == rng_derive(2, r.index)
            assert play_game(GAME, list(sim.bots), r.seed, index=r.index, start=PUZZLE) == r
    assert result.head_to_head()[0].games == 8


def test_same_tournament_from_a_position_in_a_pool() -> None:
    one = tournament(GAME, ["heuristic", "random"], games=6, seed=1, workers=1, position=PUZZLE)
    pool = tournament(
        GAME, ["heuristic", "random"], games=6, seed=1, workers=2, batch_size=2, position=PUZZLE
    )
    assert [s.results for s in pool.simulations] == [s.results for s in one.simulations]


def test_the_files_say_the_deals_started_from_the_position() -> None:
    result = tournament(GAME, ["heuristic", "random"], games=2, workers=1, position=PUZZLE)
    assert json.loads(result.to_json())["position"] == PUZZLE
    assert {row["position"] for row in result.rows()} == {PUZZLE}
    plain = tournament(GAME, ["heuristic", "random"], games=2, workers=1)
    assert plain.position is None
    assert "position" not in plain.to_data()
    assert all("position" not in row for row in plain.rows())


def test_a_position_with_explicit_chance_is_refused_before_any_deal() -> None:
    explicit = GAME.notation(GAME.initial_state(1, explicit_chance=True))
    with pytest.raises(OptionsError, match="explicit_chance"):
        tournament(GAME, ["heuristic", "random"], games=2, workers=1, position=explicit)
