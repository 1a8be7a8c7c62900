"""The four rule variants of the how-to guide *Write a variant*, checked and measured.

Each variant overrides one rule hook (or, for the splits, the options class): an Exit
that opens next to the Entrance (M-11, ``exit_cells``), Stalkers that walk on the
house's cards only (M-18, ``stalker_step``, keeping M-19), any split of 16 up to 10
(H-2, ``HaydesOptions.split_is_valid``) and an equal value that counts as a correct
guess (H-7, ``guess_is_correct``). The classes are those of the guide, written with
public names only. Each must pass the conformance checker in both chance modes, and
each test below shows the variant deciding differently from the standard game.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

import cardcrawl
from cardcrawl import Card, distance, neighbours
from cardcrawl.haydes import (
    EndTurn,
    EscapeFromHaydes,
    Guess,
    HaydesOptions,
    HaydesState,
    Move,
    Phase,
    Revealed,
)
from cardcrawl.kit import touching
from cardcrawl.mapless import (
    CLUB_STALKER,
    ENTRANCE_CELL,
    SPADE_STALKER,
    ExitPlaced,
    MaplessHouse,
    MaplessState,
    PlaceExit,
    StalkerStepped,
    StalkerWaited,
)
from cardcrawl.mapless import Phase as MaplessPhase
from cardcrawl.simulate import simulate
from cardcrawl.testing import check_game, check_state

Cell = tuple[int, int]


# ------------------------------------------------------------------ the variants
class ExitByTheDoor(MaplessHouse):
    """The Mapless House, where the Exit opens next to the Entrance (M-11 varied)."""

    rules_version = f"{MaplessHouse.rules_version}-door.1"

    def exit_cells(self, state: MaplessState) -> list[Cell]:
        cells = sorted(c for c in neighbours(ENTRANCE_CELL) if c not in state.table)
        return cells or super().exit_cells(state)  # a walled-in Entrance: the standard rule


class KeepToTheHouse(MaplessHouse):
    """The Mapless House, where the Stalkers walk on the house's cards only (M-18 varied,
    M-19 kept)."""

    rules_version = f"{MaplessHouse.rules_version}-walls.1"

    def stalker_step(self, state: MaplessState, stalker: Card, cell: Cell) -> Cell:
        usual = super().stalker_step(state, stalker, cell)
        if usual in state.table:
            return usual
        barred = state.exit_cell if stalker == SPADE_STALKER and state.spade_left_exit else None
        gap = distance(cell, state.player)
        closer = [
            n
            for n in neighbours(cell)
            if n in state.table and n != barred and distance(n, state.player) < gap
        ]
        return min(closer, default=cell)


class WideOptions(HaydesOptions):
    """Options of Escape from Haydes where a split may go up to 10 (H-2 varied)."""

    max_characteristic = 10
    splits_described = "two values adding up to 16, neither above 10"

    @classmethod
    def split_is_valid(cls, split: tuple[int, int]) -> bool:
        return sum(split) == 16 and max(split) <= 10


class WideCharacters(EscapeFromHaydes):
    """Escape from Haydes with any split of 16, neither value above 10."""

    rules_version = f"{EscapeFromHaydes.rules_version}-wide.1"
    options_type = WideOptions


class EqualCounts(EscapeFromHaydes):
    """Escape from Haydes, where turning an equal value is a correct guess (H-7 varied)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-equal.1"

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        return value == from_value or super().guess_is_correct(guess, from_value, value)


VARIANTS: dict[str, tuple[type[Any], dict[str, Any]]] = {
    "test-mapless-house-door": (ExitByTheDoor, {"max_turns": 100}),
    "test-mapless-house-walls": (KeepToTheHouse, {"max_turns": 100}),
    "test-escape-from-haydes-wide": (WideCharacters, {"max_rounds": 30}),
    "test-escape-from-haydes-equal": (EqualCounts, {"max_rounds": 30}),
}


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    """The variants registered under their names, as the guide registers them."""
    for name, (cls, options) in VARIANTS.items():
        base = "mapless-house" if issubclass(cls, MaplessHouse) else "escape-from-haydes"
        cardcrawl.register_variant(name, base=base, game_class=cls, options=options, replace=True)


SPADES = [f"{rank}S" for rank in (*range(2, 11), "J", "Q", "K")]
STOCK_MAPLESS = cardcrawl.load("mapless-house", max_turns=100)
STOCK_HAYDES = cardcrawl.load("escape-from-haydes", max_rounds=30)


