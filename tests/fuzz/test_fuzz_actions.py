"""Action texts, real ones edited and arbitrary ones: ``parse_action`` gives an action
or a ``ParseError``, never anything else; an action it gives survives its text form;
and ``check`` and ``step`` on it refuse it with an ``IllegalActionError`` or play it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcrawl.errors import IllegalActionError, ParseError
from strategies import seeds

from ._fuzz import action_texts, bounded, load, mutate_text, random_state

GAMES = ["mapless-house", "escape-from-haydes", "escape-from-haydes-tuybe"]
EXAMPLES = settings.default.max_examples * 4


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=EXAMPLES)
@given(seed=seeds, steps=st.integers(0, 60), data=st.data())
def test_an_edited_action_text_parses_or_is_refused(
    name: str, seed: int, steps: int, data: st.DataObject
) -> None:
    game = load(name, {})
    if data.draw(st.booleans(), label="arbitrary text"):
        text = data.draw(st.text(max_size=30), label="text")
    else:
        text = data.draw(st.sampled_from(action_texts(name)), label="action")
        for _ in range(data.draw(st.integers(1, 3), label="edits")):
            text = mutate_text(data, text)
    try:
        action = bounded(game.parse_action, text)
    except ParseError:
        return
    again = game.format_action(action)
    assert game.parse_action(again) == action, f"{text!r} reads as {action!r}, written {again!r}"
    state, _ = random_state(game, seed, steps, explicit=data.draw(st.booleans()))
    try:
        bounded(game.check, state, action)
    except IllegalActionError:
        return
    bounded(game.validate, bounded(game.step, state, action))
