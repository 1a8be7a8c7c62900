"""Match traces: a record of format 3 names who played each seat, the result, when the
game started, and the seconds and comments of its actions. Replaying checks the result
and that there is one agent per seat; the rest is the recorder's word, bounded in size.
Records of formats 2 and 1 still load, and records without a trace are written in them."""

from __future__ import annotations

import copy
import datetime
import io
import json
import math
import pickle
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import (
    CHANCE,
    Agent,
    Match,
    Outcome,
    PlayerError,
    Record,
    RecordError,
    SerializationError,
    UndoError,
)
from cardcrawl.bots import make_bot
from cardcrawl.cli._main import main

HOUSE = cardcrawl.load("mapless-house", max_turns=50)
UTC = datetime.timezone.utc
seeds = st.integers(0, 2**32)


def finished_match(seed: int = 5) -> Match:
    """A game of The Mapless House played to its end by the heuristic bot, timed, with
    its agent and start time."""
    match = Match.start(
        HOUSE, seed, agents=[Agent.bot(0, "heuristic")], started="2026-12-02T07:20:43Z"
    )
    bot = make_bot("heuristic", HOUSE, seed=seed)
    while not HOUSE.is_terminal(match.state):
        match.play_bot(bot)
    return match


@pytest.fixture(scope="module")
def trace() -> Record:
    match = finished_match()
    match.comment("the first card goes beside the Entrance", entry=0)
    match.comment("out")
    return match.to_record()


def retold(record: Record, **changes: Any) -> Record:
    """``record`` with some of its data changed, read back as a file would be."""
    return Record.from_data(json.loads(json.dumps({**record.to_data(), **changes})))


def refusal(record: Record) -> str:
    with pytest.raises(RecordError) as caught:
        record.replay()
    return str(caught.value)


# ---------------------------------------------------------------- the trace
def test_a_trace_holds_what_the_match_saw(trace: Record) -> None:
    n = len(trace.actions)
    final = trace.replay()
    assert trace.is_trace
    assert trace.verified
    assert trace.agents == (Agent(0, "heuristic", "bot", cardcrawl.__version__),)
    assert trace.started == "2026-12-02T07:20:43Z"
    assert trace.result == HOUSE.outcome(final)
    assert trace.result is not None
    assert trace.result.scores is not None
    assert len(trace.seconds) == n
    assert all(s is not None and s >= 0 for s in trace.seconds)
    assert dict(trace.comments) == {0: "the first card goes beside the Entrance", n - 1: "out"}
    data = trace.to_data()
    assert data["format"] == 3
    assert set(data) == {
        *("format", "game", "rules_version", "options", "seed", "explicit_chance"),
        *("started", "agents", "result", "actions", "seconds", "comments", "claims"),
    }
    assert data["comments"] == {"0": "the first card goes beside the Entrance", str(n - 1): "out"}
    assert data["result"] == {
        "label": trace.result.label,
        "returns": list(trace.result.returns),
        "scores": list(trace.result.scores),
        "winners": list(trace.result.winners),
    }


def test_a_trace_round_trips_and_replays_as_a_match(trace: Record) -> None:
    again = Record.from_json(trace.to_json())
    assert again == trace
    assert pickle.loads(pickle.dumps(trace)) == trace
    assert copy.deepcopy(trace) == trace
    assert again.replay() == trace.replay()
    match = Match.from_record(again)
    assert match.agents == trace.agents
    assert match.started == trace.started
    assert [e.seconds for e in match.history] == list(trace.seconds)
    assert match.history[0].comment == trace.comments[0]
    assert match.to_record() == trace


def test_record_of_writes_the_same_trace_as_the_match(trace: Record) -> None:
    made = Record.of(
        HOUSE,
        trace.seed,
        trace.actions,
        agents=trace.agents,
        started=trace.started,
        seconds=trace.seconds,
        comments=trace.comments,
    )
    assert made == trace