def random_states(game: Any, seeds: range, explicit: bool = False) -> Iterator[Any]:
    """Every state of seeded random games of ``game``, chance resolved at random too."""
    for seed in seeds:
        choose = random.Random(seed).choice
        state = game.initial_state(seed, explicit_chance=explicit)
        yield state
        while not game.is_terminal(state):
            options = game.legal_actions(state) or [a for a, _ in game.chance_outcomes(state)]
            state = game.step(state, choose(options))
            yield state


# ------------------------------------------------------------ the protocol
@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_keeps_the_protocol(name: str) -> None:
    """Every variant passes check_game in sampled and in explicit-chance play."""
    options = {"splits": [(10, 6), (6, 10)], "players": 2} if "wide" in name else {}
    game = cardcrawl.load(name, **options)
    report = check_game(game, games=3, seed=11)
    assert report.games == report.terminal == 6
    assert report.chance_events > 0


def test_the_variants_are_loaded_by_name_with_their_own_rules_version() -> None:
    for name, (cls, _) in VARIANTS.items():
        game = cardcrawl.load(name)
        assert type(game) is cls
        assert game.name == name
        assert game.rules_version != type(game).__mro__[1].rules_version


# ------------------------------------------------------- an Exit by the door
def _door_line(game: Any) -> MaplessState:
    """The guide's position: the spades in a line west, the Exit drawn next."""
    state = game.initial_state(seed=3, stack={"narrative": [*SPADES, "AH"]})
    while state.phase is MaplessPhase.PLACE:
        state = game.step(state, game.legal_actions(state)[0])
    return state


def test_the_exit_opens_next_to_the_entrance() -> None:
    """M-11 varied: the Exit's legal cells are the free cells touching the Entrance,
    where the standard rules would offer cells beyond the farthest card."""
    game = cardcrawl.load("test-mapless-house-door")
    state = _door_line(game)
    assert state.phase is MaplessPhase.PLACE_EXIT
    assert [a.cell for a in game.legal_actions(state)] == [(0, -1), (0, 1), (1, 0)]
    assert STOCK_MAPLESS.exit_cells(state) == [(-13, 0), (-12, -1), (-12, 1)]
    state = game.step(state, PlaceExit((0, 1)))
    assert state.exit_cell == state.spade == (0, 1)


@pytest.mark.parametrize("explicit", [False, True], ids=["sampled", "explicit"])
def test_in_random_games_every_exit_touches_the_entrance(explicit: bool) -> None:
    """Whenever a cell beside the Entrance is free, the Exit opens on one of them, and
    only when all four are taken where the standard rules say."""
    game = cardcrawl.load("test-mapless-house-door")
    by_the_door = walled_in = 0
    for state in random_states(game, range(25), explicit):
        for event in state.events:
            if isinstance(event, ExitPlaced):
                before = state.table.cards.keys() - {event.cell}
                free = sorted(c for c in neighbours(ENTRANCE_CELL) if c not in before)
                if free:
                    by_the_door += 1
                    assert list(event.candidates) == free
                else:
                    walled_in += 1
                    assert not any(touching(c, ENTRANCE_CELL) for c in event.candidates)
        if state.phase is MaplessPhase.PLACE_EXIT:
            free = sorted(c for c in neighbours(ENTRANCE_CELL) if c not in state.table)
            expected = free or STOCK_MAPLESS.exit_cells(state)
            assert [a.cell for a in game.legal_actions(state)] == expected
    assert by_the_door + walled_in == 25
    assert by_the_door > 0


def _walled_in(game: Any) -> MaplessState:
    """The Exit drawn with all four cells beside the Entrance taken."""
    state = game.initial_state(seed=3, stack={"narrative": [*SPADES, "AH"]})
    while state.phase is MaplessPhase.PLACE:
        nearest = min(game.legal_actions(state), key=lambda a: distance(a.cell, ENTRANCE_CELL))
        state = game.step(state, nearest)
    assert all(c in state.table for c in neighbours(ENTRANCE_CELL))
    return state


def test_a_walled_in_entrance_falls_back_to_the_standard_exit() -> None:
    game = cardcrawl.load("test-mapless-house-door")
    state = _walled_in(game)
    assert game.exit_cells(state) == STOCK_MAPLESS.exit_cells(state) != []
    check_state(game, state)


