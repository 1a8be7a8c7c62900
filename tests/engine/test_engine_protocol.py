"""The engine protocol: programs in other languages play a seat over JSON lines.

A JavaScript engine (``engines/engine.js``, run with Node.js) plays whole games through
:class:`~cardcrawl.bots.EngineBot`, in-process and in ``simulate``; shell scripts that
misbehave (garbage, a hang, a crash, silence) end in typed errors, with the game
untouched and the program stopped and reaped; with ``on_error="fallback"`` the game goes
on and the fault is kept. The reference engine, ``cardcrawl engine --bot random``,
chooses exactly as the random bot does in-process.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import (
    EngineBot,
    EngineError,
    EngineTimeoutError,
    make_bot,
    serve_engine,
)
from cardcrawl.bots._engine_bot import decide_message, hello_message
from cardcrawl.errors import OptionsError
from cardcrawl.simulate import play_game, simulate

ENGINES = Path(__file__).parent / "engines"
NODE = shutil.which("node")
SH = shutil.which("sh")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
needs_sh = pytest.mark.skipif(SH is None or os.name != "posix", reason="no POSIX shell")

MAPLESS = cardcrawl.load("mapless-house", max_turns=40)
HAYDES = cardcrawl.load("escape-from-haydes", players=2, max_rounds=8)


def node(*args: str) -> list[str]:
    assert NODE is not None
    return [NODE, str(ENGINES / "engine.js"), *args]


def sh(script: str) -> list[str]:
    assert SH is not None
    return [SH, str(ENGINES / script)]


class Pick:
    """The in-process twin of the node engine's ``first`` and ``last`` modes."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.__name__ = "pick"

    def __call__(self, game: Any, seed: int, seat: int = 0) -> Pick:
        return self

    def choose(self, game: Any, observation: Any, legal: Sequence[Any]) -> Any:
        return legal[self.index]


def first_decision(game: Any, seed: int = 1) -> tuple[Any, Any, tuple[Any, ...]]:
    state = game.initial_state(seed)
    seat = game.current_player(state)
    return state, game.observe(state, seat), game.legal_actions(state)


