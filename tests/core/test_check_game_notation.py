"""``check_game`` reads every state it visits back from its position notation, and the
observation of the player to move from its own: a game whose notation loses something
(here the toy Twenty-one's, broken on purpose) fails with a ``ConformanceError``; a
game without a notation skips the check."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from twentyone import SPADES, TwentyOne, TwentyOneObservation, TwentyOneState

import cardcrawl
from cardcrawl import Deck
from cardcrawl.core._notation import (
    cards_text,
    fail,
    parse_cards_field,
    parse_fields,
    parse_rng_field,
    rng_text,
)
from cardcrawl.errors import ConformanceError
from cardcrawl.testing import check_game, check_state


class Notation:
    """``HAND phase=P rng=HEX [explicit_chance]``; the deck is every spade not in hand."""

    def write(self, game: Any, state: TwentyOneState) -> str:
        flag = " explicit_chance" if state.explicit_chance else ""
        return f"{cards_text(state.hand)} phase={state.phase} rng={rng_text(state.rng)}{flag}"

    def read(self, game: Any, text: str) -> TwentyOneState:
        first, fields, flags = parse_fields(
            text, ("phase", "rng"), ("explicit_chance",), what="a position"
        )
        hand = parse_cards_field("hand", first)
        deck = Deck.of(c for c in SPADES if c not in hand)
        rng = parse_rng_field("rng", fields.get("rng", ""))
        explicit = "explicit_chance" in flags
        return TwentyOneState(fields.get("phase", ""), deck, hand, rng, explicit, ())

    def write_observation(self, game: Any, observation: TwentyOneObservation) -> str:
        return f"{cards_text(observation.hand)} phase={observation.phase}"

    def read_observation(self, game: Any, text: str) -> TwentyOneObservation:
        return game.observe(self.read(game, f"{text} rng={rng_text(0)}"), 0)  # type: ignore[no-any-return]

    def field_of(self, problem: str) -> str:
        return "hand" if "cards once" in problem else ""


class Noted(TwentyOne):
    notation_format = Notation()

    def state_problems(self, state: TwentyOneState) -> list[str]:
        problems = self.census_problems(state, SPADES)
        if state.phase not in ("decide", "draw", "over"):
            problems.append(f"{state.phase!r} is no phase")
        return problems


class ForgetsExplicitChance(Notation):
    def write(self, game: Any, state: TwentyOneState) -> str:
        return super().write(game, attrs.evolve(state, explicit_chance=False))


class ForgetsTheGenerator(Notation):
    def write(self, game: Any, state: TwentyOneState) -> str:
        return super().write(game, attrs.evolve(state, rng=0))


class RefusesItsOwnText(Notation):
    def read(self, game: Any, text: str) -> TwentyOneState:
        if "phase=over" in text:
            raise fail("phase", "'over' is not a phase this reader knows")
        return super().read(game, text)


class LosesTheObservedHand(Notation):
    def write_observation(self, game: Any, observation: TwentyOneObservation) -> str:
        return f"- phase={observation.phase}"


def noted(notation: Notation) -> Noted:
    """A Noted game whose notation is ``notation``."""
    kind = type(f"Noted{type(notation).__name__}", (Noted,), {"notation_format": notation})
    game: Noted = kind()
    return game


def test_a_sound_notation_passes_and_a_game_without_one_skips_the_check() -> None:
    report = check_game(noted(Notation()), games=3)
    assert report.games == 6
    assert check_game(TwentyOne(), games=1).games == 2


@pytest.mark.parametrize(
    ("notation", "explicit", "message"),
    [
        (ForgetsExplicitChance(), True, "does not survive its position notation"),
        (ForgetsTheGenerator(), False, "does not survive its position notation"),
        (RefusesItsOwnText(), False, "position refuses the notation of a state of play"),
        (LosesTheObservedHand(), False, "player 0's observation does not survive"),
    ],
)
def test_a_broken_notation_is_caught(notation: Notation, explicit: bool, message: str) -> None:
    with pytest.raises(ConformanceError, match=message) as caught:
        check_game(noted(notation), games=3, explicit_chance=(explicit,))
    assert f"seed 0 ({'explicit' if explicit else 'sampled'} chance), step " in str(caught.value)


def test_check_state_reads_the_state_back_events_aside() -> None:
    """A state with events (a card just drawn) passes: the notation leaves them out."""
    game = noted(Notation())
    state = game.step(game.initial_state(seed=2), game.legal_actions(game.initial_state(2))[0])
    assert state.events
    check_state(game, state)
    with pytest.raises(ConformanceError, match="does not survive its position notation"):
        check_state(noted(ForgetsTheGenerator()), state)


def test_the_stock_games_notations_pass() -> None:
    for game in (
        cardcrawl.load("mapless-house", max_turns=30),
        cardcrawl.load("escape-from-haydes", players=3, max_rounds=3),
    ):
        assert check_game(game, games=1).games == 2