def test_without_the_fallback_the_game_refuses_to_go_on() -> None:
    """Why the variant falls back: an exit_cells that returns no cell would leave the game
    waiting for a decision with no legal action; the game refuses with a HookError."""

    class NoFallback(MaplessHouse):
        rules_version = "2-door.0"

        def exit_cells(self, state: MaplessState) -> list[Cell]:
            return sorted(c for c in neighbours(ENTRANCE_CELL) if c not in state.table)

    game = NoFallback({"max_turns": 100})
    with pytest.raises(cardcrawl.HookError, match=r"NoFallback.exit_cells returned no cell"):
        _walled_in(game)


def _highlighted(game: Any, state: Any) -> list[Cell]:
    """The cells the SVG picture marks as legal, from their data-cell attributes."""
    root = ET.fromstring(cardcrawl.svg(game, state).text)
    cells = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if "legal" in g.get("class", "").split():
            x, y = g.get("data-cell", "").split(",")
            cells.append((int(x), int(y)))
    return sorted(cells)


def test_the_svg_and_the_text_map_highlight_the_variants_exit_cells() -> None:
    game = cardcrawl.load("test-mapless-house-door")
    state = _door_line(game)
    assert _highlighted(game, state) == game.exit_cells(state) == [(0, -1), (0, 1), (1, 0)]
    stock = _door_line(STOCK_MAPLESS)
    assert _highlighted(STOCK_MAPLESS, stock) == [(-13, 0), (-12, -1), (-12, 1)]
    # The text map marks them with "+": east of the Entrance, and above and below it.
    rows = game.render(state).splitlines()[:3]
    column = rows[1].index("ENT")
    assert rows[1].rstrip().endswith("+")
    assert rows[1].count("+") == 1
    assert rows[0][column:].strip() == "+"
    assert rows[2][column:].strip() == "+"


def test_the_svg_follows_the_variant_in_random_games() -> None:
    game = cardcrawl.load("test-mapless-house-door")
    seen = 0
    for state in random_states(game, range(6)):
        if state.phase is MaplessPhase.PLACE_EXIT:
            seen += 1
            assert _highlighted(game, state) == game.exit_cells(state)
    assert seen > 0


# -------------------------------------------------- Stalkers that keep to the house
def _stalker_cells(state: MaplessState) -> list[Cell]:
    return [c for c in (state.spade, state.club) if c is not None]


def test_a_stalker_never_stands_on_an_empty_cell() -> None:
    """M-18 varied: after every step, each Stalker on the table stands on a card, and
    every step it takes goes to a touching card closer to the player. Under the
    standard rules, the same games' Stalkers do cross empty space."""
    game = cardcrawl.load("test-mapless-house-walls")
    steps = 0
    for state in random_states(game, range(40)):
        assert all(c in state.table for c in _stalker_cells(state))
        for event in state.events:
            if isinstance(event, StalkerStepped) and event.source != event.target:
                steps += 1
                assert touching(event.source, event.target)
                assert distance(event.target, state.player) < distance(event.source, state.player)
    assert steps > 100
    off_the_house = sum(
        any(c not in state.table for c in _stalker_cells(state))
        for state in random_states(STOCK_MAPLESS, range(40))
    )
    assert off_the_house > 0


def test_the_spade_still_never_returns_to_the_exit() -> None:
    """M-19 kept: once the ♠A has left the Exit, it never stands on it again."""
    game = cardcrawl.load("test-mapless-house-walls")
    left = 0
    for state in random_states(game, range(40)):
        if state.spade_left_exit:
            left += 1
            assert state.spade != state.exit_cell
    assert left > 0


def _first_stalker_step(game: Any) -> StalkerStepped:
    """The guide's position: the Exit above the K♠ at the far end of the spades."""
    stack = {"narrative": [*SPADES, "AH", "2C"], "mind": ["KH"], "body": ["KD"]}
    state = game.initial_state(seed=3, stack=stack)
    while state.phase is MaplessPhase.PLACE:
        state = game.step(state, game.legal_actions(state)[0])
    for text in ("exit -12,1", "move -1,0", "place -13,0", "move -2,0"):
        state = game.step(state, game.parse_action(text))
    return next(e for e in state.events if isinstance(e, StalkerStepped))


def test_the_walled_stalker_steps_onto_a_card_where_the_standard_one_crosses_space() -> None:
    assert _first_stalker_step(STOCK_MAPLESS) == StalkerStepped(SPADE_STALKER, (-12, 1), (-11, 1))
    walls = cardcrawl.load("test-mapless-house-walls")
    assert _first_stalker_step(walls) == StalkerStepped(SPADE_STALKER, (-12, 1), (-12, 0))


