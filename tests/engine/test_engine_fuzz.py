"""Both sides of the engine protocol take any input: a library error, never a crash.

The host's side reads arbitrary answer lines (bytes, JSON of any shape, near misses of
a right answer) through a stand-in for the pipe, so no program is started: each ends
in an :class:`~cardcrawl.EngineError` or in one of the legal actions. The reference
engine reads mutated ``hello`` and ``decide`` messages: each is answered or refused
with a :class:`~cardcrawl.CardcrawlError`.
"""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import cardcrawl
from cardcrawl.bots import EngineBot, EngineError, serve_engine
from cardcrawl.bots._engine_bot import decide_message, hello_message
from cardcrawl.errors import CardcrawlError
from fuzz._fuzz import mutate

GAME = cardcrawl.load("mapless-house", max_turns=40)
STATE = GAME.initial_state(seed=1, stack={"narrative": ["KS"]})
SEEN = GAME.observe(STATE, 0)
LEGAL = GAME.legal_actions(STATE)
TEXTS = [GAME.format_action(a) for a in LEGAL]


class FakeChannel:
    """Stands in for a running engine: answers with scripted lines."""

    stopped = False

    def __init__(self, *lines: bytes | None) -> None:
        self.script = list(lines)
        self.sent: list[Any] = []

    def send(self, message: Any) -> None:
        self.sent.append(message)

    def receive(self, timeout: float) -> bytes | None:
        return self.script.pop(0) if self.script else None

    def unread(self) -> bool:
        return False

    def exit_code(self, wait: float) -> int | None:
        return 1

    def stderr_tail(self) -> str:
        return ""

    def stop(self, grace: float = 0.0) -> None:
        self.stopped = True


def answered_with(line: bytes) -> Any:
    bot = EngineBot(GAME, seed=1, command=["unused"])
    bot._channel = FakeChannel(line)  # type: ignore[assignment]
    return bot.choose(GAME, SEEN, LEGAL)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
near_misses = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["action", "ready", "decide", 3, None]),
        "id": st.sampled_from([1, 2, "1", True, None, 1.0]),
        "action": st.sampled_from([*TEXTS, "place 9,9", "PLACE 1,0", " place 1,0", "", 7]),
    },
)


@settings(max_examples=60)
@given(
    line=st.binary(max_size=60)
    | json_values.map(lambda v: json.dumps(v).encode())
    | near_misses.map(lambda v: json.dumps(v).encode())
)
def test_any_answer_is_a_legal_action_or_an_engine_error(line: bytes) -> None:
    reason = None
    try:
        action = answered_with(line + b"\n")
    except EngineError as error:
        reason = error.reason
    if reason is not None:
        assert reason in {"garbage", "protocol", "illegal"}
    else:
        assert any(action is legal for legal in LEGAL)


def test_the_near_misses_that_are_taken() -> None:
    answer = {"type": "action", "id": 1, "action": "place 1,0"}
    assert str(answered_with(json.dumps(answer).encode())) == "place 1,0"
    # A text that parses to a legal action is taken too, as the protocol says.
    assert str(answered_with(b'{"action": " PLACE 1,0"}')) == "place 1,0"


def dumps(value: Any) -> str:
    """The message as a line; one nested too deep for ``json`` to write is sent as the
    deepest line ``json`` could not read either."""
    try:
        return json.dumps(value)
    except (RecursionError, ValueError):
        return "[" * 3000 + "]" * 3000


@settings(max_examples=40)
@given(data=st.data(), which=st.sampled_from(["hello", "decide"]))
def test_the_reference_engine_answers_or_refuses_mutated_messages(
    data: st.DataObject, which: str
) -> None:
    hello = hello_message(GAME, 0, seed=1)
    decide = decide_message(GAME, SEEN, LEGAL, seat=0)
    if which == "hello":
        hello = mutate(data, hello)
    else:
        decide = mutate(data, decide)
    stdin = io.StringIO(dumps(hello) + "\n" + dumps(decide) + "\n")
    stdout = io.StringIO()
    try:
        serve_engine("random", stdin, stdout)
    except CardcrawlError:
        return
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert answers[0]["type"] == "ready"
    if len(answers) > 1:
        # Whatever the observation read as, the answer is one of the actions listed.
        # A hello without options asks for the game's defaults, as the engine reads it.
        game = cardcrawl.load(hello["game"], **hello.get("options", {}))
        listed = [game.action_from_data(text) for text in decide["legal"]]
        assert game.parse_action(answers[1]["action"]) in listed
        assert answers[1]["id"] == decide.get("id")
