"""Shared generics: what both games need in the same form is written once, and both use it.

The seat check (``GameBase.check_player``), stacked decks (``Deck.stacked_from`` and the
engine's check of a stack's source names), the card count of ``state_problems``
(``GameBase.census_problems``), the two text forms of a cell (``cell_text``,
``cell_code``), the description of a finished game, the states' private cache
(``MemoState``) and the one name of the turn-start event (``TurnStarted``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl import (
    CHANCE,
    Card,
    Deck,
    GameBase,
    InvalidStateError,
    PlayerError,
    StackError,
    parse_cards,
    rng_below,
    rng_derive,
)
from cardcrawl import haydes as haydes_package
from cardcrawl import mapless as mapless_package
from cardcrawl.core._engine import MemoState
from cardcrawl.kit._grid import Grid, bounds, cell_code, cell_text

MAPLESS = cardcrawl.load("mapless-house", max_turns=60)
HAYDES = cardcrawl.load("escape-from-haydes", players=2, max_rounds=30)
BOTH = pytest.mark.parametrize("game", [MAPLESS, HAYDES], ids=["mapless", "haydes"])


class Seat(int):
    """An int subclass: equal to a seat, but not one."""


def seats_phrase(n: int) -> str:
    if n == 1:
        return "one player, 0"
    if n == 2:
        return "2 players, seats 0 and 1"
    return f"{n} players, seats 0 to {n - 1}"


# ------------------------------------------------------------------ the seat check
SEAT_GAMES = [
    MAPLESS,
    cardcrawl.load("escape-from-haydes"),
    HAYDES,
    cardcrawl.load("escape-from-haydes", players=4),
]


@pytest.mark.parametrize("game", SEAT_GAMES, ids=["mapless", "haydes-1", "haydes-2", "haydes-4"])
@pytest.mark.parametrize("player", [True, False, 0.0, 1.0, Seat(0), -1, "0", None, 4])
def test_both_games_refuse_anything_but_a_seat_with_one_message(game: Any, player: Any) -> None:
    state = game.initial_state(seed=1)
    message = f"{game.title} has {seats_phrase(game.num_players)}; not {player!r}"
    for call in (
        lambda: game.observe(state, player),
        lambda: game.determinize(state, player, seed=2),
        lambda: game.check_player(player),
    ):
        with pytest.raises(PlayerError) as caught:
            call()
        assert str(caught.value) == message


@pytest.mark.parametrize("game", SEAT_GAMES, ids=["mapless", "haydes-1", "haydes-2", "haydes-4"])
def test_every_seat_passes_the_check(game: Any) -> None:
    state = game.initial_state(seed=1)
    for seat in range(game.num_players):
        game.check_player(seat)
        game._check_player(seat)  # the name the adapters used before
        game.observe(state, seat)
        game.determinize(state, seat, seed=3)


def test_the_seat_check_is_the_engines_alone() -> None:
    for game in (MAPLESS, HAYDES):
        assert type(game).check_player is GameBase.check_player
        assert type(game)._check_player is GameBase._check_player


# ----------------------------------------------------------------- stacked decks
DECK_ERROR = re.compile(
    r"stack\['(\w+)'\] names (\S+(, \S+)*), which the \1 deck does not hold "
    r"\(or not that many times\)"
)


@pytest.mark.parametrize(
    ("game", "stack"),
    [
        (MAPLESS, {"mind": ["2S"]}),
        (MAPLESS, {"narrative": ["QS", "QS"]}),
        (MAPLESS, {"body": "KD 2S AH"}),
        (HAYDES, {"build": ["RJ", "RJ"]}),
        (HAYDES, {"replacement": ["RJ"]}),
        (HAYDES, {"build": ["5S", "5S", "5S"]}),
    ],
)
def test_a_deck_refuses_a_card_it_cannot_give_in_one_form(game: Any, stack: Any) -> None:
    with pytest.raises(StackError) as caught:
        game.initial_state(seed=1, stack=stack)
    assert DECK_ERROR.fullmatch(str(caught.value)), str(caught.value)


@pytest.mark.parametrize(("game", "source"), [(MAPLESS, "body"), (HAYDES, "build")])
@pytest.mark.parametrize("top", [["ZZ"], 5, [None]])
def test_a_stack_entry_that_is_not_cards_is_refused_in_one_form(
    game: Any, source: str, top: Any
) -> None:
    with pytest.raises(StackError, match=rf"^stack\['{source}'\]: "):
        game.initial_state(seed=1, stack={source: top})


@pytest.mark.parametrize(
    ("game", "names"),
    [(MAPLESS, "narrative, mind, body"), (HAYDES, "build, replacement, rolls, first_player")],
)
def test_an_unknown_source_is_refused_by_the_engine_in_one_form(game: Any, names: str) -> None:
    with pytest.raises(StackError) as caught:
        game.initial_state(seed=1, stack={"discard": ["2S"], "attic": []})
    assert str(caught.value) == (
        f"{game.title} has no chance source ['attic', 'discard']; a stack may name: {names}"
    )


def test_stacked_from_puts_the_named_cards_on_top_of_the_rest() -> None:
    cards = parse_cards("2S 2S 3S 4S")
    deck = Deck.stacked_from("build", cards, ["2S", Card.parse("4S")])
    assert deck.stacked == parse_cards("2S 4S")
    assert deck.rest == parse_cards("2S 3S")
    assert Deck.stacked_from("build", cards, "4S 2S") == Deck(parse_cards("4S 2S"), cards[1:3])
    for nothing in ((), [], "", None):
        assert Deck.stacked_from("build", cards, nothing) == Deck.of(cards)


STACKED_CASES: list[tuple[Any, dict[str, Any]]] = [
    (MAPLESS, {"narrative": ["KS", "5C", "AH"], "mind": "QH 2H", "body": ["KD"]}),
    (MAPLESS, {"narrative": [Card.parse("2S")]}),
    (MAPLESS, {"body": []}),
    (HAYDES, {"build": ["QH", "5S", "RJ"], "replacement": ["KS", "KS"], "rolls": [7, 12]}),
    (cardcrawl.load("escape-from-haydes", max_rounds=30), {"build": "RJ 2S 2S"}),
    (
        cardcrawl.load("escape-from-haydes", players=3, max_rounds=30),
        {"first_player": 2, "replacement": ()},
    ),
]
#: The digest of the stacked games below, taken before the stacks of both games were
#: read by Deck.stacked_from: a stacked game plays exactly as it did. (Taken again when
#: a Red Joker shuffled under a single cell came to be narrated as lying under it, the
#: games themselves unchanged.)
STACKED_DIGEST = "da7adb3af6f09917bbc9ce70ef66126a23e5e802d6e5816cbffe242a6fa7b6fb"


def stacked_games_digest() -> str:
    digest = hashlib.sha256()
    for game, stack in STACKED_CASES:
        for explicit in (False, True):
            for seed in range(6):
                state = game.initial_state(seed, explicit_chance=explicit, stack=stack)
                choose = rng_derive(seed, 0x5A)
                for event in state.events:
                    digest.update(str(event).encode())
                while not game.is_terminal(state):
                    if game.current_player(state) == CHANCE:
                        options = [a for a, _ in game.chance_outcomes(state)]
                    else:
                        options = list(game.legal_actions(state))
                    choose, i = rng_below(choose, len(options))
                    state = game.step(state, options[i])
                    digest.update(game.format_action(options[i]).encode())
                    for event in state.events:
                        digest.update(str(event).encode())
                data = game.state_to_data(state)["state"]
                del data["events"]  # event texts are in already, under any class name
                digest.update(json.dumps(data, sort_keys=True).encode())
    return digest.hexdigest()


def test_stacked_games_play_as_they_did() -> None:
    assert stacked_games_digest() == STACKED_DIGEST


# ------------------------------------------------------------------- the census
CENSUS = re.compile(r"it does not hold each of the (\d+) cards once: missing (.+), extra (.+)")


@pytest.mark.parametrize(
    ("game", "total", "field"), [(MAPLESS, 52, "refused"), (HAYDES, 210, "discard")]
)
def test_a_card_counted_twice_is_reported_in_one_form(game: Any, total: int, field: str) -> None:
    state = game.initial_state(seed=1, stack={"first_player": [0]} if game is HAYDES else None)
    assert game.state_problems(state) == []
    extra = Card.BLACK_JOKER if game is HAYDES else Card.parse("AD")
    broken = attrs.evolve(state, **{field: (extra,)})
    (problem,) = [p for p in game.state_problems(broken) if CENSUS.fullmatch(p)]
    assert (
        problem == f"it does not hold each of the {total} cards once: missing none, extra {extra}"
    )
    with pytest.raises(InvalidStateError, match=re.escape(problem)):
        game.validate(broken)


def test_census_problems_names_what_is_missing_and_extra() -> None:
    state = MAPLESS.initial_state(seed=1, stack={"narrative": ["KS"]})
    cards = [Card(i) for i in range(52)]
    assert MAPLESS.census_problems(state, cards) == []
    fewer = [c for c in cards if c != Card.parse("KS")] + [Card.parse("QS")]
    assert MAPLESS.census_problems(state, fewer) == [
        "it does not hold each of the 52 cards once: missing QS, extra KS"
    ]


# ------------------------------------------------------------------ cell text
def test_the_two_text_forms_of_a_cell() -> None:
    for cell in [(0, 0), (1, -2), (-13, 7)]:
        assert cell_text(cell) == str(cell) == f"({cell[0]}, {cell[1]})"
        assert cell_code(cell) == f"{cell[0]},{cell[1]}"
    assert bounds([(0, 0), (2, -1), (-1, 3)]) == (-1, -1, 2, 3)
    grid = Grid({(0, 0): Card.parse("AD"), (3, -2): Card.parse("5S")})
    assert grid.bounds() == bounds(grid) == (0, -2, 3, 0)
    assert Grid().bounds() == (0, 0, 0, 0)
    with pytest.raises(ValueError, match="no cells"):
        bounds([])


def test_both_games_narrate_cells_in_the_event_form() -> None:
    cell = (3, -1)
    assert cell_text(cell) in str(mapless_package.Moved((0, 0), cell))
    assert cell_text(cell) in str(mapless_package.MoveSkipped(cell))
    assert cell_text(cell) in str(haydes_package.Moved(0, (0, 0), cell))
    assert cell_text(cell) in str(haydes_package.Held(1, cell))


def test_both_games_write_cells_in_actions_and_pictures_in_the_code_form() -> None:
    cell = (3, -1)
    assert str(mapless_package.Move(cell)) == f"move {cell_code(cell)}"
    assert str(haydes_package.Step(cell)) == f"step {cell_code(cell)}"
    pictures = [
        mapless_package.render_svg(MAPLESS.initial_state(seed=3)),
        haydes_package.render_svg(HAYDES.initial_state(seed=3)),
    ]
    for picture in pictures:
        cells = [g.get("data-cell") for g in ET.fromstring(picture).iter() if g.get("data-cell")]
        assert "0,0" in cells
        assert all(re.fullmatch(r"-?\d+,-?\d+", c or "") for c in cells)


# -------------------------------------------------------- the rest of the engine
@BOTH
def test_a_finished_game_waits_for_nothing_in_both_games(game: Any) -> None:
    state = game.initial_state(seed=5)
    while not game.is_terminal(state):
        state = game.step(state, game.legal_actions(state)[0])
    assert game.describe(state) == "nothing: the game is over"


@BOTH
def test_both_states_start_their_cache_afresh_when_copied(game: Any) -> None:
    state = game.initial_state(seed=1)
    assert isinstance(state, MemoState)
    game.legal_actions(state)
    assert state._memo
    copied = copy.deepcopy(state)
    assert copied == state
    assert copied._memo == {}


# ------------------------------------------------------------ the turn-start event
def test_both_games_name_the_turn_start_event_turn_started() -> None:
    assert mapless_package.TurnStarted.__name__ == haydes_package.TurnStarted.__name__
    with pytest.warns(DeprecationWarning, match="import TurnStarted from cardcrawl.haydes"):
        old_name = haydes_package.TurnBegan
    assert old_name is haydes_package.TurnStarted  # the deprecated name, the same class
    state = HAYDES.initial_state(seed=1, stack={"first_player": [1]})
    started = state.events[-1]
    assert isinstance(started, haydes_package.TurnStarted)
    assert str(started) == "Round 1: Player 1's turn."
    assert str(mapless_package.TurnStarted(4)) == "Turn 4."


def test_a_haydes_state_saved_with_the_old_event_name_still_loads() -> None:
    state = HAYDES.initial_state(seed=1, stack={"first_player": [1]})
    data = HAYDES.state_to_data(state)
    assert [e["type"] for e in data["state"]["events"]] == ["FirstPlayerDrawn", "TurnStarted"]
    old = json.loads(json.dumps(data).replace('"TurnStarted"', '"TurnBegan"'))
    assert HAYDES.state_from_data(old) == state
    assert MAPLESS.renamed_types == {}
