"""The command line: ``cardcrawl play``, ``replay`` and ``games``, driven through ``main``.

Expected output is rebuilt here from the library itself (events, ``render``, ``outcome``),
so the tests pin what the CLI promises, not one particular game.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO, cast

import pytest

import cardcrawl
from cardcrawl.cli._main import main
from cardcrawl.core._compiled import COMPILED

GAME = "mapless-house"


def run(*argv: str, stdin: str | TextIO = "", stdout: Any = None) -> tuple[int, str, str]:
    """Run ``main`` with StringIO streams: (exit code, stdout, stderr)."""
    out = io.StringIO() if stdout is None else stdout
    err = io.StringIO()
    source = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    code = main(list(argv), stdin=source, stdout=out, stderr=err)
    return code, out.getvalue() if stdout is None else "", err.getvalue()


def events_text(state: Any) -> list[str]:
    return [str(event) for event in state.events]


def result_line(game: Any, state: Any) -> str:
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.scores is not None
    assert len(outcome.scores) == 1
    return f"Result: {outcome.label} · score {outcome.scores[0]}"


def play_out(
    game: Any, seed: int, policy: Callable[[Any, int], Any], limit: int | None = None
) -> tuple[list[Any], list[Any]]:
    """Play with ``policy(state, step)``: (states from the initial one, actions)."""
    state = game.initial_state(seed)
    states: list[Any] = [state]
    actions: list[Any] = []
    while not game.is_terminal(state) and (limit is None or len(actions) < limit):
        action = policy(state, len(actions))
        state = game.step(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


def random_bot_policy(game: Any, seed: int) -> Callable[[Any, int], Any]:
    """The random bot as the CLI documents it: rng_derive(seed, seat), then rng_below."""
    rng = cardcrawl.rng_derive(seed, 0)

    def policy(state: Any, step: int) -> Any:
        nonlocal rng
        legal = game.legal_actions(state)
        rng, index = cardcrawl.rng_below(rng, len(legal))
        return legal[index]

    return policy


def story(states: Sequence[Any]) -> list[str]:
    return [line for state in states for line in events_text(state)]


# ------------------------------------------------------------------ bots
def test_bot_game_prints_the_story_the_final_map_and_the_result() -> None:
    game = cardcrawl.load(GAME)
    states, _ = play_out(game, 7, random_bot_policy(game, 7))
    expected = [
        *story(states),
        *game.render(states[-1]).splitlines(),
        result_line(game, states[-1]),
    ]

    code, out, err = run("play", GAME, "--bot", "random", "--seed", "7")

    assert (code, err) == (0, "")
    assert out.splitlines() == expected
    assert len(states) > 5


def test_bot_game_defaults_to_seed_zero() -> None:
    assert run("play", GAME, "--bot", "random") == run(
        "play", GAME, "--bot", "random", "--seed", "0"
    )


def test_bot_game_for_one_seat_reads_no_input() -> None:
    code, out, _ = run("play", GAME, "--bot", "0=random", "--seed", "7", stdin="q\n")
    assert code == 0
    assert out == run("play", GAME, "--bot", "random", "--seed", "7")[1]


def test_same_seed_same_game_other_seed_other_game() -> None:
    first = run("play", GAME, "--bot", "random", "--seed", "11")
    assert run("play", GAME, "--bot", "random", "--seed", "11") == first
    others = {run("play", GAME, "--bot", "random", "--seed", str(s))[1] for s in (12, 13, 14)}
    assert first[1] not in others
    assert len(others) > 1


# ---------------------------------------------------------------- people
def test_person_chooses_by_number_until_the_end() -> None:
    game = cardcrawl.load(GAME)
    states, actions = play_out(game, 5, lambda state, _: game.legal_actions(state)[0])

    code, out, err = run("play", GAME, "--seed", "5", stdin="1\n" * 5000)

    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[-1] == result_line(game, states[-1])
    assert out.endswith(game.render(states[-1]) + "\n" + lines[-1] + "\n")
    # One prompt per decision, each showing the map and the numbered choices first.
    assert out.count("Your choice (1-") == len(actions)
    first_choices = [
        f"{i}) {game.format_action(a)}" for i, a in enumerate(game.legal_actions(states[0]), 1)
    ]
    assert lines[: len(states[0].events)] == events_text(states[0])
    assert "\n".join(first_choices) in out
    assert game.render(states[0]) in out


def test_person_chooses_by_action_text() -> None:
    game = cardcrawl.load(GAME)
    states, actions = play_out(game, 8, lambda state, _: game.legal_actions(state)[-1])
    # Case and spacing do not matter: "PLACE  1,0" is "place 1,0".
    answers = "".join(
        f"{game.format_action(a).upper().replace(' ', '  ')}\n"
        if i % 2
        else f"{game.format_action(a)}\n"
        for i, a in enumerate(actions)
    )

    code, out, _ = run("play", GAME, "--seed", "8", stdin=answers)

    assert code == 0
    assert out.splitlines()[-1] == result_line(game, states[-1])
    assert game.render(states[-1]) in out
    # Every answer was understood at once: no hint, one prompt per action.
    assert "Type a number" not in out
    assert out.count("Your choice (1-") == len(actions)
    for line in story(states):
        assert line in out


def test_unclear_answers_get_a_hint_and_the_question_again() -> None:
    game = cardcrawl.load(GAME)
    legal = game.legal_actions(game.initial_state(5))
    stdin = f"what\n0\n{len(legal) + 1}\nmove 40,40\n\n1\nq\n"

    code, out, _ = run("play", GAME, "--seed", "5", stdin=stdin)

    assert code == 0
    hint = f"Type a number from 1 to {len(legal)}, an action as shown, or q to quit."
    assert out.count(hint) == 5
    assert "move 40,40 is not legal now." in out
    # After the hints the first choice was taken: its events were told.
    after = game.step(game.initial_state(5), legal[0])
    assert events_text(after)[0] in out


def test_end_of_input_abandons_the_game_with_exit_1() -> None:
    code, out, err = run("play", GAME, "--seed", "5", stdin="1\n1\n")
    assert code == 1
    assert out.rstrip().endswith("Game abandoned: the input ended.")
    assert out.count("Your choice") == 3
    assert "Traceback" not in out + err


def test_q_quits_cleanly() -> None:
    code, out, err = run("play", GAME, "--seed", "5", stdin="1\nquit\n")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "Game abandoned."
    assert "Result:" not in out


class _Interrupting:
    """An input whose second line is Ctrl-C (all ``main`` reads of stdin is lines)."""

    def __init__(self) -> None:
        self.reads = 0

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        self.reads += 1
        if self.reads > 1:
            raise KeyboardInterrupt
        return "1\n"


def test_ctrl_c_abandons_the_game_with_exit_130(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    code, out, _ = run(
        "play", GAME, "--seed", "5", "--record", str(path), stdin=cast(TextIO, _Interrupting())
    )
    assert code == 130
    assert "Game abandoned." in out
    assert len(cardcrawl.Record.from_json(path.read_text("utf-8")).actions) == 1


def test_person_gets_a_printed_seed_from_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cardcrawl.cli._play.time.time_ns", lambda: 3 * 2**32 + 12345)
    code, out, _ = run("play", GAME, stdin="1\n1\nq\n")
    assert code == 0
    first, *rest = out.splitlines()
    assert first == "Seed 12345 (play this game again with --seed 12345)."
    monkeypatch.undo()
    again = run("play", GAME, "--seed", "12345", stdin="1\n1\nq\n")[1]
    assert again.splitlines() == rest


# ------------------------------------------------------------ arguments
def test_unknown_game_is_a_usage_error_listing_the_games() -> None:
    code, out, err = run("play", "no-such-game", "--bot", "random")
    assert code == 2
    assert out == ""
    assert "no-such-game" in err
    assert GAME in err
    assert err.startswith("usage: cardcrawl play")


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["-o", "colour=red"], "'colour'"),
        (["--players", "2"], "'players'"),
        (["--max-rounds", "3"], "'max_rounds'"),
        (["-o", "max_turns=0"], "max_turns"),
        (["--max-turns", "0"], "max_turns"),
        (["-o", "max_turns"], "NAME=VALUE"),
        (["--bot", "clever"], "'clever'"),
        (["--bot", "1=random"], "'1' is not a seat"),
        (["--seed", "-1"], "seed"),
        (["--seed", "seven"], "seven"),
    ],
)
def test_bad_options_are_usage_errors_naming_the_option(argv: list[str], named: str) -> None:
    code, out, err = run("play", GAME, "--bot", "random", *argv)
    assert code == 2
    assert out == ""
    assert named in err
    assert "Traceback" not in err


def test_an_unknown_option_error_lists_the_games_options() -> None:
    _, _, err = run("play", GAME, "--players", "2")
    assert "max_turns" in err
    assert "dread_lines" in err


def test_unknown_bot_error_lists_the_bots() -> None:
    _, _, err = run("play", GAME, "--bot", "clever")
    assert "unknown bot 'clever'" in err
    assert "random" in err
    assert "heuristic" in err


def test_option_values_are_json_when_they_parse(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, _, _ = run("play", GAME, "--bot", "random", "-o", "max_turns=2", "--record", str(path))
    assert code == 0
    record = cardcrawl.Record.from_json(path.read_text("utf-8"))
    assert record.options["max_turns"] == 2
    assert cardcrawl.load(GAME, max_turns=2).outcome(record.replay()) is not None


def test_no_command_and_bad_arguments_exit_2() -> None:
    assert run()[0] == 2
    assert run("dance")[0] == 2
    assert run("play")[0] == 2


@pytest.mark.parametrize(
    ("compiled", "build"),
    [
        ((), "pure Python"),
        (COMPILED, "compiled"),
        (("cardcrawl.mapless._kernel",), "partly compiled: cardcrawl.mapless._kernel"),
    ],
)
def test_version_says_which_build_is_installed(
    monkeypatch: pytest.MonkeyPatch, compiled: tuple[str, ...], build: str
) -> None:
    monkeypatch.setattr("cardcrawl.core._compiled.compiled_modules", lambda: compiled)
    assert run("--version") == (0, f"cardcrawl {cardcrawl.__version__} ({build})\n", "")


def test_version_and_help() -> None:
    code, out, _ = run("--version")
    assert (code, out.split(" (")[0]) == (0, f"cardcrawl {cardcrawl.__version__}")
    code, out, _ = run("play", "--help")
    assert code == 0
    assert "--bot" in out
    assert "--record" in out


def test_games_lists_games_with_descriptions() -> None:
    code, out, _ = run("games")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith(GAME + " "))
    assert cardcrawl.get_spec(GAME).description in line
    assert len(out.splitlines()) == len(cardcrawl.game_names())


# ------------------------------------------------------ records, replay
def test_record_replays_to_the_final_state(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out, _ = run("play", GAME, "--bot", "random", "--seed", "7", "--record", str(path))
    assert code == 0
    assert out.splitlines()[-1] == f"Record saved to {path}."
    game = cardcrawl.load(GAME)
    states, actions = play_out(game, 7, random_bot_policy(game, 7))
    record = cardcrawl.Record.from_json(path.read_text("utf-8"))
    assert (record.game, record.seed) == (GAME, 7)
    assert record.actions == tuple(game.format_action(a) for a in actions)
    assert record.replay() == states[-1]


def test_quitting_records_the_actions_so_far(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, _, _ = run("play", GAME, "--seed", "5", "--record", str(path), stdin="2\n1\nq\n")
    assert code == 0
    game = cardcrawl.load(GAME)
    states, _ = play_out(
        game, 5, lambda state, step: game.legal_actions(state)[1 - min(step, 1)], 2
    )
    assert cardcrawl.Record.from_json(path.read_text("utf-8")).replay() == states[-1]


def test_record_into_a_missing_directory_fails_before_playing(tmp_path: Path) -> None:
    code, out, err = run(
        "play", GAME, "--bot", "random", "--record", str(tmp_path / "no" / "g.json")
    )
    assert code == 2
    assert out == ""
    assert "does not exist" in err


def test_replay_tells_the_same_story_as_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _, played, _ = run("play", GAME, "--bot", "random", "--seed", "9", "--record", str(path))
    code, out, err = run("replay", str(path))
    claims = cardcrawl.Record.from_json(path.read_text("utf-8")).claims
    assert claims is not None
    assert claims.ending is not None
    assert code == 0
    # Whether it was verified is said on stderr, so that stdout is the story alone.
    assert err == (
        f"cardcrawl: {path}: verified: its {claims.length} actions make the states "
        f"and the ending {claims.ending[0]!r} it claims (final digest {claims.digest[:16]})\n"
    )
    header, *rest = out.splitlines()
    assert header.startswith(f"Replaying {GAME} with seed 9")
    # The same lines as the game itself, but for the "Record saved" note.
    assert rest == played.splitlines()[:-1]


def test_replay_stops_at_a_step(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("play", GAME, "--bot", "random", "--seed", "9", "--record", str(path))
    game = cardcrawl.load(GAME)
    states, actions = play_out(game, 9, random_bot_policy(game, 9))
    code, out, _ = run("replay", str(path), "--step", "2")
    assert code == 0
    expected = [
        *story(states[:3]),
        *game.render(states[2]).splitlines(),
        f"Step 2 of {len(actions)}.",
    ]
    assert out.splitlines()[1:] == expected
    assert run("replay", str(path), "--step", str(len(actions) + 1))[0] == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "JSON"),
        ('{"game": "mapless-house"}', "keys"),
    ],
)
def test_replay_errors_are_messages_not_tracebacks(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content, "utf-8")
    code, out, err = run("replay", str(path))
    assert code == 1
    assert out == ""
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["replay", "render", "replay --html page.html"])
@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("[" * 100_000, "it nests lists or objects too deeply to read"),
        ("1" * 5_000, "it holds an integer of more than 4300 digits, which Python does not read"),
    ],
    ids=["deep", "long-integer"],
)
def test_records_python_cannot_read_are_messages_not_tracebacks(
    tmp_path: Path, command: str, content: str, reason: str
) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(content, "utf-8")
    name, *flags = command.split()
    code, out, err = run(name, str(path), *[str(tmp_path / f) if "." in f else f for f in flags])
    assert (code, out) == (1, "")
    assert err == f"cardcrawl: {path}: a record is JSON text: {reason}\n"
    assert not (tmp_path / "page.html").exists()


@pytest.mark.parametrize(
    ("value", "message"),
    [("[" * 100_000, "nested too deeply"), ("1" * 5_000, "more than 4300 digits")],
    ids=["deep", "long-integer"],
)
def test_option_values_python_cannot_read_are_usage_errors(value: str, message: str) -> None:
    code, out, err = run("play", GAME, "--bot", "random", "-o", f"max_turns={value}")
    assert (code, out) == (2, "")
    assert err.startswith("usage: cardcrawl play")
    assert "-o max_turns=...: the value is JSON, but it" in err
    assert message.split()[-1] in err
    assert "Traceback" not in err


def test_a_record_of_an_unknown_game_suggests_import(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("play", GAME, "--bot", "random", "--seed", "3", "--record", str(path))
    data = json.loads(path.read_text("utf-8"))
    path.write_text(json.dumps({**data, "game": "my-own-house"}), "utf-8")
    for command in ("replay", "render"):
        code, out, err = run(command, str(path))
        assert (code, out) == (1, "")
        assert "no game or variant is named 'my-own-house'" in err
        assert "--import MODULE" in err


def test_replay_of_a_tampered_record_names_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("play", GAME, "--bot", "random", "--seed", "9", "--record", str(path))
    data = json.loads(path.read_text("utf-8"))
    data["actions"][3] = "move 99,99"
    path.write_text(json.dumps(data), "utf-8")
    code, out, err = run("replay", str(path))
    assert code == 1
    assert out == ""
    assert "entry 3" in err


def played_record(tmp_path: Path, seed: int) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "game.json"
    run("play", GAME, "--bot", "random", "--seed", str(seed), "--record", str(path))
    return path, json.loads(path.read_text("utf-8"))


def another_legal_action(data: dict[str, Any], i: int) -> str:
    """An action legal before entry ``i`` of a record's data, other than the one there."""
    record = cardcrawl.Record.from_data(data)
    game = record.load_game()
    state = list(record.states())[i]
    texts = [game.format_action(a) for a in game.legal_actions(state)]
    return next(t for t in texts if t != data["actions"][i])


