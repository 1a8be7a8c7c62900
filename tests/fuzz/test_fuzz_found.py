"""The inputs the fuzzers found that break a promise, each pinned at its smallest.

Every test here of a bug still open is a strict xfail naming the library bug, so it
fails the moment the bug is fixed: then remove its marker, and the entry of the same
name in ``_fuzz.KNOWN_BUGS`` (through which the fuzz tests pass over the bug
meanwhile); the test stays, as a regression test. The
promise each checks is the fuzzers' own: a save or record is refused with a library
error, or it loads and the state behaves and plays to its end.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.errors import SerializationError
from cardcrawl.haydes import Phase as HaydesPhase
from cardcrawl.mapless import Phase as MaplessPhase

from . import _fuzz
from ._fuzz import (
    KNOWN_BUGS,
    load,
    load_and_play,
    random_state,
    replay_and_play,
    validate_and_play,
)


def _bug(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"library bug: {reason}")


def _save(name: str, options: dict[str, Any], until: Callable[[Any], bool]) -> Any:
    """The game, and the saved data of the first state of seeded random play (seed 1,
    sampled or explicit chance as needed) that meets ``until``."""
    game = load(name, options)
    for explicit in (False, True):
        for steps in range(200):
            state, _ = random_state(game, 1, steps, explicit=explicit)
            if until(state):
                return game, game.state_to_data(state)
    raise AssertionError("no such state")  # pragma: no cover - the inputs are fixed


def _nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def open_bugs() -> dict[str, list[pytest.Mark]]:
    """The tests here that pin a bug still open, with their strict xfail marks (on the
    test, or on some of its parameters)."""
    found = {}
    for name, test in globals().items():
        if not name.startswith("test_"):
            continue
        marks = getattr(test, "pytestmark", [])
        params = [p for m in marks if m.name == "parametrize" for p in m.args[1]]
        xfails = [m for m in marks if m.name == "xfail"]
        xfails += [m for p in params for m in getattr(p, "marks", ()) if m.name == "xfail"]
        if xfails:
            found[name] = xfails
    return found


def test_every_known_bug_is_pinned_here() -> None:
    """``_fuzz.KNOWN_BUGS`` passes over nothing that a strict xfail here does not pin."""
    pinned = open_bugs()
    for bug in KNOWN_BUGS:
        assert bug.test in pinned, f"{bug.test} is fixed: remove its entry from KNOWN_BUGS"
    for name, xfails in pinned.items():
        assert all(m.kwargs.get("strict") for m in xfails), name


def _start(name: str) -> Callable[[], tuple[Any, Any]]:
    return lambda: _save(name, {}, lambda state: True)


@pytest.mark.parametrize(
    ("make", "path"),
    [
        pytest.param(
            _start("mapless-house"),
            ("state", "spade_left_exit"),
            id="codec-message",
        ),
        pytest.param(
            _start("escape-from-haydes"),
            ("state", "discard"),
            id="renamed-types",
        ),
        pytest.param(
            _start("mapless-house"),
            ("rules_version",),
            id="header-message",
        ),
        pytest.param(
            _start("mapless-house"),
            ("state", "phase"),
            id="enum-message",
        ),
        pytest.param(
            _start("escape-from-haydes"),
            ("state", "phase"),
            id="haydes-enum-message",
        ),
    ],
)
def test_a_save_nested_too_deep_is_refused(make: Any, path: tuple[str, ...]) -> None:
    game, doc = make()
    field = doc
    for key in path[:-1]:
        field = field[key]
    field[path[-1]] = _nested(3_000)
    with pytest.raises(SerializationError):
        game.state_from_data(doc)


@pytest.mark.parametrize(
    ("make", "path"),
    [
        pytest.param(
            _start("mapless-house"),
            ("format",),
            id="header-message",
        ),
        pytest.param(
            _start("escape-from-haydes"),
            ("state", "replacement_left"),
            id="haydes-message",
        ),
        pytest.param(
            _start("escape-from-haydes"),
            ("state", "round"),
            id="haydes-round",
        ),
    ],
)
def test_a_save_holding_a_5000_digit_integer_is_refused_or_saved(
    make: Any, path: tuple[str, ...]
) -> None:
    """Python prints no integer of more than 4,300 digits (nor does JSON text hold one):
    a save holding one is refused, or loads into a state that saves as JSON text."""
    game, doc = make()
    field = doc
    for key in path[:-1]:
        field = field[key]
    field[path[-1]] = 10**5000
    load_and_play(game, doc, seed=1)


def _set_format(data: Any) -> None:
    data["format"] = 10**5000


def _set_seed(data: Any) -> None:
    data["seed"] = 10**5000


def _set_players(data: Any) -> None:
    data["options"]["players"] = 10**5000


def _set_max_rounds(data: Any) -> None:
    data["options"]["max_rounds"] = 10**5000


def _set_stack(data: Any) -> None:
    data["stack"] = {"first_player": [10**5000]}


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(_set_format, id="format"),  # found, and fixed since
        pytest.param(_set_seed),
        pytest.param(_set_players),
        pytest.param(
            _set_max_rounds,
        ),
        pytest.param(_set_stack),
    ],
)
def test_a_record_holding_a_5000_digit_integer_is_refused(edit: Callable[[Any], None]) -> None:
    """Read from JSON text no record holds such an integer; built as data, one may."""
    game = load("escape-from-haydes", {"players": 2, "max_rounds": 4})
    data = cardcrawl.Record.of(game, 3, []).to_data()
    edit(data)
    assert not replay_and_play(cardcrawl.Record.from_data, data, seed=1)


def test_options_holding_a_5000_digit_integer_are_refused() -> None:
    with pytest.raises(cardcrawl.OptionsError):
        cardcrawl.load("escape-from-haydes", players=10**5000)


def _narrative_card_far_away(doc: Any) -> None:
    saved = doc["state"]
    saved["table"].append([1, -(10**30), saved["narrative"]["rest"].pop()])


def _stalker_far_away(doc: Any) -> None:
    doc["state"]["spade"] = [-(10**30) - 1, -(10**30)]


@pytest.mark.parametrize(
    ("until", "edit"),
    [
        pytest.param(
            lambda s: s.phase is MaplessPhase.MOVE and s.narrative.cards,
            _narrative_card_far_away,
            id="card-render-hung",
        ),
        pytest.param(
            lambda s: s.phase is MaplessPhase.MOVE and s.spade is not None,
            _stalker_far_away,
            id="stalker-render-hung",
        ),
    ],
)
def test_a_mapless_piece_far_from_the_house_is_refused(
    until: Callable[[Any], bool], edit: Callable[[Any], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the fuzzers (render never returned, legal_actions raised ActionError);
    fixed since: the house must be one piece, its Stalkers within its bounds."""
    # A real render takes milliseconds: a second is ample, and keeps this test short.
    monkeypatch.setattr(_fuzz, "CALL_SECONDS", 1.0)
    game, doc = _save("mapless-house", {}, until)
    edit(doc)
    load_and_play(game, doc, seed=1)


