"""One registry per game: every per-game plug-in (figures, pictures, search model,
oracles) is a slot of the game's GameTools, declared where it registers; the
registration functions of old still work for one release, with a DeprecationWarning
that names the slot replacing them, and write into that one place."""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.bots import search_model
from cardcrawl.bots._search import register_search_model
from cardcrawl.mapless import MaplessHouse
from cardcrawl.simulate import play_game
from cardcrawl.simulate._run import register_figures


class Counted(MaplessHouse):
    """The Mapless House under another name, to register and change freely."""


class Steps:
    def __init__(self, game: Any) -> None:
        self.states = 0

    def step(self, state: Any) -> None:
        self.states += 1

    def figures(self, state: Any) -> tuple[tuple[str, Any], ...]:
        return (("states", self.states),)


def _register(name: str, **slots: Any) -> Any:
    tools = attrs.evolve(cardcrawl.tools_for("mapless-house"), **slots)
    cardcrawl.register_game(name, Counted, tools=tools, replace=True)
    cardcrawl.register_variant(f"{name}-brief", base=name, options={"max_turns": 20}, replace=True)
    return cardcrawl.load(name, max_turns=60)


def test_the_stock_games_declare_every_plug_in_in_their_tools() -> None:
    house = cardcrawl.tools_for("mapless-house")
    assert house.svg is not None
    assert house.figures is not None
    assert type(house.search_model).__name__ == "MaplessSearchModel"
    assert list(house.oracles) == ["oracle"]
    haydes = cardcrawl.tools_for("escape-from-haydes-tuybe")
    assert haydes.svg is not None
    assert haydes.search_model is None
    assert dict(haydes.oracles) == {}


def test_figures_come_from_the_tools_slot() -> None:
    game = _register("counted-house-test", figures=Steps)
    result = play_game(game, ["random"], seed=1)
    assert [name for name, _ in result.figures] == ["states"]


def test_register_figures_warns_and_sets_the_slot_of_the_game_and_its_variants() -> None:
    _register("figured-house-test")
    with pytest.warns(DeprecationWarning, match=r"GameTools\(figures=\.\.\.\)"):
        register_figures("figured-house-test", Steps)
    for name in ("figured-house-test", "figured-house-test-brief"):
        assert cardcrawl.tools_for(name).figures is Steps
    game = cardcrawl.load("figured-house-test-brief")
    assert [name for name, _ in play_game(game, ["random"], seed=2).figures] == ["states"]


def test_register_search_model_warns_and_sets_the_slot() -> None:
    game = _register("searched-house-test", search_model=None)
    with pytest.raises(cardcrawl.errors.UnknownBotError, match=r"GameTools\(search_model"):
        search_model(game)
    model = search_model(cardcrawl.load("mapless-house"))
    with pytest.warns(DeprecationWarning, match=r"GameTools\(search_model=\.\.\.\)"):
        register_search_model("searched-house-test", model)
    assert cardcrawl.tools_for("searched-house-test-brief").search_model is model
    assert search_model(game) is model


def test_a_game_without_a_slot_has_no_plug_in() -> None:
    game = _register("bare-house-test", svg=None, oracles={})
    from cardcrawl.bots._oracles import oracle_names

    assert oracle_names(game) == ()
    # Its class draws as a MaplessHouse only through the tools, which it has not.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cardcrawl.find_renderer(game) is None
