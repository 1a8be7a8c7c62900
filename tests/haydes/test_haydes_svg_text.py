"""The words of the Haydes SVG and events: who is held by which creature (H-8), and
where the Red Joker lies once it is shuffled in among the new cards (H-10)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import cardcrawl
from cardcrawl import rng_below, rng_derive
from cardcrawl.haydes import JokerShuffledIn
from cardcrawl.haydes._svg import render_svg
from cardcrawl.kit._grid import cell_text

NS = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{NS}text")]


def titles(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{NS}title")]


def random_game(game: Any, seed: int) -> list[Any]:
    """Every state of one game played by a seeded random policy."""
    state = game.initial_state(seed)
    states = [state]
    rng = rng_derive(seed, 1)
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        rng, i = rng_below(rng, len(legal))
        state = game.step(state, legal[i])
        states.append(state)
    return states


def holder(state: Any, cell: Any) -> Any:
    card = state.card_at(cell)
    if card is None or card.is_joker or card.rank < 11 or cell in state.overcome:
        return None
    return card


def test_the_panel_says_who_is_held_by_which_creature() -> None:
    """H-8: a player standing on a creature not overcome is held by it; the panel line
    and the figure's title name the card, as the text render does."""
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=8)
    seen = 0
    for state in random_game(game, 7):
        svg = render_svg(state)
        lines = [t for t in texts(svg) if re.match(r"Player \d: Charisma", t)]
        assert len(lines) == 2
        for seat, (figure, line) in enumerate(zip(state.seats, lines, strict=True)):
            card = holder(state, figure.cell) if figure.cell is not None else None
            facing = seat == state.current and state.phase.name in ("ENCOUNTER", "ROLL")
            if card is None:
                assert "held by" not in line
                assert "facing" not in line
                continue
            words = f"{'facing' if facing else 'held by'} {card.symbol}"
            assert f"at {cell_text(figure.cell)} · {words}" in line
            assert f"Player {seat} at {cell_text(figure.cell)} · {words}" in titles(svg)
            seen += not facing
    assert seen, "the game never held anyone: pick another seed"


def joker_states(seed: int) -> list[tuple[JokerShuffledIn, Any]]:
    game = cardcrawl.load("escape-from-haydes", max_rounds=60)
    return [
        (event, state)
        for state in random_game(game, seed)
        for event in state.events
        if isinstance(event, JokerShuffledIn)
    ]


def test_a_joker_shuffled_under_one_cell_is_said_to_lie_under_it() -> None:
    """H-10 with a single new card: the event names the cell, the SVG says "the cell"."""
    shuffled = [(e, s) for e, s in joker_states(230) if len(e.cells) == 1]
    assert shuffled, "no single-cell shuffle in this game: pick another seed"
    event, state = shuffled[0]
    (cell,) = event.cells
    assert str(event).endswith(f"it lies under {cell_text(cell)}.")
    assert "one of" not in str(event)
    status = next(t for t in texts(render_svg(state)) if "Red Joker" in t)
    assert status.endswith("the Red Joker lies under the cell marked ?")


def test_a_joker_shuffled_under_several_cells_is_said_to_lie_under_one_of_them() -> None:
    shuffled = [(e, s) for e, s in joker_states(229) if len(e.cells) > 1]
    assert shuffled, "no shuffle among several cells in this game: pick another seed"
    event, state = shuffled[0]
    where = ", ".join(cell_text(c) for c in event.cells)
    assert str(event).endswith(f"it lies under one of {where}.")
    status = next(t for t in texts(render_svg(state)) if "Red Joker" in t)
    mix = next(m for m in state.mixes if cardcrawl.Card.RED_JOKER in m.known)
    assert status.endswith(f"the Red Joker lies under one of {len(mix.cells)} cells marked ?")
