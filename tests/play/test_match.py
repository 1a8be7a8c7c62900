"""Matches: history, fair undo, redo, records and rules versions.

Expected states are rebuilt with ``game.step`` directly, so these tests pin what
:class:`cardcrawl.Match` adds (history, undo, records), not one particular game.
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, IllegalActionError, Match, RecordError, UndoError
from cardcrawl.haydes import FirstPlayerDrawn, Revealed, Rolled
from cardcrawl.mapless import CardDrawn, Encounter, Phase, Place, PlaceExit

GAME = "mapless-house"
GAME_OBJ = cardcrawl.load(GAME, max_turns=60)
seeds = st.integers(0, 2**64 - 1)


def first_actions(game: Any, seed: int, n: int, **start: Any) -> Match:
    """A match after ``n`` plays of the first legal action (or chance outcome)."""
    match = Match.start(game, seed, **start)
    for _ in range(n):
        if game.is_terminal(match.state):
            break
        match.play(next_action(game, match.state, 0))
    return match


def next_action(game: Any, state: Any, index: int) -> Any:
    """The ``index``-th (wrapping) decision or chance outcome at ``state``."""
    options = game.legal_actions(state) or tuple(a for a, _ in game.chance_outcomes(state))
    return options[index % len(options)]


def drawn_something(state: Any) -> bool:
    """What the player saw chance give in the step that made ``state`` (an oracle from
    the events of The Mapless House, independent of the generator)."""
    return any(
        isinstance(e, CardDrawn)
        or (isinstance(e, Encounter) and (e.mind is not None or e.body is not None))
        for e in state.events
    )


def play_randomly(match: Match, data: st.DataObject, steps: int) -> None:
    game = match.game
    for _ in range(steps):
        if game.is_terminal(match.state):
            return
        options = game.legal_actions(match.state) or tuple(
            a for a, _ in game.chance_outcomes(match.state)
        )
        match.play(data.draw(st.sampled_from(options)))


def until_phase(game: Any, seed: int, phase: Phase) -> Match:
    match = Match.start(game, seed)
    while match.state.phase is not phase:
        assert not game.is_terminal(match.state), f"seed {seed} never reaches {phase}"
        match.play(game.legal_actions(match.state)[0])
    return match


# ------------------------------------------------------------- history
def test_history_holds_each_action_and_the_state_it_made() -> None:
    game = GAME_OBJ
    match = Match.start(game, 5)
    expected = [game.initial_state(5)]
    for i in range(12):
        action = next_action(game, match.state, i)
        returned = match.play(action)
        expected.append(game.step(expected[-1], action))
        assert returned is match.state
    assert match.states == tuple(expected)
    assert match.initial_state == expected[0]
    assert [e.state for e in match.history] == expected[1:]
    assert [e.events for e in match.history] == [s.events for s in expected[1:]]
    assert all(e.player == 0 for e in match.history)
    assert match.actions == tuple(e.action for e in match.history)


def test_history_is_an_immutable_snapshot() -> None:
    match = first_actions(GAME_OBJ, 3, 3)
    history = match.history
    assert isinstance(history, tuple)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        history[0].action = None  # type: ignore[misc]
    match.play(next_action(GAME_OBJ, match.state, 0))
    assert len(history) == 3
    assert len(match.history) == 4


def test_illegal_action_raises_and_changes_nothing() -> None:
    match = first_actions(GAME_OBJ, 3, 2)
    state, history = match.state, match.history
    with pytest.raises(IllegalActionError, match="illegal action place 40,40"):
        match.play(Place((40, 40)))
    assert match.state is state
    assert match.history == history
    assert not match.can_redo


def test_actions_may_be_given_as_text() -> None:
    game = GAME_OBJ
    match = Match.start(GAME, 8)
    action = game.legal_actions(match.state)[-1]
    match.play(game.format_action(action))
    assert match.history[0].action == action
    with pytest.raises(cardcrawl.ParseError):
        match.play("dance")
    assert len(match.history) == 1


def test_start_by_name_and_bad_seed() -> None:
    assert Match.start(GAME, 1).state == cardcrawl.load(GAME).initial_state(1)
    with pytest.raises(cardcrawl.OptionsError):
        Match.start(GAME, -1)
    with pytest.raises(cardcrawl.UnknownGameError):
        Match.start("no-such-game", 1)


# ----------------------------------------------------------- fair undo
def test_fair_undo_refuses_to_go_back_over_a_drawn_card() -> None:
    """Placing a card in phase one draws the next one (M-9): that is not undone."""
    match = first_actions(GAME_OBJ, 2, 3)
    before = match.history
    assert before[-1].revealed
    assert not match.can_undo
    with pytest.raises(UndoError, match="revealed the outcome of a chance event") as caught:
        match.undo()
    assert caught.value.entry is before[-1]
    assert "fair_undo=False" in str(caught.value)
    assert isinstance(caught.value, cardcrawl.CardcrawlError)
    assert match.history == before


def test_a_step_that_revealed_nothing_can_be_undone_and_redone() -> None:
    """Choosing the Exit's cell (M-11) draws nothing: undo it and choose again."""
    game = GAME_OBJ
    match = until_phase(game, 1, Phase.PLACE_EXIT)
    at_choice = match.state
    first, second = game.legal_actions(at_choice)[:2]
    made = match.play(first)
    assert made.rng == at_choice.rng
    assert not match.history[-1].revealed
    assert match.can_undo
    undone = match.undo()
    assert undone.action == first
    assert match.state is at_choice
    assert match.can_redo
    redone = match.redo()
    assert redone is undone
    assert match.state is made
    match.undo()
    match.play(second)
    assert isinstance(match.history[-1].action, PlaceExit)
    assert match.history[-1].action == second
    assert not match.can_redo
    with pytest.raises(UndoError, match="nothing to redo"):
        match.redo()


