"""The action and observation encodings (cardcrawl.encoding): pure Python, no extras.

The central property: over random games of every built-in game, variant and seat count,
every legal decision encodes to an index that decodes back to it, the action mask is
exactly the legal set, every chance outcome of explicit-chance play encodes and decodes
likewise, and every observation encodes to a vector of the promised size with values in
[0, 1] that depends on the observation alone (a determinized state gives the same one).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, Card, rng_below, rng_from_seed
from cardcrawl.encoding import Encoding, EncodingError, encoding_for
from cardcrawl.haydes import (
    Characteristic,
    Choose,
    EndTurn,
    FirstPlayer,
    Guess,
    HaydesEncoding,
    Reveal,
    Roll,
    Step,
    Tuybe,
)
from cardcrawl.haydes import Move as HMove
from cardcrawl.mapless import Draw, MaplessEncoding, Move, Place, PlaceExit
from cardcrawl.mapless._encoding import MAPLESS_RADIUS, MAPLESS_SIDE

# (name, options) of every built-in game and variant, with limits that keep games short.
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("mapless-house", {"max_turns": 40}),
    ("escape-from-haydes", {"max_rounds": 12}),
    ("escape-from-haydes", {"players": 2, "max_rounds": 8}),
    ("escape-from-haydes", {"players": 4, "max_rounds": 5}),
    ("escape-from-haydes-solo-timer", {}),
    ("escape-from-haydes-tuybe", {"players": 3, "max_rounds": 6}),
    ("escape-from-haydes-denizens", {"players": 2, "max_rounds": 8}),
]
IDS = [f"{name}-{opts.get('players', 1)}p" for name, opts in GAMES]


def _check_decision(enc: Encoding, state: Any) -> None:
    game = enc.game
    legal = game.legal_actions(state)
    indices = [enc.encode_action(a) for a in legal]
    assert len(set(indices)) == len(legal), "two legal actions share an index"
    for action, index in zip(legal, indices, strict=True):
        assert 0 <= index < enc.num_actions
        assert enc.decode_action(index) == action
    mask = enc.action_mask(state)
    assert len(mask) == enc.num_actions
    assert {i for i, m in enumerate(mask) if m} == set(indices)
    assert set(mask) <= {0, 1}
    assert enc.legal_indices(state) == tuple(sorted(indices))


def _check_chance(enc: Encoding, state: Any) -> None:
    outcomes = enc.game.chance_outcomes(state)
    indices = [enc.encode_chance(o) for o, _ in outcomes]
    assert len(set(indices)) == len(outcomes), "two chance outcomes share an index"
    for (outcome, _), index in zip(outcomes, indices, strict=True):
        assert 0 <= index < enc.num_chance_outcomes
        assert enc.decode_chance(index) == outcome
    assert enc.chance_outcomes(state) == tuple(
        (i, p) for i, (_, p) in zip(indices, outcomes, strict=True)
    )
    assert not any(enc.action_mask(state)), "no decision is legal at a chance event"


def _check_observations(enc: Encoding, state: Any, seed: int) -> None:
    game = enc.game
    size = math.prod(enc.observation_shape)
    for player in range(game.num_players):
        vector = enc.encode_observation(game.observe(state, player))
        assert len(vector) == size
        if player == 0:
            indices, values = enc.encode_observation_sparse(game.observe(state, player))
            dense = [0.0] * size
            for i, x in zip(indices, values, strict=True):
                dense[i] = x
            assert tuple(dense) == vector
            assert list(indices) == sorted(set(indices))
            assert 0.0 not in values
        assert all(isinstance(x, float) and 0.0 <= x <= 1.0 for x in vector)
        # Fair: a state the player cannot tell apart encodes the same.
        twin = game.determinize(state, player, seed)
        assert enc.encode_observation(game.observe(twin, player)) == vector


def _play_and_check(name: str, options: dict[str, Any], seed: int, explicit: bool) -> None:
    game = cardcrawl.load(name, **options)
    enc = encoding_for(game)
    state = game.initial_state(seed, explicit_chance=explicit)
    rng = rng_from_seed(seed)
    steps = 0
    while True:
        if steps % 3 == 0 or game.is_terminal(state):
            _check_observations(enc, state, seed)
        to_move = game.current_player(state)
        if to_move == cardcrawl.TERMINAL:
            assert not any(enc.action_mask(state))
            limit = "max_turns" if name == "mapless-house" else "max_rounds"
            label = game.outcome(state).label
            assert enc.ended_by_limit(state) == (label in ("lost", "time-up"))
            if getattr(game.options, limit) is None:
                assert not enc.ended_by_limit(state)
            return
        assert not enc.ended_by_limit(state)
        if to_move == CHANCE:
            _check_chance(enc, state)
            outcomes = game.chance_outcomes(state)
            rng, k = rng_below(rng, len(outcomes))
            state = game.step(state, outcomes[k][0])
        else:
            _check_decision(enc, state)
            legal = game.legal_actions(state)
            rng, k = rng_below(rng, len(legal))
            state = game.step(state, legal[k])
        steps += 1


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_round_trips_in_sampled_play(
    name: str, options: dict[str, Any], seed: int
) -> None:
    """Sampled play: legal decisions encode, round-trip, and make up the mask exactly."""
    _play_and_check(name, options, seed, explicit=False)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_chance_outcome_round_trips_in_explicit_play(
    name: str, options: dict[str, Any], seed: int
) -> None:
    """Explicit-chance play: chance outcomes encode and round-trip too, numbered apart."""
    _play_and_check(name, options, seed, explicit=True)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_the_whole_index_space_decodes_and_encodes_back(name: str, options: dict[str, Any]) -> None:
    """The mapping is a bijection on range(num_actions) and range(num_chance_outcomes)."""
    enc = encoding_for(cardcrawl.load(name, **options))
    decoded = [enc.decode_action(i) for i in range(enc.num_actions)]
    assert [enc.encode_action(a) for a in decoded] == list(range(enc.num_actions))
    chances = [enc.decode_chance(i) for i in range(enc.num_chance_outcomes)]
    assert [enc.encode_chance(o) for o in chances] == list(range(enc.num_chance_outcomes))


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_layout_tiles_the_observation(name: str, options: dict[str, Any]) -> None:
    """The named segments follow each other without gap or overlap to the end."""
    enc = encoding_for(cardcrawl.load(name, **options))
    position = 0
    for seg in enc.layout:
        assert seg.start == position
        assert seg.size > 0
        position = seg.stop
    assert (position,) == enc.observation_shape
    assert len({s.name for s in enc.layout}) == len(enc.layout)
    assert enc.segment(enc.layout[-1].name) is enc.layout[-1]


def test_mapping_is_state_independent_and_documented_for_mapless() -> None:
    """The Mapless numbering is kind * 2601 + (x + 25) * 51 + (y + 25), whatever the options."""
    for options in ({}, {"max_turns": 5}):
        enc = encoding_for(cardcrawl.load("mapless-house", **options))
        assert isinstance(enc, MaplessEncoding)
        assert enc.version == "1"
        cells = MAPLESS_SIDE * MAPLESS_SIDE
        assert enc.num_actions == 3 * cells
        for kind, cls in enumerate((Place, PlaceExit, Move)):
            for x, y in ((0, 0), (-25, 25), (3, -7), (25, -25)):
                index = kind * cells + (x + 25) * MAPLESS_SIDE + (y + 25)
                assert enc.encode_action(cls((x, y))) == index
                assert enc.decode_action(index) == cls((x, y))
        assert enc.encode_chance(Draw(Card.parse("QS"))) == Card.parse("QS").index


def test_mapping_is_documented_for_haydes() -> None:
    """Haydes numbers moves, steps, Tuybe moves by cell, then end, charisma, endurance."""
    game = cardcrawl.load("escape-from-haydes-tuybe", players=3)
    enc = encoding_for(game)
    assert isinstance(enc, HaydesEncoding)
    cells = game.options.cells
    n = len(cells)
    assert n == 106
    assert enc.num_actions == 5 * n + 3
    for i in (0, 17, n - 1):
        assert enc.encode_action(HMove(cells[i], Guess.HIGHER)) == 2 * i
        assert enc.encode_action(HMove(cells[i], Guess.LOWER)) == 2 * i + 1
        assert enc.encode_action(Step(cells[i])) == 2 * n + i
        assert enc.encode_action(Tuybe(cells[i], Guess.LOWER)) == 3 * n + 2 * i + 1
    assert enc.encode_action(EndTurn()) == 5 * n
    assert enc.encode_action(Choose(Characteristic.ENDURANCE)) == 5 * n + 2
    assert enc.encode_chance(FirstPlayer(2)) == 2
    assert enc.encode_chance(Reveal(Card.RED_JOKER)) == 3 + Card.RED_JOKER.index
    assert enc.encode_chance(Roll(12)) == 3 + 54 + 10
    assert enc.num_chance_outcomes == 3 + 54 + 11
    plain = encoding_for(cardcrawl.load("escape-from-haydes"))
    assert plain.num_actions == 3 * n + 3
    assert plain.encode_action(EndTurn()) == 3 * n


def test_mapless_bound_is_the_distance_26_cards_can_reach() -> None:
    """The square's radius is 25: 26 placeable cards, one of them the Entrance at (0, 0)."""
    assert MAPLESS_RADIUS == 25
    assert MAPLESS_SIDE == 51
    enc = encoding_for(cardcrawl.load("mapless-house"))
    assert enc.encode_action(Place((0, 25))) < enc.num_actions
    with pytest.raises(EncodingError, match="outside"):
        enc.encode_action(Place((0, 26)))


