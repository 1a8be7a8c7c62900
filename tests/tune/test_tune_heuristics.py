"""The games' heuristic bots can be tuned, and tuning them to a variant pays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import make_bot
from cardcrawl.haydes import Creature, EscapeFromHaydes
from cardcrawl.mapless import MaplessHouse, MaplessState
from cardcrawl.simulate import simulate
from cardcrawl.tune import Configured, tune


class TameCreatures(EscapeFromHaydes):
    """Every roll overcomes a creature, and facing one costs nothing (H-8 changed)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-tame.1"

    def overcomes(self, creature: Creature, value: int, total: int) -> bool:
        return True

    def characteristic_after(self, creature: Creature, value: int, overcome: bool) -> int:
        return value


class HighCardsAreEasy(MaplessHouse):
    """An Encounter's threshold is 14 less the card's value (M-15 changed)."""

    rules_version = f"{MaplessHouse.rules_version}-high-easy.1"

    def encounter_threshold(self, state: MaplessState) -> int:
        value = super().encounter_threshold(state)
        return 0 if value == 0 else 14 - value


@pytest.mark.parametrize(
    ("name", "options", "search"),
    [
        ("escape-from-haydes", {"max_rounds": 10}, None),
        ("mapless-house", {"max_turns": 60}, ["spine_slope", "target_reach"]),
    ],
)
def test_a_heuristic_is_tuned_and_its_file_loads(
    name: str, options: dict[str, Any], search: list[str] | None, tmp_path: Path
) -> None:
    game = cardcrawl.load(name, **options)
    result = tune(game, "heuristic", candidates=2, games=2, held_out=2, seed=1, search=search)
    assert len(result.race) == 2
    if search is not None:
        # The parameters not searched keep their defaults in every candidate.
        kept = {k: v for k, v in result.default if k not in search}
        assert all(dict(c.values).items() >= kept.items() for c in result.race)
        assert any(dict(c.values) != dict(result.default) for c in result.race)
    path = tmp_path / "heuristic.json"
    result.save(path)
    bot = make_bot(f"heuristic:{path}", game, seed=1)
    assert isinstance(bot, type(make_bot("heuristic", game, seed=1)))
    tuned = simulate(game, f"heuristic:{path}", games=3, workers=1)
    factory = type(make_bot("heuristic", game, seed=1))
    given = simulate(game, Configured(factory, result.best), games=3, workers=1)
    assert tuned.results == given.results


@pytest.mark.slow
def test_tuning_the_heuristic_to_tame_creatures_pays() -> None:
    """Where every creature is overcome at no cost (H-8 changed), meeting one lets the
    player go on even after a wrong guess: the stock weight, a cost, is wrong there.
    The race finds a negative weight, and on 200 held-out games, paired seed by seed
    with the defaults, it escapes significantly more often."""
    tame = TameCreatures(cardcrawl.load("escape-from-haydes", max_rounds=30).options)
    result = tune(
        tame, "heuristic", search=["creature_cost"], candidates=4, games=20, held_out=200, seed=3
    )
    assert dict(result.best)["creature_cost"] < 0
    checked = result.held_out
    assert checked.verdict == "different"
    assert checked.difference.low > 0
    assert checked.difference.estimate > 0.05


@pytest.mark.slow
def test_tuning_the_mapless_spine_to_easy_high_cards_pays() -> None:
    """Where high cards are the easy ones (M-15 changed), the building plan's preference
    for low cards on its spine is wrong: the race finds a flatter slope, and on 300
    held-out games, paired seed by seed with the defaults, it escapes significantly
    more often."""
    house = HighCardsAreEasy({"max_turns": 200})
    result = tune(
        house, "heuristic", search=["spine_slope"], candidates=4, games=30, held_out=300, seed=0
    )
    assert dict(result.best)["spine_slope"] < 2.0
    checked = result.held_out
    assert checked.verdict == "different"
    assert checked.difference.low > 0
    assert checked.difference.estimate > 0.05
    assert "(the other parameters at their defaults)" in result.format()
