"""``python -m cardcrawl play`` at a real (pseudo-)terminal: what a person sees and types.

Each test starts the command in a subprocess whose standard streams are a pseudo-
terminal (stdlib ``pty``), answers its prompts and reads what it shows, each wait
bounded by a timeout; the process is killed if it outlives its test. Expected text is
rebuilt from the library (the games, their terminal tools, the bots), so the tests pin
what the command promises rather than one transcript.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

import cardcrawl
from cardcrawl.bots import make_bot

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX only")

#: The longest any one answer may take to come (a fresh interpreter, then a bot move).
TIMEOUT = 30.0
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Session:
    """A ``cardcrawl play`` process on a pseudo-terminal."""

    def __init__(self, *argv: str) -> None:
        master, slave = pty.openpty()
        env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "80", "LINES": "24"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardcrawl", "play", *argv],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.buffer = b""

    def expect(self, marker: str, timeout: float = TIMEOUT) -> str:
        """Everything shown up to and including ``marker``, which must come in time."""
        wanted = marker.encode("utf-8")
        deadline = time.monotonic() + timeout
        while wanted not in self.buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.master], [], [], max(0.0, left))
            if not ready:
                raise AssertionError(f"{marker!r} did not come; shown so far:\n{self.text()}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the process ended and the terminal closed
                chunk = b""
            if not chunk:
                raise AssertionError(f"the process ended before {marker!r}:\n{self.text()}")
            self.buffer += chunk
        end = self.buffer.index(wanted) + len(wanted)
        shown, self.buffer = self.buffer[:end], self.buffer[end:]
        return _clean(shown)

    def text(self) -> str:
        return _clean(self.buffer)

    def answer(self, line: str) -> str:
        """Type ``line`` and Enter at the prompt that is waiting; what comes until the
        next prompt (the typed line, echoed by the terminal, left out)."""
        os.write(self.master, line.encode("utf-8") + b"\n")
        shown = self.expect("Your choice (")
        return shown.split("\n", 1)[1] if "\n" in shown else shown

    def finish(self, timeout: float = TIMEOUT) -> int:
        return self.proc.wait(timeout)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(TIMEOUT)
        os.close(self.master)


def flat(text: str) -> str:
    """``text`` with its lines joined: messages are wrapped to the terminal's width."""
    return " ".join(text.split())


def map_lines(text: str) -> list[str]:
    """The lines of the first map in ``text``: its x coordinates, then its rows."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if re.fullmatch(r" {4,}-?\d+( +-?\d+)+", line))
    rows = [first]
    while first + len(rows) < len(lines) and re.match(
        r"[ \-0-9]{3}( |$)", lines[first + len(rows)]
    ):
        rows.append(first + len(rows))
    return [lines[i] for i in rows]


def _clean(raw: bytes) -> str:
    # A terminal turns "\n" into "\r\n"; colours or cursor moves would be noise.
    return _ANSI.sub("", raw.decode("utf-8", errors="replace")).replace("\r\n", "\n")


@pytest.fixture
def session() -> Iterator[list[Session]]:
    started: list[Session] = []
    yield started
    for one in started:
        one.close()


def start(started: list[Session], *argv: str) -> Session:
    one = Session(*argv)
    started.append(one)
    return one


def test_the_mapless_house_at_a_terminal(session: list[Session]) -> None:
    """The numbered map, help from the game, rules, hint, and lenient answers."""
    game = cardcrawl.load("mapless-house")
    terminal = cardcrawl.tools_for(game).terminal
    assert terminal is not None
    term = start(session, "mapless-house", "--seed", "5")
    state = game.initial_state(5)
    legal = game.legal_actions(state)
    first = term.expect("Your choice (")
    # In a terminal the map has its coordinates and the choices numbered on it.
    assert terminal.show(game, state, legal, width=80) in first
    assert len(map_lines(first)) == 4

    shown = term.answer("help")
    assert "place: " + terminal.actions["place"] in flat(shown)
    assert "Commands: help" in shown
    assert flat(terminal.rules) in flat(term.answer("rules"))

    bot = make_bot("heuristic", game, 5, 0)
    advice = bot.choose(game, game.observe(state, 0), legal)
    number = legal.index(advice) + 1
    assert f"the heuristic bot would choose {number}) {advice}." in flat(term.answer("hint"))

    # "place X, Y", the cell alone, then the number: three spellings of a choice.
    for spelling in ("place {x}, {y}", "({x}, {y})", "{n}"):
        action = legal[-1]
        x, y = action.cell
        shown = term.answer(spelling.format(x=x, y=y, n=len(legal)))
        state = game.step(state, action)
        assert flat(str(state.events[0])) in flat(shown)
        legal = game.legal_actions(state)
        assert terminal.show(game, state, legal, width=80) in shown

    os.write(term.master, b"q\n")
    assert "Game abandoned." in term.expect("Game abandoned.")
    assert term.finish() == 0


def test_the_story_and_the_rules_fit_80_columns(session: list[Session]) -> None:
    """Narration (whose lines run past 150 characters) and the rules are wrapped to the
    terminal's width, words whole."""
    game = cardcrawl.load("mapless-house", max_turns=30)
    term = start(session, "mapless-house", "--seed", "21", "--max-turns", "30")
    shown = [term.expect("Your choice (")]
    state = game.initial_state(21)
    longest = 0
    for _ in range(10):
        shown.append(term.answer("1"))
        state = game.step(state, game.legal_actions(state)[0])
        longest = max(longest, *(len(str(e)) for e in state.events))
        assert all(flat(str(e)) in flat(shown[-1]) for e in state.events)
    rules = term.answer("rules")
    terminal = cardcrawl.tools_for(game).terminal
    assert terminal is not None
    assert flat(terminal.rules) in flat(rules)
    assert max(len(line) for line in terminal.rules.splitlines()) > 80
    assert longest > 80  # the test means something: some events are longer than a line
    for text in [*shown, rules]:
        for line in text.splitlines():
            assert len(line) <= 80, line
    os.write(term.master, b"q\n")
    term.expect("Game abandoned.")


