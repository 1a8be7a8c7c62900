"""A game gets every generic tool from its one registration (GameTools), with no generic
module naming it: encodings, simulation figures and limits, OpenSpiel, Gymnasium and
PettingZoo. The test game, Twenty-one, lives in tests/core/twentyone.py."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest
import twentyone

import cardcrawl
from cardcrawl.core import _registry
from cardcrawl.encoding import encoding_for
from cardcrawl.simulate import simulate
from cardcrawl.testing import check_game


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    before = dict(_registry._REGISTRY)
    twentyone.register()
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(before)


def _game() -> cardcrawl.GameBase:  # type: ignore[type-arg]
    return cardcrawl.load(twentyone.NAME, max_hits=13)


def test_the_test_game_conforms() -> None:
    report = check_game(_game(), games=5)
    assert report.terminal == report.games == 10


def test_tools_are_found_for_the_game_and_its_variants() -> None:
    cardcrawl.register_variant("test-twenty-one-short", base=twentyone.NAME, options={"target": 15})
    assert cardcrawl.tools_for(twentyone.NAME) is twentyone.TOOLS
    assert cardcrawl.tools_for("test-twenty-one-short") is twentyone.TOOLS
    assert cardcrawl.tools_for(cardcrawl.load("test-twenty-one-short")) is twentyone.TOOLS
    # A game class registered with no tools has none, and no encoding.
    cardcrawl.register_game("test-bare", twentyone.TwentyOne, replace=True)
    assert cardcrawl.tools_for("test-bare") == cardcrawl.GameTools()
    with pytest.raises(cardcrawl.errors.EncodingError, match="declares its encoding"):
        encoding_for(cardcrawl.load("test-bare"))


def test_the_encoding_is_the_games_own() -> None:
    game = _game()
    enc = encoding_for(game)
    assert isinstance(enc, twentyone.TwentyOneEncoding)
    state = game.initial_state(seed=3)
    mask = enc.action_mask(state)
    assert [enc.decode_action(i) for i, m in enumerate(mask) if m] == list(
        game.legal_actions(state)
    )
    assert sum(enc.encode_observation(game.observe(state, 0))) == 13


def test_simulate_reports_the_games_figures_and_needs_its_limit() -> None:
    result = simulate(_game(), ["random"], games=20, seed=1, workers=1)
    assert [name for name, _ in result.results[0].figures] == ["cards"]
    assert {g.outcome for g in result.results} <= {"bust", "stood"}
    with pytest.raises(cardcrawl.OptionsError, match="max_hits=13"):
        simulate(cardcrawl.load(twentyone.NAME), ["random"], games=1, workers=1)


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel extra")
def test_openspiel_registers_the_game_from_its_settings() -> None:
    import pyspiel

    from cardcrawl.adapters import openspiel as osp

    osp.register_games()
    assert osp.SHORT_NAMES[twentyone.NAME] == "cardcrawl_test_twenty_one"
    game = osp.load_game(twentyone.NAME, target=18)
    assert game.cardcrawl_game.options.target == 18
    assert game.max_game_length() == 14
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.skipif(importlib.util.find_spec("gymnasium") is None, reason="Gymnasium extra")
def test_gymnasium_and_pettingzoo_play_the_game() -> None:
    import gymnasium

    from cardcrawl.adapters.gymnasium import ENV_IDS, register_envs

    register_envs()
    assert ENV_IDS["cardcrawl/TestTwentyOne-v0"] == {"game": twentyone.NAME, "max_hits": 13}
    env = gymnasium.make("cardcrawl/TestTwentyOne-v0")
    _, info = env.reset(seed=0)
    assert info["action_mask"].sum() == 2
    if importlib.util.find_spec("pettingzoo") is not None:
        from cardcrawl.adapters import pettingzoo as cz

        aec = cz.env(twentyone.NAME, max_hits=13)
        aec.reset(seed=0)
        assert aec.agents == ["player_0"]
