"""Escape from Haydes's rulings as positions: a position, one action, the position after.

Each test is a ruling decided by a single step, written in the position notation
(docs/explanation/notation.md). The games are played on a small Haydes of two decks
(one for the Build deck with the Red Joker, one for the Replacement deck), 9 cells
across (x from -4 to 4) and 6 down (y from 3 to -2), so a board is six short rows:
``*`` a face-down card of the Build pool, ``1*`` one of the Replacement deck, a code a
face-up card, ``!`` after it an overcome creature, ``~`` a cell of the Red Joker's mix.
Only the rows y = 1 and y = 0 ever change here; the others stay face down.

Every card turned comes off a stacked top (``unseen=8C|...``), so sampled play is
deterministic and the generator (``rng=1``) never moves. A die roll is played with
``explicit_chance`` and the roll as the action (``roll 8``): a stacked roll would be
certain too, but sampling it still advances the generator (unlike a stacked card).
The expected texts were worked out from the ruling by hand, not copied from the
engine's output; the order in which a list of cards is written (``all-5S,QH,9D``: in
the order the cards were seen) was taken from the notation's writer.
"""

from __future__ import annotations

import pytest

import cardcrawl
from cardcrawl import IllegalActionError
from cardcrawl.haydes import EscapeFromHaydes, HaydesState

SMALL_LAYOUT = [(x, y) for x in range(-4, 5) for y in range(-2, 4)]
GAME: EscapeFromHaydes = cardcrawl.load("escape-from-haydes", deck_count=2, layout=SMALL_LAYOUT)
DUO: EscapeFromHaydes = cardcrawl.load(
    "escape-from-haydes", players=2, deck_count=2, layout=SMALL_LAYOUT
)
TRIO: EscapeFromHaydes = cardcrawl.load(
    "escape-from-haydes", players=3, deck_count=2, layout=SMALL_LAYOUT
)
TUYBE: EscapeFromHaydes = cardcrawl.load(
    "escape-from-haydes", deck_count=2, layout=SMALL_LAYOUT, tuybe=True
)
RNG = "rng=0000000000000001"
DOWN = "*********"  # a row of nine face-down Build cards


def board(y1: str, y0: str) -> str:
    """The board with rows y = 1 and y = 0 as given, every other row face down."""
    return "/".join([DOWN, DOWN, y1, y0, DOWN, DOWN])


def after(position: str, action: str, game: EscapeFromHaydes = GAME) -> str:
    """The notation of the state that ``action`` leads to from ``position``."""
    state = game.position(position)
    return game.notation(game.step(state, game.parse_action(action)))


def parsed(position: str, action: str, game: EscapeFromHaydes = GAME) -> HaydesState:
    """The state that ``action`` leads to from ``position``."""
    return game.step(game.position(position), game.parse_action(action))


# The solo player on a 5♠ at (1, 0), east of the Black Joker, in round 1.
ON_FIVE = board(DOWN, "****BJ5S***")
SOLO = "round=1 current=0 first=0"


def test_h1_h7_a_correct_guess_moves_on_and_may_go_again() -> None:
    """H-7 (H-1: the ace is worth 1): "lower" from the 5♠ onto an A♣ is correct; the
    figure moves onto it and the turn goes on."""
    position = f"{ON_FIVE} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 unseen=AC|all-5S,AC/all {RNG}"
    assert after(position, "lower 2,0") == (
        f"{board(DOWN, '****BJ5SAC**')} phase=turn {SOLO} seats=8/8@2,0 shown=1,0;2,0 "
        f"unseen=all-5S,AC/all {RNG}"
    )


def test_h7_h12_a_wrong_guess_ends_the_turn_on_the_new_card() -> None:
    """H-7, H-6, H-12: "higher" from the 5♠ onto a 3♣ is wrong: the figure still moves
    onto the card and the turn ends. At its end the 5♠, which no figure stands on, is
    discarded and replaced face down from the Replacement deck; the 3♣ stays."""
    position = f"{ON_FIVE} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 unseen=3C|all-5S,3C/all {RNG}"
    assert after(position, "higher 2,0") == (
        f"{board(DOWN, '****BJ1*3C**')} phase=turn round=2 current=0 first=0 seats=8/8@2,0 "
        f"shown=2,0 discard=5S unseen=all-5S,3C/all {RNG}"
    )


