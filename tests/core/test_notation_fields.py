"""Every refusal of a position's text names a field: blank tokens and miscounted cards
included."""

from __future__ import annotations

from typing import Any

import pytest

import cardcrawl
from cardcrawl.errors import NotationError

MAPLESS = cardcrawl.load("mapless-house")
HAYDES = cardcrawl.load("escape-from-haydes", players=2)


def refusal(game: Any, text: str) -> NotationError:
    with pytest.raises(NotationError) as caught:
        game.position(text)
    return caught.value


def tokens(game: Any, decisions: int = 0) -> list[str]:
    state = game.initial_state(seed=3)
    for _ in range(decisions):
        state = game.step(state, game.legal_actions(state)[0])
    return game.notation(state).split(" ")


@pytest.mark.parametrize(("game", "first"), [(MAPLESS, "table"), (HAYDES, "board")])
def test_a_blank_token_names_the_field_beside_it(game: Any, first: str) -> None:
    written = tokens(game)
    second = written[1].partition("=")[0]
    last = written[-1].partition("=")[0]
    cases = {
        "": first,  # nothing at all: the first field is missing
        " " + " ".join(written): first,  # a leading space
        " ".join(written) + " ": last,  # a trailing space
        " ".join([written[0], "", *written[1:]]): second,  # two spaces in a row
    }
    for text, field in cases.items():
        error = refusal(game, text)
        assert error.field == field, text
        assert str(error).startswith(f"{field}: "), str(error)
        assert "separated by single spaces" in str(error)


def test_a_card_missing_from_haydes_names_the_unseen_field() -> None:
    # The unseen field accounts for every card not written elsewhere: a card dropped
    # from the discard pile is then nowhere, and unseen is the field that disagrees.
    written = tokens(HAYDES, decisions=12)
    at = next(i for i, token in enumerate(written) if token.startswith("discard="))
    assert "," in written[at], written[at]
    written[at] = written[at].rsplit(",", 1)[0]
    error = refusal(HAYDES, " ".join(written))
    assert "does not hold each of the 210 cards once: missing" in str(error)
    assert error.field == "unseen"
