"""States ``validate`` refuses that it once accepted, or crashed on, found by the fuzzers
and a sweep of tampered saves:

- a draw from an empty deck. The rules never wait on one: a turn skips the Narrative
  draw once that deck is out (M-13), and an empty Mind or Body deck takes its Aside
  pile, or yields no card, before the draw (M-17). Such a state offered no chance
  outcome at all;
- a phase of the hunt before the Exit is placed (M-12): a move with no card to move to;
- a joker on the table: ``validate`` itself raised ``IndexError`` reading the tables of
  the 52 cards.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl import Deck
from cardcrawl.errors import InvalidStateError, SerializationError
from cardcrawl.mapless import Phase

GAME = cardcrawl.load("mapless-house")


def _state_in(phase: Phase) -> Any:
    """The first state of explicit-chance play (first legal choice) waiting in ``phase``."""
    state = GAME.initial_state(seed=2, explicit_chance=True)
    while state.phase is not phase:
        state = GAME.step(
            state, (GAME.legal_actions(state) or [GAME.chance_outcomes(state)[0][0]])[0]
        )
    return state


@pytest.mark.parametrize(
    ("phase", "deck"),
    [(Phase.DRAW, "narrative"), (Phase.DRAW_MIND, "mind"), (Phase.DRAW_BODY, "body")],
)
def test_a_draw_from_an_empty_deck_is_refused(phase: Phase, deck: str) -> None:
    state = _state_in(phase)
    GAME.validate(state)
    assert GAME.chance_outcomes(state)
    emptied = attrs.evolve(state, **{deck: Deck((), ())})
    with pytest.raises(InvalidStateError, match=f"phase {phase.value} draws from an empty deck"):
        GAME.validate(emptied)


def test_a_saved_narrative_draw_of_the_hunt_with_the_deck_out_is_refused() -> None:
    # The sweep's find: a hunt state whose Narrative deck is out, its phase set to draw.
    state = GAME.initial_state(seed=1)
    while not (state.exit_cell is not None and not state.narrative and state.phase is Phase.MOVE):
        state = GAME.step(state, GAME.legal_actions(state)[0])
    data = GAME.state_to_data(state)
    data["state"]["phase"] = "draw"
    with pytest.raises(SerializationError, match="phase draw draws from an empty deck"):
        GAME.state_from_data(data)


@pytest.mark.parametrize("phase", [Phase.MOVE, Phase.DRAW_MIND, Phase.DRAW_BODY])
def test_the_hunt_before_the_exit_is_refused(phase: Phase) -> None:
    state = GAME.initial_state(seed=0, explicit_chance=True)
    with pytest.raises(InvalidStateError, match="begins once the Exit is placed"):
        GAME.validate(attrs.evolve(state, phase=phase))


@pytest.mark.parametrize("joker", ["BJ", "RJ"])
@pytest.mark.parametrize("where", ["a corridor", "the last room"])
def test_a_joker_on_the_table_is_refused_as_a_card_of_no_deck(joker: str, where: str) -> None:
    state = GAME.initial_state(seed=3)
    while not (state.last_room is not None and len(state.table) > 4):
        state = GAME.step(state, GAME.legal_actions(state)[0])
    cell = state.last_room
    if where == "a corridor":
        cell = next(c for c, card in state.table.items() if GAME.is_corridor(card))
    data = GAME.state_to_data(state)
    table = data["state"]["table"]
    (row,) = [row for row in table if (row[0], row[1]) == cell]
    row[2] = joker
    with pytest.raises(SerializationError, match=f"extra {joker}"):
        GAME.state_from_data(data)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("AD phase=move player=0,0 rng=0000000000000000", "begins once the Exit is placed"),
        ("AD phase=draw-mind player=0,0 rng=0000000000000000", "begins once the Exit is placed"),
    ],
)
def test_the_notation_names_the_phase_for_a_hunt_before_the_exit(text: str, problem: str) -> None:
    with pytest.raises(cardcrawl.errors.NotationError, match=problem) as error:
        GAME.position(text)
    assert error.value.field == "phase"


def test_the_notation_names_the_phase_for_a_draw_from_an_empty_deck() -> None:
    state = GAME.initial_state(seed=1)
    while not (state.exit_cell is not None and not state.narrative and state.phase is Phase.MOVE):
        state = GAME.step(state, GAME.legal_actions(state)[0])
    text = GAME.notation(state).replace("phase=move", "phase=draw")
    with pytest.raises(cardcrawl.errors.NotationError, match="draws from an empty deck") as error:
        GAME.position(text)
    assert error.value.field == "phase"