def _forged_place(cell: Any) -> Place:
    place = object.__new__(Place)
    object.__setattr__(place, "cell", cell)
    return place


@pytest.mark.parametrize(
    "bad",
    [
        EndTurn(),
        Draw(Card.parse("2S")),
        "place 0,0",
        None,
        Move((100, 0)),
        # Actions with bad cells can no longer be built (ActionError); ones forged past
        # the constructor's check must still be refused by the encoding.
        _forged_place((1.0, 0)),
        _forged_place("x"),
    ],
)
def test_mapless_rejects_what_is_not_an_encodable_decision(bad: Any) -> None:
    enc = encoding_for(cardcrawl.load("mapless-house"))
    with pytest.raises(EncodingError):
        enc.encode_action(bad)


@pytest.mark.parametrize(
    "bad",
    [Tuybe((2, 0), Guess.HIGHER), Step((40, 40)), Roll(7), Place((0, 0)), [1, 2], None],
)
def test_haydes_rejects_what_is_not_an_encodable_decision(bad: Any) -> None:
    enc = encoding_for(cardcrawl.load("escape-from-haydes"))
    with pytest.raises(EncodingError):
        enc.encode_action(bad)


@pytest.mark.parametrize("name", ["mapless-house", "escape-from-haydes"])
@pytest.mark.parametrize("index", [-1, 10**6, True, 1.0, "3", None])
def test_bad_indices_are_refused(name: str, index: Any) -> None:
    enc = encoding_for(cardcrawl.load(name))
    with pytest.raises(EncodingError):
        enc.decode_action(index)
    with pytest.raises(EncodingError):
        enc.decode_chance(index)