def test_a_traced_match_pickles_and_goes_on_alike() -> None:
    match = Match.start(HOUSE, 4, agents=[Agent.bot(0, "random", {"seed": 4})], started=True)
    match.play("place 1,0", seconds=0.5, comment="first")
    for again in (pickle.loads(pickle.dumps(match)), copy.deepcopy(match)):
        assert again.to_record() == match.to_record()
        again.play(HOUSE.legal_actions(again.state)[0], seconds=1)
        assert again.to_record().seconds == (0.5, 1.0)
        assert again.agents == match.agents


def test_a_game_not_over_has_no_result_and_a_plain_record_no_trace() -> None:
    match = Match.start(HOUSE, 3, agents=[Agent.human(0, "Ada")])
    match.play("place 1,0", seconds=2)
    record = match.to_record()
    assert record.is_trace
    assert record.result is None
    assert record.seconds == (2.0,)
    assert "result" not in record.to_data()
    # Without a trace, a record is written in format 2, exactly as before traces.
    plain = Record.of(HOUSE, 3, ["place 1,0"])
    stripped = attrs.evolve(record, agents=(), seconds=())
    assert not stripped.is_trace
    assert stripped.to_data() == plain.to_data()
    assert not plain.is_trace
    assert plain.to_data()["format"] == 3
    assert "claims" not in attrs.evolve(plain, claims=None).to_data()


def test_a_trace_without_claims_is_unverified_but_its_result_is_checked(trace: Record) -> None:
    data = {k: v for k, v in trace.to_data().items() if k != "claims"}
    unclaimed = Record.from_data(data)
    assert unclaimed.claims is None
    assert not unclaimed.verified
    assert unclaimed.to_data() == data  # still format 3
    assert unclaimed.replay() == trace.replay()
    assert trace.result is not None
    wrong = {**data, "result": {**data["result"], "label": "wrong"}}
    assert "result claim fails" in refusal(Record.from_data(wrong))


# ----------------------------------------------------------- what is checked
@pytest.mark.parametrize("field", ["label", "returns", "scores", "no scores", "winners"])
def test_a_result_that_is_not_the_games_is_refused(trace: Record, field: str) -> None:
    """The result is checked against the replayed final state, field by field."""
    result = trace.to_data()["result"]
    change = {
        "label": {"label": result["label"] + "-not"},
        "returns": {"returns": [r + 0.5 for r in result["returns"]]},
        "scores": {"scores": [s + 1 for s in result["scores"]]},
        "no scores": {"scores": None},
        "winners": {"winners": [] if result["winners"] else [0]},
    }[field]
    message = refusal(retold(trace, result={**result, **change}))
    assert message.startswith("record's result claim fails: it claims the ending")
    assert "replaying gives the ending" in message


def test_a_result_claimed_for_a_game_not_over_is_refused(trace: Record) -> None:
    result = trace.to_data()["result"]
    cut = Record.of(HOUSE, trace.seed, trace.actions[:3], agents=trace.agents)
    message = refusal(retold(cut, format=3, result=result))
    assert "replaying gives a game not over" in message


def test_one_agent_per_seat() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2)
    two = [Agent.bot(0, "random"), Agent.human(1)]
    record = Record.of(game, 1, [], agents=two)
    assert record.replay() == game.initial_state(1)
    three = {
        **record.to_data(),
        "agents": [*record.to_data()["agents"], {**Agent.bot(2, "x").to_data()}],
    }
    assert "agents claim fails: it names 3 agents" in refusal(Record.from_data(three))
    with pytest.raises(RecordError, match="one Agent for each of its 2 seats"):
        Match.start(game, 1, agents=two[:1])
    with pytest.raises(RecordError, match="agents claim fails: it names 1 agents"):
        Record.of(game, 1, [], agents=two[:1])
    with pytest.raises(SerializationError, match=r"agents\[0\]"):
        Record.from_data({**record.to_data(), "agents": list(reversed(record.to_data()["agents"]))})


