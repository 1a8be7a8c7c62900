"""The compact observation of Escape from Haydes (``encoding_for(game).compact()``).

It holds exactly what a seat may know: read back, a row gives the observation it was
written from (no less), and a row depends on the observation alone (no more: two states
that differ only in what nobody has seen give the same bytes). Beyond its room for
pools, beliefs or mixes it refuses with an EncodingError naming the bound.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, Card, Deck
from cardcrawl.encoding import EncodingError, encoding_for
from cardcrawl.haydes import Belief, EscapeFromHaydes, HaydesObservation, HaydesState

GAMES: list[EscapeFromHaydes] = [
    cardcrawl.load("escape-from-haydes", max_rounds=25),
    cardcrawl.load("escape-from-haydes", players=2, max_rounds=10, tuybe=True),
    cardcrawl.load("escape-from-haydes", players=3, max_rounds=7, creatures="denizens"),
    cardcrawl.load("escape-from-haydes", players=4, max_rounds=5, splits=[(7, 9), (9, 7)] * 2),
]
COMPACT = {id(game): encoding_for(game).compact() for game in GAMES}


def load(**options: Any) -> EscapeFromHaydes:
    game: EscapeFromHaydes = cardcrawl.load("escape-from-haydes", **options)
    return game


def run(game: EscapeFromHaydes, state: HaydesState, *texts: str) -> HaydesState:
    for text in texts:
        state = game.step(state, game.parse_action(text))
    return state


def without_events(observation: HaydesObservation) -> HaydesObservation:
    """What the row keeps: all but the last step's events."""
    return attrs.evolve(observation, events=())


def played(data: st.DataObject, game: EscapeFromHaydes) -> list[HaydesState]:
    """Every state of one game in explicit-chance play, decisions and chance outcomes
    drawn by Hypothesis (so the phases waiting for a card or a roll are seen too)."""
    seed = data.draw(st.integers(0, 2**64 - 1), label="seed")
    state = game.initial_state(seed, explicit_chance=True)
    states = [state]
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            options = [outcome for outcome, _ in game.chance_outcomes(state)]
        else:
            options = list(game.legal_actions(state))
        state = game.step(state, options[data.draw(st.integers(0, len(options) - 1))])
        states.append(state)
    return states


@given(st.sampled_from(GAMES), st.data())
def test_a_row_reads_back_as_the_observation_it_was_written_from(
    game: EscapeFromHaydes, data: st.DataObject
) -> None:
    """No less than the seat knows: every seat's observation of every state of a game,
    1 to 4 players, reads back whole from its row (H-12's pools and mixes included)."""
    compact = COMPACT[id(game)]
    for state in played(data, game):
        for seat in range(game.num_players):
            observation = game.observe(state, seat)
            row = compact.encode(observation)
            assert len(row) == compact.size
            assert compact.read(row) == without_events(observation)