def children_left() -> list[str]:
    """This process's child processes still in the process table (zombies included)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    me, found = str(os.getpid()), []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me:  # fields: state, ppid, ...
            found.append(f"{entry.name} ({fields[0]})")
    return found


@pytest.fixture(autouse=True)
def no_engine_outlives_its_test() -> Iterator[None]:
    before = set(children_left())
    yield
    import gc

    gc.collect()  # bots dropped by a test stop their engines when collected
    assert set(children_left()) - before == set()


# ------------------------------------------------------------ playing well
@needs_node
@pytest.mark.parametrize("game", [MAPLESS, HAYDES], ids=["mapless", "haydes"])
def test_a_javascript_engine_plays_whole_games_as_its_twin_in_process(game: Any) -> None:
    result = simulate(game, EngineBot.factory(command=node("last")), games=2, seed=4, workers=1)
    twin = simulate(game, Pick(-1), games=2, seed=4, workers=1)
    assert result.bots == ("engine",) * game.num_players
    assert [r.to_row() for r in result.results] == [r.to_row() for r in twin.results]
    assert all(r.outcome != "unfinished" for r in result.results)


@needs_node
def test_the_messages_are_the_documented_ones_and_observations_fit_the_schema(
    tmp_path: Path,
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    log = tmp_path / "messages.json"
    game = HAYDES
    bot = EngineBot(game, seed=7, seat=1, command=node("record", str(log)), timeout=5)
    state = game.initial_state(7)
    asked = 0
    while not game.is_terminal(state) and asked < 6:
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        if seat == 1:
            action = bot.choose(game, game.observe(state, 1), legal)
            assert action == legal[-1]
            asked += 1
        else:
            action = legal[0]
        state = game.step(state, action)
    bot.close(game.outcome(state))
    messages = json.loads(log.read_text())
    hello, *decides, end = messages
    assert hello == hello_message(game, 1, 7, 5.0)
    assert [m["type"] for m in decides] == ["decide"] * asked
    assert [m["id"] for m in decides] == list(range(1, asked + 1))
    validator = jsonschema.Draft202012Validator(game.observation_schema())
    for message in decides:
        validator.validate(message["observation"])
        seen = game.observation_from_data(message["observation"])
        assert message["narration"] == [str(e) for e in seen.events]
        assert all(isinstance(game.action_from_data(t), game.action_type) for t in message["legal"])
    assert end["type"] == "end"
    outcome = game.outcome(state)
    assert end["outcome"] == (
        None
        if outcome is None
        else {
            "label": outcome.label,
            "returns": list(outcome.returns),
            "scores": None if outcome.scores is None else list(outcome.scores),
            "winners": list(outcome.winners),
        }
    )


@needs_node
def test_make_bot_passes_the_command_and_the_environment_variable_is_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _state, seen, legal = first_decision(MAPLESS)
    with make_bot("engine", MAPLESS, seed=1, command=node("first")) as bot:
        assert bot.choose(MAPLESS, seen, legal) == legal[0]
        assert bot.engine_name == "node first"
    monkeypatch.setenv("CARDCRAWL_ENGINE", f"{NODE} '{ENGINES / 'engine.js'}' last")
    with make_bot("engine", MAPLESS, seed=1) as bot:
        assert bot.choose(MAPLESS, seen, legal) == legal[-1]


def test_the_reference_engine_chooses_as_the_bot_does_in_process() -> None:
    """``cardcrawl engine --bot random`` over the protocol, a real subprocess."""
    command = [sys.executable, "-m", "cardcrawl", "engine", "--bot", "random"]
    result = play_game(MAPLESS, [EngineBot.factory(command=command)], seed=9)
    assert result == play_game(MAPLESS, ["random"], seed=9)


@needs_node
def test_a_copied_bot_replays_the_game_to_a_new_engine(tmp_path: Path) -> None:
    import copy
    import pickle

    game = MAPLESS
    bot = EngineBot(game, seed=2, command=node("last"))
    state = game.initial_state(2)
    for _ in range(3):
        legal = game.legal_actions(state)
        state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
    for again in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        legal = game.legal_actions(state)
        assert again.choose(game, game.observe(state, 0), legal) == legal[-1]
        again.close()
    bot.close()
    # An engine that plays differently in each process cannot be replayed to.
    counter = tmp_path / "counter"
    fickle = EngineBot(game, seed=2, command=node("counter", str(counter)))
    state, seen, legal = first_decision(game, 2)
    action = fickle.choose(game, seen, legal)
    copied = copy.deepcopy(fickle)
    fickle.close()
    state = game.step(state, action)
    with pytest.raises(EngineError, match="replayed decision 1 was answered") as caught:
        copied.choose(game, game.observe(state, 0), game.legal_actions(state))
    assert caught.value.reason == "protocol"


# ------------------------------------------------------------ misbehaving
BAD_ENGINES = [
    ("garbage.sh", EngineError, "garbage", "not JSON: b'I move the knight to e4"),
    ("hang.sh", EngineTimeoutError, "timeout", "no answer to decision 1 within 0.5 s"),
    ("crash.sh", EngineError, "exited", "exited with code 3 .*out of ideas"),
]


@needs_sh
@pytest.mark.parametrize(("script", "error", "reason", "message"), BAD_ENGINES)
def test_a_misbehaving_engine_is_a_typed_error_and_the_game_is_untouched(
    script: str, error: type[EngineError], reason: str, message: str
) -> None:
    game = HAYDES
    state, seen, legal = first_decision(game)
    data = game.state_to_data(state)
    bot = EngineBot(game, seed=1, seat=game.current_player(state), command=sh(script), timeout=0.5)
    with pytest.raises(error, match=message) as caught:
        bot.choose(game, seen, legal)
    assert type(caught.value) is error
    assert caught.value.reason == reason
    assert caught.value.command == tuple(sh(script))
    assert bot._channel is None  # stopped (the fixture checks it was reaped)
    assert game.state_to_data(state) == data
    assert game.legal_actions(state) == legal
    # The game goes on with another bot from the very same state.
    assert game.step(state, legal[0]) == game.step(game.state_from_data(data), legal[0])


@needs_sh
@needs_node
@pytest.mark.parametrize(
    ("command", "reason", "message"),
    [
        (["sh", str(ENGINES / "mute.sh")], "timeout", "no answer to hello within 0.5 s"),
        (["node", str(ENGINES / "engine.js"), "illegal"], "illegal", "'dance a jig'.*not a legal"),
        (["node", str(ENGINES / "engine.js"), "future"], "protocol", "speaks protocol 2"),
        (["/nonexistent/engine"], "start", "cannot start the engine"),
    ],
)
def test_a_bad_start_or_an_illegal_action_is_named(
    command: list[str], reason: str, message: str
) -> None:
    _state, seen, legal = first_decision(MAPLESS)
    bot = EngineBot(MAPLESS, seed=1, command=command, timeout=2, start_timeout=0.5)
    with pytest.raises(EngineError, match=message) as caught:
        bot.choose(MAPLESS, seen, legal)
    assert caught.value.reason == reason


@needs_sh
@pytest.mark.parametrize("script", ["garbage.sh", "hang.sh", "crash.sh"])
def test_with_fallback_the_game_goes_on_and_the_fault_is_kept(script: str) -> None:
    bots: list[EngineBot] = []

    def factory(game: Any, seed: int, seat: int) -> EngineBot:
        bot = EngineBot(game, seed, seat, command=sh(script), timeout=0.5, on_error="fallback")
        bots.append(bot)
        return bot

    result = play_game(MAPLESS, [factory], seed=5)
    assert result.outcome != "unfinished"
    assert [len(bot.faults) for bot in bots] == [1]
    assert isinstance(bots[0].faults[0], EngineError)
    # After the fault, the bot chooses as the random bot with its seed would.
    assert result == play_game(MAPLESS, ["random"], seed=5)


def test_options_are_checked() -> None:
    with pytest.raises(OptionsError, match="non-empty list of strings"):
        EngineBot(MAPLESS, 1, command="node engine.js")  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="non-empty list of strings"):
        EngineBot(MAPLESS, 1, command=[])
    with pytest.raises(OptionsError, match="timeout is a positive number"):
        EngineBot(MAPLESS, 1, command=["x"], timeout=0)
    with pytest.raises(OptionsError, match="on_error is 'raise' or 'fallback'"):
        EngineBot(MAPLESS, 1, command=["x"], on_error="forfeit")


# --------------------------------------------------- the reference engine
def lines(*messages: dict[str, Any]) -> Any:
    import io

    return io.StringIO("".join(json.dumps(m) + "\n" for m in messages))


def test_the_reference_engine_refuses_what_the_protocol_does_not_allow() -> None:
    import io

    _state, seen, legal = first_decision(MAPLESS)
    hello = hello_message(MAPLESS, 0, seed=1)
    with pytest.raises(EngineError, match="speaks protocol 9"):
        serve_engine("random", lines({**hello, "protocol": 9}), io.StringIO())
    with pytest.raises(EngineError, match="first message is not hello"):
        serve_engine("random", lines({"type": "decide"}), io.StringIO())
    with pytest.raises(EngineError, match="not JSON"):
        serve_engine("random", io.StringIO("{oops\n"), io.StringIO())
    decide = decide_message(MAPLESS, seen, legal, seat=0)
    with pytest.raises(cardcrawl.SerializationError, match="observation"):
        serve_engine("random", lines(hello, {**decide, "observation": {}}), io.StringIO())
    with pytest.raises(EngineError, match="lists no legal actions"):
        serve_engine("random", lines(hello, {**decide, "legal": []}), io.StringIO())


def test_the_engine_command_reports_errors_on_stderr() -> None:
    import io

    from cardcrawl.cli import main

    out, err = io.StringIO(), io.StringIO()
    hello = {**hello_message(MAPLESS, 0, seed=1), "game": "no-such-game"}
    assert main(["engine", "--bot", "random"], stdin=lines(hello), stdout=out, stderr=err) == 1
    assert out.getvalue() == ""
    assert "cardcrawl engine: " in err.getvalue()
    assert "no-such-game" in err.getvalue()
    _state, seen, legal = first_decision(MAPLESS)
    stdin = lines(
        hello_message(MAPLESS, 0, seed=3), decide_message(MAPLESS, seen, legal, seat=0, number=1)
    )
    assert main(["engine", "--bot", "random", "--seed", "3"], stdin=stdin, stdout=out) == 0
    ready, answer = (json.loads(line) for line in out.getvalue().splitlines())
    assert ready == {"type": "ready", "protocol": 1, "name": "cardcrawl random"}
    expected = make_bot("random", MAPLESS, seed=3).choose(MAPLESS, seen, legal)
    assert answer == {"type": "action", "id": 1, "action": MAPLESS.format_action(expected)}