def test_h7_equal_is_never_correct() -> None:
    """H-7: a 5♣ after the 5♠ is neither higher nor lower: "higher" is wrong."""
    position = f"{ON_FIVE} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 unseen=5C|all-5S,5C/all {RNG}"
    assert after(position, "higher 2,0") == (
        f"{board(DOWN, '****BJ1*5C**')} phase=turn round=2 current=0 first=0 seats=8/8@2,0 "
        f"shown=2,0 discard=5S unseen=all-5S,5C/all {RNG}"
    )


def test_h1_the_black_joker_is_worth_zero() -> None:
    """H-1, H-7: from the Black Joker (0) "lower" can never be right, not even onto an
    ace (1): the turn ends; the A♣ has the figure on it and stays."""
    position = (
        f"{board(DOWN, '****BJ****')} phase=turn {SOLO} seats=8/8@0,0 unseen=AC|all-AC/all {RNG}"
    )
    assert after(position, "lower 1,0") == (
        f"{board(DOWN, '****BJAC***')} phase=turn round=2 current=0 first=0 seats=8/8@1,0 "
        f"shown=1,0 unseen=all-AC/all {RNG}"
    )


def test_h5_the_first_player_is_drawn_by_chance() -> None:
    """H-5: the chance event picks seat 1; round 1 begins with its turn."""
    position = (
        f"{board(DOWN, '****BJ****')} phase=first seats=8/8@0,0;8/8@0,0 unseen=all/all "
        f"{RNG} explicit_chance"
    )
    assert after(position, "first 1", DUO) == (
        f"{board(DOWN, '****BJ****')} phase=turn round=1 current=1 first=1 "
        f"seats=8/8@0,0;8/8@0,0 unseen=all/all {RNG} explicit_chance"
    )


def test_h6_h12_stepping_onto_a_face_up_card_ends_the_turn() -> None:
    """H-6, H-12: onto the face-up 9♦ at (1, 1), no guess: the figure steps there and the
    turn ends. The 5♠ it left is discarded and replaced; the 9♦ under it stays."""
    position = (
        f"{board('*****9D***', '****BJ5S***')} phase=turn {SOLO} seats=8/8@1,0 "
        f"shown=1,0;1,1 unseen=all-5S,9D/all {RNG}"
    )
    assert after(position, "step 1,1") == (
        f"{board('*****9D***', '****BJ1****')} phase=turn round=2 current=0 first=0 "
        f"seats=8/8@1,1 shown=1,1 discard=5S unseen=all-5S,9D/all {RNG}"
    )


def test_h6_ending_the_turn_at_once_keeps_the_card_under_the_figure() -> None:
    """H-6 ("may move"), H-12: the player ends the turn without moving; only cards no
    figure stands on are replaced, so nothing changes but the round."""
    position = f"{ON_FIVE} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 unseen=all-5S/all {RNG}"
    assert after(position, "end") == (
        f"{ON_FIVE} phase=turn round=2 current=0 first=0 seats=8/8@1,0 shown=1,0 "
        f"unseen=all-5S/all {RNG}"
    )


def test_h8_a_court_card_starts_an_encounter_whatever_the_guess() -> None:
    """H-8: "lower" from the 5♠ onto a Q♥ would be wrong, but a creature waits: the
    figure moves onto it and the encounter begins."""
    position = f"{ON_FIVE} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 unseen=QH|all-5S,QH/all {RNG}"
    assert after(position, "lower 2,0") == (
        f"{board(DOWN, '****BJ5SQH**')} phase=encounter {SOLO} seats=8/8@2,0 shown=1,0;2,0 "
        f"unseen=all-5S,QH/all {RNG}"
    )


ON_QUEEN = board(DOWN, "****BJ5SQH**")
MEETING = f"{ON_QUEEN} phase=encounter {SOLO} seats=8/8@2,0 shown=1,0;2,0"
ROLLING = f"{ON_QUEEN} phase=roll:{{}} {SOLO} seats=8/8@2,0 shown=1,0;2,0"
CHANCE = f"unseen=all-5S,QH/all {RNG} explicit_chance"


