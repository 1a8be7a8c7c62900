"""The working interface (cardcrawl.working_for): each game's rules played in place on
its working position, the games of the public path."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import IllegalActionError, OptionsError, StateWorking, Working, working_for
from cardcrawl.haydes import EscapeFromHaydes, Guess

GAMES = (
    ("escape-from-haydes", {"max_rounds": 40}),
    ("escape-from-haydes", {"players": 3, "max_rounds": 30, "tuybe": True}),
    ("mapless-house", {"max_turns": 60}),
)


def _play_both(game: Any, working: Working, seed: int, choose: random.Random) -> int:
    """Play one game on a working position and on states side by side, checking that
    they agree at every decision; the decisions played."""
    position = working.begin(seed)
    state = game.initial_state(seed)
    decisions = 0
    while True:
        assert working.legal(position) == game.legal_actions(state)
        assert working.is_over(position) == game.is_terminal(state)
        if working.events or choose.random() < 0.2:
            frozen = working.freeze(position)
            if working.events:
                assert frozen == state
            else:
                assert frozen.events == ()
                assert _without_events(game, frozen) == _without_events(game, state)
        if game.is_terminal(state):
            break
        action = choose.choice(game.legal_actions(state))
        working.advance(position, action)
        state = game.step(state, action)
        decisions += 1
    assert working.outcome(position) == game.outcome(state)
    return decisions


def _without_events(game: Any, state: Any) -> Any:
    data = game.state_to_data(state)
    del data["state"]["events"]
    return data


@pytest.mark.parametrize(("name", "options"), GAMES)
@given(seed=st.integers(0, 2**64 - 1), events=st.booleans())
def test_a_working_position_plays_the_games_of_the_public_path(
    name: str, options: dict[str, Any], seed: int, events: bool
) -> None:
    """Same seed, same decisions: the same legal actions, states (with their events when
    kept) and outcome, whatever the game."""
    game = cardcrawl.load(name, **options)
    working = working_for(game, events=events)
    assert isinstance(working, Working)
    assert not isinstance(working, StateWorking)
    _play_both(game, working, seed, random.Random(seed))


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_frozen_state_never_changes_as_its_position_plays_on(
    name: str, options: dict[str, Any]
) -> None:
    game = cardcrawl.load(name, **options)
    working = working_for(game, events=True)
    choose = random.Random(1)
    position = working.begin(11)
    kept = []
    while not working.is_over(position):
        state = working.freeze(position)
        kept.append((state, game.state_to_data(state)))
        working.advance(position, choose.choice(working.legal(position)))
    for state, data in kept:
        assert game.state_to_data(state) == data


def test_a_stacked_start_is_the_public_one() -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=20)
    working = working_for(game, events=True)
    stack = {"build": ["5S", "KH"], "first_player": [0]}
    assert working.freeze(working.begin(3, stack)) == game.initial_state(3, stack=stack)
    house = cardcrawl.load("mapless-house")
    working = working_for(house, events=True)
    stack = {"narrative": ["KS"]}
    assert working.freeze(working.begin(3, stack)) == house.initial_state(3, stack=stack)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_bad_input_gets_typed_errors_and_changes_nothing(
    name: str, options: dict[str, Any]
) -> None:
    game = cardcrawl.load(name, **options)
    working = working_for(game, events=True)
    with pytest.raises(OptionsError, match="seed"):
        working.begin(-1)
    with pytest.raises(cardcrawl.StackError):
        working.begin(1, {"no such deck": ["KS"]})
    position = working.begin(2)
    before = working.freeze(position)
    for bad in ("end", None, object(), game.legal_actions(before)[0].__class__):
        with pytest.raises(IllegalActionError):
            working.advance(position, bad)
    assert working.freeze(position) == before
    with pytest.raises(OptionsError, match="events"):
        working_for(game, events=1)  # type: ignore[arg-type]


def test_an_equal_action_that_is_another_object_is_legal_too() -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=20)
    working = working_for(game, events=True)
    position = working.begin(4)
    action = game.parse_action(game.format_action(working.legal(position)[0]))
    working.advance(position, action)
    state = game.initial_state(4)
    assert working.freeze(position) == game.step(state, game.legal_actions(state)[0])


class Generous(EscapeFromHaydes):
    """Every guess is right (H-7 changed): a hook whose answer differs."""

    rules_version = f"{EscapeFromHaydes.rules_version}-generous.1"

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        return True


def test_a_variants_hooks_are_honoured_by_its_working_positions() -> None:
    """The variant's working positions play the variant's games, not the stock ones."""
    variant = Generous(cardcrawl.load("escape-from-haydes", max_rounds=30).options)
    stock = cardcrawl.load("escape-from-haydes", max_rounds=30)
    working = working_for(variant, events=True)
    assert type(working).__name__ == "HaydesWorking"
    differ = 0
    for seed in range(6):
        _play_both(variant, working, seed, random.Random(seed))
        position, state = working.begin(seed), stock.initial_state(seed)
        choose = random.Random(seed)
        while not working.is_over(position) and not stock.is_terminal(state):
            legal = working.legal(position)
            if legal != stock.legal_actions(state):
                break
            action = choose.choice(legal)
            working.advance(position, action)
            state = stock.step(state, action)
        differ += working.freeze(position) != state
    assert differ > 0


def test_a_game_without_its_own_gets_the_public_api() -> None:
    """A plug-in game that declares no working interface is played through ``step``."""
    import twentyone

    twentyone.register()
    game = cardcrawl.load(twentyone.NAME)
    working = working_for(game)
    assert type(working) is StateWorking
    _play_both(game, working, 5, random.Random(5))


@pytest.mark.parametrize(("name", "options"), GAMES)
@given(seed=st.integers(0, 2**64 - 1), events=st.booleans())
def test_a_numbering_lists_the_encodings_numbers_and_plays_the_same_games(
    name: str, options: dict[str, Any], seed: int, events: bool
) -> None:
    # A game's numbering (what a batch writes its masks from and plays by) gives, at
    # every decision, the encoding's numbers of the legal actions in their order, and
    # the decision played by a number's code is the one the action plays.
    from cardcrawl.encoding import encoding_for

    game = cardcrawl.load(name, **options)
    encoding = encoding_for(game)
    working = working_for(game, events=events)
    numbering = working.numbering(encoding)  # type: ignore[attr-defined]
    numbered, position = working.begin(seed), working.begin(seed)
    choose = random.Random(seed)
    while not working.is_over(position):
        legal = working.legal(position)
        numbers, codes = numbering.numbers(numbered)
        assert list(numbers) == [encoding.encode_action(a) for a in legal]
        k = choose.randrange(len(legal))
        numbering.play(numbered, codes[numbers[k]])
        working.advance(position, legal[k])
        assert working.freeze(numbered) == working.freeze(position)
    assert working.is_over(numbered)
    assert working.outcome(numbered) == working.outcome(position)


def test_a_numbering_is_only_the_games_own_encodings() -> None:
    # The Mapless numbering reads the stock encoding's table: any other encoding gets
    # the batch's generic numbering instead.
    from cardcrawl.encoding import encoding_for
    from cardcrawl.mapless._encoding import MaplessEncoding

    game = cardcrawl.load("mapless-house")
    working = working_for(game)
    other = type("OtherEncoding", (MaplessEncoding,), {})(game)
    assert working.numbering(encoding_for(game)) is not None  # type: ignore[attr-defined]
    assert working.numbering(other) is None  # type: ignore[attr-defined]
