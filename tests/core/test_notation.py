"""The generic side of position notations: GameBase.notation, position and their
observation forms, for a game with none and for a toy game that declares one."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from twentyone import SPADES, TwentyOne, TwentyOneObservation, TwentyOneState

import cardcrawl
from cardcrawl import Card, Deck
from cardcrawl.core._notation import (
    cards_text,
    parse_cards_field,
    parse_fields,
    parse_rng_field,
    rng_text,
)
from cardcrawl.errors import NotationError


class TwentyOneNotation:
    """``HAND phase=P rng=HEX``: the hand, the phase and the generator; the deck is every
    spade not in the hand."""

    def write(self, game: Any, state: TwentyOneState) -> str:
        return f"{cards_text(state.hand)} phase={state.phase} rng={rng_text(state.rng)}"

    def read(self, game: Any, text: str) -> TwentyOneState:
        first, fields, _ = parse_fields(text, ("phase", "rng"), (), what="a position")
        hand = parse_cards_field("hand", first)
        deck = Deck.of(c for c in SPADES if c not in hand)
        rng = parse_rng_field("rng", fields.get("rng", ""))
        return TwentyOneState(fields.get("phase", ""), deck, hand, rng, False, ())

    def write_observation(self, game: Any, observation: TwentyOneObservation) -> str:
        return f"{cards_text(observation.hand)} phase={observation.phase}"

    def read_observation(self, game: Any, text: str) -> TwentyOneObservation:
        state = self.read(game, f"{text} rng={rng_text(0)}")
        return game.observe(state, 0)  # type: ignore[no-any-return]

    def field_of(self, problem: str) -> str:
        return "hand" if "cards once" in problem else ""


class NotedTwentyOne(TwentyOne):
    notation_format = TwentyOneNotation()

    def state_problems(self, state: TwentyOneState) -> list[str]:
        problems = self.census_problems(state, SPADES)
        if state.phase not in ("decide", "draw", "over"):
            problems.append(f"{state.phase!r} is no phase")
        return problems


def test_a_game_without_a_notation_says_so() -> None:
    game = TwentyOne()
    state = game.initial_state(seed=1)
    for call, argument in [
        (game.notation, state),
        (game.position, "KS phase=decide"),
        (game.observation_notation, game.observe(state, 0)),
        (game.observation_position, "KS"),
    ]:
        with pytest.raises(NotationError, match="has no position notation") as caught:
            call(argument)
        assert caught.value.field == ""


def test_a_game_declares_its_notation_with_one_class_attribute() -> None:
    game = NotedTwentyOne()
    state = game.initial_state(seed=3)
    state = game.step(state, game.legal_actions(state)[0])  # hit: a card is drawn
    text = game.notation(state)
    assert text.startswith(state.hand[0].code)
    assert game.position(text) == attrs.evolve(state, events=())
    seen = game.observe(state, 0)
    assert game.observation_position(game.observation_notation(seen)) == attrs.evolve(
        seen, events=()
    )


def test_position_validates_what_it_reads_and_names_the_field() -> None:
    game = NotedTwentyOne()
    # A problem that field_of does not place names no field.
    message = r"^not a legal position: 'jump' is no phase"
    with pytest.raises(NotationError, match=message) as caught:
        game.position(f"KS phase=jump rng={rng_text(1)}")
    assert caught.value.field == ""
    # The same card twice breaks the census; field_of blames the hand.
    with pytest.raises(NotationError, match=r"^hand: not a legal position: it does not hold"):
        game.position(f"KS,KS phase=decide rng={rng_text(1)}")
    # A malformed field is named before anything is built.
    with pytest.raises(NotationError, match=r"^rng: ") as caught:
        game.position("KS phase=decide rng=12")
    assert caught.value.field == "rng"


def test_the_shared_pieces_read_what_they_write() -> None:
    cards = (Card.parse("10H"), Card.parse("AS"))
    assert parse_cards_field("held", cards_text(cards)) == cards
    assert parse_cards_field("held", cards_text(())) == ()
    assert parse_rng_field("rng", rng_text(2**64 - 1)) == 2**64 - 1
    with pytest.raises(NotationError, match=r"^held: '1X' is not a card code") as caught:
        parse_cards_field("held", "KS,1X")
    assert caught.value.field == "held"


def test_every_stock_game_with_a_notation_round_trips_its_start() -> None:
    for name in ("mapless-house", "escape-from-haydes"):
        game = cardcrawl.load(name)
        if game.notation_format is None:
            continue
        state = game.initial_state(seed=2)
        assert game.position(game.notation(state)) == attrs.evolve(state, events=())
