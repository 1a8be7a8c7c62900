"""Saving states: the JSON round trip, and bad data always refused with SerializationError."""

from __future__ import annotations

import copy
import enum
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import Card, SerializationError
from cardcrawl.core._codec import decode, encode
from cardcrawl.core._saving import FORMAT_VERSION
from cardcrawl.mapless import Draw, MaplessState, Move, Phase, Place, PlaceExit
from strategies import ALL_52, mapless, play, seeds

GAME = mapless()


def json_round_trip(data: Any) -> Any:
    return json.loads(json.dumps(data))


def saved(state: MaplessState) -> dict[str, Any]:
    data: dict[str, Any] = json_round_trip(GAME.state_to_data(state))
    return data


def phase_one_state() -> MaplessState:
    return GAME.initial_state(3)


def hunt_state() -> MaplessState:
    """A state in phase two at a Move decision, after turn 1 began."""
    state = GAME.initial_state(3)
    while not (state.phase is Phase.MOVE and state.turn >= 1):
        state = GAME.step(state, GAME.legal_actions(state)[0])
    return state


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_every_state_survives_a_json_round_trip(
    seed: int, data: st.DataObject, explicit: bool
) -> None:
    """Every state of a random game, saved, sent through JSON and loaded, is equal to the
    original and plays on exactly like it."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    for step in game.steps:
        loaded = GAME.state_from_data(saved(step.state))
        assert loaded == step.state
        assert GAME.legal_actions(loaded) == GAME.legal_actions(step.state)
        assert GAME.step(loaded, step.action) == step.next_state
        assert GAME.action_from_data(json_round_trip(GAME.action_to_data(step.action))) == (
            step.action
        )
    assert GAME.state_from_data(saved(game.final)) == game.final


def test_saved_data_is_tagged_with_game_rules_and_format() -> None:
    data = GAME.state_to_data(phase_one_state())
    assert set(data) == {"format", "game", "rules_version", "state"}
    assert (data["format"], data["game"], data["rules_version"]) == (
        FORMAT_VERSION,
        "mapless-house",
        GAME.rules_version,
    )
    assert data["state"]["type"] == "MaplessState"
    assert "_memo" not in data["state"]


@pytest.mark.parametrize("data", [None, [], "state", 5, 1.5, True], ids=repr)
def test_a_non_object_is_refused(data: object) -> None:
    with pytest.raises(SerializationError, match="a saved state is an object"):
        GAME.state_from_data(data)


def drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.pop(key)


def drop_in_state(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["state"].pop(key)


def set_top(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(key, value)


def set_field(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["state"].__setitem__(key, value)


def duplicate_a_card(d: dict[str, Any]) -> None:
    d["state"]["refused"].append(d["state"]["table"][-1][2])


def remove_a_card(d: dict[str, Any]) -> None:
    d["state"]["mind"]["rest"].pop()


def swap_a_card_for_a_joker(d: dict[str, Any]) -> None:
    d["state"]["mind"]["rest"][0] = "RJ"


def tamper_closed(d: dict[str, Any]) -> None:
    d["state"]["closed"].append([40, 40])


def untamper_closed(d: dict[str, Any]) -> None:
    d["state"]["closed"].pop()


def move_the_entrance(d: dict[str, Any]) -> None:
    for item in d["state"]["table"]:
        if item[2] == "AD":
            item[0] = 99


def put_the_player_off_the_table(d: dict[str, Any]) -> None:
    d["state"]["player"] = [50, 50]


def same_cell_twice(d: dict[str, Any]) -> None:
    first = d["state"]["table"][0]
    d["state"]["table"].append([first[0], first[1], "2H"])


# (label, tampering, pattern the message must match) on a state of the hunt.
TAMPERINGS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("missing state", drop("state"), "keys"),
    ("missing format", drop("format"), "format None"),
    ("missing game", drop("game"), "game None"),
    ("extra top key", set_top("extra", 1), "keys"),
    ("wrong game", set_top("game", "escape-from-haydes"), "game 'escape-from-haydes'"),
    ("a variant's name", set_top("game", "mapless-house-brief"), "mapless-house-brief"),
    ("wrong format", set_top("format", FORMAT_VERSION + 1), "format 2"),
    ("format as text", set_top("format", "1"), "format '1'"),
    ("other rules version", set_top("rules_version", "0"), "rules_version '0'"),
    ("missing phase", drop_in_state("phase"), r"missing keys \['phase'\]"),
    ("missing table", drop_in_state("table"), r"missing keys \['table'\]"),
    ("unknown field", set_field("mood", "grim"), r"unknown keys \['mood'\]"),
    ("turn as text", set_field("turn", "3"), r"state\.turn: expected an integer"),
    ("turn as bool", set_field("turn", True), r"state\.turn: expected an integer"),
    ("phase unknown", set_field("phase", "dance"), r"state\.phase: expected one of"),
    ("table not a list", set_field("table", {"0,0": "AD"}), r"state\.table: expected a list"),
    ("table item short", set_field("table", [[0, 0]]), r"state\.table\[0\]"),
    ("player not a cell", set_field("player", [0]), r"state\.player: expected a list of 2"),
    ("player as text", set_field("player", "0,0"), r"state\.player: expected a list"),
    ("deck not an object", set_field("mind", ["2H"]), r"state\.mind: expected an object"),
    ("card not a code", set_field("drawn", 7), r"state\.drawn"),
    ("card unknown", set_field("held", ["ZZ"]), r"state\.held\[0\]"),
    ("event unknown", set_field("events", [{"type": "Nope"}]), r"state\.events\[0\]"),
    ("event not an object", set_field("events", ["x"]), r"state\.events\[0\]"),
    ("closed not cells", set_field("closed", [[0]]), r"state\.closed\[0\]"),
    ("bool as bool", set_field("explicit_chance", 1), r"state\.explicit_chance: expected true"),
    ("state not an object", set_top("state", []), r"state: expected an object"),
    ("other state type", set_field("type", "MaplessObservation"), r"state\.type"),
    ("a card duplicated", duplicate_a_card, "each of the 52 cards once.*extra"),
    ("a card removed", remove_a_card, "each of the 52 cards once.*missing"),
    ("a joker slipped in", swap_a_card_for_a_joker, "each of the 52 cards once.*extra RJ"),
    ("closed cells tampered", tamper_closed, "closed cells do not match"),
    ("closed cells removed", set_field("closed", []), "closed cells do not match"),
    ("entrance moved", move_the_entrance, r"Entrance is not at \(0, 0\)"),
    ("player off the table", put_the_player_off_the_table, "player is not on a table card"),
    ("one cell twice", same_cell_twice, "appears twice"),
    ("rng negative", set_field("rng", -1), "rng must be"),
    ("rng too big", set_field("rng", 2**64), "rng must be"),
    ("turn negative", set_field("turn", -1), "turn must be"),
    ("ending while playing", set_field("ending", "escaped"), "ending must be set exactly"),
    ("exit cell wrong", set_field("exit_cell", [0, 0]), "the Exit is not on its cell"),
    ("spade off table", set_field("spade", None), "♠A is on the table exactly"),
    ("club without dry", set_field("club", [0, 0]), "♣A is on the table although"),
    ("last room not a room", set_field("last_room", [0, 0]), "last_room is not a room"),
    ("drawn at a move", set_field("drawn", "AS"), "drawn card must wait|52 cards"),
]


@pytest.mark.parametrize(
    ("tamper", "message"), [t[1:] for t in TAMPERINGS], ids=[t[0] for t in TAMPERINGS]
)
def test_malformed_or_tampered_data_is_a_serialization_error(
    tamper: Callable[[dict[str, Any]], None], message: str
) -> None:
    """Bad data is refused with SerializationError (never KeyError or TypeError), and the
    message says what is wrong."""
    data = saved(hunt_state())
    tamper(data)
    with pytest.raises(SerializationError, match=message):
        GAME.state_from_data(data)


def test_closed_cells_untampered_load_fine() -> None:
    """The checks above are not vacuous: the untouched data loads."""
    state = hunt_state()
    data = saved(state)
    tamper_closed(data)
    untamper_closed(data)
    assert GAME.state_from_data(data) == state


def test_saved_data_is_not_shared_with_the_state() -> None:
    state = hunt_state()
    data = GAME.state_to_data(state)
    data["state"]["table"].clear()
    assert GAME.state_from_data(saved(state)) == state


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["", "QS", "AS", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside nested dicts and lists."""
    found = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            found += paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found += paths(v, (*prefix, i))
    return found


