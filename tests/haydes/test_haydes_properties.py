"""Properties of Escape from Haydes over random games, one ruling at a time.

Each test plays games whose every action Hypothesis draws from ``legal_actions`` (so a
failing game shrinks to a short one), and checks one ruling at every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import Card
from cardcrawl.haydes import (
    BLACK_JOKER_CELL,
    CardsReplaced,
    EncounterBegan,
    Escaped,
    EscapeFromHaydes,
    Guess,
    HaydesState,
    Lowered,
    Moved,
    Revealed,
    Rolled,
    TurnEnded,
    TurnStarted,
    card_value,
    is_court,
)

GAMES: list[EscapeFromHaydes] = [
    cardcrawl.load("escape-from-haydes", max_rounds=25),
    cardcrawl.load("escape-from-haydes", players=2, max_rounds=10, tuybe=True),
    cardcrawl.load("escape-from-haydes", players=3, max_rounds=7),
    cardcrawl.load("escape-from-haydes", players=4, max_rounds=5, splits=[(7, 9), (9, 7)] * 2),
]

Step = tuple[HaydesState, HaydesState]


def play(data: st.DataObject, game: EscapeFromHaydes) -> Iterator[Step]:
    """Every (state before, state after) of one game drawn action by action."""
    state = game.initial_state(data.draw(st.integers(0, 2**64 - 1), label="seed"))
    while not game.is_terminal(state):
        actions = game.legal_actions(state)
        action = actions[data.draw(st.integers(0, len(actions) - 1))]
        after = game.step(state, action)
        yield state, after
        state = after


games = st.sampled_from(GAMES)


def _live_creature(state: HaydesState, cell: tuple[int, int]) -> bool:
    card = state.card_at(cell)
    return card is not None and is_court(card) and cell not in state.overcome


@given(games, st.data())
def test_equal_values_are_never_a_correct_guess(
    game: EscapeFromHaydes, data: st.DataObject
) -> None:
    """H-7: a guess is correct only when strictly higher or strictly lower; equal, or
    wrong, on a plain card ends the turn."""
    for _, after in play(data, game):
        events = after.events
        for k, event in enumerate(events):
            if not isinstance(event, Revealed):
                continue
            value = card_value(event.card)
            if event.guess is Guess.HIGHER:
                assert event.correct == (value > event.from_value)
            else:
                assert event.correct == (value < event.from_value)
            if value == event.from_value:
                assert not event.correct
            if not event.correct and not is_court(event.card):
                assert any(isinstance(e, TurnEnded) for e in events[k:]) or after.ending


@given(games, st.data())
def test_an_encounter_starts_exactly_when_a_figure_meets_a_live_creature(
    game: EscapeFromHaydes, data: st.DataObject
) -> None:
    """H-8: revealing a court card or stepping onto one not yet overcome (or starting a
    turn held there) starts an encounter at once; nothing else does."""
    for before, after in play(data, game):
        events = after.events
        for k, event in enumerate(events):
            follows = k + 1 < len(events) and isinstance(events[k + 1], EncounterBegan)
            if isinstance(event, Moved):
                card = after.card_at(event.target)
                assert card is not None
                live = is_court(card) and event.target not in before.overcome
                assert follows == live
            elif isinstance(event, TurnStarted):
                cell = after.seats[event.seat].cell
                assert cell is not None
                assert follows == _live_creature(after, cell)
            elif isinstance(event, EncounterBegan):
                assert k > 0
                assert isinstance(events[k - 1], (Moved, TurnStarted))


@given(st.data())
def test_every_encounter_lowers_the_chosen_characteristic_by_one(data: st.DataObject) -> None:
    """H-8: win or lose, the chosen characteristic drops by exactly 1 (standard table)."""
    game = data.draw(games)
    for before, after in play(data, game):
        rolls = [e for e in after.events if isinstance(e, Rolled)]
        lowered = [e for e in after.events if isinstance(e, Lowered)]
        assert len(rolls) == len(lowered) <= 1
        for roll, low in zip(rolls, lowered, strict=True):
            assert (low.seat, low.characteristic) == (roll.seat, roll.characteristic)
            assert low.after == low.before - 1
            was = before.seats[roll.seat].value(roll.characteristic)
            assert after.seats[roll.seat].value(roll.characteristic) == was - 1
            other = next(c for c in type(roll.characteristic) if c is not roll.characteristic)
            assert after.seats[roll.seat].value(other) == before.seats[roll.seat].value(other)


@given(games, st.data())
def test_a_held_players_turn_begins_with_an_encounter(
    game: EscapeFromHaydes, data: st.DataObject
) -> None:
    """H-8: a player held by a creature faces it again before anything else."""
    for before, after in play(data, game):
        events = after.events
        for k, event in enumerate(events):
            if isinstance(event, TurnStarted):
                cell = before.seats[event.seat].cell
                assert cell is not None
                # Held at the end of the previous turn, and nobody overcame it since.
                if _live_creature(after, cell):
                    assert isinstance(events[k + 1], EncounterBegan)
                    assert after.phase.value == "encounter"


@given(games, st.data())
def test_escape_only_by_lower_from_a_card_worth_one_or_more(
    game: EscapeFromHaydes, data: st.DataObject
) -> None:
    """H-9, H-10: moving onto the Red Joker escapes exactly on "lower" from value >= 1."""
    for _, after in play(data, game):
        for k, event in enumerate(after.events):
            if isinstance(event, Revealed) and event.card == Card.RED_JOKER:
                wins = event.guess is Guess.LOWER and event.from_value >= 1
                escaped = any(isinstance(e, Escaped) for e in after.events[k:])
                assert escaped == wins
            if isinstance(event, Escaped):
                outcome = game.outcome(after)
                assert outcome is not None
                assert outcome.winners == (event.seat,)
                assert outcome.returns[event.seat] == 1.0
                assert sum(outcome.returns) == 1.0


@given(games, st.data())
def test_replacement_never_touches_the_black_joker_or_a_figure(
    game: EscapeFromHaydes, data: st.DataObject
) -> None:
    """H-12: every face-up card is replaced at end of turn except the Black Joker and the
    cards with a figure on them."""
    for _, after in play(data, game):
        figures = {f.cell for f in after.seats if f.cell is not None}
        for event in after.events:
            if isinstance(event, CardsReplaced):
                assert BLACK_JOKER_CELL not in event.cells
                assert not figures & set(event.cells)
        if any(isinstance(e, TurnStarted) for e in after.events):
            up = {c for c, card in zip(after.layout, after.face_up, strict=True) if card}
            assert up <= figures | {BLACK_JOKER_CELL}


@given(games, st.data())
def test_every_card_is_accounted_for(game: EscapeFromHaydes, data: st.DataObject) -> None:
    """H-3: all 209 cards of Build and Replacement, and the Black Joker, always."""
    expected = Counter((*cardcrawl.kit.standard_deck() * 4, Card.RED_JOKER, Card.BLACK_JOKER))
    for _, after in play(data, game):
        census = game.card_census(after)
        assert Counter(c for cards in census.values() for c in cards) == expected
        face_down = after.face_up.count(None)
        assert len(census["unseen"]) == face_down + after.replacement_left


@given(games, st.data())
def test_players_who_are_out_never_get_a_turn(game: EscapeFromHaydes, data: st.DataObject) -> None:
    """H-5, H-11: play passes in seat order, skipping players who are out."""
    out: set[int] = set()
    for before, after in play(data, game):
        for event in after.events:
            if isinstance(event, TurnStarted):
                assert event.seat not in out
                assert after.seats[event.seat].cell is not None
        out |= {s for s, f in enumerate(after.seats) if f.cell is None}
        player = game.current_player(after)
        if player >= 0:
            assert player not in out
        if after.ending is None and before.current >= 0:
            assert after.round >= before.round
