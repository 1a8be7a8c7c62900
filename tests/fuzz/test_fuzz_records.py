"""Game records, mutated (their actions, seed, options, game name, rules version,
claims, stack, a match trace's agents, result, start time, seconds and comments, and
the position text of a record that starts from one) as data and as JSON text: each is
refused with a library error or replays; a record that replays ends in a state that
behaves and plays to its end."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import Phase, event, given, settings
from hypothesis import strategies as st

import cardcrawl
from strategies import seeds

from ._fuzz import (
    CONFIGS,
    config_id,
    load,
    mutate,
    mutate_text,
    random_state,
    record_replays_or_is_refused,
)

EXAMPLES = settings.default.max_examples * 2
NO_EXPLAIN = [p for p in Phase if p is not Phase.explain]


def _record(
    config: tuple[str, dict[str, Any], bool],
    seed: int,
    steps: int,
    trace: bool = False,
    cut: int | None = None,
) -> Any:
    name, options, explicit = config
    game = load(name, options)
    _, actions = random_state(game, seed, steps, explicit=explicit)
    if cut is not None:
        # From the position after the first `cut` actions, with the rest.
        cut = min(cut, len(actions))
        start, _ = random_state(game, seed, cut, explicit=explicit)
        return cardcrawl.Record.of(game, position=game.notation(start), actions=actions[cut:])
    if not trace:
        return cardcrawl.Record.of(game, seed, actions, explicit_chance=explicit)
    # A match trace, with every field of one to mutate.
    return cardcrawl.Record.of(
        game,
        seed,
        actions,
        explicit_chance=explicit,
        agents=[cardcrawl.Agent.bot(i, "random", {"seed": seed}) for i in range(game.num_players)],
        started="2026-12-02T07:20:43Z",
        seconds=[None if i % 3 == 0 else 0.25 * i for i in range(len(actions))],
        comments={i: f"comment {i}" for i in range(0, len(actions), 5)},
    )


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
@settings(max_examples=EXAMPLES, phases=NO_EXPLAIN)
@given(seed=seeds, steps=st.integers(0, 80), data=st.data())
def test_a_mutated_record_is_refused_or_replays(
    config: tuple[str, dict[str, Any], bool], seed: int, steps: int, data: st.DataObject
) -> None:
    trace = data.draw(st.booleans(), label="as a trace")
    cut = data.draw(st.none() | st.integers(0, 20), label="from the position after")
    doc = _record(config, seed, steps, trace, cut).to_data()
    if cut is not None and data.draw(st.booleans(), label="edit the position"):
        doc["position"] = mutate_text(data, doc["position"])
        if data.draw(st.booleans(), label="without claims"):
            # Format 3 holds claims optionally: without them, a changed position that
            # still reads as a legal one replays, and is played on to its end.
            del doc["claims"]
    elif not trace and "claims" in doc and data.draw(st.booleans(), label="without claims"):
        # A record of format 1 has no claims, so an edited action may still replay.
        del doc["claims"]
        doc["format"] = 1
    if doc["actions"] and data.draw(st.booleans(), label="edit an action"):
        i = data.draw(st.integers(0, len(doc["actions"]) - 1), label="entry")
        doc["actions"][i] = mutate_text(data, doc["actions"][i])
    else:
        doc = mutate(data, doc)
    event(record_replays_or_is_refused(cardcrawl.Record.from_data, doc, seed))


@pytest.mark.parametrize("config", CONFIGS[:1] + CONFIGS[-2:-1], ids=config_id)
@settings(max_examples=EXAMPLES, phases=NO_EXPLAIN)
@given(seed=seeds, steps=st.integers(0, 40), data=st.data())
def test_mutated_record_text_is_refused_or_replays(
    config: tuple[str, dict[str, Any], bool], seed: int, steps: int, data: st.DataObject
) -> None:
    trace = data.draw(st.booleans(), label="as a trace")
    cut = data.draw(st.none() | st.integers(0, 20), label="from the position after")
    text = _record(config, seed, steps, trace, cut).to_json()
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        text = mutate_text(data, text)
    event(record_replays_or_is_refused(cardcrawl.Record.from_json, text, seed))