def test_a_long_house_is_cropped_and_undo_is_fair(session: list[Session]) -> None:
    """The map never passes 80 columns; ``map`` shows all of it; undo takes back the
    Exit's cell, which revealed nothing, but never a placement, which drew a card."""
    term = start(session, "mapless-house", "--seed", "1")
    shown = term.expect("Your choice (")
    shown = term.answer("1")
    assert "Cannot undo: place -1,0 revealed what chance gave" in flat(term.answer("undo"))
    for _ in range(18):
        shown = term.answer("1")
    assert "1) exit -20,0" in shown
    lines = shown.splitlines()
    # Events are sentences the terminal wraps; the map is cut to fit.
    assert max(len(line) for line in map_lines(shown)) <= 80
    assert any(line.startswith("Shown: x ") and "more to the east" in line for line in lines)
    whole = term.answer("map")
    assert max(len(line) for line in map_lines(whole)) > 80
    assert "Shown: x " not in whole

    shown = term.answer("2")
    assert "The Exit opens at (-19, -1)" in shown
    shown = term.answer("undo")
    assert "Undone: exit -19,-1." in shown
    assert "1) exit -20,0" in shown
    assert "The Exit opens at (-19, 1)" in term.answer("exit -19, 1")
    os.write(term.master, b"quit\n")
    term.expect("Game abandoned.")
    assert term.finish() == 0


def test_haydes_with_a_bot_shows_its_turn_step_by_step(session: list[Session]) -> None:
    """Two players, one a bot: each of the bot's decisions is said, then its events;
    a cell two choices go to is asked about; the SVG-free text view numbers both."""
    game = cardcrawl.load("escape-from-haydes", players=2)
    term = start(
        session, game.name, "--players", "2", "--seed", "3", "--bot", "1=heuristic", "--pace", "0"
    )
    state = game.initial_state(3)
    shown = term.expect("Your choice (")
    assert "(1/2)" in shown
    assert "Player 0 to move." in shown
    shown = term.answer("0,1")
    assert "0,1 could be 5) higher 0,1 or 6) lower 0,1: type one of them." in flat(shown)

    shown = term.answer("end")
    state = game.step(state, game.parse_action("end"))
    bot = make_bot("heuristic", game, 3, 1)
    lines = shown.splitlines()
    at = 0
    while game.current_player(state) == 1:
        action = bot.choose(game, game.observe(state, 1), game.legal_actions(state))
        state = game.step(state, action)
        at = lines.index(f"Player 1 (heuristic): {action}", at)
        events = [str(e) for e in state.events]
        assert lines[at + 1 : at + 1 + len(events)] == events
        at += 1
    os.write(term.master, b"q\n")
    term.expect("Game abandoned.")
    assert term.finish() == 0