def _at_reveal(state: Any) -> bool:
    return state.phase is HaydesPhase.REVEAL


@pytest.mark.parametrize(
    "cell",
    [
        pytest.param([50, 50], id="off-layout"),
        pytest.param([0, 0], id="face-up-joker"),
    ],
)
def test_a_haydes_move_aimed_off_the_face_down_cells_is_refused(cell: list[int]) -> None:
    """Found with chance_outcomes raising KeyError or AssertionError; fixed since, H-6."""
    game, doc = _save("escape-from-haydes", {}, _at_reveal)
    doc["state"]["aim"]["cell"] = cell
    load_and_play(game, doc, seed=1)


@pytest.mark.parametrize("phase", [HaydesPhase.ENCOUNTER, HaydesPhase.ROLL], ids=str)
def test_a_haydes_encounter_on_a_plain_card_is_refused(phase: HaydesPhase) -> None:
    """Found with no legal action (an encounter) or a step raising AssertionError (a
    roll); fixed since, H-8."""
    game, doc = _save("escape-from-haydes", {"players": 2}, lambda s: s.phase is phase)
    saved = copy.deepcopy(doc["state"])
    index = saved["layout"].index(list(saved["seats"][saved["current"]]["cell"]))
    creature = saved["face_up"][index]
    unseen = saved["beliefs"][0]["unseen"][0]["rest"]
    plain = next(card for card in unseen if card[:-1] in {"2", "3", "4", "5"})
    # Swapped, so that every card is still there once.
    saved["face_up"][index] = plain
    unseen[unseen.index(plain)] = creature
    doc["state"] = saved
    load_and_play(game, doc, seed=1)


def test_a_haydes_first_player_off_the_seats_is_refused() -> None:
    """Found with step raising IndexError; fixed since, H-5."""

    def at_first(state: Any) -> bool:
        return state.phase is HaydesPhase.FIRST

    game, doc = _save("escape-from-haydes", {"players": 2}, at_first)
    doc["state"]["stacked_first"] = 2
    load_and_play(game, doc, seed=1)


def test_a_haydes_save_without_beliefs_is_refused() -> None:
    """Found with loading raising IndexError; fixed since."""
    game, doc = _start("escape-from-haydes")()
    doc["state"]["beliefs"] = []
    load_and_play(game, doc, seed=1)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        pytest.param(
            "mind_aside",
            [],
            id="accepted",
        ),
        pytest.param(
            "player",
            [0, 0],
            id="type-error",
        ),
        pytest.param(
            "table",
            (),
            id="attribute-error",
        ),
    ],
)
def test_a_hand_built_state_with_a_field_of_another_type_is_refused(field: str, value: Any) -> None:
    """core/_engine.py validate checks each field's type by saving and loading the state,
    which reads a list back as the tuple declared, and a tuple as the Grid: so a value
    of another type that saves alike passes that check."""
    game = load("mapless-house", {})
    state = attrs.evolve(game.initial_state(0), **{field: value})
    validate_and_play(game, state, seed=1)