def test_agents_times_and_comments_are_the_recorders_word(trace: Record) -> None:
    """Nothing in the game can check them: a record with other agents, times or
    comments replays, verified (the promises page says so)."""
    other = attrs.evolve(
        trace,
        agents=(Agent.human(0, "someone else"),),
        seconds=(0.0,) * len(trace.actions),
        comments={1: "said later"},
        started="1999-01-01T00:00:00Z",
    )
    assert other.replay() == trace.replay()
    assert other.verified


# ------------------------------------------------------------------ bounds
GOOD_AGENT = Agent.bot(0, "heuristic", {"depth": 2}).to_data()


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("started", "2026-12-02 07:20:43", "started"),
        ("started", "2026-12-02T07:20:43+01:00", "started"),
        ("started", "2026-02-30T07:20:43Z", "started"),
        ("started", "2026-12-02T24:00:00Z", "started"),
        ("started", 1764660043, "started"),
        ("started", "2026-12-02T07:20:43.1234567Z", "started"),
        ("agents", {"0": GOOD_AGENT}, "agents"),
        ("agents", [GOOD_AGENT] * 65, "agents"),
        ("agents", [{**GOOD_AGENT, "seat": 1}], r"agents\[0\]"),
        ("agents", [{**GOOD_AGENT, "seat": True}], r"agents\[0\].*seat"),
        ("agents", [{**GOOD_AGENT, "name": ""}], r"agents\[0\].*name"),
        ("agents", [{**GOOD_AGENT, "name": "x" * 101}], r"agents\[0\].*name"),
        ("agents", [{**GOOD_AGENT, "kind": "robot"}], r"agents\[0\].*kind"),
        ("agents", [{**GOOD_AGENT, "version": ""}], r"agents\[0\].*version"),
        ("agents", [{**GOOD_AGENT, "extra": 1}], r"agents\[0\].*keys"),
        ("agents", [{**GOOD_AGENT, "settings": []}], r"agents\[0\].*settings"),
        ("agents", [{**GOOD_AGENT, "settings": {"a": [1]}}], r"agents\[0\].*settings\.a"),
        ("agents", [{**GOOD_AGENT, "settings": {"a": {"b": 1}}}], r"agents\[0\].*settings\.a"),
        ("agents", [{**GOOD_AGENT, "settings": {"a": "x" * 201}}], r"agents\[0\].*settings\.a"),
        ("agents", [{**GOOD_AGENT, "settings": {"a": 2**64}}], r"agents\[0\].*settings\.a"),
        ("agents", [{**GOOD_AGENT, "settings": {"": 1}}], r"agents\[0\].*settings"),
        (
            "agents",
            [{**GOOD_AGENT, "settings": {str(i): i for i in range(33)}}],
            "agents.*at most 32 keys",
        ),
        ("result", {"label": "x", "returns": [1.0]}, "result"),
        ("result", {"label": "x", "returns": ["1"], "scores": None, "winners": []}, "result"),
        ("result", {"label": "", "returns": [1.0], "scores": None, "winners": []}, "result"),
        ("result", {"label": "x", "returns": [1.0], "scores": [1.5], "winners": []}, "result"),
        ("result", {"label": "x", "returns": [1.0], "scores": None, "winners": [64]}, "result"),
        ("result", {"label": "x", "returns": [1.0], "scores": None, "winners": [True]}, "result"),
        ("seconds", [0.5], "seconds"),
        ("seconds", [0.5, "0.5"], "seconds"),
        ("seconds", [0.5, 0.5, 0.5], "seconds"),
        ("seconds", [0.5, -0.5], r"seconds\[1\]"),
        ("seconds", [True, 0.5], "seconds"),
        ("seconds", {"0": 0.5}, "seconds"),
        ("comments", {"9": "beyond the last action"}, "comments"),
        ("comments", {"01": "not an index"}, "comments"),
        ("comments", {"-1": "not an index"}, "comments"),
        ("comments", {"0": ""}, r"comments\.0"),
        ("comments", {"0": "x" * 2001}, r"comments\.0"),
        ("comments", {"0": 1}, r"comments\.0"),
        ("comments", [], "comments"),
    ],
)
def test_a_malformed_trace_is_a_serialization_error_naming_its_field(
    key: str, value: Any, field: str
) -> None:
    record = Record.of(HOUSE, 3, ["place 1,0", "place 2,0"], agents=[Agent.human(0)])
    # A field's type is checked as it is read (record.field); a rule across fields
    # after (record has malformed field).
    with pytest.raises(SerializationError, match=f"(record has malformed |record\\.){field}"):
        Record.from_data({**record.to_data(), key: value})


