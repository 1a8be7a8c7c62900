"""The terminal side of ``cardcrawl play``, without a terminal: the numbered map views
of both games, lenient answers, help, hint and undo, and bots' steps told one by one.

The map is read back from its text (coordinates above and on the left, numbers in
brackets), so these tests check what a person sees against the legal actions, not the
view's own bookkeeping.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import rng_below, rng_derive
from cardcrawl.bots import make_bot
from cardcrawl.cli._input import match_answer, normalize
from cardcrawl.cli._main import main
from cardcrawl.core._terminal import TerminalPlay, action_word

#: (game, options, the characters before a cell's card over which its x is printed).
GAMES = [
    ("mapless-house", {"max_turns": 30}, 3),
    ("escape-from-haydes", {"players": 2, "max_rounds": 6}, 4),
    ("escape-from-haydes-tuybe", {"players": 4, "max_rounds": 3}, 4),
]

_MAP_LINE = re.compile(r"[ \-0-9]{3}( |$)")
_LABEL = re.compile(r"\((\d+(?:/\d+)*)\)")


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def random_states(game: Any, seed: int, limit: int = 150) -> Iterator[Any]:
    """The states of one game played by a seeded random policy."""
    state = game.initial_state(seed)
    rng = rng_derive(seed, 5)
    yield state
    while not game.is_terminal(state) and limit:
        legal = game.legal_actions(state)
        rng, i = rng_below(rng, len(legal))
        state = game.step(state, legal[i])
        limit -= 1
        yield state


def read_map(text: str, slot: int) -> tuple[list[str], dict[tuple[int, int], str], set[int]]:
    """(the map's lines, the label shown on each cell, the x coordinates shown) read
    back from a view."""
    lines = []
    for line in text.splitlines():
        if not _MAP_LINE.match(line):
            break
        lines.append(line)
    header, rows = lines[0], lines[1:]
    # Each x is printed right-aligned over the first `slot` characters of its column.
    starts = [(m.end() - slot, int(m[0])) for m in re.finditer(r"-?\d+", header)]
    labels: dict[tuple[int, int], str] = {}
    for row in rows:
        y = int(row[:3])
        for m in _LABEL.finditer(row, 4):
            x = max((s, x) for s, x in starts if s <= m.start())[1]
            assert (x, y) not in labels, f"two labels on one cell:\n{text}"
            labels[(x, y)] = m[1]
    return lines, labels, {x for _, x in starts}


def expected_labels(game: Any, legal: Any) -> dict[tuple[int, int], str]:
    """Each cell the legal actions name, with their numbers (the first action is 1)."""
    numbers: dict[tuple[int, int], list[str]] = {}
    for number, action in enumerate(legal, 1):
        cell = getattr(action, "cell", None)
        if cell is not None:
            numbers.setdefault(cell, []).append(str(number))
    return {cell: "/".join(ns) for cell, ns in numbers.items()}


def hidden_choices(note: str) -> set[int]:
    """The choice numbers a crop note says are off the map."""
    found = re.search(r"\(choices? (.*) (?:is|are) there\)", note)
    if found is None:
        return set()
    numbers: set[int] = set()
    for part in found[1].split(", "):
        low, _, high = part.partition(" to ")
        numbers.update(range(int(low), int(high or low) + 1))
    return numbers


@pytest.mark.parametrize(("name", "options", "slot"), GAMES)
@given(seed=st.integers(0, 2**32 - 1), width=st.sampled_from([40, 60, 80]))
def test_the_numbers_on_the_map_are_the_legal_actions(
    name: str, options: dict[str, Any], slot: int, seed: int, width: int
) -> None:
    """Every cell a legal action names shows that action's number, and no other cell
    shows one; the map fits its width, and a cropped map says which choices it left
    out; the whole map (``width=None``) leaves none out."""
    game = cardcrawl.load(name, **options)
    terminal = cardcrawl.tools_for(game).terminal
    assert terminal is not None
    for state in random_states(game, seed, limit=40):
        legal = game.legal_actions(state)
        want = expected_labels(game, legal)
        text = terminal.show(game, state, legal, width=width)
        lines, labels, xs = read_map(text, slot)
        assert max(len(line) for line in lines) <= width, text
        notes = [line for line in text.splitlines() if line.startswith("Shown: x ")]
        whole = terminal.show(game, state, legal, width=None)
        _, whole_labels, whole_xs = read_map(whole, slot)
        assert bool(notes) == (xs != whole_xs)
        assert xs <= whole_xs
        assert labels == {c: n for c, n in want.items() if c[0] in xs}
        off = {int(n) for c, ns in want.items() if c[0] not in xs for n in ns.split("/")}
        assert off == (hidden_choices(notes[0]) if notes else set())
        assert "Shown: x " not in whole
        assert whole_labels == want


def test_a_long_house_is_cropped_around_the_choices_with_a_scroll_hint() -> None:
    """A long house is cropped to 80 columns rather than wrapped, which would break the
    map's rows apart on a terminal."""
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(1)
    for _ in range(19):  # the first legal cell each time builds a long corridor westward
        state = game.step(state, game.legal_actions(state)[0])
    legal = game.legal_actions(state)
    assert [game.format_action(a) for a in legal] == ["exit -20,0", "exit -19,-1", "exit -19,1"]
    assert max(len(line) for line in game.render(state).splitlines()) > 80
    terminal = cardcrawl.tools_for(game).terminal
    assert terminal is not None
    text = terminal.show(game, state, legal)
    lines, labels, _ = read_map(text, 3)
    assert max(len(line) for line in lines) <= 80
    assert labels == {(-20, 0): "1", (-19, -1): "2", (-19, 1): "3"}
    assert "more to the east" in text
    assert "(N): where choice N below puts the Exit." in text
    # Centred on the Entrance instead, the choices are off the map, and it says so.
    away = terminal.show(game, state, legal, focus=(0, 0))
    assert read_map(away, 3)[1] == {}
    assert "more to the west (choices 1 to 3 are there)." in away


def test_the_plain_render_is_unchanged() -> None:
    """The golden transcripts' render: no coordinates or numbers unless asked."""
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(seed=3, stack={"narrative": ["KS"]})
    assert game.render(state).splitlines()[:3] == ["       +", " +    ENT@   +", "       +"]


@pytest.mark.parametrize(("name", "options", "slot"), GAMES)
def test_help_explains_every_action_from_the_game(
    name: str, options: dict[str, Any], slot: int
) -> None:
    """Each kind of legal action met in play has the game's own explanation."""
    game = cardcrawl.load(name, **options)
    terminal = cardcrawl.tools_for(game).terminal
    assert terminal is not None
    seen: set[str] = set()
    for seed in range(6):
        for state in random_states(game, seed):
            legal = game.legal_actions(state)
            words = {action_word(game.format_action(a)) for a in legal}
            lines = terminal.explain(game, state, legal)
            assert lines[0] == f"Waiting for {game.describe(state)}."
            assert {line.split(":")[0] for line in lines[1:]} == words
            seen |= words
    assert seen <= set(terminal.actions)
    assert {"higher", "lower", "end", "charisma", "endurance"} <= seen or name == "mapless-house"


def test_a_game_without_terminal_tools_falls_back_to_render_and_describe() -> None:
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(4)
    legal = game.legal_actions(state)
    bare = TerminalPlay()
    assert bare.show(game, state, legal) == game.render(state)
    assert bare.explain(game, state, legal) == [f"Waiting for {game.describe(state)}."]


# ------------------------------------------------------------------ answers
@pytest.mark.parametrize(
    ("answer", "text"),
    [
        ("place 0,1", "place 0,1"),
        ("place 0, 1", "place 0,1"),
        ("PLACE (0, 1)", "place 0,1"),
        ("place [0 , 1]", "place 0,1"),
        ("0,1", "place 0,1"),
        ("(0, 1)", "place 0,1"),
        ("3", "place 0,1"),
        (" 1 ", "place -1,0"),
    ],
)
def test_answers_are_read_leniently(answer: str, text: str) -> None:
    game = cardcrawl.load("mapless-house")
    legal = game.legal_actions(game.initial_state(1))
    assert match_answer(game, legal, answer).action == game.parse_action(text)


@pytest.mark.parametrize("answer", ["５", "0", "5", "place 0,1,2", "", "𝟑", "1_0"])
def test_unclear_answers_name_nothing(answer: str) -> None:
    """Only ASCII digits are numbers (the strict parse_action is not loosened)."""
    game = cardcrawl.load("mapless-house")
    legal = game.legal_actions(game.initial_state(1))
    found = match_answer(game, legal, answer)
    assert found.action is None


def test_a_cell_two_actions_go_to_is_asked_about() -> None:
    game = cardcrawl.load("escape-from-haydes")
    legal = game.legal_actions(game.initial_state(3))
    found = match_answer(game, legal, "1, 0")
    assert found.action is None
    assert found.problem == "1,0 could be 7) higher 1,0 or 8) lower 1,0: type one of them."
    assert match_answer(game, legal, "5,5").problem == "No choice goes to 5,5."
    assert normalize(" Higher ( 1 ,0 )") == "higher 1,0"


# ------------------------------------------------------- the command line
def test_the_numbered_view_with_help_rules_and_hint() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2)
    state = game.initial_state(3)
    legal = game.legal_actions(state)
    terminal = cardcrawl.tools_for(game).terminal
    assert terminal is not None
    code, out, _ = run(
        "play", game.name, "--players", "2", "--seed", "3", "--view", "numbered",
        stdin="help\nrules\nhint\nq\n",
    )  # fmt: skip
    assert code == 0
    assert terminal.show(game, state, legal) in out
    assert "1) higher -1,0" in out
    assert "higher: move onto that touching face-down card" in out
    # Wrapped to the width (80): the words are all there, in order.
    assert " ".join(terminal.rules.split()) in " ".join(out.split())
    bot = make_bot("heuristic", game, 3, game.current_player(state))
    advice = bot.choose(game, game.observe(state, game.current_player(state)), legal)
    number = legal.index(advice) + 1
    assert f"Hint: the heuristic bot would choose {number}) {advice}." in out


