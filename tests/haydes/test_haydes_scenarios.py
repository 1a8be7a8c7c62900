"""Stacked scenarios of Escape from Haydes, played step by step with explicit chance.

In explicit-chance play the state stops at every chance event and the test chooses the
outcome ("reveal KS", "roll 12"); outcomes that are certain (a stacked card, a forced
roll, the only player) are applied on their own.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl import Card, Deck, IllegalActionError, StackError
from cardcrawl.haydes import (
    AllTrapped,
    AlmostThere,
    Belief,
    CardsReplaced,
    Characteristic,
    EncounterBegan,
    Ending,
    Escaped,
    EscapeFromHaydes,
    Figure,
    HaydesState,
    Held,
    JokerShuffledIn,
    Mix,
    Overcame,
    Phase,
    Released,
    ReplacementReshuffled,
    Reveal,
    Revealed,
    Trapped,
    TurnedFaceDown,
    TurnStarted,
    Tuybe,
)
from cardcrawl.haydes._unseen import reveal_chances
from cardcrawl.testing import check_state

RJ = Card.RED_JOKER


def load(**options: Any) -> EscapeFromHaydes:
    game: EscapeFromHaydes = cardcrawl.load("escape-from-haydes", **options)
    return game


def start(game: EscapeFromHaydes, **stack: Any) -> HaydesState:
    state: HaydesState = game.initial_state(0, explicit_chance=True, stack=stack)
    return state


def run(game: EscapeFromHaydes, state: HaydesState, *texts: str) -> HaydesState:
    """Step through each action or chance outcome given as text; check every state."""
    for text in texts:
        state = game.step(state, game.parse_action(text))
        check_state(game, state, text)
    return state


def kinds(state: HaydesState) -> list[str]:
    return [type(e).__name__ for e in state.events]


def chances(game: EscapeFromHaydes, state: HaydesState) -> dict[str, Fraction]:
    return {str(a): p for a, p in game.chance_outcomes(state)}


# ------------------------------------------------------------------ the deal
def test_the_first_card_turned_is_any_unseen_build_card() -> None:
    """H-3, H-4: the lazy deal turns each face-down card uniformly from the unseen pool."""
    game = load()
    state = run(game, start(game), "higher 1,0")
    assert game.current_player(state) == cardcrawl.CHANCE
    odds = chances(game, state)
    assert len(odds) == 53  # 52 cards, two of each, and the Red Joker
    assert odds["reveal RJ"] == Fraction(1, 105)
    assert odds["reveal 5S"] == Fraction(2, 105)


def test_stacks_are_validated() -> None:
    game = load(players=2)
    with pytest.raises(StackError, match="no chance source"):
        game.initial_state(0, stack={"narrative": ["5S"]})
    with pytest.raises(StackError, match="which the build deck does not hold"):
        game.initial_state(0, stack={"build": ["RJ", "RJ"]})
    with pytest.raises(StackError, match="2D6 totals from 2 to 12"):
        game.initial_state(0, stack={"rolls": [13]})
    with pytest.raises(StackError, match="one seat from 0 to 1"):
        game.initial_state(0, stack={"first_player": [2]})
    state = game.initial_state(0, stack={"first_player": 1})
    assert state.current == 1


def test_a_wrong_or_equal_guess_ends_the_turn_and_the_card_is_replaced() -> None:
    """H-7, H-12: equal is wrong; the figure still moves; its card is kept."""
    game = load()
    state = run(game, start(game), "higher 1,0", "reveal 5S", "higher 2,0", "reveal 5H")
    assert state.seats[0].cell == (2, 0)
    assert state.round == 2
    assert state.face_up[state.layout.index((1, 0))] is None
    assert state.card_at((2, 0)) == Card.parse("5H")
    assert state.discard == (Card.parse("5S"),)
    assert state.replacement_left == 103
    assert state.pool_of[state.layout.index((1, 0))] == 1  # dealt from the Replacement deck
    replaced = next(e for e in state.events if isinstance(e, CardsReplaced))
    assert replaced.cells == ((1, 0),)


# ---------------------------------------------------------------- creatures
def test_a_rescue_frees_the_held_player() -> None:
    """H-8: another player overcoming the creature frees every figure held there."""
    game = load(players=2)
    state = start(game, first_player=[0])
    state = run(game, state, "higher 1,0", "reveal KS", "charisma", "roll 12")
    assert "Held" in kinds(state)
    assert state.seats[0] == Figure(7, 8, (1, 0))
    assert (state.current, state.phase) == (1, Phase.TURN)
    assert state.card_at((1, 0)) == Card.parse("KS")  # a figure is on it: not replaced

    state = run(game, state, "step 1,0")
    assert isinstance(state.events[-1], EncounterBegan)
    state = run(game, state, "endurance", "roll 2")
    assert Overcame(1, (1, 0), Card.parse("KS")) in state.events
    assert Released((0,), (1, 0)) in state.events
    assert state.phase is Phase.TURN  # H-8: the rescuer may move on

    state = run(game, state, "end")
    # Player 0's turn begins with no encounter: the creature is gone.
    assert (state.current, state.phase, state.round) == (0, Phase.TURN, 2)
    assert "EncounterBegan" not in kinds(state)
    state = run(game, state, "lower 2,0", "reveal 5S", "end")
    # The overcome king stays: player 1 still stands on it.
    assert state.card_at((1, 0)) == Card.parse("KS")
    assert (1, 0) in state.overcome
    state = run(game, state, "step 2,0")  # player 1 steps off; the turn ends
    assert Card.parse("KS") in state.removed  # H-12: an overcome creature leaves the game
    assert (1, 0) not in state.overcome


def test_a_held_player_faces_the_creature_before_anything_else() -> None:
    """H-8: at the start of each later turn, a held player meets the creature again."""
    game = load()
    state = run(game, start(game), "higher 0,1", "reveal QD", "endurance", "roll 11")
    assert kinds(state)[-3:] == ["TurnEnded", "TurnStarted", "EncounterBegan"]
    assert state.phase is Phase.ENCOUNTER
    state = run(game, state, "charisma", "roll 8")  # 8 <= 8: overcome
    assert state.phase is Phase.TURN
    assert state.seats[0] == Figure(7, 7, (0, 1))


def test_overcoming_a_creature_lets_the_player_move_on_after_a_wrong_guess() -> None:
    """H-8: overcome, the player may move on or end the turn, even after a wrong guess."""
    game = load()
    state = run(game, start(game), "lower 1,0", "reveal JC", "charisma", "roll 5")
    assert state.phase is Phase.TURN
    assert "higher 2,0" in [str(a) for a in game.legal_actions(state)]


def test_the_last_player_out_ends_the_game() -> None:
    """H-11: at 0 the player is out; the last one out ends the game with no winner."""
    game = load(splits=[(9, 7)])
    state = start(game, rolls=[12] * 7)
    state = run(game, state, "higher 1,0", "reveal JS", "endurance")
    encounters = 1
    while not game.is_terminal(state):
        state = run(game, state, "endurance")
        encounters += 1
    assert encounters == 7
    assert isinstance(state.events[-1], AllTrapped)
    assert Trapped(0, Characteristic.ENDURANCE) in state.events
    assert state.seats[0] == Figure(9, 0, None)
    outcome = game.outcome(state)
    assert outcome is not None
    assert (outcome.label, outcome.returns, outcome.winners) == ("trapped", (0.0,), ())


def test_players_who_are_out_get_no_turn() -> None:
    """H-5, H-11: play passes over players who are out; rounds count players still in."""
    game = load(players=3, splits=[(8, 8), (9, 7), (8, 8)])
    state = start(game, first_player=[1], rolls=[12] * 7)
    state = run(game, state, "higher 1,0", "reveal JS", "endurance")  # player 1 held
    assert state.current == 2
    state = run(game, state, "end", "end")  # players 2 and 0
    for _ in range(6):  # player 1 keeps failing: 6, 5, ... 0
        assert (state.current, state.phase) == (1, Phase.ENCOUNTER)
        state = run(game, state, "endurance")
        if state.seats[1].cell is not None:
            state = run(game, state, "end", "end")
    assert Trapped(1, Characteristic.ENDURANCE) in state.events
    assert state.card_at((1, 0)) is None  # the jack, with nobody on it, is replaced
    seen = []
    for _ in range(4):
        seen.append(state.current)
        state = run(game, state, "end")
        assert all(e.seat != 1 for e in state.events if isinstance(e, TurnStarted))
    assert seen == [2, 0, 2, 0]


# ---------------------------------------------------------------- the joker
def test_a_failed_move_onto_the_red_joker_alone() -> None:
    """H-10: the only card turned this turn: the joker goes back face down where it was."""
    game = load()
    state = run(game, start(game), "higher 1,0", "reveal RJ")
    assert AlmostThere(0, (1, 0)) in state.events
    assert JokerShuffledIn(((1, 0),)) in state.events
    assert state.seats[0].cell == (0, 0)  # the figure did not move
    assert state.mixes == (Mix(((1, 0),), (RJ,)),)
    assert state.joker_cells == ((1, 0),)
    assert state.replacement_left == 104  # no new card was needed
    assert game.observe(state, 0).mixes == state.mixes  # everyone knows where it is
    # From the Black Joker (value 0) even "lower" fails; the card is certain.
    state = run(game, state, "lower 1,0")
    assert [str(e) for e in state.events if isinstance(e, Revealed)] == [
        "The card at (1, 0) is turned: RJ; lower than 0: wrong."
    ]
    assert state.mixes == (Mix(((1, 0),), (RJ,)),)


def test_a_failed_move_onto_the_red_joker_among_several_cards() -> None:
    """H-10: the joker lands under one of the cells replaced that turn, nobody knows
    which; then H-9: "lower" onto it from a card worth 1 or more escapes."""
    game = load()
    state = run(game, start(game), "higher 1,0", "reveal 5S", "higher 2,0", "reveal 9S")
    state = run(game, state, "higher 2,1", "reveal RJ")
    assert "AlmostThere" in kinds(state)
    assert state.seats[0].cell == (2, 0)
    assert state.mixes == (Mix(((1, 0), (2, 1)), (RJ,)),)
    assert state.beliefs[0].mixed == ((0, 1),)  # one new card of the Replacement deck
    assert state.replacement_left == 103
    assert state.discard == (Card.parse("5S"),)
    assert state.joker_cells == ((1, 0), (2, 1))

    aimed = run(game, state, "lower 1,0")
    odds = chances(game, aimed)
    assert odds["reveal RJ"] == Fraction(1, 2)
    assert odds["reveal KS"] == Fraction(1, 2) * Fraction(2, 104)
    assert sum(odds.values()) == 1
    # Turning the other card of the mix leaves the joker certain under the last one.
    other = run(game, aimed, "reveal 7D")
    assert other.mixes == (Mix(((2, 1),), (RJ,)),)
    last = other.layout.index((2, 1))
    assert reveal_chances(other, last) == ((RJ, 1),)

    escaped = run(game, aimed, "reveal RJ")
    assert Escaped(0, (1, 0)) in escaped.events
    outcome = game.outcome(escaped)
    assert outcome is not None
    assert (outcome.label, outcome.returns, outcome.winners) == ("escaped", (1.0,), (0,))
    # The joker was found: the rest of its mix is plain Replacement ground again.
    assert escaped.mixes == ()
    assert escaped.pool_of[escaped.layout.index((2, 1))] == 1


def test_escape_needs_lower_from_a_card_worth_one_or_more() -> None:
    """H-9: higher onto the joker fails, and so does lower from the Black Joker (0)."""
    game = load(players=2)
    state = run(game, start(game, first_player=[0]), "higher 1,0", "reveal AS")
    state = run(game, state, "lower 2,0", "reveal RJ")
    assert isinstance(state.events[-1], Escaped)
    assert (state.ending, state.winner) == (Ending.ESCAPED, 1 - 1)
    assert game.returns(state) == (1.0, 0.0)


# ------------------------------------------------------------------- decks
def test_the_replacement_deck_runs_dry() -> None:
    """H-12: the discard pile becomes a new Replacement deck; cells dealt before the
    reshuffle still hold cards of the old deck."""
    game = load()
    state = start(game)
    # A short Replacement deck (the rest set aside as if removed) runs dry quickly.
    belief = state.beliefs[0]
    short = belief.unseen[1].cards[::13]
    removed = list(belief.unseen[1].cards)
    for card in short:
        removed.remove(card)
    state = attrs.evolve(
        state,
        beliefs=(Belief(1, (belief.unseen[0], Deck.of(short)), ()),),
        replacement_left=len(short),
        removed=tuple(removed),
    )
    game.state_from_data(game.state_to_data(state))
    steps = 0
    while not any(isinstance(e, ReplacementReshuffled) for e in state.events):
        steps += 1
        assert steps < 500
        if state.phase is Phase.REVEAL:
            # Turn plain cards when possible: creatures would wear the player out.
            options = [a for a, _ in game.chance_outcomes(state)]
            plain = [a for a in options if a.card.rank not in (0, 11, 12, 13)]
            state = game.step(state, (plain or options)[0])
        elif state.phase is Phase.ROLL:
            state = game.step(state, game.parse_action("roll 2"))
        else:
            state = game.step(state, game.legal_actions(state)[0])
    check_state(game, state, "after the reshuffle")
    assert len(state.beliefs[0].unseen) == 3  # build, first and second Replacement deck
    old = state.pool_of.count(1)
    assert old > 0
    assert len(state.beliefs[0].unseen[1]) == old  # exactly the old deck's unturned cells
    new = state.beliefs[0].unseen[2]
    assert len(new) == state.replacement_left + state.pool_of.count(2)
    assert state.discard == ()
    game.state_from_data(game.state_to_data(state))
    # A cell of the old deck still turns out to be one of the old deck's unseen cards.
    cell = state.layout[state.pool_of.index(1)]
    if cell in [a.cell for a in game.legal_actions(state) if hasattr(a, "cell")]:
        aimed = game.step(state, game.parse_action(f"higher {cell[0]},{cell[1]}"))
        cards = {a.card for a, _ in game.chance_outcomes(aimed)}
        assert cards == set(state.beliefs[0].unseen[1].cards)


def test_replacement_deck_and_discard_both_empty() -> None:
    """H-12: with no card to deal, the old card is turned face down where it lies.

    Unreachable with the card counts allowed (see the package docstring), so the state
    is made by hand: the Replacement deck's cards are set aside as if removed.
    """
    game = load()
    state = run(game, start(game), "higher 1,0", "reveal KS", "charisma", "roll 2")
    belief = state.beliefs[0]
    state = attrs.evolve(
        state,
        beliefs=(Belief(1, (belief.unseen[0], Deck()), ()),),
        replacement_left=0,
        removed=belief.unseen[1].cards,
    )
    game.state_from_data(game.state_to_data(state))  # a consistent state
    state = run(game, state, "higher 2,0", "reveal 5S")  # wrong: 5 is lower than 13
    assert TurnedFaceDown((1, 0), Card.parse("KS")) in state.events
    assert state.mixes == (Mix(((1, 0),), (Card.parse("KS"),)),)
    assert state.removed.count(Card.parse("KS")) == 2  # only the set-aside ones
    # Everyone knows what lies there; turned again, it is a creature again.
    state = run(game, state, "higher 1,0")
    assert state.phase is Phase.ENCOUNTER
    assert state.mixes == ()


def test_two_pools_in_one_mix_are_kept_exactly() -> None:
    """H-10 with H-12: the Replacement deck runs out while a joker turn's new cards are
    dealt, so the joker's mix holds one card of the old deck and one of the new; a card
    turned there may have come from either, and the odds stay exact."""
    game = load()
    state = start(game, build=["5S", "7H", "8S", "RJ"])
    belief = state.beliefs[0]
    last = Card.parse("5S")
    rest = belief.unseen[1].take(last)
    state = attrs.evolve(
        state,
        beliefs=(Belief(1, (belief.unseen[0], Deck.of([last])), ()),),
        replacement_left=1,
        removed=rest.cards,
    )
    state = run(game, state, "higher 1,0", "higher 2,0", "higher 3,0", "higher 3,1")
    assert "ReplacementReshuffled" in kinds(state)
    assert state.mixes == (Mix(((1, 0), (2, 0), (3, 1)), (RJ,)),)
    assert state.beliefs[0].mixed == ((0, 1, 1),)
    assert sorted(map(str, state.beliefs[0].unseen[2].cards)) == ["5S", "7H"]

    aimed = run(game, state, "lower 2,0")  # from the 8 under the figure
    odds = chances(game, aimed)
    assert odds == {
        "reveal 5S": Fraction(1, 3) + Fraction(1, 3) * Fraction(1, 2),
        "reveal 7H": Fraction(1, 3) * Fraction(1, 2),
        "reveal RJ": Fraction(1, 3),
    }
    turned = run(game, aimed, "reveal 5S")
    # Two ways it can have happened, 2 : 1 (the old deck's 5S, or the new deck's).
    assert sorted(b.weight for b in turned.beliefs) == [1, 2]
    assert turned.mixes == (Mix(((1, 0), (3, 1)), (RJ,)),)
    again = run(game, turned, "higher 1,0")  # from the 5 now under the figure
    assert chances(game, again) == {
        "reveal 5S": Fraction(1, 3),
        "reveal 7H": Fraction(1, 6),
        "reveal RJ": Fraction(1, 2),
    }
    game.state_from_data(game.state_to_data(again))


# -------------------------------------------------------------------- Tuybe
def test_tuybe_success_and_failure() -> None:
    """The Tuybe: correct, the figure moves two cells; wrong, it stays, the turn ends,
    and the turned card is replaced."""
    game = load(tuybe=True)
    state = start(game)
    assert Tuybe((2, 0), cardcrawl.haydes.Guess.HIGHER) in game.legal_actions(state)
    won = run(game, state, "tuybe higher 2,0", "reveal 9S")
    assert won.seats[0].cell == (2, 0)
    assert won.phase is Phase.TURN
    assert won.face_up[won.layout.index((1, 0))] is None  # jumped over, still face down

    lost = run(game, state, "tuybe lower 2,0", "reveal 9S")
    assert lost.seats[0].cell == (0, 0)
    assert lost.round == 2
    assert lost.discard == (Card.parse("9S"),)

    court = run(game, state, "tuybe lower 0,2", "reveal QS")
    assert "EncounterBegan" not in kinds(court)  # the figure never met it
    assert court.discard == (Card.parse("QS"),)
    met = run(game, state, "tuybe higher 0,-2", "reveal QS")
    assert met.phase is Phase.ENCOUNTER

    joker = run(game, state, "tuybe higher 2,0", "reveal RJ")
    assert "AlmostThere" in kinds(joker)
    assert joker.mixes == (Mix(((2, 0),), (RJ,)),)


def test_tuybe_moves_are_illegal_in_the_standard_game() -> None:
    game = load()
    with pytest.raises(IllegalActionError, match="not one of the legal actions"):
        game.step(start(game), game.parse_action("tuybe higher 2,0"))


# ------------------------------------------------------------- information
def test_observation_and_determinize_hide_stacks_and_generator() -> None:
    game = load(players=2)
    state = game.initial_state(4, stack={"build": ["RJ"], "rolls": [2, 3], "first_player": [1]})
    seen = game.observe(state, 0)
    assert not any(d.stacked for b in seen.beliefs for d in b.unseen)
    assert not hasattr(seen, "rng")
    assert not hasattr(seen, "stacked_rolls")
    other = game.determinize(state, 0, seed=9)
    assert game.observe(other, 0) == seen
    assert (other.stacked_rolls, other.stacked_first) == ((), None)
    # After determinizing, the joker is no longer certain to be the next card turned.
    aimed = game.step(attrs.evolve(other, explicit_chance=True), game.parse_action("higher 1,0"))
    assert len(game.chance_outcomes(aimed)) == 53
    with pytest.raises(cardcrawl.PlayerError):
        game.observe(state, 2)


def test_render_shows_the_jokers_mix_and_held_players() -> None:
    game = load(players=2)
    state = start(game, first_player=[0])
    state = run(game, state, "higher 1,0", "reveal QS", "charisma", "roll 12")
    state = run(game, state, "higher -1,0", "reveal 5S", "higher -2,0", "reveal RJ")
    picture = game.render(state)
    assert "Q♠ 0" in picture
    assert "held by Q♠" in picture
    assert " ??" in picture
    assert "the Red Joker lies under the cell marked ??" in picture
    assert [str(e) for e in state.events if isinstance(e, Held)] == []
    assert isinstance(Reveal(RJ), Reveal)