def test_a_club_stalker_that_waits_is_narrated_as_waiting() -> None:
    game = cardcrawl.load("test-mapless-house-walls")
    waited = 0
    for state in random_states(game, range(60)):
        for event in state.events:
            if isinstance(event, StalkerStepped):
                assert event.source != event.target, f"{event!r} is a wait"
            waited += isinstance(event, StalkerWaited) and event.stalker == CLUB_STALKER
    assert waited > 0


# ---------------------------------------------------------- wider characters
def test_splits_of_16_up_to_10_are_allowed_and_others_refused() -> None:
    for split in [(10, 6), (6, 10), (9, 7), (8, 8)]:
        assert cardcrawl.load("test-escape-from-haydes-wide", splits=[split]).options.splits
    for split in [(11, 5), (5, 11), (10, 7), (9, 9), (10, 5)]:
        with pytest.raises(cardcrawl.OptionsError, match="neither above 10, not"):
            cardcrawl.load("test-escape-from-haydes-wide", splits=[split])
    with pytest.raises(cardcrawl.OptionsError, match=r"neither above 9: H-2\), not \(10, 6\)"):
        cardcrawl.load("escape-from-haydes", splits=[(10, 6)])


def test_a_10_6_game_plays_and_its_states_validate() -> None:
    """H-2 varied: a Charisma of 10 is sound in the variant, refused by the standard
    game's invariants, and survives saving and loading."""
    game = cardcrawl.load("test-escape-from-haydes-wide", splits=[(10, 6)])
    state = game.initial_state(seed=1)
    assert (state.seats[0].charisma, state.seats[0].endurance) == (10, 6)
    game.validate(state)
    with pytest.raises(cardcrawl.InvalidStateError, match=r"out of 0\.\.9"):
        cardcrawl.load("escape-from-haydes").validate(state)
    assert game.state_from_data(game.state_to_data(state)) == state
    ends = set()
    for state in random_states(game, range(10)):
        game.validate(state)
        if game.is_terminal(state):
            ends.add(game.outcome(state).label)
    assert ends


def _face_the_king(game: Any) -> HaydesState:
    state = game.initial_state(seed=1, stack={"build": ["KS"], "rolls": [10]})
    for text in ("higher 1,0", "charisma"):
        state = game.step(state, game.parse_action(text))
    return state


def test_a_charisma_of_10_overcomes_a_roll_of_10() -> None:
    wide = _face_the_king(cardcrawl.load("test-escape-from-haydes-wide", splits=[(10, 6)]))
    assert str(wide.events[0]) == "Player 0 rolls 10 against charisma 10: overcome."
    assert (1, 0) in wide.overcome
    assert wide.phase is Phase.TURN
    stock = _face_the_king(cardcrawl.load("escape-from-haydes", splits=[(9, 7)]))
    assert str(stock.events[0]) == "Player 0 rolls 10 against charisma 9: not overcome."
    assert (1, 0) not in stock.overcome


# ------------------------------------------------------- an equal value counts
def _equal_fives(game: Any, guess: str) -> HaydesState:
    state = game.initial_state(seed=1, stack={"build": ["5S", "5H"]})
    for text in ("higher 1,0", f"{guess} 2,0"):
        state = game.step(state, game.parse_action(text))
    return state


@pytest.mark.parametrize("guess", ["higher", "lower"])
def test_an_equal_reveal_lets_the_player_go_on(guess: str) -> None:
    """H-7 varied: turning a 5 from a 5 is correct, so the turn goes on, whatever the
    announcement; under the standard rules the turn ends."""
    equal = cardcrawl.load("test-escape-from-haydes-equal")
    state = _equal_fives(equal, guess)
    revealed = next(e for e in state.events if isinstance(e, Revealed))
    assert (revealed.card, revealed.from_value, revealed.correct) == (Card.parse("5H"), 5, True)
    assert state.round == 1
    assert state.seats[0].cell == (2, 0)
    assert any(isinstance(a, Move) for a in equal.legal_actions(state))
    assert EndTurn() in equal.legal_actions(state)

    stock = _equal_fives(STOCK_HAYDES, guess)
    assert not next(e for e in stock.events if isinstance(e, Revealed)).correct
    assert stock.round == 2


