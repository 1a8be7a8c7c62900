"""Game records: saved as options, seed and actions; replayed and verified entry by entry."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import Record, RecordError, SerializationError
from cardcrawl.core._saving import FORMAT_VERSION
from strategies import Playthrough, mapless, play, play_by_policy, seeds


def record_of(game: Playthrough, seed: int, *, explicit: bool = False) -> Record:
    return Record.of(game.game, seed, game.actions, explicit_chance=explicit)


@pytest.fixture(scope="module")
def finished() -> tuple[Playthrough, Record]:
    """A finished game of seed 5 and its record."""
    game = play_by_policy(mapless(30), 5, 5)
    return game, record_of(game, 5)


@pytest.fixture
def registry() -> Iterator[None]:
    from cardcrawl.core import _registry

    before = dict(_registry._REGISTRY)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(before)


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_a_record_replays_the_game_state_for_state(
    seed: int, data: st.DataObject, explicit: bool
) -> None:
    """The record of a random game survives JSON and replays to the same final state,
    through the same states (chance outcomes are recorded in explicit-chance play)."""
    game = play(mapless(40), seed, data, explicit_chance=explicit)
    record = record_of(game, seed, explicit=explicit)
    again = Record.from_json(record.to_json())
    assert again == record
    assert Record.from_data(json.loads(json.dumps(record.to_data()))) == record
    assert again.replay() == game.final
    assert list(again.states()) == list(game.states)


def test_a_record_holds_what_it_says(finished: tuple[Playthrough, Record]) -> None:
    game, record = finished
    assert record.game == "mapless-house"
    assert dict(record.options) == {"max_turns": 30, "dread_lines": None}
    assert record.seed == 5
    assert record.rules_version == game.game.rules_version
    assert record.actions == tuple(str(a) for a in game.actions)
    assert not record.explicit_chance
    data = record.to_data()
    assert data["format"] == 3
    assert Record.FORMAT == 3
    assert set(data) == {
        "format",
        "game",
        "rules_version",
        "options",
        "seed",
        "explicit_chance",
        "actions",
        "claims",
    }
    assert "stack" not in data  # left out: the game was not stacked
    assert data["claims"]["length"] == len(record.actions)
    assert data["claims"]["state_format"] == FORMAT_VERSION
    assert record.load_game() == game.game
    assert record.verified


def test_a_record_of_a_game_in_progress_replays_to_where_it_stopped(
    finished: tuple[Playthrough, Record],
) -> None:
    """A record of a game not yet over is valid: it replays to the state it stopped at.
    (A record of the whole game cut short is not: its claims say how long it was.)"""
    game, record = finished
    half = len(record.actions) // 2
    partial = Record.of(game.game, 5, record.actions[:half])
    assert partial.claims is not None
    assert partial.claims.ending is None
    assert partial.replay() == game.states[half]
    with pytest.raises(RecordError, match="cut short"):
        attrs.evolve(record, actions=record.actions[:half]).replay()


def test_a_record_of_a_variant_loads_the_variant(registry: None) -> None:
    cardcrawl.register_variant("mapless-quick", base="mapless-house", options={"max_turns": 4})
    game = cardcrawl.load("mapless-quick")
    state = game.initial_state(9)
    actions = []
    while not game.is_terminal(state):
        actions.append(game.legal_actions(state)[0])
        state = game.step(state, actions[-1])
    record = Record.of(game, 9, actions)
    assert record.game == "mapless-quick"
    assert Record.from_json(record.to_json()).replay() == state


STACK = {"narrative": ["KS", "2S", "AH"], "mind": ["2H"], "body": ["KD"]}


def stacked_game(stack: Any) -> tuple[Any, list[Any], Any]:
    game = mapless(6)
    state = game.initial_state(11, stack=stack)
    actions = []
    while not game.is_terminal(state):
        actions.append(game.legal_actions(state)[0])
        state = game.step(state, actions[-1])
    return game, actions, state


def test_a_record_of_a_stacked_game_replays_from_the_same_stack() -> None:
    game, actions, final = stacked_game(STACK)
    record = Record.of(game, 11, actions, stack=STACK)
    assert record.to_data()["stack"] == STACK
    again = Record.from_json(record.to_json())
    assert again == record
    assert again.replay() == final
    with pytest.raises(RecordError, match="cannot start its game: stack"):
        attrs.evolve(record, stack={"narrative": ["2H"]}).replay()


def test_a_record_of_a_game_stacked_with_card_text_replays() -> None:
    text_stack = {"narrative": "KS 2S AH", "mind": "2H", "body": "KD"}
    game, actions, final = stacked_game(text_stack)
    assert Record.of(game, 11, actions, stack=text_stack).replay() == final


def test_an_edited_action_names_its_entry(finished: tuple[Playthrough, Record]) -> None:
    _, record = finished
    actions = list(record.actions)
    actions[7] = "move 99,99"
    with pytest.raises(RecordError, match=r"record entry 7 \('move 99,99'\) does not replay"):
        attrs.evolve(record, actions=actions).replay()


@pytest.mark.parametrize("text", ["place 1,", "plac", "move", "draw Q", "", "exit 1,2,3"])
def test_a_truncated_or_garbled_action_names_its_entry(
    finished: tuple[Playthrough, Record], text: str
) -> None:
    _, record = finished
    actions = list(record.actions)
    actions[3] = text
    pattern = r"record entry 3 .*does not replay: .*is not (an action|a card)"
    with pytest.raises(RecordError, match=pattern):
        attrs.evolve(record, actions=actions).replay()


def test_an_action_after_the_end_names_its_entry(finished: tuple[Playthrough, Record]) -> None:
    game, record = finished
    n = len(record.actions)
    last_move = next(a for a in reversed(record.actions) if a.startswith("move"))
    longer = attrs.evolve(record, actions=[*record.actions, last_move])
    with pytest.raises(RecordError, match=rf"record entry {n} .*the game is over"):
        longer.replay()
    states = longer.states()
    for _ in range(n + 1):
        next(states)  # every entry before the extra one replays
    with pytest.raises(RecordError, match=rf"record entry {n}"):
        next(states)
    assert game.game.is_terminal(game.final)


def test_another_rules_version_is_refused(finished: tuple[Playthrough, Record]) -> None:
    _, record = finished
    older = attrs.evolve(record, rules_version="0")
    with pytest.raises(RecordError, match=r"rules version '0'.*will not replay it wrongly"):
        older.replay()
    with pytest.raises(RecordError, match="rules version"):
        Record.from_json(older.to_json()).load_game()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "no-such-game"}, "cannot load its game: no game or variant"),
        ({"options": {"max_turns": 0}}, "cannot load its game: max_turns"),
        ({"options": {"speed": 3}}, "cannot load its game: .*has no option 'speed'"),
        ({"seed": -1}, "malformed seed: expected an integer from 0 to 18446744073709551615"),
    ],
)
def test_a_record_that_cannot_start_is_a_record_error(
    finished: tuple[Playthrough, Record], change: dict[str, Any], message: str
) -> None:
    _, record = finished
    with pytest.raises(RecordError, match=message):
        attrs.evolve(record, **change).replay()


def test_malformed_record_data_is_a_serialization_error(
    finished: tuple[Playthrough, Record],
) -> None:
    _, record = finished
    good = record.to_data()
    for bad, message in [
        (None, "a record is a JSON object"),
        ([], "a record is a JSON object"),
        ({k: v for k, v in good.items() if k != "seed"}, r"record: missing keys \['seed'\]"),
        ({**good, "extra": 1}, r"record: unknown keys \['extra'\]"),
        ({**good, "format": 4}, "record format 4 is not one this library reads"),
        ({**good, "format": "2"}, "record format '2' is not one this library reads"),
        ({**good, "format": 1}, "a record of format 1 holds no key 'claims'"),
        ({**good, "seed": "5"}, r"record\.seed: expected an integer"),
        ({**good, "seed": True}, r"record\.seed: expected an integer"),
        ({**good, "actions": "move 1,0"}, r"record\.actions: expected a list"),
        ({**good, "actions": [1, 2]}, r"record\.actions\[0\]: expected a string"),
        ({**good, "options": []}, r"record\.options: expected an object"),
        ({**good, "explicit_chance": 0}, r"record\.explicit_chance: expected true or false"),
        ({**good, "game": 7, "rules_version": None}, r"record\.game: expected a string"),
        ({**good, "stack": ["KS"]}, r"record\.stack: expected an object"),
        ({**good, "stack": {"narrative": "KS"}}, r"record\.stack\.narrative: expected a list"),
    ]:
        with pytest.raises(SerializationError, match=message):
            Record.from_data(bad)
    text = record.to_json()
    for broken in (text[: len(text) // 2], "", "not json", None):
        with pytest.raises(SerializationError, match="a record is JSON text"):
            Record.from_json(broken)  # type: ignore[arg-type]


# ------------------------------------------------------ hostile JSON text
DEEP = "[" * 100_000
LONG_INTEGER = "1" * 5_000  # over Python's limit of 4,300 digits for int("...")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (DEEP, "nests lists or objects too deeply"),
        ('{"game": ' + "[" * 50_000 + "]" * 50_000 + "}", "nests lists or objects too deeply"),
        (LONG_INTEGER, "an integer of more than 4300 digits"),
        ('{"seed": ' + LONG_INTEGER + "}", "an integer of more than 4300 digits"),
    ],
    ids=["deep", "deep-inside", "long-integer", "long-integer-inside"],
)
def test_json_python_cannot_read_is_a_serialization_error(text: str, message: str) -> None:
    """Text that is JSON, but nested deeper than the decoder recurses or holding an
    integer longer than Python reads, is a bad record, not a RecursionError or a bare
    ValueError."""
    with pytest.raises(SerializationError, match=f"a record is JSON text: it .*{message}"):
        Record.from_json(text)


def test_data_nested_too_deeply_is_refused_before_it_is_read(
    finished: tuple[Playthrough, Record],
) -> None:
    """Deep data the JSON decoder still reads (under its recursion limit) would reach it
    in the code that reads the record (the stack's encoder recurses): refused first."""
    _, record = finished
    good = record.to_data()
    deep: Any = "KS"
    for _ in range(900):
        deep = [deep]
    text = json.dumps({**good, "stack": {"narrative": deep}})
    for bad in ({**good, "stack": {"narrative": deep}}, {**good, "options": {"x": deep}}):
        with pytest.raises(SerializationError, match="at most 100 levels deep"):
            Record.from_data(bad)
    with pytest.raises(SerializationError, match="at most 100 levels deep"):
        Record.from_json(text)
    # Records nest a few levels; a stack of cells is as deep as they go.
    assert Record.from_data({**good, "stack": {"narrative": [["KS"]] * 3}}).stack is not None