@given(
    which=st.sampled_from(["phase one", "hunt"]),
    picks=st.lists(st.tuples(st.integers(0, 10**6), JSON, st.booleans()), min_size=1, max_size=4),
)
def test_random_damage_is_refused_or_harmless(
    which: str, picks: list[tuple[int, Any, bool]]
) -> None:
    """Any value anywhere replaced (or a key deleted): the load either succeeds with a
    state holding all 52 cards, or fails with SerializationError; nothing else escapes."""
    state = phase_one_state() if which == "phase one" else hunt_state()
    data = saved(state)
    for index, value, delete in picks:
        everywhere = paths(data)[1:]
        path = everywhere[index % len(everywhere)]
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if delete and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(value)
    try:
        loaded = GAME.state_from_data(data)
    except SerializationError:
        return
    census = Counter(c for cards in GAME.card_census(loaded).values() for c in cards)
    assert census == ALL_52


@pytest.mark.parametrize("fmt", [True, 1.0])
def test_a_format_that_only_equals_1_is_refused(fmt: object) -> None:
    data = saved(phase_one_state())
    data["format"] = fmt
    with pytest.raises(SerializationError):
        GAME.state_from_data(data)


def spade_into_the_mind_deck(data: dict[str, Any]) -> None:
    card = data["state"]["narrative"]["rest"].pop(0)
    data["state"]["mind"]["rest"].append(card)
    data["state"]["mind"]["rest"].sort(key=lambda code: Card.parse(code))