@given(st.sampled_from(GAMES), st.data())
def test_a_row_is_the_same_whatever_the_hidden_deal(
    game: EscapeFromHaydes, data: st.DataObject
) -> None:
    """No more than the seat knows: the same position with another hidden future (a new
    generator for the unseen cards, H-3's shuffles) gives the very same bytes."""
    compact = COMPACT[id(game)]
    states = played(data, game)
    for state in states[:: max(1, len(states) // 8)]:
        seat = data.draw(st.integers(0, game.num_players - 1), label="seat")
        other = game.determinize(state, seat, seed=data.draw(st.integers(0, 2**32 - 1)))
        assert other.rng != state.rng or other == state
        assert compact.encode(game.observe(other, seat)) == compact.encode(
            game.observe(state, seat)
        )


def test_two_different_stacked_deals_give_the_same_rows() -> None:
    """Two games whose Build decks are stacked differently look alike until a card is
    turned; their rows are equal, and they differ once the turned cards do."""
    game = load(players=2)
    compact = encoding_for(game).compact()
    one = game.initial_state(1, stack={"build": ["QH", "2C"], "first_player": [0]})
    two = game.initial_state(2, stack={"build": ["3D", "KS"], "first_player": [0]})
    assert one != two
    assert compact.encode(game.observe(one, 1)) == compact.encode(game.observe(two, 1))
    one, two = (run(game, s, "higher -1,0") for s in (one, two))
    assert compact.encode(game.observe(one, 1)) != compact.encode(game.observe(two, 1))


def two_beliefs() -> tuple[EscapeFromHaydes, HaydesState]:
    """H-10 with H-12: a mix holding cards of two pools, and a card turned there that
    may have come from either, so two weighted beliefs."""
    game = load()
    state = game.initial_state(0, explicit_chance=True, stack={"build": ["5S", "7H", "8S", "RJ"]})
    belief = state.beliefs[0]
    last = Card.parse("5S")
    state = attrs.evolve(
        state,
        beliefs=(Belief(1, (belief.unseen[0], Deck.of([last])), ()),),
        replacement_left=1,
        removed=belief.unseen[1].take(last).cards,
    )
    state = run(game, state, "higher 1,0", "higher 2,0", "higher 3,0", "higher 3,1")
    state = run(game, state, "lower 2,0", "reveal 5S")
    assert len(state.beliefs) == 2
    assert state.mixes
    assert len(state.beliefs[0].unseen) == 3
    return game, state


def test_beliefs_and_mixes_read_back_exactly() -> None:
    game, state = two_beliefs()
    compact = encoding_for(game).compact()
    observation = game.observe(state, 0)
    back = compact.read(compact.encode(observation))
    assert back == without_events(observation)
    assert sorted(b.weight for b in back.beliefs) == [1, 2]
    assert back.mixes[0].known == (Card.RED_JOKER,)
    # As documented: by cell, the source is 0 face up, 1 in a mix, 2 + the pool.
    row = compact.encode(observation)
    cells = game.options.cells
    source = row[compact.segment("source").start :][: len(cells)]
    mix = row[compact.segment("mix").start :][: len(cells)]
    for i, cell in enumerate(cells):
        pool = observation.pool_of[i]
        assert source[i] == {-1: 0, -2: 1}.get(pool, pool + 2)
        assert (source[i] == 1) == (cell in observation.mixes[0].cells) == (mix[i] == 1)
    assert {0, 1, 2} <= set(source)


@pytest.mark.parametrize(
    ("bounds", "message"),
    [
        ({"beliefs": 1}, "has 2 beliefs; the compact row has room for 1"),
        ({"pools": 2}, "has 3 pools; the compact row has room for 2"),
    ],
)
def test_an_observation_beyond_the_rows_room_is_refused_by_name(
    bounds: dict[str, int], message: str
) -> None:
    """Never a silent truncation: the error says what is exceeded and how to make room."""
    game, state = two_beliefs()
    observation = game.observe(state, 0)
    with pytest.raises(EncodingError, match=message):
        encoding_for(game).compact(**bounds).encode(observation)
    roomy = encoding_for(game).compact(pools=3, beliefs=2, mixes=1, known=1)
    assert roomy.read(roomy.encode(observation)) == without_events(observation)


def test_bad_bounds_rows_and_observations_get_encoding_errors() -> None:
    game = load()
    encoding = encoding_for(game)
    with pytest.raises(EncodingError, match="pools is an integer from 1 to 100"):
        encoding.compact(pools=0)
    compact = encoding.compact()
    with pytest.raises(EncodingError, match="HaydesObservation"):
        compact.encode(game.initial_state(1))
    with pytest.raises(EncodingError, match=f"{compact.size} bytes"):
        compact.read(b"\0" * 10)
    junk = bytearray(compact.size)
    junk[compact.segment("counts").start] = 200
    with pytest.raises(EncodingError, match="not a compact row"):
        compact.read(bytes(junk))
    observation = game.observe(game.initial_state(1), 0)
    off_layout = attrs.evolve(observation, overcome=frozenset({(40, 40)}))
    with pytest.raises(EncodingError, match="does not fit"):
        compact.encode(off_layout)
    strange_pool = attrs.evolve(observation, pool_of=(7, *observation.pool_of[1:]))
    with pytest.raises(EncodingError, match="not one of the observation's pools"):
        compact.encode(strange_pool)
    other = encoding_for(load(players=2)).compact()
    with pytest.raises(EncodingError, match="not of escape-from-haydes with these options"):
        other.encode(observation)
    with pytest.raises(EncodingError, match="no compact segment is named 'pixels'"):
        compact.segment("pixels")


def test_a_layout_beyond_a_byte_has_no_compact_row() -> None:
    cells = [(x, y) for y in range(-8, 9) for x in range(-8, 8)][:262]
    if (0, 0) not in cells:
        cells[-1] = (0, 0)
    game = load(deck_count=10, layout=cells)
    with pytest.raises(EncodingError, match="at most 254 cells; this one has 262"):
        encoding_for(game).compact()
