"""``check_game`` reports every broken promise as a ``ConformanceError`` naming the game,
the seed, the step and the promise, an exception from the game's own code included; it
holds a game with a limit to its ``max_game_length``; and it says which games need not
end (H-13, M-22)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import cardcrawl
from cardcrawl.core import _registry
from cardcrawl.errors import ConformanceError, SerializationError
from cardcrawl.mapless import MaplessHouse, Phase
from cardcrawl.testing import check_game, check_state


@pytest.fixture
def registry() -> Iterator[None]:
    """Games registered by a test are gone after it."""
    before = dict(_registry._REGISTRY)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(before)


def _options() -> Any:
    return cardcrawl.load("mapless-house", max_turns=5).options


class _Unsaveable(MaplessHouse):
    """Cannot save a state of the hunt: its own error, raised where nobody asked."""

    def state_to_data(self, state: Any) -> Any:
        if state.phase is Phase.MOVE:
            raise SerializationError("this state cannot be saved")
        return super().state_to_data(state)


class _Forgetful(MaplessHouse):
    """A bug in the game's code: a KeyError once the Exit is on the table."""

    def legal_actions(self, state: Any) -> Any:
        if state.exit_cell is not None:
            raise KeyError(state.exit_cell)
        return super().legal_actions(state)


class _Stuck(MaplessHouse):
    """Cannot even start."""

    def initial_state(self, seed: int, **kwargs: Any) -> Any:
        raise RuntimeError("no deck")


class _Stumbling(MaplessHouse):
    """Fails on its 3rd step from the start of each game."""

    def step(self, state: Any, action: Any) -> Any:
        if len(state.table) == 3 and state.drawn is not None:
            raise ValueError("a bad step")
        return super().step(state, action)


@pytest.mark.parametrize(
    ("cls", "error", "where", "what"),
    [
        (_Unsaveable, SerializationError, r"step \d+", "this state cannot be saved"),
        (_Forgetful, KeyError, r"step \d+", r"\(-?\d+, -?\d+\)"),
        (_Stuck, RuntimeError, "at setup", "no deck"),
        (_Stumbling, ValueError, r"step \d+", "a bad step"),
    ],
    ids=["SerializationError", "KeyError", "at-setup", "in-step"],
)
def test_an_exception_from_the_game_is_a_conformance_error_in_context(
    cls: type[MaplessHouse], error: type[Exception], where: str, what: str
) -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(cls(_options()), games=1)
    expected = (
        rf"mapless-house seed 0 \(sampled chance\), {where}: "
        rf"the game raised {error.__name__} \({what}\); a game raises only on bad input"
    )
    assert re.match(expected, str(info.value)), str(info.value)
    assert isinstance(info.value.__cause__, error)


def test_the_step_named_is_the_one_that_failed() -> None:
    sampled = (False,)
    with pytest.raises(ConformanceError) as info:
        check_game(_Unsaveable(_options()), games=1, explicit_chance=sampled)
    found = re.search(r"step (\d+):", str(info.value))
    assert found is not None
    step = int(found.group(1))
    assert step > 0  # the hunt begins once the house is built
    # Stopped just before that step, the same game is played without a complaint.
    report = check_game(_Unsaveable(_options()), games=1, max_steps=step, explicit_chance=sampled)
    assert report.steps == step


def test_check_state_reports_the_games_exception_too() -> None:
    game = _Forgetful(_options())
    state = game.initial_state(0)
    check_state(game, state)
    while state.exit_cell is None:
        state = game.step(state, MaplessHouse.legal_actions(game, state)[0])
    with pytest.raises(ConformanceError, match=r"^hunt: the game raised KeyError") as info:
        check_state(game, state, "hunt")
    assert isinstance(info.value.__cause__, KeyError)


@pytest.mark.parametrize(
    ("name", "options", "terminates"),
    [
        ("escape-from-haydes", {}, False),
        ("escape-from-haydes", {"max_rounds": 3}, True),
        ("escape-from-haydes-solo-timer", {}, True),
        ("mapless-house", {}, False),
        ("mapless-house", {"max_turns": 5}, True),
    ],
)
def test_the_report_says_whether_every_game_ends(
    name: str, options: dict[str, Any], terminates: bool
) -> None:
    """H-13, M-22: without their limit both games may go on forever, so a game cut off
    at max_steps is no error; the report says that termination is not promised."""
    report = check_game(cardcrawl.load(name, **options), games=1, max_steps=4)
    assert report.terminates is terminates
    assert report.terminal == 0
    assert report.games == 2


def test_a_game_that_declares_no_limit_promises_to_end(registry: None) -> None:
    """GameTools.limit is None for a game that always ends on its own."""
    cardcrawl.register_game("test-no-limit", MaplessHouse, tools=cardcrawl.GameTools())
    assert check_game(cardcrawl.load("test-no-limit", max_turns=3), games=1).terminates


def test_a_game_longer_than_its_max_game_length_is_caught(registry: None) -> None:
    tools = cardcrawl.GameTools(
        limit=("max_turns", 10),
        openspiel=cardcrawl.OpenSpielSettings(
            short_name="cardcrawl_test_too_short",
            long_name="a bound too small",
            max_players=1,
            max_game_length=lambda options: 3,
        ),
    )
    cardcrawl.register_game("test-too-short", MaplessHouse, tools=tools)
    with pytest.raises(ConformanceError, match=r"step \d+: decision 4 of a game whose max_game"):
        check_game(cardcrawl.load("test-too-short", max_turns=5), games=1)
    # Off, the limit promises nothing, and the bound is not checked.
    check_game(cardcrawl.load("test-too-short"), games=1, max_steps=50)