def heart_in_hand_at_a_move(data: dict[str, Any]) -> None:
    data["state"]["mind_card"] = data["state"]["mind"]["rest"].pop(0)


@pytest.mark.parametrize(
    ("make", "tamper"),
    [(phase_one_state, spade_into_the_mind_deck), (hunt_state, heart_in_hand_at_a_move)],
    ids=["a spade in the Mind deck", "a heart in hand at a Move"],
)
def test_a_card_in_the_wrong_place_is_refused(
    make: Callable[[], MaplessState], tamper: Callable[[dict[str, Any]], None]
) -> None:
    data = saved(make())
    tamper(data)
    with pytest.raises(SerializationError):
        GAME.state_from_data(data)


def test_actions_save_as_their_text() -> None:
    for action in (Place((1, -2)), PlaceExit((3, 0)), Move((0, 1)), Draw(Card.parse("10H"))):
        assert GAME.action_to_data(action) == str(action)
        assert GAME.action_from_data(str(action)) == action
    for bad in (None, 3, ["move 0,1"], "jump 1,1", "move 1", "draw ZZ", ""):
        with pytest.raises(SerializationError):
            GAME.action_from_data(bad)


def test_options_save_and_load() -> None:
    game = cardcrawl.load("mapless-house", max_turns=12)
    data = json_round_trip(game.options.to_data())
    assert data == {"max_turns": 12, "dread_lines": None}
    assert type(game.options).from_data(data) == game.options


def test_the_codec_names_the_path_of_a_bad_value() -> None:
    assert encode((Card.parse("QS"), (1, -2), None)) == ["QS", [1, -2], None]
    assert decode(tuple[Card, ...], ["QS", "2C"]) == (Card.parse("QS"), Card.parse("2C"))
    with pytest.raises(SerializationError, match=r"data\[1\]: 'XX' is not a card"):
        decode(tuple[Card, ...], ["QS", "XX"])
    with pytest.raises(SerializationError, match=r"data: an item appears twice"):
        decode(frozenset[int], [1, 1])
    with pytest.raises(SerializationError, match=r"data: expected an integer, found 'x'"):
        decode(int, "x")


class _Level(enum.Enum):
    LOW = 1
    HIGH = 2


def _deep(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("tp", "data"),
    [
        (Phase, ["draw"]),
        (Phase, _deep(3_000)),  # Enum's own message would repr it, and recurse too deep
        (Phase, 0),
        (_Level, True),  # JSON true is not the member 1
        (_Level, 1.0),
        (_Level, "1"),
        (_Level, 3),
    ],
    ids=["list", "nested", "int-for-text", "bool", "float", "text-for-int", "no-member"],
)
def test_an_enum_takes_only_a_value_of_its_own_type(tp: Any, data: Any) -> None:
    with pytest.raises(SerializationError, match=r"^data: expected one of .*, found "):
        decode(tp, data)


def test_an_enum_reads_its_members_values() -> None:
    assert decode(Phase, "draw") is Phase.DRAW
    assert decode(_Level, 2) is _Level.HIGH
