"""An overridden hook changes the game everywhere: bots, encodings and pictures ask it.

Each test builds a small variant that overrides one hook and checks that a tool which
reasons about that rule sees the variant's rule, not the stock one.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import cardcrawl
from cardcrawl import Card
from cardcrawl.haydes import EscapeFromHaydes, Guess, Reveal
from cardcrawl.mapless import MaplessHouse, MaplessState


class EqualIsRight(EscapeFromHaydes):
    """An equal value counts as a correct guess (H-7 varied)."""

    rules_version = "equal-1"

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        return value == from_value or super().guess_is_correct(guess, from_value, value)


class StillStalkers(MaplessHouse):
    """Stalkers never move (M-18 varied)."""

    rules_version = "still-1"

    def stalker_step(self, state: MaplessState, stalker: Card, cell: Any) -> Any:
        return cell


class RichHouse(MaplessHouse):
    """Every card is worth 13 (M-1 varied)."""

    rules_version = "rich-1"

    def card_value(self, card: Card | None) -> int:
        return 0 if card is None or card.rank == 1 else 13


def test_the_haydes_heuristic_weighs_the_variants_guess() -> None:
    """H-7: the heuristic's odds of a right guess come from the game's hook."""
    from cardcrawl.haydes._bots import HaydesHeuristicBot

    def _score(game: Any, cards: Any, guess: Any, from_value: int, creature: float) -> float:
        bot = HaydesHeuristicBot(game, seed=0)
        return bot._score(game, bot._weighed(game, cards), guess, from_value, creature)

    equal = [(Reveal(Card.parse(c)), Fraction(1, 4)) for c in ("8S", "8H", "8D", "8C")]
    stock = cardcrawl.load("escape-from-haydes")
    assert _score(stock, equal, Guess.HIGHER, 8, 0.6) == 0.0
    assert _score(EqualIsRight(), equal, Guess.HIGHER, 8, 0.6) == pytest.approx(1.0)


def _hunt_positions(game: MaplessHouse, seeds: range) -> list[Any]:
    """Observations of hunt decisions in seeded games of ``game``."""
    found = []
    for seed in seeds:
        state = game.initial_state(seed)
        while not game.is_terminal(state):
            obs = game.observe(state, 0)
            if obs.exit_cell is not None and obs.turn > 0 and obs.phase.value == "move":
                found.append(obs)
            state = game.step(state, game.legal_actions(state)[0])
    return found


def test_the_hunt_planner_steps_stalkers_by_the_hook() -> None:
    """M-18: with Stalkers that never move, the planner's values are those of a hunt in
    which no Stalker ever closes in: a position it values below 1 in the stock game is
    valued higher in the variant, and never lower anywhere."""
    from cardcrawl.mapless._bots import position_value

    stock = cardcrawl.load("mapless-house", max_turns=100)
    still = StillStalkers({"max_turns": 100})
    positions = _hunt_positions(stock, range(12))
    assert len(positions) > 20
    higher = 0
    for obs in positions:
        a, b = position_value(stock, obs), position_value(still, obs)
        assert b >= a - 1e-12
        higher += b > a + 1e-9
    assert higher > 0


def test_the_heuristic_reads_card_values_from_the_hook() -> None:
    """M-1 and M-15: with every card worth 13, the planner's Encounter odds are certain."""
    from cardcrawl.mapless._bots import position_value

    stock = cardcrawl.load("mapless-house", max_turns=100)
    rich = RichHouse({"max_turns": 100})
    positions = _hunt_positions(stock, range(8))
    assert any(position_value(rich, o) != position_value(stock, o) for o in positions)


def test_the_mapless_encoding_reads_rooms_from_the_hook() -> None:
    """M-3: the encoding's room plane follows the game's is_room."""
    pytest.importorskip("numpy")
    from cardcrawl.encoding import encoding_for

    class NoRooms(MaplessHouse):
        def is_room(self, card: Card) -> bool:
            return False

    stock, varied = cardcrawl.load("mapless-house"), NoRooms()
    state = stock.initial_state(seed=1, stack={"narrative": ["KS"]})
    state = stock.step(state, stock.legal_actions(state)[0])
    a = encoding_for(stock).encode_observation(stock.observe(state, 0))
    b = encoding_for(varied).encode_observation(varied.observe(state, 0))
    assert list(a) != list(b)


def test_the_haydes_encoding_lists_the_variants_dice() -> None:
    """H-8: the encoding's chance outcomes are the game's own roll totals."""
    pytest.importorskip("numpy")
    from cardcrawl.encoding import encoding_for

    class ThreeDice(EscapeFromHaydes):
        def roll_weights(self) -> tuple[tuple[int, int], ...]:
            ways = [0] * 19
            for a in range(1, 7):
                for b in range(1, 7):
                    for c in range(1, 7):
                        ways[a + b + c] += 1
            return tuple((t, ways[t]) for t in range(3, 19))

    stock = encoding_for(cardcrawl.load("escape-from-haydes"))
    varied = encoding_for(ThreeDice())
    assert varied.num_chance_outcomes == stock.num_chance_outcomes + 5


class ExitByTheDoor(MaplessHouse):
    """The Exit opens next to the Entrance (M-11 varied)."""

    rules_version = "door-1"

    def exit_cells(self, state: MaplessState) -> list[Any]:
        return [c for c in super().room_cells(state) if abs(c[0]) + abs(c[1]) == 1] or (
            super().exit_cells(state)
        )


def test_a_states_legal_actions_are_each_games_own() -> None:
    """The legal actions a variant worked out for a state are not reused by the stock
    game asked about the same state: each game keeps its own."""
    door, stock = ExitByTheDoor(), cardcrawl.load("mapless-house")
    spades = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AH"]
    state = door.initial_state(seed=1, stack={"narrative": spades})
    while state.phase.value != "place-exit":
        state = door.step(state, door.legal_actions(state)[-1])
    ours, theirs = door.legal_actions(state), stock.legal_actions(state)
    assert {a.cell for a in ours} <= {(1, 0), (-1, 0), (0, 1), (0, -1)}
    assert set(ours) != set(theirs)
    assert not stock.is_legal(state, ours[0]) or ours[0] in theirs


def test_the_tuybe_jumps_over_the_games_own_touching_cells() -> None:
    """H-6 varied with the Tuybe: with diagonal moves, the Tuybe aims over a diagonal too."""
    from cardcrawl.haydes import Tuybe

    class Diagonals(EscapeFromHaydes):
        def touching_cells(self, cell: Any) -> list[Any]:
            x, y = cell
            return sorted((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

    stock = cardcrawl.load("escape-from-haydes-tuybe")
    diagonal = Diagonals({"tuybe": True})
    state = stock.initial_state(seed=2)
    aims = {a.cell for a in diagonal.legal_actions(state) if isinstance(a, Tuybe)}
    assert (2, 2) in aims
    assert (2, 2) not in {a.cell for a in stock.legal_actions(state) if isinstance(a, Tuybe)}


def test_an_exit_hook_that_gives_no_cell_is_a_hook_error() -> None:
    class Nowhere(MaplessHouse):
        def exit_cells(self, state: MaplessState) -> list[Any]:
            return []

    game = Nowhere()
    spades = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AH"]
    state = game.initial_state(seed=1, stack={"narrative": spades})

    def play_on() -> None:
        now = state
        while game.legal_actions(now):
            now = game.step(now, game.legal_actions(now)[0])

    with pytest.raises(cardcrawl.HookError, match=r"Nowhere.exit_cells returned no cell"):
        play_on()