def test_unfair_undo_goes_back_to_the_start_and_redo_replays_the_same_states() -> None:
    match = first_actions(GAME_OBJ, 4, 10, fair_undo=False)
    states = match.states
    assert not match.fair_undo
    assert sum(e.revealed for e in match.history) > 5
    for _ in range(10):
        match.undo()
    assert match.state is states[0]
    assert not match.can_undo
    with pytest.raises(UndoError, match="nothing to undo"):
        match.undo()
    while match.can_redo:
        match.redo()
    assert match.states == states


def test_explicit_chance_decision_is_undoable_but_the_outcome_is_not() -> None:
    game = GAME_OBJ
    match = Match.start(game, 6, explicit_chance=True)
    assert game.current_player(match.state) == CHANCE  # the first Narrative card
    match.play(game.chance_outcomes(match.state)[0][0])
    place = game.legal_actions(match.state)[0]
    match.play(place)
    assert game.current_player(match.state) == CHANCE
    assert not match.history[-1].revealed
    match.undo()
    match.play(place)
    outcome = game.chance_outcomes(match.state)[0][0]
    match.play(outcome)
    entry = match.history[-1]
    assert (entry.player, entry.revealed, entry.action) == (CHANCE, True, outcome)
    with pytest.raises(UndoError):
        match.undo()


@pytest.mark.parametrize("explicit", [False, True])
def test_a_stacked_card_counts_as_revealed(explicit: bool) -> None:
    """A stacked draw moves no generator and, with explicit chance, does not stop;
    it still shows the player a card they could not know, so it is not undone."""
    game = GAME_OBJ
    stack = {"narrative": ["KS", "QS", "5C"]}
    match = Match.start(game, 7, explicit_chance=explicit, stack=stack)
    before = match.state
    after = match.play(game.legal_actions(before)[0])
    assert after.rng == before.rng  # so only the twin test can tell
    assert after.drawn == cardcrawl.Card.parse("QS")
    assert match.history[-1].revealed
    with pytest.raises(UndoError):
        match.undo()
    # The record keeps the stacked start, so it replays to the same match.
    record = match.to_record()
    assert record.stack == {"narrative": ("KS", "QS", "5C")}
    assert Match.from_record(cardcrawl.Record.from_json(record.to_json())).state == match.state