def test_bounds_are_inclusive() -> None:
    """The largest trace within every bound is read, and written back the same."""
    agent = Agent(
        0,
        "n" * 100,
        "engine",
        "v" * 100,
        {f"{i:0>100}": ("t" * 200 if i % 2 else 2**63) for i in range(32)},
    )
    record = Record.of(
        HOUSE,
        3,
        ["place 1,0"],
        agents=[agent],
        started="2026-12-31T23:59:59.999999Z",
        seconds=[0],
        comments={0: "c" * 2000},
    )
    assert Record.from_json(record.to_json()) == record
    assert record.replay() == Record.of(HOUSE, 3, ["place 1,0"]).replay()


def test_json_text_with_non_finite_seconds_is_refused() -> None:
    record = Record.of(HOUSE, 3, ["place 1,0"], seconds=[1.5])
    text = record.to_json()
    assert "1.5" in text
    for number in ("NaN", "Infinity", "-Infinity", "1e999"):
        with pytest.raises(SerializationError, match=r"record\.seconds\[0\]: expected a number"):
            Record.from_json(text.replace("1.5", number))


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"agents": [GOOD_AGENT]}, r"agents\[0\]"),
        ({"agents": [Agent.human(1)]}, r"agents\[0\]"),
        ({"seconds": [math.nan]}, r"seconds\[0\]"),
        ({"seconds": [1.0, 2.0]}, "seconds"),
        ({"comments": {1: "no action 1"}}, "comments"),
        ({"comments": {"0": "a key that is text"}}, "comments"),
        ({"started": "yesterday"}, "started"),
        ({"result": ("escaped", (1.0,))}, "result"),
        ({"result": Outcome("escaped", (math.inf,))}, "result"),
        ({"result": Outcome("escaped", (1.0,), winners=(-1,))}, "result"),
    ],
)
def test_a_trace_built_in_code_is_checked_with_record_errors(
    fields: dict[str, Any], field: str
) -> None:
    with pytest.raises(RecordError, match=f"record has malformed {field}"):
        Record(
            game="mapless-house",
            options={},
            seed=3,
            actions=["place 1,0"],
            rules_version=HOUSE.rules_version,
            **fields,
        )


def test_an_agent_built_in_code_is_checked() -> None:
    for fields, field in [
        ({"kind": "person"}, "kind"),
        ({"seat": -1}, "seat"),
        ({"version": 2}, "version"),
        ({"settings": {"a": math.nan}}, r"settings\.a"),
    ]:
        with pytest.raises(RecordError, match=f"agent has malformed {field}"):
            Agent(**{"seat": 0, "name": "x", **fields})
    assert Agent.from_data(GOOD_AGENT) == Agent.bot(0, "heuristic", {"depth": 2})


def test_a_start_time_is_utc() -> None:
    at = datetime.datetime(2026, 12, 2, 7, 20, 43, 500000, tzinfo=UTC)
    assert Record.of(HOUSE, 3, [], started=at).started == "2026-12-02T07:20:43.500000Z"
    assert Record.of(HOUSE, 3, [], started=at.replace(microsecond=0)).started == (
        "2026-12-02T07:20:43Z"
    )
    with pytest.raises(RecordError, match="no zone"):
        Record.of(HOUSE, 3, [], started=at.replace(tzinfo=None))
    elsewhere = at.astimezone(datetime.timezone(datetime.timedelta(hours=1)))
    with pytest.raises(RecordError, match="another zone"):
        Record.of(HOUSE, 3, [], started=elsewhere)
    assert Record.of(HOUSE, 3, [], started=elsewhere.astimezone(UTC)).started is not None
    now = Match.start(HOUSE, 3, started=True).started
    assert now is not None
    parsed = datetime.datetime.strptime(now, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    assert abs(parsed - datetime.datetime.now(UTC)) < datetime.timedelta(hours=1)


# ------------------------------------------------------------------- matches
def test_play_records_time_and_comment_and_refuses_bad_ones() -> None:
    match = Match.start(HOUSE, 1)
    match.play("place 1,0", seconds=1.25, comment="first")
    entry = match.history[-1]
    assert (entry.seconds, entry.comment) == (1.25, "first")
    for bad in (-1.0, math.inf, math.nan, "1"):
        with pytest.raises(RecordError, match="an action's time"):
            match.play("place 2,0", seconds=bad)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="a comment on an action"):
        match.play("place 2,0", comment="x" * 2001)
    assert len(match.history) == 1  # nothing was played
    record = match.to_record()
    assert record.seconds == (1.25,)
    assert dict(record.comments) == {0: "first"}