@pytest.mark.parametrize("command", ["replay", "replay --html page.html", "render"])
@pytest.mark.parametrize("tamper", ["decision", "cut", "seed"])
def test_a_record_whose_claims_fail_is_refused(tmp_path: Path, command: str, tamper: str) -> None:
    """A plausible edit (another legal decision, a cut, another seed) replays no more:
    the message names the changed entry or the failing claim, and the exit status is 1."""
    path, data = played_record(tmp_path, 9)
    if tamper == "decision":
        # Entry 0 places the first card; placing it elsewhere is as legal.
        text = another_legal_action(data, 0)
        data["actions"][0] = text
        expected = f"record entry 0 ({text!r}) is not the action recorded"
    elif tamper == "cut":
        n = len(data["actions"])
        data["actions"], data["seconds"] = data["actions"][:10], data["seconds"][:10]
        expected = f"record fails its length, ending and final digest claims: the record claims {n}"
    else:
        data["seed"] = 10
        expected = "record's start claim fails"
    path.write_text(json.dumps(data), "utf-8")
    page = tmp_path / "page.html"
    name = command.split()[0]
    html = ["--html", str(page)] if "--html" in command else []
    code, out, err = run(name, str(path), *html)
    assert (code, out) == (1, "")
    assert err.startswith(f"cardcrawl: {path}: {expected}")
    assert "Traceback" not in err
    assert not page.exists()


