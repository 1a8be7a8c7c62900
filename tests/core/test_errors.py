"""Errors: one typed hierarchy, illegal actions that explain themselves and change nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import (
    ActionError,
    CardcrawlError,
    IllegalActionError,
    OptionsError,
    ParseError,
    PlayerError,
    RecordError,
    SerializationError,
    StackError,
    UnknownGameError,
)
from cardcrawl.mapless import Draw, MaplessState, Move, Phase, Place, PlaceExit, parse_action
from strategies import mapless, play, seeds, stacked

GAME = mapless()


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (ActionError, TypeError),
        (ActionError, ValueError),
        (IllegalActionError, ValueError),
        (OptionsError, ValueError),
        (ParseError, ValueError),
        (PlayerError, ValueError),
        (RecordError, ValueError),
        (SerializationError, ValueError),
        (StackError, ValueError),
        (UnknownGameError, LookupError),
    ],
)
def test_every_error_is_a_cardcrawl_error_and_a_builtin(error: type, builtin: type) -> None:
    assert issubclass(error, CardcrawlError)
    assert issubclass(error, builtin)


def move_state() -> MaplessState:
    """The opening Move of the line house: one legal action, Move((1, 0))."""
    line = "KS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AH"
    decisions = [f"place {x},0" for x in range(1, 25)] + ["exit 25,0"]
    return stacked(GAME, {"narrative": line}, decisions)


def test_an_illegal_action_error_carries_and_names_everything() -> None:
    state = move_state()
    action = Move((0, 1))
    with pytest.raises(IllegalActionError) as caught:
        GAME.step(state, action)
    error = caught.value
    assert error.state is state
    assert error.action == action
    assert error.legal == (Move((1, 0)),)
    assert error.decision == "the player to move to a touching card (move X,Y)"
    assert error.reason == "it is not one of the legal actions"
    assert str(error) == (
        "illegal action move 0,1: it is not one of the legal actions. The state is waiting "
        "for the player to move to a touching card (move X,Y); legal actions: move 1,0"
    )
    assert not GAME.is_legal(state, action)
    assert GAME.is_legal(state, Move((1, 0)))


@pytest.mark.parametrize(
    "action", [Place((1, 0)), PlaceExit((25, 0)), Draw(cardcrawl.Card.parse("2H"))]
)
def test_an_action_of_the_wrong_kind_is_illegal(action: object) -> None:
    state = move_state()
    with pytest.raises(IllegalActionError, match=f"illegal action {action}: it is not one of"):
        GAME.check(state, action)


@pytest.mark.parametrize(
    "thing", [object(), "move 1,0", None, (1, 0)], ids=lambda thing: type(thing).__name__
)
def test_something_that_is_no_action_is_illegal_and_says_so(thing: object) -> None:
    with pytest.raises(IllegalActionError, match="is not an action of mapless-house") as caught:
        GAME.step(move_state(), thing)
    assert caught.value.legal == (Move((1, 0)),)


def test_the_legal_list_in_the_message_is_cut_at_twelve() -> None:
    rooms = {"narrative": "JS QS KS JC QC KC"}  # five rooms in a row, then a sixth
    state = stacked(GAME, rooms, [f"place {x},0" for x in range(1, 6)])
    legal = GAME.legal_actions(state)
    assert len(legal) == 14
    with pytest.raises(IllegalActionError, match=rf"\.\.\. \({len(legal)} in all\)$"):
        GAME.step(state, Place((50, 50)))


def test_nothing_is_legal_once_the_game_is_over() -> None:
    state = move_state()
    while not GAME.is_terminal(state):
        state = GAME.step(state, GAME.legal_actions(state)[0])
    with pytest.raises(IllegalActionError, match="the game is over") as caught:
        GAME.step(state, Move((1, 0)))
    assert (caught.value.decision, caught.value.legal) == ("nothing", ())
    assert "legal actions: none" in str(caught.value)


def test_an_impossible_chance_outcome_is_illegal() -> None:
    state = GAME.initial_state(0, explicit_chance=True)
    assert state.phase is Phase.DRAW
    with pytest.raises(IllegalActionError, match="not a possible outcome") as caught:
        GAME.step(state, Draw(cardcrawl.Card.parse("2H")))  # a Mind card from the Narrative
    assert len(caught.value.legal) == 24  # the ♥A cannot come this early (M-10)
    assert caught.value.decision == "the chance draw of the top Narrative card"
    with pytest.raises(IllegalActionError, match="not a possible outcome"):
        GAME.step(state, Move((1, 0)))


@given(seed=seeds, data=st.data(), x=st.integers(-30, 30), y=st.integers(-30, 30))
def test_an_illegal_step_changes_nothing(seed: int, data: st.DataObject, x: int, y: int) -> None:
    """Whatever the state, an illegal action raises IllegalActionError listing the legal
    actions, and the state is exactly as it was (saved data and equality)."""
    game = play(mapless(15), seed, data)
    index = data.draw(st.integers(0, len(game.states) - 1))
    state = game.states[index]
    copy = GAME.state_from_data(GAME.state_to_data(state))
    before = GAME.state_to_data(state)
    for action in (Place((x, y)), PlaceExit((x, y)), Move((x, y)), object()):
        if GAME.is_legal(state, action):
            continue
        with pytest.raises(IllegalActionError) as caught:
            GAME.step(state, action)
        assert caught.value.legal == GAME.legal_actions(state)
        assert caught.value.state is state
        assert GAME.state_to_data(state) == before
        assert state == copy


@pytest.mark.parametrize("player", [1, -1, 2])
def test_a_seat_that_does_not_exist_is_a_player_error(player: int) -> None:
    state = GAME.initial_state(0)
    with pytest.raises(PlayerError, match=f"one player, 0; not {player}"):
        GAME.observe(state, player)
    with pytest.raises(PlayerError):
        GAME.determinize(state, player, seed=1)
    assert GAME.observe(state, 0).table == state.table


@pytest.mark.parametrize(
    ("stack", "message"),
    [
        ({"discard": ["KS"]}, "no chance source"),
        ({"mind": ["KS"]}, "does not hold"),
        ({"narrative": ["KS", "KS"]}, "not that many times"),
        ({"narrative": ["ZZ"]}, "'ZZ' is not a card"),
        ({"body": 5}, r"stack\['body'\]"),
    ],
)
def test_a_bad_stack_is_a_stack_error(stack: dict[str, object], message: str) -> None:
    with pytest.raises(StackError, match=message):
        GAME.initial_state(0, stack=stack)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, "1", None])
def test_a_bad_seed_is_an_options_error(seed: object) -> None:
    with pytest.raises(OptionsError, match="a seed is an integer"):
        GAME.initial_state(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", ["", "move", "move 1", "move a,b", "walk 1,0", "place 1,2,3", "draw", "draw ZZ", 5]
)
def test_text_that_names_no_action_is_a_parse_error(text: object) -> None:
    with pytest.raises(ParseError):
        GAME.parse_action(text)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        parse_action(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("stack", [["narrative"], 5], ids=repr)
def test_a_stack_that_is_not_a_mapping_is_a_stack_error(stack: object) -> None:
    with pytest.raises(StackError):
        GAME.initial_state(0, stack=stack)  # type: ignore[arg-type]
