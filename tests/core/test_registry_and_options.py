"""The registry of games and variants, and validated game options."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import GameSpec, OptionsError, UnknownGameError
from cardcrawl.kit._grid import Cell
from cardcrawl.mapless import (
    EXIT,
    PLACEABLE_CARDS,
    CardPlaced,
    ExitPlaced,
    MaplessHouse,
    MaplessOptions,
    MaplessState,
    Phase,
    Place,
)
from cardcrawl.mapless._dread import STANDARD_DREAD_LINES
from cardcrawl.testing import check_game
from strategies import play, seeds, stacked


@pytest.fixture
def registry() -> Iterator[None]:
    """Leave the global registry as it was, whatever the test registers."""
    from cardcrawl.core import _registry

    before = dict(_registry._REGISTRY)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(before)


def user_lines() -> dict[str, str]:
    return {c.code: f"The house whispers {c.code}." for c in PLACEABLE_CARDS}


def test_load_with_and_without_options() -> None:
    game = cardcrawl.load("mapless-house")
    assert (game.name, game.options.max_turns, game.options.dread_lines) == (
        "mapless-house",
        None,
        None,
    )
    limited = cardcrawl.load("mapless-house", max_turns=7)
    assert limited.options == MaplessOptions(max_turns=7)
    assert limited == cardcrawl.load("mapless-house", max_turns=7)
    assert hash(limited) == hash(cardcrawl.load("mapless-house", max_turns=7))
    assert limited != game
    assert isinstance(limited, MaplessHouse)
    assert "mapless-house" in cardcrawl.game_names()
    assert list(cardcrawl.game_names()) == sorted(cardcrawl.game_names())
    spec = cardcrawl.get_spec("mapless-house")
    assert (spec.game_class, spec.base, dict(spec.preset)) == (MaplessHouse, None, {})


@pytest.mark.parametrize("name", ["chess", "Mapless-House", "mapless", "", None, ["x"]])
def test_an_unknown_game_lists_the_known_names(name: Any) -> None:
    with pytest.raises(UnknownGameError, match=r"no game or variant is named .*known: .*"):
        cardcrawl.load(name)
    with pytest.raises(LookupError, match="mapless-house"):
        cardcrawl.get_spec(name)


def test_an_unknown_option_name_lists_the_options() -> None:
    with pytest.raises(OptionsError, match=r"has no option 'max_rounds'.*dread_lines, max_turns"):
        cardcrawl.load("mapless-house", max_rounds=5)


@pytest.mark.parametrize("value", [0, -1, True, "5", 1.5, [3]], ids=repr)
def test_a_bad_max_turns_is_an_options_error(value: object) -> None:
    with pytest.raises(OptionsError, match="max_turns"):
        cardcrawl.load("mapless-house", max_turns=value)


def test_options_to_data_from_data_and_replace() -> None:
    options = MaplessOptions(max_turns=9)
    assert options.to_data() == {"max_turns": 9, "dread_lines": None}
    assert MaplessOptions.from_data({"max_turns": 9}) == options
    assert MaplessOptions.from_data({}) == MaplessOptions()
    assert options.replace(max_turns=None) == MaplessOptions()
    with pytest.raises(OptionsError, match="max_turns"):
        options.replace(max_turns=0)
    with pytest.raises(OptionsError, match="a mapping"):
        MaplessOptions.from_data([("max_turns", 3)])  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="has no option 'type'"):
        MaplessOptions.from_data({"type": "MaplessOptions"})


def test_register_a_variant_with_preset_options(registry: None) -> None:
    spec = cardcrawl.register_variant(
        "mapless-brief", base="mapless-house", options={"max_turns": 5}, description="short"
    )
    assert spec == GameSpec(
        "mapless-brief",
        MaplessHouse,
        {"max_turns": 5},
        "short",
        "mapless-house",
        cardcrawl.tools_for("mapless-house"),  # a variant has its base's tools
    )
    game = cardcrawl.load("mapless-brief")
    assert (game.name, game.options.max_turns) == ("mapless-brief", 5)
    assert cardcrawl.load("mapless-brief", max_turns=9).options.max_turns == 9  # caller wins
    assert "mapless-brief" in cardcrawl.game_names()
    # A variant of a variant keeps the presets and names the original game as its base.
    inner = cardcrawl.register_variant(
        "mapless-brief-told", base="mapless-brief", options={"dread_lines": user_lines()}
    )
    assert inner.base == "mapless-house"
    told = cardcrawl.load("mapless-brief-told")
    assert told.options.max_turns == 5
    assert told.options.dread_line(EXIT) == "The house whispers AH."
    # Its games play to the end within the preset limit.
    state = told.initial_state(seed=4)
    while not told.is_terminal(state):
        state = told.step(state, told.legal_actions(state)[-1])
    assert state.turn <= 5


def test_variant_registration_is_validated(registry: None) -> None:
    with pytest.raises(UnknownGameError, match="no-such-game"):
        cardcrawl.register_variant("v", base="no-such-game")
    with pytest.raises(OptionsError, match="max_turns"):
        cardcrawl.register_variant("v", base="mapless-house", options={"max_turns": 0})
    with pytest.raises(OptionsError, match="has no option 'speed'"):
        cardcrawl.register_variant("v", base="mapless-house", options={"speed": 2})
    assert "v" not in cardcrawl.game_names()
    with pytest.raises(OptionsError, match="already registered"):
        cardcrawl.register_variant("mapless-house", base="mapless-house")
    for bad in ("", " v", "a b", None):
        with pytest.raises(OptionsError, match="a game name is a non-empty string"):
            cardcrawl.register_variant(bad, base="mapless-house")  # type: ignore[arg-type]
    cardcrawl.register_variant("v", base="mapless-house", options={"max_turns": 3})
    with pytest.raises(OptionsError, match="replace=True"):
        cardcrawl.register_variant("v", base="mapless-house")
    cardcrawl.register_variant("v", base="mapless-house", options={"max_turns": 4}, replace=True)
    assert cardcrawl.load("v").options.max_turns == 4


class NoPull(MaplessHouse):
    """A house variant where dead ends do not pull (M-7 switched off) by one hook."""

    def corridor_cells(self, state: MaplessState) -> list[Cell]:
        return super().corridor_cells(attrs.evolve(state, last_room=None))


POCKET = "2S 3S 4S 5S 6S 7S JS 8S QS"
POCKET_BUILD = [
    *("place 1,0", "place 2,0", "place 2,1", "place 2,2", "place 1,2", "place -1,0"),
    "place 0,1",
]


def test_register_a_variant_with_its_own_game_class(registry: None) -> None:
    """A variant may bring its own class overriding a hook; the pocket that refuses 8♠
    under the standard pull (M-7) lets it in when the pull is switched off."""
    cardcrawl.register_variant(
        "mapless-no-pull", base="mapless-house", game_class=NoPull, options={"max_turns": 20}
    )
    game = cardcrawl.load("mapless-no-pull")
    assert isinstance(game, NoPull)
    assert game.name == "mapless-no-pull"
    standard = stacked(cardcrawl.load("mapless-house"), {"narrative": POCKET}, POCKET_BUILD)
    assert standard.refused == (cardcrawl.Card.parse("8S"),)
    varied = stacked(game, {"narrative": POCKET}, POCKET_BUILD)
    assert varied.phase is Phase.PLACE
    assert varied.drawn == cardcrawl.Card.parse("8S")
    assert game.legal_actions(varied) == tuple(
        Place(c) for c in [(-2, 0), (-1, -1), (0, -1), (1, 3)]
    )
    report = check_game(game, games=2)
    assert report.terminal == report.games == 4


def test_register_game(registry: None) -> None:
    spec = cardcrawl.register_game("house-again", MaplessHouse, description="again")
    assert spec.base is None
    assert cardcrawl.load("house-again", max_turns=3).name == "house-again"
    with pytest.raises(OptionsError, match="already registered"):
        cardcrawl.register_game("house-again", MaplessHouse)


def test_dread_lines_must_cover_exactly_the_placeable_cards() -> None:
    lines = user_lines()
    assert len(lines) == 26
    assert set(STANDARD_DREAD_LINES) == set(lines)
    missing = {k: v for k, v in lines.items() if k != "AH"}
    with pytest.raises(OptionsError, match=r"missing: \['AH'\], unknown: none"):
        cardcrawl.load("mapless-house", dread_lines=missing)
    with pytest.raises(OptionsError, match=r"missing: none, unknown: \['2H'\]"):
        cardcrawl.load("mapless-house", dread_lines={**lines, "2H": "A heart line."})
    with pytest.raises(OptionsError, match=r"unknown: \['AS'\]"):
        cardcrawl.load("mapless-house", dread_lines={**lines, "AS": "A Stalker line."})
    with pytest.raises(OptionsError, match="dread_lines"):
        cardcrawl.load("mapless-house", dread_lines={**lines, "KS": 13})
    with pytest.raises(OptionsError, match="dread_lines"):
        cardcrawl.load("mapless-house", dread_lines=["AH"])
    with pytest.raises(OptionsError, match="dread_lines values are strings"):
        MaplessOptions(dread_lines={**lines, "KS": 13})  # type: ignore[dict-item]
    assert cardcrawl.load("mapless-house", dread_lines=None).options.dread_lines is None


@given(seed=seeds, data=st.data())
def test_a_user_dread_table_narrates_every_placement(seed: int, data: st.DataObject) -> None:
    """The user's table, not the standard one, gives the line of every card placed and of
    the Exit."""
    lines = user_lines()
    game = cardcrawl.load("mapless-house", max_turns=20, dread_lines=lines)
    assert game.options.dread_lines == lines
    placed = 0
    for event in play(game, seed, data).events:
        if isinstance(event, CardPlaced):
            assert event.dread == lines[event.card.code]
            assert str(event).endswith(lines[event.card.code])
            placed += 1
        if isinstance(event, ExitPlaced):
            assert event.dread == "The house whispers AH."
    assert placed > 0


def test_the_standard_dread_lines_are_used_by_default() -> None:
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(0, stack={"narrative": "KS"})
    state = game.step(state, Place((1, 0)))
    assert state.events[0] == CardPlaced(
        cardcrawl.Card.parse("KS"), (1, 0), STANDARD_DREAD_LINES["KS"]
    )
