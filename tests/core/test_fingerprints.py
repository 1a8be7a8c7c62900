"""Seeded fingerprints of the stock games: 1,000 games per configuration.

Each digest covers, game by game, every action taken, every event's text and the final
state's saved data. Any change of behaviour of the stock rules (a different draw, a
different legal action, a different narration) changes a digest. They may only change
with a deliberate change of the rules, together with ``RULES_VERSION`` and the
CHANGELOG.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

import cardcrawl
from cardcrawl import CHANCE, rng_below, rng_derive

CONFIGS: dict[str, tuple[str, dict[str, Any], int, bool]] = {
    # name: (game, options, games, explicit chance)
    "mapless": ("mapless-house", {"max_turns": 200}, 1000, False),
    "mapless-explicit": ("mapless-house", {"max_turns": 60}, 100, True),
    "haydes-solo": ("escape-from-haydes", {"max_rounds": 100}, 1000, False),
    "haydes-4": ("escape-from-haydes", {"players": 4, "max_rounds": 60}, 300, False),
    "haydes-tuybe-denizens": (
        "escape-from-haydes",
        {"players": 2, "tuybe": True, "creatures": "denizens", "max_rounds": 60},
        200,
        False,
    ),
    "haydes-explicit": ("escape-from-haydes", {"players": 2, "max_rounds": 20}, 60, True),
}

EXPECTED = {
    "haydes-4": "bab6f70f8a260fee93d9bd8b2a4a7a862c1802820321156ebeec3af7b7cb66b1",
    "haydes-explicit": "ff1c91059a46c94635f304be73c289c816189b8d008ac23e1d2664b886bd6a69",
    "haydes-solo": "94da4eee0fb1c704ae998355ab0f6ec767ffb2f50d04078631596c4b43c4e92c",
    "haydes-tuybe-denizens": "183a899ba5d4c1babc62cf5c3eceb74868c9665da36bebc7278bad54913b4629",
    "mapless": "7c2b913cdd89087e6411bffdb64ffdbd9a4eabb9d147b8299293eda6302dfd66",
    "mapless-explicit": "a315b1138fcfec638083f8609179f73ad186f88e87f560436f224c98cd1777ae",
}


def fingerprint(name: str, options: dict[str, Any], games: int, explicit: bool) -> str:
    """The digest of ``games`` seeded games played by a seeded chooser."""
    game = cardcrawl.load(name, **options)
    digest = hashlib.sha256()
    for seed in range(games):
        state = game.initial_state(seed, explicit_chance=explicit)
        choose = rng_derive(seed, 0xF1)
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                options_ = [a for a, _ in game.chance_outcomes(state)]
            else:
                options_ = list(game.legal_actions(state))
            choose, i = rng_below(choose, len(options_))
            state = game.step(state, options_[i])
            digest.update(game.format_action(options_[i]).encode())
            for event in state.events:
                digest.update(str(event).encode())
        digest.update(json.dumps(game.state_to_data(state), sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_stock_games_are_unchanged(config: str) -> None:
    """The stock rules play exactly the games they played when the digests were taken."""
    assert fingerprint(*CONFIGS[config]) == EXPECTED[config]


if __name__ == "__main__":  # print the digests, to update EXPECTED after a rules change
    for key in sorted(CONFIGS):
        print(f'    "{key}": "{fingerprint(*CONFIGS[key])}",')
