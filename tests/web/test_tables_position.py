"""A new table may start from a position: ``{"game", "options", "position"}`` in place
of a seed, refused with the notation's field named when it does not read."""

from __future__ import annotations

from typing import Any

import pytest

import cardcrawl
from cardcrawl.web import RequestError
from cardcrawl.web._tables import match_of

PUZZLE = "AD phase=place:KS player=0,0 rng=0000000000000001"


def test_a_table_starts_from_a_position() -> None:
    match = match_of({"game": "mapless-house", "options": {"max_turns": 30}, "position": PUZZLE})
    game = cardcrawl.load("mapless-house", max_turns=30)
    assert match.state == game.position(PUZZLE)
    assert match.to_record().position == PUZZLE


@pytest.mark.parametrize(
    ("request_data", "status", "message"),
    [
        ({"position": PUZZLE, "seed": 3}, 400, "a seed or a position, not both"),
        ({"position": 7}, 400, "text of 1 to 10000 characters"),
        ({"position": "x" * 10_001}, 400, "text of 1 to 10000 characters"),
        (
            {"position": PUZZLE.replace("player=0,0", "player=4,0")},
            422,
            "cannot be played: player: ",
        ),
        ({"position": PUZZLE + " explicit_chance"}, 422, "cannot be played: explicit_chance: "),
    ],
)
def test_a_bad_position_is_refused(request_data: dict[str, Any], status: int, message: str) -> None:
    with pytest.raises(RequestError, match=message) as caught:
        match_of({"game": "mapless-house", **request_data})
    assert caught.value.status == status