def test_comment_replaces_and_refuses() -> None:
    match = Match.start(HOUSE, 1)
    with pytest.raises(RecordError, match="no action -1 to comment on"):
        match.comment("too early")
    match.play("place 1,0")
    match.play("place 2,0")
    match.comment("one", entry=0)
    match.comment("two", entry=0)
    with pytest.raises(RecordError, match="no action 2 to comment on"):
        match.comment("x", entry=2)
    with pytest.raises(RecordError, match="1 to 2000 characters"):
        match.comment("")
    assert [e.comment for e in match.history] == ["two", None]
    # A match that names no agents and times nothing still gives a trace, for its comment.
    assert match.to_record().to_data()["format"] == 3
    assert match.to_record().seconds == ()


def test_undo_and_redo_keep_the_time_and_comment_and_fair_undo_holds() -> None:
    match = Match.start(HOUSE, 2, fair_undo=False)
    match.play("place 1,0", seconds=3.0)
    match.comment("kept")
    undone = match.undo()
    assert match.to_record().comments == {}
    assert match.redo() is undone
    assert match.to_record().comments == {0: "kept"}
    assert match.to_record().seconds == (3.0,)
    fair = Match.start(HOUSE, 2)
    fair.play_bot(make_bot("random", HOUSE, seed=2), comment="drew a card")
    assert fair.history[-1].revealed
    with pytest.raises(UndoError):
        fair.undo()  # a comment changes nothing about fair undo


def test_play_bot_plays_a_seat_and_not_chance() -> None:
    match = Match.start(HOUSE, 9, explicit_chance=True)
    assert HOUSE.current_player(match.state) == CHANCE
    with pytest.raises(PlayerError, match="a chance outcome is next"):
        match.play_bot(make_bot("random", HOUSE, seed=9))
    finished = finished_match()
    with pytest.raises(PlayerError, match="the game is over"):
        finished.play_bot(make_bot("random", HOUSE, seed=9))


@given(seed=seeds, players=st.integers(1, 4), explicit=st.booleans(), data=st.data())
def test_a_match_of_bots_gives_a_trace_that_replays(
    seed: int, players: int, explicit: bool, data: st.DataObject
) -> None:
    """Any number of seats, bots of any kind per seat, chance outcomes untimed: the trace
    survives JSON, fits the schema, replays to the same state and names its result."""
    game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=6)
    names = [
        data.draw(st.sampled_from(["random", "heuristic"]), label="bot") for _ in range(players)
    ]
    agents = [Agent.bot(seat, name, {"seed": seed}) for seat, name in enumerate(names)]
    bots = [make_bot(name, game, seed, seat) for seat, name in enumerate(names)]
    match = Match.start(game, seed, explicit_chance=explicit, agents=agents, started=True)
    while not game.is_terminal(match.state) and len(match.history) < 150:
        player = game.current_player(match.state)
        if player == CHANCE:
            outcomes = [outcome for outcome, _ in game.chance_outcomes(match.state)]
            match.play(data.draw(st.sampled_from(outcomes), label="outcome"))
        else:
            match.play_bot(bots[player])
    record = Record.from_json(match.to_record().to_json())
    assert record.replay() == match.state
    assert record.agents == tuple(agents)
    assert record.result == game.outcome(match.state)
    for entry, seconds in zip(match.history, record.seconds, strict=True):
        assert (seconds is None) == (entry.player == CHANCE)
    if jsonschema is not None:
        jsonschema.Draft202012Validator(Record.json_schema()).validate(record.to_data())


