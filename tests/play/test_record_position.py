"""Records and matches that start from a position: the position's notation takes the
place of the seed and the stack, replaying starts from ``game.position(text)``, the
claims check it as they check a seed, and the text is untrusted input, bounded and
refused with the field named. A record without a position is written as before."""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import pickle
import random
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, Match, Record, RecordError, SerializationError
from cardcrawl.errors import NotationError, OptionsError

HOUSE = cardcrawl.load("mapless-house")
PUZZLE = "AD phase=place:KS player=0,0 rng=0000000000000001"
GAMES = ("mapless-house", "escape-from-haydes")


def played(name: str, seed: int, policy: int, explicit: bool, most: int) -> tuple[Any, list[Any]]:
    """(the game, its states) of a game played at random for at most ``most`` actions."""
    game = cardcrawl.load(name)
    choose = random.Random(policy).choice
    state = game.initial_state(seed, explicit_chance=explicit)
    states = [state]
    while not game.is_terminal(state) and len(states) <= most:
        if game.current_player(state) == CHANCE:
            action = choose([outcome for outcome, _ in game.chance_outcomes(state)])
        else:
            action = choose(game.legal_actions(state))
        state = game.step(state, action)
        states.append(state)
    return game, states


def actions_between(game: Any, states: list[Any]) -> list[str]:
    """The text of the action between each two states (found by trying the legal ones)."""
    texts = []
    for before, after in itertools.pairwise(states):
        if game.current_player(before) == CHANCE:
            options = [outcome for outcome, _ in game.chance_outcomes(before)]
        else:
            options = list(game.legal_actions(before))
        action = next(a for a in options if game.step(before, a) == after)
        texts.append(game.format_action(action))
    return texts


# ------------------------------------------------------------- replaying
@given(
    name=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32),
    policy=st.integers(0, 2**16),
    explicit=st.booleans(),
    cut=st.integers(0, 30),
)
def test_a_record_from_a_mid_game_position_replays_the_rest_of_the_game(
    name: str, seed: int, policy: int, explicit: bool, cut: int
) -> None:
    """A game cut at any state and recorded from that state's notation replays, through
    JSON, to the very states the game went through (events aside at the start)."""
    game, states = played(name, seed, policy, explicit, 40)
    cut = min(cut, len(states) - 1)
    rest = states[cut:]
    actions = actions_between(game, rest)
    text = game.notation(rest[0])
    record = Record.from_json(Record.of(game, position=text, actions=actions).to_json())
    assert record.seed is None
    assert record.stack is None
    assert record.position == text
    assert record.explicit_chance == explicit
    assert record.to_data()["format"] == 3
    assert record.verified
    replayed = list(record.states())
    assert replayed[0] == attrs.evolve(rest[0], events=())
    assert replayed[1:] == rest[1:]
    match = Match.from_record(record)
    assert match.position == text
    assert match.seed is None
    assert match.to_record() == record


def test_a_match_from_a_position_records_it() -> None:
    match = Match.start(HOUSE, position=PUZZLE, agents=[cardcrawl.Agent.human(0)])
    assert match.state == HOUSE.position(PUZZLE)
    match.play("place 1,0")
    record = match.to_record()
    data = record.to_data()
    assert data["seed"] is None
    assert data["position"] == PUZZLE
    assert "stack" not in data
    assert data["seed"] is None
    assert "position" in data
    again = Match.from_record(Record.from_data(json.loads(json.dumps(data))))
    assert again.states == match.states
    assert "from a position" in repr(again)
    assert "from a position" in match.to_html()


def test_the_start_claim_covers_the_position() -> None:
    """Another legal position in place of the recorded one fails the start claim."""
    record = Record.of(HOUSE, position=PUZZLE, actions=[])
    other = PUZZLE.replace("rng=0000000000000001", "rng=0000000000000002")
    HOUSE.position(other)  # a legal position: only the claim can tell
    with pytest.raises(RecordError, match=r"start claim fails: .* its position"):
        attrs.evolve(record, position=other).replay()


def test_a_record_without_a_position_is_written_as_before() -> None:
    """No ``position`` key, and a start digest of the five documented keys."""
    record = Record.of(HOUSE, 3, ["place 1,0"])
    data = record.to_data()
    assert "position" not in data
    assert data["format"] == 3
    initial = HOUSE.state_to_data(HOUSE.initial_state(3))["state"]
    start = {
        "explicit_chance": False,
        "options": dict(record.options),
        "seed": 3,
        "stack": None,
        "state": initial,
    }
    text = json.dumps(start, sort_keys=True, separators=(",", ":"))
    assert record.claims is not None
    assert record.claims.start == hashlib.sha256(text.encode()).hexdigest()[:16]


