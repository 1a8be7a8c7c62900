"""cardcrawl.testing.check_hooks: every path that plays a game asks its rule hooks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pytest

import cardcrawl
import cardcrawl.testing
from cardcrawl.errors import ConformanceError
from cardcrawl.testing import check_hooks, counting_variant


@pytest.mark.parametrize(
    "game",
    [
        cardcrawl.load("escape-from-haydes"),
        cardcrawl.load("escape-from-haydes", players=4, max_rounds=30),
        cardcrawl.load("mapless-house", max_turns=60),
    ],
    ids=repr,
)
def test_every_path_asks_the_hooks_the_public_step_asks(game: Any) -> None:
    counts = check_hooks(game, seeds=range(4))
    # A hook is asked when the game is built (Haydes asks all of its hooks then) or in play.
    asked = {hook for (where, hook), n in counts.items() if where in ("build", "step") and n}
    assert asked, "the game asked no hook at all"
    assert asked <= set(type(game).rule_hooks)


def test_the_counting_variant_plays_the_same_games() -> None:
    game = cardcrawl.load("mapless-house", max_turns=60)
    counts: Counter[tuple[str, str]] = Counter()
    variant = counting_variant(game, counts, ["here"])
    for seed in range(3):
        a, b = game.initial_state(seed), variant.initial_state(seed)
        while not game.is_terminal(a):
            action = game.legal_actions(a)[seed % len(game.legal_actions(a))]
            a, b = game.step(a, action), variant.step(b, action)
            assert a == b
    assert counts["here", "placement_cells"] > 0


def test_a_kernel_that_decides_a_rule_itself_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that plays the stock game whatever it is given asks none of the
    variant's hooks: the check names them. (The Mapless House asks its hooks in play;
    Haydes asks all of its own when the game is built, where a kernel that ignores them
    is caught by check_kernel with a variant whose answers differ.)"""
    game = cardcrawl.load("mapless-house", max_turns=60)
    real = cardcrawl.testing.tools_for(game)
    assert real.rollout is not None
    stock_kernel = real.rollout(game)

    def tools_for(_: Any) -> Any:
        return attrs.evolve(real, rollout=lambda variant: stock_kernel)

    monkeypatch.setattr(cardcrawl.testing, "tools_for", tools_for)
    with pytest.raises(ConformanceError, match=r"never asks .*stalker_step"):
        check_hooks(game, seeds=range(3))
