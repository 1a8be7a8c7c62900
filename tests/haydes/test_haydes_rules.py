"""Pure rule functions, actions and the creature tables of Escape from Haydes."""

from __future__ import annotations

import pytest

from cardcrawl import Card, ParseError
from cardcrawl.haydes import (
    DENIZENS,
    STANDARD_CREATURES,
    Characteristic,
    Choose,
    EndTurn,
    FirstPlayer,
    Guess,
    Move,
    Reveal,
    Roll,
    Step,
    Tuybe,
    card_value,
    creature_for,
    guess_is_correct,
    is_court,
    next_seat,
    parse_action,
)
from cardcrawl.haydes._rules import ROLL_WEIGHTS

ACTIONS = [
    Move((1, 0), Guess.HIGHER),
    Move((-1, 0), Guess.LOWER),
    Step((0, 1)),
    Tuybe((0, 2), Guess.LOWER),
    EndTurn(),
    Choose(Characteristic.CHARISMA),
    Choose(Characteristic.ENDURANCE),
    FirstPlayer(3),
    Reveal(Card.parse("10H")),
    Reveal(Card.RED_JOKER),
    Roll(12),
]


def test_card_values() -> None:
    """H-1: ace 1, 2-10 face value, J 11, Q 12, K 13, jokers 0."""
    assert [card_value(Card.parse(c)) for c in ("AS", "2H", "10D", "JC", "QS", "KH")] == [
        1, 2, 10, 11, 12, 13,
    ]  # fmt: skip
    assert card_value(Card.RED_JOKER) == card_value(Card.BLACK_JOKER) == 0
    assert [is_court(Card.parse(c)) for c in ("10S", "JS", "KD", "RJ")] == [
        False, True, True, False,
    ]  # fmt: skip


@pytest.mark.parametrize("a", range(14))
@pytest.mark.parametrize("b", range(14))
def test_equal_is_never_correct(a: int, b: int) -> None:
    """H-7: correct means strictly higher or strictly lower."""
    assert guess_is_correct(Guess.HIGHER, a, b) == (b > a)
    assert guess_is_correct(Guess.LOWER, a, b) == (b < a)


def test_two_dice() -> None:
    assert sum(w for _, w in ROLL_WEIGHTS) == 36
    assert dict(ROLL_WEIGHTS)[7] == 6
    assert dict(ROLL_WEIGHTS)[2] == dict(ROLL_WEIGHTS)[12] == 1


def test_turn_order_skips_players_who_are_out_and_counts_rounds() -> None:
    """H-5, H-13: seat order from the first player, rounds of one turn per player in."""
    everyone = (True, True, True, True)
    assert next_seat(2, 2, everyone) == (3, False)
    assert next_seat(3, 2, everyone) == (0, False)
    assert next_seat(1, 2, everyone) == (2, True)
    # Seat 2 (the first player) is out: the round now starts with seat 3.
    out_first = (True, True, False, True)
    assert next_seat(1, 2, out_first) == (3, True)
    assert next_seat(3, 2, out_first) == (0, False)
    assert next_seat(0, 0, (False, False)) is None


def test_actions_round_trip_through_text_and_repr() -> None:
    for action in ACTIONS:
        assert parse_action(str(action)) == action
        assert eval(repr(action)) == action  # repr is valid Python
    assert parse_action("  TUYBE Higher 3,-2 ") == Tuybe((3, -2), Guess.HIGHER)


def test_actions_have_one_total_order() -> None:
    shuffled = ACTIONS[::-1]
    assert sorted(shuffled) == sorted(ACTIONS)
    assert sorted([EndTurn(), Step((0, 0)), Move((5, 5), Guess.LOWER)]) == [
        Move((5, 5), Guess.LOWER), Step((0, 0)), EndTurn(),
    ]  # fmt: skip
    assert len({*ACTIONS, *ACTIONS}) == len(ACTIONS)
    assert Move((1, 0), Guess.HIGHER) != Tuybe((1, 0), Guess.HIGHER)


@pytest.mark.parametrize("text", ["", "move 1,0", "higher 1", "higher a,b", "roll", "tuybe 1,0"])
def test_malformed_actions(text: str) -> None:
    with pytest.raises(ParseError, match="not an action of Escape from Haydes"):
        parse_action(text)


def test_creature_tables() -> None:
    queen = Card.parse("QD")
    assert creature_for(STANDARD_CREATURES, queen) == STANDARD_CREATURES["Q"]
    assert creature_for(DENIZENS, queen).allowed == (Characteristic.CHARISMA,)
    assert creature_for(DENIZENS, Card.parse("KH")).cost == 2
    assert creature_for(DENIZENS, Card.parse("KC")).modifier == 1
    assert creature_for(DENIZENS, Card.parse("JS")).modifier == -1
    assert creature_for(DENIZENS, Card.RED_JOKER) is None