@given(seeds, st.booleans(), st.data())
def test_revealed_is_exactly_what_chance_showed(
    seed: int, explicit: bool, data: st.DataObject
) -> None:
    """An entry is marked revealed exactly when the player saw a card drawn or turned
    (M-9, M-13, M-15) in its step, or it is a chance outcome of explicit play."""
    match = Match.start(GAME_OBJ, seed, explicit_chance=explicit)
    play_randomly(match, data, 80)
    for entry in match.history:
        if explicit and entry.player == CHANCE:
            assert entry.revealed
        elif explicit:
            # Without a stack, explicit play resolves by itself only certain outcomes
            # (the last card of a deck), which reveal nothing.
            assert not entry.revealed, entry
        else:
            assert entry.revealed == drawn_something(entry.state), entry


@given(seeds, st.data())
def test_fair_undo_never_hides_a_revealed_card(seed: int, data: st.DataObject) -> None:
    """Whatever mix of plays, undos and redos: once chance has shown something, every
    later history still starts with the step that showed it."""
    game = GAME_OBJ
    match = Match.start(game, seed)
    shown: tuple[Any, ...] = ()
    for _ in range(60):
        op = data.draw(st.sampled_from(["play", "play", "undo", "redo"]))
        if op == "play" and not game.is_terminal(match.state):
            match.play(data.draw(st.sampled_from(game.legal_actions(match.state))))
        elif op == "undo":
            if match.can_undo:
                match.undo()
            else:
                with pytest.raises(UndoError):
                    match.undo()
        elif op == "redo" and match.can_redo:
            match.redo()
        history = match.history
        assert history[: len(shown)] == shown
        revealed = [i for i, e in enumerate(history) if e.revealed]
        if revealed:
            shown = history[: revealed[-1] + 1]


# -------------------------------------------------------------- records
@pytest.mark.parametrize("explicit", [False, True])
def test_record_round_trip_through_json(explicit: bool) -> None:
    game = GAME_OBJ
    match = first_actions(game, 12, 40, explicit_chance=explicit)
    record = match.to_record()
    assert record.explicit_chance is explicit
    assert record.actions == tuple(game.format_action(a) for a in match.actions)
    assert any(a.startswith("draw ") for a in record.actions) is explicit
    loaded = Match.from_record(cardcrawl.Record.from_json(record.to_json()))
    assert loaded.states == match.states
    assert loaded.actions == match.actions
    assert [(e.player, e.revealed) for e in loaded.history] == [
        (e.player, e.revealed) for e in match.history
    ]
    assert loaded.to_record() == record
    assert loaded.game == game


def test_from_record_keeps_fair_undo_choice() -> None:
    record = first_actions(GAME_OBJ, 12, 5).to_record()
    assert not Match.from_record(record).can_undo
    assert Match.from_record(record, fair_undo=False).can_undo


def test_an_edited_record_names_the_first_bad_entry() -> None:
    data = json.loads(first_actions(GAME_OBJ, 9, 20).to_record().to_json())
    data["actions"][7] = "place 99,99"
    data["actions"][12] = "nonsense"
    with pytest.raises(RecordError, match=r"entry 7 \('place 99,99'\)"):
        Match.from_record(cardcrawl.Record.from_data(data))


def test_a_record_cut_inside_an_action_names_that_entry() -> None:
    data = first_actions(GAME_OBJ, 9, 6).to_record().to_data()
    data["actions"][5] = data["actions"][5][:-2]
    with pytest.raises(RecordError, match="entry 5"):
        Match.from_record(cardcrawl.Record.from_data(data))