def test_h8_the_player_chooses_the_characteristic_then_rolls() -> None:
    """H-8: facing the Q♥, the player chooses Charisma (a decision); the 2D6 roll waits."""
    assert after(f"{MEETING} {CHANCE}", "charisma") == f"{ROLLING.format('charisma')} {CHANCE}"


def test_h8_a_roll_at_most_the_value_overcomes() -> None:
    """H-8: Charisma 8, a roll of 8: overcome. Charisma drops to 7, the Q♥ is marked
    overcome and the player may move on."""
    assert after(f"{ROLLING.format('charisma')} {CHANCE}", "roll 8") == (
        f"{board(DOWN, '****BJ5SQH!**')} phase=turn {SOLO} seats=7/8@2,0 shown=1,0;2,0 {CHANCE}"
    )


def test_h8_h12_a_roll_above_the_value_holds_the_player() -> None:
    """H-8, H-12: Endurance 8, a roll of 9: not overcome, Endurance drops to 7 and the
    turn ends. The 5♠ is replaced, the Q♥ (a figure on it) stays, and the next turn
    opens with the same creature (H-8: the held player faces it before anything)."""
    assert after(f"{ROLLING.format('endurance')} {CHANCE}", "roll 9") == (
        f"{board(DOWN, '****BJ1*QH**')} phase=encounter round=2 current=0 first=0 "
        f"seats=8/7@2,0 shown=2,0 discard=5S {CHANCE}"
    )


def test_h8_stepping_onto_a_creature_not_overcome_starts_an_encounter() -> None:
    """H-8 (rescue): seat 0 is held on the Q♥; seat 1 steps onto it from the 5♠ and
    meets the creature too, no guess needed."""
    position = (
        f"{ON_QUEEN} phase=turn round=1 current=1 first=0 seats=8/7@2,0;8/8@1,0 "
        f"shown=1,0;2,0 unseen=all-5S,QH/all {RNG}"
    )
    assert after(position, "step 2,0", DUO) == (
        f"{ON_QUEEN} phase=encounter round=1 current=1 first=0 seats=8/7@2,0;8/8@2,0 "
        f"shown=1,0;2,0 unseen=all-5S,QH/all {RNG}"
    )


def test_h8_overcoming_frees_every_figure_held_there() -> None:
    """H-8: seat 1 overcomes the Q♥ with Endurance 8 and a roll of 4; seat 0, held there,
    is free: at its next turn it may move instead of facing the creature."""
    position = (
        f"{ON_QUEEN} phase=roll:endurance round=1 current=1 first=0 seats=8/7@2,0;8/8@2,0 "
        f"shown=1,0;2,0 {CHANCE}"
    )
    freed = f"{board(DOWN, '****BJ5SQH!**')} phase=turn round=1 current=1 first=0"
    assert after(position, "roll 4", DUO) == (
        f"{freed} seats=8/7@2,0;8/7@2,0 shown=1,0;2,0 {CHANCE}"
    )
    # Seat 1 ends its turn: the 5♠ goes, the Q♥ (two figures on it) stays, and seat 0's
    # turn opens with a move, not an encounter.
    state = DUO.step(parsed(position, "roll 4", DUO), DUO.parse_action("end"))
    assert DUO.notation(state).startswith(
        f"{board(DOWN, '****BJ1*QH!**')} phase=turn round=2 current=0 "
    )


def test_h9_lower_onto_the_red_joker_escapes() -> None:
    """H-9: "lower" from the 5♠ onto the Red Joker (0) is correct: the player escapes and
    wins at once."""
    position = f"{ON_FIVE} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 unseen=RJ|all-5S,RJ/all {RNG}"
    assert after(position, "lower 2,0") == (
        f"{board(DOWN, '****BJ5SRJ**')} phase=over:escaped:0 {SOLO} seats=8/8@2,0 "
        f"shown=1,0;2,0 unseen=all-5S,RJ/all {RNG}"
    )