def test_a_record_from_a_position_pickles_and_copies() -> None:
    record = Record.of(HOUSE, position=PUZZLE, actions=["place 1,0"])
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record


def test_the_position_sets_explicit_chance_and_must_agree_with_the_record() -> None:
    explicit = HOUSE.notation(HOUSE.initial_state(1, explicit_chance=True))
    assert "explicit_chance" in explicit.split(" ")
    assert Record.of(HOUSE, position=explicit).explicit_chance
    with pytest.raises(RecordError, match="explicit_chance is false, but its position has"):
        Record.of(HOUSE, position=explicit, explicit_chance=False)
    with pytest.raises(NotationError) as caught:
        Match.start(HOUSE, position=PUZZLE, explicit_chance=True)
    assert caught.value.field == "explicit_chance"
    assert Match.start(HOUSE, position=explicit).explicit_chance


# ------------------------------------------------------------ refusing
def test_a_match_starts_from_one_start() -> None:
    with pytest.raises(OptionsError, match="not both"):
        Match.start(HOUSE, 1, position=PUZZLE)
    with pytest.raises(OptionsError, match="not neither"):
        Match.start(HOUSE)
    with pytest.raises(OptionsError, match="takes no stack"):
        Match.start(HOUSE, position=PUZZLE, stack={"mind": ["2H"]})
    with pytest.raises(NotationError) as caught:
        Match.start(HOUSE, position="AD phase=move player=4,0 rng=0000000000000001")
    assert caught.value.field == "player"


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"seed": 1}, "seed"),
        ({"stack": {"mind": ["2H"]}}, "stack"),
        ({"position": ""}, "position"),
        ({"position": "x" * 10_001}, "position"),
        ({"position": 5}, "position"),
        ({"position": None}, "seed"),
    ],
)
def test_a_record_names_no_two_starts(fields: dict[str, Any], named: str) -> None:
    """Built or read, a record starts from a seed or a position of bounded text."""
    base = {
        "game": HOUSE.name,
        "options": {},
        "seed": None,
        "actions": [],
        "rules_version": HOUSE.rules_version,
        "position": PUZZLE,
    }
    with pytest.raises(RecordError, match=f"malformed {named}[ :]"):
        Record(**{**base, **fields})
    data = Record.of(HOUSE, position=PUZZLE).to_data()
    with pytest.raises(SerializationError, match=rf"(malformed |record\.){named}"):
        Record.from_data({**data, **fields})


def test_a_bad_position_in_a_record_is_a_record_error_naming_the_field() -> None:
    data = Record.of(HOUSE, position=PUZZLE).to_data()
    bad = PUZZLE.replace("player=0,0", "player=4,0")
    record = Record.from_data({**data, "position": bad})
    with pytest.raises(RecordError, match="cannot start from its position: player: ") as caught:
        record.replay()
    assert isinstance(caught.value.__cause__, NotationError)
    assert caught.value.__cause__.field == "player"
    with pytest.raises(RecordError, match="cannot start from its position: rng: "):
        Record.of(HOUSE, position=PUZZLE.replace("rng=0000000000000001", "rng=1"))


def test_older_formats_hold_no_position() -> None:
    """Formats 1 and 2 take no ``position`` key: only format 3 does."""
    data = Record.of(HOUSE, position=PUZZLE).to_data()
    for fmt in (1, 2):
        kept = {k: v for k, v in data.items() if fmt == 2 or k != "claims"}
        with pytest.raises(SerializationError, match=f"of format {fmt} holds no key 'position'"):
            Record.from_data({**kept, "format": fmt})


jsonschema = pytest.importorskip("jsonschema")


def test_the_schema_takes_records_from_positions_and_refuses_two_starts() -> None:
    validator = jsonschema.Draft202012Validator(Record.json_schema())
    good = Record.of(HOUSE, position=PUZZLE, actions=["place 1,0"]).to_data()
    validator.validate(good)
    plain = Record.of(HOUSE, 3, ["place 1,0"]).to_data()
    validator.validate(plain)
    for bad in [
        {**good, "position": "x" * 10_001},
        {**good, "position": ""},
        {**plain, "format": 2, "position": PUZZLE, "seed": None},
    ]:
        assert not validator.is_valid(bad), bad
        with pytest.raises(SerializationError):
            Record.from_data(bad)
    # Two starts, or none, are a rule across fields: from_data refuses them, the
    # schema (one type per field) does not.
    for bad in [
        {**good, "seed": 3},
        {**good, "stack": {"mind": ["2H"]}},
        {**plain, "seed": None},
    ]:
        with pytest.raises(SerializationError, match="malformed s"):
            Record.from_data(bad)