def test_an_explicit_record_missing_a_chance_outcome_names_the_entry() -> None:
    record = first_actions(GAME_OBJ, 9, 8, explicit_chance=True).to_record()
    draws = [i for i, a in enumerate(record.actions) if a.startswith("draw ")]
    cut = draws[0]
    broken = attrs.evolve(record, actions=record.actions[:cut] + record.actions[cut + 1 :])
    with pytest.raises(RecordError, match=f"entry {cut} "):
        Match.from_record(broken)


def test_a_truncated_record_is_refused_by_its_claims() -> None:
    match = first_actions(GAME_OBJ, 9, 10)
    record = match.to_record()
    short = attrs.evolve(record, actions=record.actions[:4])
    with pytest.raises(RecordError, match=r"claims 10 actions.*cut short"):
        Match.from_record(short)
    # Without its claims (format 1), it is an earlier point of the same game.
    unclaimed = attrs.evolve(short, claims=None)
    assert Match.from_record(unclaimed).states == match.states[:5]


def test_a_record_from_another_rules_version_says_so() -> None:
    record = first_actions(GAME_OBJ, 9, 3).to_record()
    other = attrs.evolve(record, rules_version="0-old")
    with pytest.raises(RecordError) as caught:
        Match.from_record(other)
    message = str(caught.value)
    assert "'0-old'" in message
    assert repr(GAME_OBJ.rules_version) in message
    # Saved and loaded as JSON, the version survives and still refuses to replay.
    with pytest.raises(RecordError, match="rules version"):
        Match.from_record(cardcrawl.Record.from_json(other.to_json()))


def test_a_record_of_an_unknown_game_fails_to_load() -> None:
    record = attrs.evolve(first_actions(GAME_OBJ, 9, 1).to_record(), game="no-such-game")
    with pytest.raises(RecordError, match="no-such-game"):
        Match.from_record(record)


# ---------------------------------------------------------- showing it
def test_repr_svg_draws_the_current_state_and_repr_is_short() -> None:
    match = first_actions(GAME_OBJ, 9, 3)
    assert match._repr_svg_() == cardcrawl.svg(match.game, match.state).text
    assert repr(match) == "<Match of mapless-house seed=9: 3 actions>"
    match = first_actions(GAME_OBJ, 1, 19)
    match.play(match.game.legal_actions(match.state)[0])
    match.undo()
    assert repr(match) == "<Match of mapless-house seed=1: 19 actions, 1 to redo>"


# ------------------------------------------------------ any game, Haydes
@given(seeds, st.integers(1, 4), st.booleans(), st.data())
def test_matches_of_escape_from_haydes(
    seed: int, players: int, explicit: bool, data: st.DataObject
) -> None:
    """Written against the protocol alone, a match of Haydes marks as revealed exactly
    the steps that drew the first player (H-5), turned a card (H-6) or rolled (H-8),
    and its record replays it."""
    game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=10)
    match = Match.start(game, seed, explicit_chance=explicit)
    play_randomly(match, data, 150)
    chance = (Revealed, Rolled, FirstPlayerDrawn)
    for entry in match.history:
        shown = any(isinstance(e, chance) for e in entry.events)
        if explicit:
            assert entry.revealed == (entry.player == CHANCE)
        else:
            assert entry.revealed == shown, entry
    again = Match.from_record(cardcrawl.Record.from_json(match.to_record().to_json()))
    assert again.states == match.states
    assert [e.revealed for e in again.history] == [e.revealed for e in match.history]


def test_to_html_passes_the_seat_through_to_replay_html() -> None:
    """``Match.to_html(seat=N)`` is ``replay_html(match, seat=N)``: the seat's view hides
    what the seat may not know (in Haydes, the seed), and a seat the game lacks is refused."""
    match = first_actions(cardcrawl.load("escape-from-haydes", players=2), 3, 4)
    for seat in (None, 0, 1):
        assert match.to_html(seat=seat) == cardcrawl.replay_html(match, seat=seat)
    assert match.to_html(seat=1) != match.to_html()
    assert match.to_html(step=2, seat=0) == cardcrawl.replay_html(match, step=2, seat=0)
    with pytest.raises(cardcrawl.OptionsError):
        match.to_html(seat=2)
