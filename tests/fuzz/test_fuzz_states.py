"""Saved states of both games, mutated: each loads or is refused with a library error,
and any state that loads behaves (every promise about one state holds, it renders, it
draws, it is observed) and plays to its end by random play, within OpenSpiel's
``max_game_length`` when the game has a limit (a game without one may be cut off)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import Phase, event, given, settings
from hypothesis import strategies as st

from strategies import seeds

from ._fuzz import (
    CONFIGS,
    config_id,
    load,
    mutate,
    random_state,
    save_loads_and_plays_or_is_refused,
)

EXAMPLES = settings.default.max_examples * 2


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
@settings(max_examples=EXAMPLES, phases=[p for p in Phase if p is not Phase.explain])
@given(seed=seeds, steps=st.integers(0, 150), data=st.data())
def test_a_mutated_save_is_refused_or_plays_on(
    config: tuple[str, dict[str, Any], bool], seed: int, steps: int, data: st.DataObject
) -> None:
    name, options, explicit = config
    game = load(name, options)
    state, _ = random_state(game, seed, steps, explicit=explicit)
    doc = mutate(data, game.state_to_data(state))
    event(save_loads_and_plays_or_is_refused(game, doc, seed))
