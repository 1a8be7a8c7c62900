"""Record claims: a record says how long it is, how the game ended and what every state
was, and replaying refuses a record that was cut, or had its seed or a decision changed,
naming the claim that fails or the first entry whose state is not the one recorded."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, Match, Record, RecordError, SerializationError
from cardcrawl.core._saving import FORMAT_VERSION

GAMES = ("mapless-house", "escape-from-haydes")
# Long enough for most random games of both to end, short enough to be fast; a game
# still going at the cap makes a record of a game in progress, which has claims too.
MAX_ACTIONS = 120


def random_play(
    name: str, seed: int, policy: int, *, explicit: bool = False
) -> tuple[Any, list[Any], list[Any]]:
    """(the game, its actions, its states) of a game played at random by ``policy``."""
    game = cardcrawl.load(name)
    choose = random.Random(policy).choice
    state = game.initial_state(seed, explicit_chance=explicit)
    actions: list[Any] = []
    states = [state]
    while not game.is_terminal(state) and len(actions) < MAX_ACTIONS:
        if game.current_player(state) == CHANCE:
            action = choose([outcome for outcome, _ in game.chance_outcomes(state)])
        else:
            action = choose(game.legal_actions(state))
        state = game.step(state, action)
        actions.append(action)
        states.append(state)
    return game, actions, states


def choices_at(game: Any, state: Any) -> list[Any]:
    """What could have been played at ``state``: decisions, or chance outcomes."""
    if game.current_player(state) == CHANCE:
        return [outcome for outcome, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def retold(record: Record, **changes: Any) -> Record:
    """``record`` with some of its data changed, read back as a file would be."""
    return Record.from_data(json.loads(json.dumps({**record.to_data(), **changes})))


def refusal(record: Record) -> str:
    with pytest.raises(RecordError) as caught:
        record.replay()
    return str(caught.value)


games = st.sampled_from(GAMES)
seeds = st.integers(0, 2**32)
policies = st.integers(0, 2**16)


# ----------------------------------------------------------------- tampering
@given(name=games, seed=seeds, policy=policies, explicit=st.booleans(), data=st.data())
def test_a_changed_decision_names_its_entry(
    name: str, seed: int, policy: int, explicit: bool, data: st.DataObject
) -> None:
    """Changing any one entry to another action that was legal there (a decision, or in
    explicit play a chance outcome) is refused, and the error names that entry, not a
    later one that the change made illegal."""
    game, actions, states = random_play(name, seed, policy, explicit=explicit)
    record = Record.of(game, seed, actions, explicit_chance=explicit)
    changeable = [i for i, s in enumerate(states[:-1]) if len(choices_at(game, s)) > 1]
    assume(changeable)
    i = data.draw(st.sampled_from(changeable), label="entry")
    other = data.draw(
        st.sampled_from([a for a in choices_at(game, states[i]) if a != actions[i]]),
        label="instead",
    )
    # An action that makes the very same state leaves the game as it was: nothing to see.
    assume(game.step(states[i], other) != states[i + 1])
    text = game.format_action(other)
    tampered = retold(record, actions=[*record.actions[:i], text, *record.actions[i + 1 :]])
    message = refusal(tampered)
    assert message.startswith(f"record entry {i} ({text!r}) is not the action recorded: ")
    assert record.claims is not None
    assert f"the record claims the state after it has digest {record.claims.trail[i]}" in message


@given(name=games, seed=seeds, policy=policies, data=st.data())
def test_a_record_cut_short_is_refused_by_its_length(
    name: str, seed: int, policy: int, data: st.DataObject
) -> None:
    """Every cut (of the actions alone) is refused, with the length claimed and found."""
    game, actions, _ = random_play(name, seed, policy)
    record = Record.of(game, seed, actions)
    n = len(actions)
    assume(n >= 1)
    kept = data.draw(st.integers(0, n - 1), label="kept")
    message = refusal(retold(record, actions=record.actions[:kept]))
    assert message.startswith("record fails its length")
    assert f"the record claims {n} action" in message
    assert f"replaying gives {kept} action" in message
    missing = n - kept
    assert "The record was cut short: " in message
    assert f"{missing} of its {n} entries" in message or f"all {n} of its entries" in message


@given(name=games, seed=seeds, policy=policies, data=st.data())
def test_a_cut_with_the_claims_cut_to_match_is_refused_by_its_end(
    name: str, seed: int, policy: int, data: st.DataObject
) -> None:
    """Cutting the trail and the length claim with the actions still leaves the final
    digest (and the ending) of the whole game to give the cut away."""
    game, actions, _ = random_play(name, seed, policy)
    record = Record.of(game, seed, actions)
    assert record.claims is not None
    n = len(actions)
    assume(n >= 1)
    kept = data.draw(st.integers(0, n - 1), label="kept")
    claims = {
        **record.to_data()["claims"],
        "length": kept,
        "trail": list(record.claims.trail[:kept]),
    }
    message = refusal(retold(record, actions=record.actions[:kept], claims=claims))
    assert re.match(r"record fails its (ending and )?final digest claims?: ", message)
    assert "the claims themselves were changed" in message


@given(name=games, seed=seeds, policy=policies, other=seeds)
def test_a_changed_seed_is_refused_by_the_start_claim(
    name: str, seed: int, policy: int, other: int
) -> None:
    assume(other != seed)
    game, actions, _ = random_play(name, seed, policy)
    record = Record.of(game, seed, actions)
    message = refusal(retold(record, seed=other))
    # The start is checked before any entry, so a first entry made illegal by the
    # other deal is not blamed.
    assert message.startswith("record's start claim fails: ")
    assert f"seed {other} with its options" in message


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("mapless-house", {"max_turns": 200}),
        ("escape-from-haydes", {"max_rounds": 40}),
        ("escape-from-haydes", {"tuybe": True}),
    ],
)
def test_a_changed_option_is_refused_by_the_start_claim(name: str, options: dict[str, Any]) -> None:
    """Even an option that changes nothing at the start (a turn limit) is part of it."""
    game, actions, _ = random_play(name, 3, 3)
    record = Record.of(game, 3, actions)
    changed = retold(record, options={**record.options, **options})
    assert refusal(changed).startswith("record's start claim fails: ")


def test_a_changed_stack_or_explicit_chance_is_refused_by_the_start_claim() -> None:
    game = cardcrawl.load("mapless-house")
    stack = {"mind": ["2H"]}
    record = Record.of(game, 3, ["place 1,0"], stack=stack)
    for changed in (
        retold(record, stack={"mind": ["3H"]}),
        retold(record, stack=None),
        retold(Record.of(game, 3, []), explicit_chance=True),
    ):
        assert refusal(changed).startswith("record's start claim fails: ")


def test_a_changed_decision_is_named_even_when_a_later_entry_fails() -> None:
    """The audit's case: a plausible edit early makes a later entry illegal; the error
    names the edited entry, not the one that no longer replays."""
    game, actions, states = random_play("mapless-house", 11, 11)
    record = Record.of(game, 11, actions)
    for i, state in enumerate(states[:-1]):
        for other in game.legal_actions(state):
            tampered = [*actions[:i], other, *actions[i + 1 :]]
            try:
                Record.of(game, 11, tampered)
            except RecordError as error:
                later = re.match(r"record entry (\d+)", str(error))
                assert later is not None
                assert int(later.group(1)) > i
                text = game.format_action(other)
                message = refusal(retold(record, actions=[game.format_action(a) for a in tampered]))
                assert message.startswith(f"record entry {i} ({text!r}) is not the action recorded")
                return
    pytest.fail("no edit of this game made a later entry illegal")


def test_an_entry_added_to_a_game_in_progress_is_named() -> None:
    game, actions, states = random_play("escape-from-haydes", 5, 5)
    half = len(actions) // 2
    record = Record.of(game, 5, actions[:half])
    extra = game.format_action(game.legal_actions(states[half])[0])
    message = refusal(retold(record, actions=[*record.actions, extra]))
    assert message.startswith(f"record entry {half} ({extra!r}) was added: the record claims ")


def test_edited_claims_are_refused() -> None:
    game, actions, _ = random_play("mapless-house", 2, 2)
    record = Record.of(game, 2, actions)
    claims = record.to_data()["claims"]
    assert claims["ending"] is not None
    for key, value, failing in [
        ("ending", {"label": "won by a mile", "returns": [1.0]}, "ending claim"),
        ("ending", None, "ending claim"),
        ("digest", "0" * 64, "final digest claim"),
        ("start", "0" * 16, "start claim"),
    ]:
        message = refusal(retold(record, claims={**claims, key: value}))
        assert failing in message
    trail = ["0" * 16, *claims["trail"][1:]]
    assert refusal(retold(record, claims={**claims, "trail": trail})).startswith(
        f"record entry 0 ({record.actions[0]!r}) is not the action recorded"
    )


def test_digests_of_another_state_format_are_not_checked_blindly() -> None:
    record = Record.of(cardcrawl.load("mapless-house"), 3, ["place 1,0"])
    assert record.claims is not None
    other = attrs.evolve(record, claims=attrs.evolve(record.claims, state_format=99))
    message = refusal(other)
    assert "made from mapless-house states saved in format 99" in message
    assert f"saves them in format {FORMAT_VERSION}" in message


def test_malformed_claims_are_a_serialization_error() -> None:
    record = Record.of(cardcrawl.load("mapless-house"), 3, ["place 1,0", "place 2,0"])
    good = record.to_data()
    claims = good["claims"]
    for bad, message in [
        (
            {**{k: v for k, v in good.items() if k != "claims"}, "format": 2},
            "a record of format 2 holds the key 'claims'",
        ),
        ({**good, "claims": None} | {"format": 2}, "a record of format 2 holds the key 'claims'"),
        ({**good, "claims": {**claims, "extra": 1}}, r"record\.claims: unknown keys \['extra'\]"),
        ({**good, "claims": {**claims, "length": -1}}, r"record\.claims\.length: expected an"),
        ({**good, "claims": {**claims, "length": True}}, r"record\.claims\.length"),
        ({**good, "claims": {**claims, "digest": "ABC"}}, r"record\.claims\.digest: expected"),
        ({**good, "claims": {**claims, "start": claims["digest"]}}, r"record\.claims\.start"),
        ({**good, "claims": {**claims, "trail": claims["trail"][:1]}}, "expected 2 digests"),
        ({**good, "claims": {**claims, "ending": {"label": "x"}}}, r"record\.claims\.ending"),
        ({**good, "claims": {**claims, "state_format": "1"}}, r"claims\.state_format"),
        ({**good, "format": 1}, "a record of format 1 holds no key 'claims'"),
    ]:
        with pytest.raises(SerializationError, match=message):
            Record.from_data(bad)


HUGE = 10**5000  # over Python's limit of 4,300 digits for str(int)


def test_hostile_numbers_in_claims_are_messages() -> None:
    """Integers too long to write as text, or to make floats of, and lists too deep to
    repr are named, not raised as a bare ValueError, OverflowError or RecursionError
    while the message is written."""
    record = Record.of(cardcrawl.load("mapless-house"), 3, ["place 1,0"])
    good = record.to_data()
    claims = good["claims"]
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    for bad, message in [
        ({**good, "format": HUGE}, "record format an integer of about 5000 digits"),
        ({**good, "claims": {**claims, "state_format": HUGE}}, "an integer of about 5000 digits"),
        ({**good, "claims": {**claims, "length": HUGE}}, "an integer of about 5000 digits"),
        ({**good, "claims": {**claims, "ending": {"label": "x", "returns": [HUGE]}}}, "ending"),
        ({**good, "format": True}, "record format True is not one this library reads"),
        ({**good, "format": deep}, "record format a list nested too deep to show is not"),
    ]:
        with pytest.raises(SerializationError, match=message):
            Record.from_data(bad)


# --------------------------------------------------------------- old records
# A record written by cardcrawl before records had claims (format 1), as it was saved.
OLD_RECORD = """{
 "format": 1,
 "game": "mapless-house",
 "rules_version": "2",
 "options": {
  "max_turns": 50,
  "dread_lines": null
 },
 "seed": 3,
 "explicit_chance": false,
 "actions": [
  "place 1,0",
  "place 2,0"
 ],
 "stack": null
}"""


def test_an_old_record_loads_and_replays_unverified() -> None:
    old = Record.from_json(OLD_RECORD)
    assert old.claims is None
    assert not old.verified
    game = cardcrawl.load("mapless-house", max_turns=50)
    made = Record.of(game, 3, ["place 1,0", "place 2,0"])
    assert old.replay() == made.replay()
    assert made.verified
    assert attrs.evolve(made, claims=None) == old
    # Written again, it is a record of format 3 without claims: the same keys, its
    # null stack left out.
    again = {**json.loads(OLD_RECORD), "format": 3}
    del again["stack"]
    assert json.loads(old.to_json()) == again


def test_an_old_record_cut_short_goes_unseen() -> None:
    """Without claims, a cut replays as a game in progress: what the claims are for."""
    old = Record.from_json(OLD_RECORD)
    game = cardcrawl.load("mapless-house", max_turns=50)
    assert attrs.evolve(old, actions=old.actions[:1]).replay() == game.step(
        game.initial_state(3), game.parse_action("place 1,0")
    )


PINNED = (
    "92d3105619edcfa1",
    ("dc67365c504f7669", "f1fd538848a70810"),
    "f1fd538848a70810244ebe08d15f75780497bba742c3f7c82ffca92ae3f3f164",
)


# A record saved by this version (format 2). Its digests must keep verifying: if they
# stop, states are digested differently, and every saved record would be refused.
SAVED_RECORD = {
    "format": 2,
    "game": "mapless-house",
    "rules_version": "2",
    "options": {"max_turns": 50, "dread_lines": None},
    "seed": 3,
    "explicit_chance": False,
    "actions": ["place 1,0", "place 2,0"],
    "stack": None,
    "claims": None,  # filled in below, from the digests pinned here
}


def test_a_saved_record_keeps_verifying() -> None:
    made = Record.of(cardcrawl.load("mapless-house", max_turns=50), 3, ["place 1,0", "place 2,0"])
    assert made.claims is not None
    assert (made.claims.start, made.claims.trail, made.claims.digest) == PINNED
    claims = {
        "length": 2,
        "ending": None,
        "digest": PINNED[2],
        "state_format": 1,
        "start": PINNED[0],
        "trail": list(PINNED[1]),
    }
    saved = Record.from_data({**SAVED_RECORD, "claims": claims})
    assert saved == made
    assert saved.replay() == made.replay()


# ---------------------------------------------------------------- round trips
@given(name=games, seed=seeds, policy=policies, explicit=st.booleans())
def test_round_trips_keep_the_claims(name: str, seed: int, policy: int, explicit: bool) -> None:
    game, actions, states = random_play(name, seed, policy, explicit=explicit)
    record = Record.of(game, seed, actions, explicit_chance=explicit)
    assert record.claims is not None
    assert record.claims.length == len(actions) == len(record.claims.trail)
    outcome = game.outcome(states[-1])
    if outcome is None:
        assert record.claims.ending is None
    else:
        assert record.claims.ending == (outcome.label, outcome.returns)
    again = Record.from_json(record.to_json())
    assert again == record
    assert again.claims == record.claims
    assert list(again.states()) == states
    match = Match.from_record(again)
    assert match.to_record() == record
    assert "claims" not in attrs.evolve(record, claims=None).to_data()


def test_digests_do_not_depend_on_the_process() -> None:
    """The digest of a state is made from canonical JSON, so it is the same in every
    process: sets are saved sorted, and no hash seed leaks into it."""
    script = (
        "import cardcrawl, random\n"
        "out = []\n"
        "for name in ('mapless-house', 'escape-from-haydes'):\n"
        "    game = cardcrawl.load(name)\n"
        "    state = game.initial_state(7)\n"
        "    actions = []\n"
        "    choose = random.Random(7).choice\n"
        "    while not game.is_terminal(state) and len(actions) < 60:\n"
        "        actions.append(choose(game.legal_actions(state)))\n"
        "        state = game.step(state, actions[-1])\n"
        "    claims = cardcrawl.Record.of(game, 7, actions).claims\n"
        "    out.append(claims.start + claims.digest + ''.join(claims.trail))\n"
        "print(' '.join(out))\n"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            check=True,
            timeout=120,
        ).stdout
        for hash_seed in ("1", "2")
    }
    assert len(runs) == 1


def test_claims_cost_a_few_bytes_per_action() -> None:
    game, actions, _ = random_play("mapless-house", 5, 5)
    record = Record.of(game, 5, actions)
    grown = len(record.to_json()) - len(attrs.evolve(record, claims=None).to_json())
    assert grown <= 300 + 23 * len(actions)


# ---------------------------------------------------------------- the schema
jsonschema = pytest.importorskip("jsonschema")


def test_the_schema_is_valid_and_shipped() -> None:
    schema = Record.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["format"]["enum"] == [1, 2, Record.FORMAT]


@given(name=games, seed=seeds, policy=policies, explicit=st.booleans())
def test_records_fit_the_schema(name: str, seed: int, policy: int, explicit: bool) -> None:
    game, actions, _ = random_play(name, seed, policy, explicit=explicit)
    record = Record.of(game, seed, actions, explicit_chance=explicit)
    validator = jsonschema.Draft202012Validator(Record.json_schema())
    validator.validate(json.loads(record.to_json()))
    validator.validate(json.loads(attrs.evolve(record, claims=None).to_json()))


def test_the_schema_refuses_what_from_data_refuses() -> None:
    validator = jsonschema.Draft202012Validator(Record.json_schema())
    record = Record.of(cardcrawl.load("mapless-house"), 3, ["place 1,0"], stack={"mind": "2H"})
    good = record.to_data()
    validator.validate(good)
    validator.validate(json.loads(OLD_RECORD))
    claims = good["claims"]
    for bad in [
        {**{k: v for k, v in good.items() if k != "claims"}, "format": 2},
        {**good, "format": 1},
        {**good, "format": 4},
        {**good, "extra": 1},
        {**good, "seed": "3"},
        {**good, "seed": True},
        {**good, "actions": [1]},
        {**good, "stack": ["KS"]},
        {**good, "claims": {**claims, "digest": "ABC"}},
        {**good, "claims": {**claims, "trail": ["xyz"]}},
        {**good, "claims": {**claims, "ending": {"label": "x"}}},
        {**good, "claims": {k: v for k, v in claims.items() if k != "start"}},
    ]:
        assert not validator.is_valid(bad), bad
        with pytest.raises(SerializationError):
            Record.from_data(bad)