def test_bad_chance_outcomes_and_observations_are_refused() -> None:
    mapless = encoding_for(cardcrawl.load("mapless-house"))
    haydes = encoding_for(cardcrawl.load("escape-from-haydes", players=2))
    with pytest.raises(EncodingError):
        mapless.encode_chance(Place((0, 0)))
    with pytest.raises(EncodingError):
        mapless.encode_chance(Draw(Card.RED_JOKER))
    with pytest.raises(EncodingError):
        haydes.encode_chance(FirstPlayer(2))  # a two-player game has seats 0 and 1
    other = cardcrawl.load("escape-from-haydes")
    with pytest.raises(EncodingError):
        haydes.encode_observation(other.observe(other.initial_state(1), 0))
    with pytest.raises(EncodingError):
        mapless.encode_observation(other.observe(other.initial_state(1), 0))
    with pytest.raises(EncodingError):
        haydes.encode_observation("not an observation")
    with pytest.raises(EncodingError, match="no observation segment"):
        haydes.segment("nope")


def test_unsupported_games_are_refused() -> None:
    with pytest.raises(EncodingError, match="no encoding"):
        encoding_for(object())


def test_numpy_like_integers_decode() -> None:
    class Index:
        def __index__(self) -> int:
            return 5

    enc = encoding_for(cardcrawl.load("escape-from-haydes"))
    assert enc.decode_action(Index()) == enc.decode_action(5)


def _part(enc: Encoding, vector: tuple[float, ...], name: str) -> tuple[float, ...]:
    seg = enc.segment(name)
    return vector[seg.start : seg.stop]


def test_mapless_observation_puts_things_where_the_layout_says() -> None:
    game = cardcrawl.load("mapless-house", max_turns=50)
    enc = encoding_for(game)
    state = game.initial_state(seed=7)  # the 6S waits to be placed (fair-observations page)
    vector = enc.encode_observation(game.observe(state, 0))
    centre = MAPLESS_RADIUS * MAPLESS_SIDE + MAPLESS_RADIUS  # the cell (0, 0)
    assert _part(enc, vector, "player")[centre] == 1.0
    assert sum(_part(enc, vector, "player")) == 1.0
    assert _part(enc, vector, "card")[centre] == 1.0  # the Entrance
    assert _part(enc, vector, "value")[centre] == 0.0  # an ace is worth 0 (M-1)
    drawn = _part(enc, vector, "drawn")
    assert drawn[Card.parse("6S").index] == 1.0
    assert sum(drawn) == 1.0
    assert sum(_part(enc, vector, "narrative_left")) == len(state.narrative)
    assert _part(enc, vector, "phase")[1] == 1.0  # place


def test_haydes_observation_is_written_from_the_observers_seat() -> None:
    game = cardcrawl.load("escape-from-haydes", players=3, splits=[(7, 9), (8, 8), (9, 7)])
    enc = encoding_for(game)
    state = game.initial_state(seed=5)
    seats = [_part(enc, enc.encode_observation(game.observe(state, p)), "seats") for p in range(3)]
    width = len(seats[0]) // 3
    for player in range(3):
        # Slot 0 is the observer: its charisma over 9.
        charisma = game.options.character_splits[player][0]
        assert seats[player][1] == pytest.approx(charisma / 9)
        # The seat to move appears in the slot that counts seats from the observer.
        slot = (state.current - player) % 3
        assert seats[player][slot * width + 3] == 1.0
    build = _part(enc, enc.encode_observation(game.observe(state, 0)), "build_pool")
    assert sum(build) == 105  # every cell but the Black Joker's, face down (H-4)
    joker = _part(enc, enc.encode_observation(game.observe(state, 0)), "may_hide_joker")
    assert joker == build  # the Red Joker is somewhere in the Build deck