def test_undo_takes_back_a_choice_that_revealed_nothing() -> None:
    """Choosing the Exit's cell reveals no card (M-11), so it can be undone; placing a
    card draws the next one (M-9), so it cannot."""
    answers = "1\n" * 19 + "2\nundo\n3\nundo\nq\n"
    code, out, _ = run("play", "mapless-house", "--seed", "1", stdin=answers)
    assert code == 0
    assert out.count("Undone: exit -19,-1.") == 1
    assert "The Exit opens at (-19, -1)" in out
    assert "The Exit opens at (-19, 1)" in out
    assert out.count("Undone: exit -19,1.") == 1
    before = run("play", "mapless-house", "--seed", "1", stdin="1\nundo\nq\n")[1]
    assert "Cannot undo: place -1,0 revealed what chance gave" in before


def test_a_bot_turn_is_told_step_by_step_when_people_play() -> None:
    """Each of the bot's decisions is said before its events, in the order made."""
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=4)
    answers = "end\n" * 10
    code, out, _ = run(
        "play", game.name, "--players", "2", "--max-rounds", "4", "--seed", "3",
        "--bot", "1=heuristic", "--pace", "0", stdin=answers,
    )  # fmt: skip
    assert code == 0
    bot = make_bot("heuristic", game, 3, 1)
    state = game.initial_state(3)
    told: list[tuple[str, list[str]]] = []
    while not game.is_terminal(state):
        player = game.current_player(state)
        legal = game.legal_actions(state)
        if player == 1:
            action = bot.choose(game, game.observe(state, 1), legal)
        else:
            action = game.parse_action("end")
        state = game.step(state, action)
        if player == 1:
            decision = f"Player 1 (heuristic): {game.format_action(action)}"
            told.append((decision, [str(e) for e in state.events]))
    assert len(told) > 4
    lines = out.splitlines()
    at = 0
    for decision, events in told:
        at = lines.index(decision, at)
        assert lines[at + 1 : at + 1 + len(events)] == events
        at += 1


def test_bots_alone_tell_only_the_story() -> None:
    """With no person at the table the story is as before: no decisions said."""
    _, out, _ = run("play", "escape-from-haydes", "--players", "2", "--bot", "heuristic")
    assert "(heuristic):" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--width", "10"], "--width: a map needs at least 20 columns, not 10"),
        (["--pace", "-1"], "--pace: seconds from 0 to 60, not -1.0"),
    ],
)
def test_bad_view_arguments_are_usage_errors(argv: list[str], message: str) -> None:
    code, _, err = run("play", "mapless-house", *argv)
    assert code == 2
    assert message in err