def test_an_equal_value_counts_for_the_tuybe_too() -> None:
    """The Tuybe asks the same hook: an equal value two cells away moves the figure."""
    stack = {"build": ["5S", "5H"]}
    moved = []
    for game in (
        cardcrawl.load("escape-from-haydes", max_rounds=30, tuybe=True),
        cardcrawl.load("test-escape-from-haydes-equal", tuybe=True),
    ):
        state = game.initial_state(seed=1, stack=stack)
        for text in ("higher 1,0", "tuybe higher 3,0"):
            state = game.step(state, game.parse_action(text))
        moved.append(state.seats[0].cell)
    assert moved == [(1, 0), (3, 0)]


def test_an_equal_value_counts_for_either_guess_in_the_variant_only() -> None:
    equal = cardcrawl.load("test-escape-from-haydes-equal")
    for guess in Guess:
        assert equal.guess_is_correct(guess, 7, 7)
        assert not STOCK_HAYDES.guess_is_correct(guess, 7, 7)
    assert equal.guess_is_correct(Guess.HIGHER, 7, 8)
    assert not equal.guess_is_correct(Guess.LOWER, 7, 8)


# ---------------------------------------------------------------- versions
def test_a_record_of_a_variant_is_refused_by_other_rules() -> None:
    equal = cardcrawl.load("test-escape-from-haydes-equal")
    record = cardcrawl.Record.of(equal, seed=1, actions=["end"])
    assert record.rules_version == "1-equal.1"
    assert record.replay().round == 2
    as_stock = cardcrawl.Record.from_data({**record.to_data(), "game": "escape-from-haydes"})
    with pytest.raises(cardcrawl.RecordError, match=re.escape("rules version '1-equal.1'")):
        as_stock.replay()
    saved = equal.state_to_data(equal.initial_state(seed=1))
    with pytest.raises(cardcrawl.SerializationError, match="saved state has game"):
        STOCK_HAYDES.state_from_data(saved)


def test_a_new_version_of_a_variant_refuses_the_old_ones_records_and_saves() -> None:
    class EqualCountsHigher(EqualCounts):
        rules_version = f"{EscapeFromHaydes.rules_version}-equal.2"

        def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
            if value == from_value:
                return guess is Guess.HIGHER
            return super().guess_is_correct(guess, from_value, value)

    name = "test-escape-from-haydes-equal-versioned"
    cardcrawl.register_variant(
        name, base="escape-from-haydes", game_class=EqualCounts, replace=True
    )
    old = cardcrawl.load(name)
    record = cardcrawl.Record.of(old, seed=2, actions=["end"])
    saved = old.state_to_data(old.initial_state(seed=2))
    cardcrawl.register_variant(
        name, base="escape-from-haydes", game_class=EqualCountsHigher, replace=True
    )
    with pytest.raises(cardcrawl.RecordError, match=r"'1-equal\.1' .* version '1-equal\.2'"):
        record.replay()
    with pytest.raises(cardcrawl.SerializationError, match=re.escape("rules_version '1-equal.1'")):
        cardcrawl.load(name).state_from_data(saved)


def test_a_stays_face_up_that_replaces_a_figures_card_is_refused() -> None:
    """H-12: a figure stands on a face-up card, so a variant may not replace the card under
    it. The step that would is refused with a HookError naming the hook and the cell, and
    the state stepped from is unchanged: stepping it again is refused the same way."""

    class Sweeping(EscapeFromHaydes):
        rules_version = "2-sweeping.0"

        def stays_face_up(self, cell: Cell, card: Card, occupied: bool) -> bool:
            return False

    game = Sweeping({"players": 1, "max_rounds": 50})
    state = game.initial_state(seed=0)
    rng = random.Random(0)
    # Random play up to the step that ends a turn, which the game refuses.
    while True:
        assert game.legal_actions(state), "the game ended before a turn did"
        action = rng.choice(game.legal_actions(state))
        try:
            state = game.step(state, action)
        except cardcrawl.HookError:
            break
    before = game.state_to_data(state)
    for _ in range(2):
        with pytest.raises(
            cardcrawl.HookError, match=r"Sweeping.stays_face_up returned False .* \(H-12\)"
        ):
            game.step(state, action)
        assert game.state_to_data(state) == before
    with pytest.raises(cardcrawl.HookError, match=r"Sweeping.stays_face_up"):
        simulate(game, "random", games=2, seed=1, workers=1)