def test_an_old_record_replays_marked_unverified(tmp_path: Path) -> None:
    path, data = played_record(tmp_path, 9)
    _, verified, _ = run("replay", str(path))
    data = {k: v for k, v in data.items() if k not in ("claims", *cardcrawl.Record.TRACE_KEYS)}
    path.write_text(json.dumps({**data, "format": 1}), "utf-8")
    code, out, err = run("replay", str(path))
    assert code == 0
    assert err.startswith(f"cardcrawl: {path}: not verified: it is a record without the claims")
    n = len(data["actions"])
    header, *story = out.splitlines()
    assert header == f"Replaying {GAME} with seed 9 ({n} actions, unverified)."
    assert story == verified.splitlines()[1:]


# ------------------------------------------------------------- streams
def test_symbols_the_output_cannot_encode_are_replaced() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    code, _, _ = run("play", GAME, "--bot", "random", "--seed", "7", stdout=stream)
    stream.flush()
    text = raw.getvalue().decode("ascii")
    assert code == 0
    assert "?" in text
    assert text.splitlines()[-1].startswith("Result: ")


def test_python_m_cardcrawl_plays_a_bot_game() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, "-m", "cardcrawl", "play", GAME, "--bot", "random", "--seed", "7"]
    done = subprocess.run(command, capture_output=True, env=env, timeout=120, check=False)
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert out.splitlines()[-1].startswith("Result: ")
    assert out.replace("\r\n", "\n") == run("play", GAME, "--bot", "random", "--seed", "7")[1]