def test_h10_any_other_move_onto_the_red_joker_fails_and_it_goes_back() -> None:
    """H-10, H-12: "higher" onto the Red Joker fails: the figure stays on the 5♠ and the
    turn ends. The joker is the only card to replace, so it is shuffled in among no new
    card at all: it goes back face down on its own cell, a mix of one cell that
    everyone knows holds it (``:0.0``: besides the joker, the mix holds no card of the
    Build pool and none of the Replacement deck)."""
    position = f"{ON_FIVE} phase=turn {SOLO} seats=8/8@1,0 shown=1,0 unseen=RJ|all-5S,RJ/all {RNG}"
    assert after(position, "higher 2,0") == (
        f"{board(DOWN, '****BJ5S~**')} phase=turn round=2 current=0 first=0 seats=8/8@1,0 "
        f"shown=1,0 mixes=RJ unseen=all-5S,RJ/all:0.0 {RNG}"
    )


def test_h10_the_red_joker_lands_under_one_of_the_replaced_cells() -> None:
    """H-10, H-12: as above, but the 9♦ at (1, 1) is face up with no figure on it: it is
    discarded, and the joker and one new card of the Replacement deck are shuffled onto
    (1, 1) and (2, 0), nobody knows which where: both cells are the mix, holding the
    joker and one card of the Replacement deck (``:0.1``)."""
    position = (
        f"{board('*****9D***', '****BJ5S***')} phase=turn {SOLO} seats=8/8@1,0 "
        f"shown=1,1;1,0 unseen=RJ|all-5S,9D,RJ/all {RNG}"
    )
    state = parsed(position, "higher 2,0")
    assert (state.seats[0].cell, state.joker_cells) == ((1, 0), ((2, 0), (1, 1)))
    assert after(position, "higher 2,0") == (
        f"{board('*****~***', '****BJ5S~**')} phase=turn round=2 current=0 first=0 "
        f"seats=8/8@1,0 shown=1,0 discard=9D mixes=RJ unseen=all-5S,9D,RJ/all:0.1 {RNG}"
    )


def test_h11_h12_a_characteristic_at_zero_puts_the_player_out() -> None:
    """H-11, H-8, H-12: seat 0, Charisma 1, fails a Charisma roll of 12: Charisma 0, out,
    figure removed, turn over. With no figure on it the Q♥ (not overcome) is discarded
    and replaced, and play passes to seat 1."""
    position = (
        f"{ON_QUEEN} phase=roll:charisma round=1 current=0 first=0 seats=1/8@2,0;8/8@1,0 "
        f"shown=1,0;2,0 {CHANCE}"
    )
    assert after(position, "roll 12", DUO) == (
        f"{board(DOWN, '****BJ5S1***')} phase=turn round=1 current=1 first=0 "
        f"seats=0/8@-;8/8@1,0 shown=1,0 discard=QH {CHANCE}"
    )


def test_h11_the_last_player_out_ends_the_game_with_no_winner() -> None:
    """H-11: the solo player out is the end of the game: trapped, no winner."""
    position = f"{ROLLING.format('charisma').replace('8/8@', '1/8@')} {CHANCE}"
    state = parsed(position, "roll 12")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.label, outcome.winners, state.seats[0].cell) == ("trapped", (), None)
    assert " phase=over:trapped " in GAME.notation(state)
    assert " seats=0/8@- " in GAME.notation(state)


def test_h12_an_overcome_creature_leaves_the_game_and_cells_fill_in_order() -> None:
    """H-12: the player, back on the 5♠, ends the turn with the overcome Q♥ face up at
    (2, 0) and the 9♦ at (1, 1): the 9♦ is discarded, the Q♥ removed from the game, and
    both cells are dealt a card of the Replacement deck."""
    position = (
        f"{board('*****9D***', '****BJ5SQH!**')} phase=turn {SOLO} seats=7/8@1,0 "
        f"shown=1,0;2,0;1,1 unseen=all-5S,9D,QH/all {RNG}"
    )
    assert after(position, "end") == (
        f"{board('*****1****', '****BJ5S1***')} phase=turn round=2 current=0 first=0 "
        f"seats=7/8@1,0 shown=1,0 discard=9D removed=QH unseen=all-5S,QH,9D/all {RNG}"
    )


