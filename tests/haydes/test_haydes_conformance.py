"""Escape from Haydes and each of its variants pass the public conformance checker."""

from __future__ import annotations

from typing import Any

import pytest

import cardcrawl
from cardcrawl.haydes import standard_layout
from cardcrawl.testing import check_game


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_standard_game_conforms(players: int) -> None:
    game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=12 // players + 2)
    report = check_game(game, games=2, seed=10 * players)
    assert report.games == report.terminal == 4
    assert report.chance_events > 0


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("escape-from-haydes-solo-timer", {"max_rounds": 8}),
        ("escape-from-haydes-tuybe", {"players": 2, "max_rounds": 6}),
        ("escape-from-haydes-denizens", {"players": 3, "max_rounds": 4}),
        ("escape-from-haydes-tuybe", {"creatures": "denizens", "max_rounds": 8}),
    ],
)
def test_variants_conform(name: str, options: dict[str, Any]) -> None:
    report = check_game(cardcrawl.load(name, **options), games=2, seed=3)
    assert report.games == report.terminal == 4


def test_a_small_custom_layout_with_two_decks_conforms() -> None:
    """Other layouts and deck counts (variant): 2 decks make 53 build cards, 54 cells."""
    cells = sorted(standard_layout(), key=lambda c: (abs(c[0]) + abs(c[1]), c))[:54]
    game = cardcrawl.load("escape-from-haydes", deck_count=2, layout=cells, max_rounds=20)
    report = check_game(game, games=2, seed=5)
    assert report.games == report.terminal == 4


def test_long_random_games_stay_consistent() -> None:
    """Long sampled games keep every saved state valid: state_from_data re-checks every
    invariant (card conservation, pools against face-down cells, figures, phases)."""
    game = cardcrawl.load("escape-from-haydes", players=4, max_rounds=200)
    for seed in range(3):
        state = game.initial_state(seed)
        rng = seed
        while not game.is_terminal(state):
            actions = game.legal_actions(state)
            rng, i = cardcrawl.rng_below(rng, len(actions))
            state = game.step(state, actions[i])
            assert game.state_from_data(game.state_to_data(state)) == state
