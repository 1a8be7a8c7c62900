"""Every bot that claims to weigh the game's hooks (``weighs_hooks``) does: it asks each
hook it claims, and in a variant whose hooks answer otherwise it chooses otherwise."""

from __future__ import annotations

from typing import Any

import pytest

import cardcrawl
from cardcrawl import Card
from cardcrawl.bots import bot_names, get_bot_spec
from cardcrawl.errors import ConformanceError
from cardcrawl.haydes import Creature, EscapeFromHaydes, Guess
from cardcrawl.mapless import MaplessHouse, MaplessState
from cardcrawl.testing import check_bot_hooks


class Unbeatable(EscapeFromHaydes):
    """No roll ever overcomes a creature (H-8 changed)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-unbeatable.1"

    def overcomes(self, creature: Creature, value: int, total: int) -> bool:
        return False


class Contrary(EscapeFromHaydes):
    """*Higher* is right when the card is lower, and *lower* when higher (H-7 changed)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-contrary.1"

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        other = Guess.LOWER if guess is Guess.HIGHER else Guess.HIGHER
        return super().guess_is_correct(other, from_value, value)


class StillStalkers(MaplessHouse):
    """Stalkers never move (M-18, M-19 changed)."""

    rules_version = f"{MaplessHouse.rules_version}-still.1"

    def stalker_step(self, state: MaplessState, stalker: Card, cell: Any) -> Any:
        return cell


class HarderEncounters(MaplessHouse):
    """An Encounter's total must reach the card's value plus 4 (M-15 changed)."""

    rules_version = f"{MaplessHouse.rules_version}-harder.1"

    def encounter_threshold(self, state: MaplessState) -> int:
        return super().encounter_threshold(state) + 4


class KingsMoves(MaplessHouse):
    """The player may also move to a card diagonal to theirs (M-14 changed)."""

    rules_version = f"{MaplessHouse.rules_version}-kings.1"

    def move_cells(self, state: MaplessState) -> list[Any]:
        x, y = state.player
        diagonal = [(x + dx, y + dy) for dx in (-1, 1) for dy in (-1, 1)]
        cells = {*super().move_cells(state), *(c for c in diagonal if c in state.table)}
        return sorted(cells)


#: For each game, its options and variants whose hooks answer otherwise than the stock.
VARIANTS: dict[str, tuple[dict[str, Any], tuple[type, ...]]] = {
    "escape-from-haydes": ({"max_rounds": 20}, (Unbeatable, Contrary)),
    "mapless-house": ({"max_turns": 100}, (StillStalkers, HarderEncounters, KingsMoves)),
}


def _claiming_bots() -> list[Any]:
    """(game, bot) for every registered bot of every base game that claims the hooks."""
    cases = []
    for name in cardcrawl.game_names():
        if cardcrawl.get_spec(name).base is not None:
            continue
        game = cardcrawl.load(name)
        for bot in bot_names(game):
            if getattr(get_bot_spec(bot, game).factory, "weighs_hooks", ()):
                cases.append(pytest.param(name, bot, id=f"{name}-{bot}"))
    return cases


CLAIMING = _claiming_bots()


def test_the_heuristic_bots_claim_the_hooks() -> None:
    claimed = {c.values for c in CLAIMING}
    assert {("escape-from-haydes", "heuristic"), ("mapless-house", "heuristic")} <= claimed


@pytest.mark.parametrize(("name", "bot"), CLAIMING)
def test_a_bot_that_claims_the_hooks_weighs_them(name: str, bot: str) -> None:
    assert name in VARIANTS, f"no variant with other hook answers is given for {name}"
    options, variants = VARIANTS[name]
    game = cardcrawl.load(name, **options)
    report = check_bot_hooks(game, bot, [v(game.options) for v in variants], seeds=range(3))
    assert set(report.asked) == set(report.claimed)
    assert all(n > 0 for n in report.asked.values())
    assert all(differ > 0 for differ, _ in report.changed.values())


def test_a_bot_that_ignores_a_hook_it_claims_is_caught() -> None:
    """The checker can fail: a bot claiming ``overcomes`` that never weighs it, and one
    claiming a hook it never asks."""

    class Claims:
        weighs_hooks = ("overcomes",)

        def __init__(self, game: Any, seed: int, seat: int = 0) -> None:
            pass

        def choose(self, game: Any, observation: Any, legal: Any) -> Any:
            return legal[0]

    game = cardcrawl.load("escape-from-haydes", max_rounds=5)
    with pytest.raises(ConformanceError, match="never asked it"):
        check_bot_hooks(game, Claims, seeds=range(1))

    class AsksButIgnores(Claims):
        def choose(self, game: Any, observation: Any, legal: Any) -> Any:
            game.overcomes(Creature("any"), 5, 7)
            return legal[0]

    with pytest.raises(ConformanceError, match="as in the stock game at all"):
        check_bot_hooks(game, AsksButIgnores, [Unbeatable(game.options)], seeds=range(1))
    with pytest.raises(ConformanceError, match="changes none of the hooks"):
        check_bot_hooks(game, AsksButIgnores, [Contrary(game.options)], seeds=range(1))
    with pytest.raises(ConformanceError, match="claims to weigh no hooks"):
        check_bot_hooks(game, "random", seeds=range(1))