def test_h13_max_rounds_ends_the_game_with_no_winner() -> None:
    """H-13: with ``max_rounds=3``, ending the last turn of round 3 ends the game: time
    is up, no winner."""
    game: EscapeFromHaydes = cardcrawl.load(
        "escape-from-haydes", deck_count=2, layout=SMALL_LAYOUT, max_rounds=3
    )
    position = (
        f"{board(DOWN, '****BJ****')} phase=turn round=3 current=0 first=0 seats=8/8@0,0 "
        f"unseen=all/all {RNG}"
    )
    state = parsed(position, "end", game)
    outcome = game.outcome(state)
    assert outcome is not None
    assert (outcome.label, outcome.winners) == ("time-up", ())
    assert " phase=over:time-up " in game.notation(state)
    # The standard rules have no limit: the same turn's end opens round 4.
    assert " phase=turn round=4 " in after(position, "end")


def test_h5_h11_play_passes_over_a_player_who_is_out() -> None:
    """H-5, H-11: seat 1 is out, so seat 0's turn passes to seat 2, still round 1; seat
    2's passes back to seat 0 and round 2 begins."""
    seats = "seats=8/8@0,0;0/8@-;8/8@0,0"
    start = f"{board(DOWN, '****BJ****')} phase=turn round=1"
    position = f"{start} current=0 first=0 {seats} unseen=all/all {RNG}"
    assert after(position, "end", TRIO) == (
        f"{start} current=2 first=0 {seats} unseen=all/all {RNG}"
    )
    position = f"{start} current=2 first=0 {seats} unseen=all/all {RNG}"
    assert after(position, "end", TRIO) == (
        f"{board(DOWN, '****BJ****')} phase=turn round=2 current=0 first=0 {seats} "
        f"unseen=all/all {RNG}"
    )


def test_h6_moves_are_never_diagonal() -> None:
    """H-6: from the Black Joker, (1, 1) does not touch: no move goes there."""
    position = f"{board(DOWN, '****BJ****')} phase=turn {SOLO} seats=8/8@0,0 unseen=all/all {RNG}"
    with pytest.raises(IllegalActionError):
        GAME.step(GAME.position(position), GAME.parse_action("higher 1,1"))


def test_h9_escape_traps_every_other_player() -> None:
    """H-9: with two players, seat 1 escapes by "lower" onto the Red Joker from the
    5♠; the game ends, seat 1 the winner and seat 0 trapped."""
    position = (
        f"{ON_FIVE} phase=turn round=1 current=1 first=0 seats=8/8@0,0;8/8@1,0 shown=1,0 "
        f"unseen=RJ|all-5S,RJ/all {RNG}"
    )
    assert after(position, "lower 2,0", DUO) == (
        f"{board(DOWN, '****BJ5SRJ**')} phase=over:escaped:1 round=1 current=1 first=0 "
        f"seats=8/8@0,0;8/8@2,0 shown=1,0;2,0 unseen=all-5S,RJ/all {RNG}"
    )
    outcome = DUO.outcome(parsed(position, "lower 2,0", DUO))
    assert outcome is not None
    assert outcome.winners == (1,)


def test_tuybe_a_correct_jump_lands_two_cells_away() -> None:
    """The Tuybe (variant): from the Black Joker over (1, 0) to (2, 0), "higher" onto a
    9♣ is correct: the figure lands there, the card jumped over stays face down, and
    play goes on as after a correct reveal."""
    position = (
        f"{board(DOWN, '****BJ****')} phase=turn {SOLO} seats=8/8@0,0 unseen=9C|all-9C/all {RNG}"
    )
    assert after(position, "tuybe higher 2,0", TUYBE) == (
        f"{board(DOWN, '****BJ*9C**')} phase=turn {SOLO} seats=8/8@2,0 shown=2,0 "
        f"unseen=all-9C/all {RNG}"
    )


def test_tuybe_a_wrong_jump_stays_and_the_card_is_replaced() -> None:
    """The Tuybe (variant): "lower" onto the 9♣ from the Black Joker is wrong: the figure
    stays, the turn ends, and the 9♣ is discarded and replaced face down (H-12)."""
    position = (
        f"{board(DOWN, '****BJ****')} phase=turn {SOLO} seats=8/8@0,0 unseen=9C|all-9C/all {RNG}"
    )
    assert after(position, "tuybe lower 2,0", TUYBE) == (
        f"{board(DOWN, '****BJ*1***')} phase=turn round=2 current=0 first=0 seats=8/8@0,0 "
        f"discard=9C unseen=all-9C/all {RNG}"
    )
