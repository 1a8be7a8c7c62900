"""States built by hand with ``attrs.evolve``, a field given junk or the same field of
another state: ``validate`` refuses each with an ``InvalidStateError``, or the state it
accepts behaves and plays to its end (the promise of ``GameBase.validate``)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import Phase, event, given, note, settings
from hypothesis import strategies as st

from strategies import seeds

from ._fuzz import CONFIGS, config_id, hand_built_is_refused_or_plays, load, random_state

EXAMPLES = settings.default.max_examples * 2


class _Opaque:
    """A value of no type the library knows."""

    def __repr__(self) -> str:
        return "_Opaque()"


def _junk(data: st.DataObject, value: Any, other: Any) -> Any:
    """A replacement for a field's ``value``: ``other`` (the same field of another state
    of the game), or a value of another type, or the same items in another container."""
    kind = data.draw(
        st.sampled_from(["other", "opaque", "none", "huge", "text", "list", "fewer", "more"]),
        label="junk",
    )
    if kind == "other":
        return other
    if kind == "opaque":
        return _Opaque()
    if kind == "none":
        return None
    if kind == "huge":
        return 10**30
    if kind == "text":
        return "3"
    items = list(value) if isinstance(value, (tuple, frozenset, list)) else [value]
    if kind == "list":
        return items
    if kind == "fewer":
        return type(value)(items[1:]) if isinstance(value, (tuple, frozenset)) else ()
    extra = list(other) if isinstance(other, (tuple, frozenset)) else [other]
    more = items + extra[:1]
    return type(value)(more) if isinstance(value, (tuple, frozenset)) else tuple(more)


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
@settings(max_examples=EXAMPLES, phases=[p for p in Phase if p is not Phase.explain])
@given(seed=seeds, steps=st.integers(0, 150), other_steps=st.integers(0, 150), data=st.data())
def test_a_hand_built_state_is_refused_or_plays_on(
    config: tuple[str, dict[str, Any], bool],
    seed: int,
    steps: int,
    other_steps: int,
    data: st.DataObject,
) -> None:
    name, options, explicit = config
    game = load(name, options)
    state, _ = random_state(game, seed, steps, explicit=explicit)
    other, _ = random_state(game, seed + 1, other_steps, explicit=explicit)
    fields = [f.name for f in attrs.fields(type(state)) if f.init and not f.name.startswith("_")]
    field = data.draw(st.sampled_from(fields), label="field")
    value = _junk(data, getattr(state, field), getattr(other, field))
    note(f"{field} = {value!r}"[:300])
    built = attrs.evolve(state, **{field: value})
    event(hand_built_is_refused_or_plays(game, built, seed))