def test_cardcrawl_play_records_a_trace(tmp_path: Path) -> None:
    """``cardcrawl play --record`` writes who sat where, when the game started and how
    long each choice took, a person's and a bot's alike."""
    path = tmp_path / "game.json"
    argv = ["play", "escape-from-haydes", "--players", "2", "--bot", "1=random", "--seed", "3"]
    code = main(
        [*argv, "--record", str(path)],
        stdin=io.StringIO("1\n" * 400),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert code == 0
    record = Record.load(path)
    game = record.load_game()
    assert record.agents == (Agent.human(0), Agent.bot(1, "random", {"seed": 3}))
    assert record.started is not None
    assert len(record.seconds) == len(record.actions) > 0
    assert all(s is not None and s >= 0 for s in record.seconds)
    assert record.result == game.outcome(record.replay())


# ------------------------------------------------------------ old records
FORMAT_1 = {
    "format": 1,
    "game": "mapless-house",
    "rules_version": HOUSE.rules_version,
    "options": {"max_turns": 50, "dread_lines": None},
    "seed": 3,
    "explicit_chance": False,
    "actions": ["place 1,0", "place 2,0"],
    "stack": None,
}


def test_records_of_formats_1_and_2_still_load_without_a_trace() -> None:
    made = Record.of(HOUSE, 3, FORMAT_1["actions"])
    format_2 = {**made.to_data(), "format": 2, "stack": None}
    for data in (FORMAT_1, format_2):
        old = Record.from_data(json.loads(json.dumps(data)))
        assert not old.is_trace
        assert (old.agents, old.result, old.started, old.seconds, dict(old.comments)) == (
            (),
            None,
            None,
            (),
            {},
        )
        assert old.replay() == made.replay()
        # Written again in format 3, the same keys but a null stack.
        kept = {k: v for k, v in data.items() if k not in ("format", "stack")}
        assert old.to_data() == {"format": 3, **kept}
    for key, value in [("agents", []), ("comments", {}), ("started", "2026-12-02T07:20:43Z")]:
        for data in (FORMAT_1, format_2):
            with pytest.raises(SerializationError, match=f"holds no key '{key}'"):
                Record.from_data({**data, key: value})


# ---------------------------------------------------------------- the schema
try:
    import jsonschema
except ImportError:  # pragma: no cover - the test extra has it
    jsonschema = None


@pytest.mark.skipif(jsonschema is None, reason="jsonschema is not installed")
def test_the_schema_takes_traces_and_refuses_what_from_data_refuses(trace: Record) -> None:
    validator = jsonschema.Draft202012Validator(Record.json_schema())
    good = trace.to_data()
    validator.validate(good)
    validator.validate({k: v for k, v in good.items() if k != "claims"})
    plain = Record.of(HOUSE, 3, ["place 1,0"]).to_data()
    for bad in [
        {**plain, "format": 2, "agents": good["agents"]},
        {**plain, "format": 1, "comments": {"0": "x"}},
        {**good, "started": "2026-12-02T07:20:43+00:00"},
        {**good, "agents": [{**good["agents"][0], "kind": "robot"}]},
        {**good, "agents": [{**good["agents"][0], "settings": {"a": [1]}}]},
        {**good, "agents": [{**good["agents"][0], "name": "x" * 101}]},
        {**good, "result": {**good["result"], "winners": [True]}},
        {**good, "seconds": [-1.0] * len(good["actions"])},
        {**good, "comments": {"01": "x"}},
        {**good, "comments": {"0": "x" * 2001}},
    ]:
        assert not validator.is_valid(bad), bad
        with pytest.raises(SerializationError):
            Record.from_data(bad)
