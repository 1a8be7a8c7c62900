"""The Mapless House's rulings as positions: a position, one action, the position after.

Each test is a ruling decided by a single step, written in the position notation
(docs/explanation/notation.md): the table row by row from the top, ``AD`` the Entrance
at (0, 0), then the fields. Every draw a step makes comes off a stacked deck top
(``narrative=``, ``mind=``, ``body=``), so sampled play is deterministic and the
generator (``rng=1``) never moves; chance that no stack can pin (the Exit shuffled
back) is played with ``explicit_chance`` and its outcome as the action. The expected
texts were worked out from the ruling by hand, not copied from the engine's output.

Two houses serve most tests:

* **the house** ``8S4.QCJC/AD5S6SKS7SAH/9S`` of the hunt: along y = 0 the Entrance, the
  corridors 5♠ and 6♠, the room ♠K (threshold 13), the corridor 7♠ and the Exit at
  (5, 0); the rooms ♣Q and ♣J above the Exit's end, the 8♠ and 9♠ above and below the
  Entrance. Stalkers stay inside the table's bounds, x from 0 to 6, y from -1 to 1;
* **the corner** (phase one) ``6C/AD5S``: 5♠ at (1, 0) and 6♣ at (0, 1), both corridors
  touching only the Entrance, so (1, 1) touches two cards.
"""

from __future__ import annotations

import pytest

import cardcrawl
from cardcrawl import IllegalActionError
from cardcrawl.mapless import MaplessHouse, MaplessState

GAME: MaplessHouse = cardcrawl.load("mapless-house")
RNG = "rng=0000000000000001"
HOUSE = "8S4.QCJC/AD5S6SKS7SAH/9S"
SPADES = "2S,3S,4S,5S,6S,7S,8S,9S,10S,JS,QS,KS"
SPADES_BUT_5_6 = "2S,3S,4S,7S,8S,9S,10S,JS,QS,KS"
CLUBS = "2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC"
HEARTS = "2H,3H,4H,5H,6H,7H,8H,9H,10H,JH,QH,KH"


def after(position: str, action: str, game: MaplessHouse = GAME) -> str:
    """The notation of the state that ``action`` leads to from ``position``."""
    state = game.position(position)
    return game.notation(game.step(state, game.parse_action(action)))


def parsed(position: str, action: str, game: MaplessHouse = GAME) -> MaplessState:
    """The state that ``action`` leads to from ``position``."""
    return game.step(game.position(position), game.parse_action(action))


def refused(position: str, action: str) -> str:
    """The reason ``action`` is illegal at ``position``."""
    with pytest.raises(IllegalActionError) as caught:
        GAME.step(GAME.position(position), GAME.parse_action(action))
    return str(caught.value)


# ----------------------------------------------------------------- building (phase one)


def test_m4_a_corridor_needs_a_cell_touching_exactly_one_card() -> None:
    """M-4: (1, 1) touches the 5♠ and the 6♣, so no corridor goes there; (2, 0) touches
    the 5♠ alone. The next card comes off the stacked Narrative top."""
    position = f"6C/AD5S phase=place:7S player=0,0 narrative=8C {RNG}"
    assert "place 1,1" not in {str(a) for a in GAME.legal_actions(GAME.position(position))}
    assert "illegal" in refused(position, "place 1,1")
    assert after(position, "place 2,0") == f"6C/AD5S7S phase=place:8C player=0,0 {RNG}"


def test_m5_a_room_needs_a_cell_touching_at_least_one_card() -> None:
    """M-5 (with M-7's last room): a room may go where a corridor may not, on (1, 1)
    touching two cards; it becomes the last room. A cell touching nothing is refused."""
    position = f"6C/AD5S phase=place:QS player=0,0 narrative=8C {RNG}"
    assert after(position, "place 1,1") == (
        f"6CQS/AD5S phase=place:8C player=0,0 last_room=1,1 {RNG}"
    )
    assert "illegal" in refused(position, "place 3,3")


def test_m6_no_card_gives_a_corridor_a_third_neighbour() -> None:
    """M-6: the 5♠ at (1, 0) already touches the Entrance and the 6♠, so even a room may
    not go on (1, 1); beside the 6♠, which touches one card, it may."""
    position = f"AD5S6S phase=place:JS player=0,0 narrative=8C {RNG}"
    assert "illegal" in refused(position, "place 1,1")
    assert after(position, "place 2,1") == (
        f"2.JS/AD5S6S phase=place:8C player=0,0 last_room=2,1 {RNG}"
    )


def test_m7_a_dead_end_room_pulls_corridors_but_not_rooms() -> None:
    """M-7: the ♠K at (0, 1) is the last room and touches only the Entrance (degree 1),
    so a corridor must touch it: (1, 0) is refused although M-4 allows it, (0, 2) is
    fine. A room is not pulled: the ♠Q goes on (1, 0) and becomes the last room."""
    pulled = f"KS/AD phase=place:5C player=0,0 last_room=0,1 narrative=8C {RNG}"
    assert "illegal" in refused(pulled, "place 1,0")
    assert after(pulled, "place 0,2") == (f"5C/KS/AD phase=place:8C player=0,0 last_room=0,1 {RNG}")
    room = f"KS/AD phase=place:QC player=0,0 last_room=0,1 narrative=8C {RNG}"
    assert after(room, "place 1,0") == f"KS/ADQC phase=place:8C player=0,0 last_room=1,0 {RNG}"


def test_m8_a_card_with_no_legal_cell_is_refused_on_its_own() -> None:
    """M-8 (and M-7, M-6): the pocket. The ♠J at (0, 1) is a dead end, so the 8♠ must
    touch it, but (-1, 1) and (1, 1) touch a second card and (0, 2) touches the 6♠ too:
    the 8♠ goes to the Refused pile with no decision, and the next draw waits."""
    pocket = "2.6S5S/.JS.4S/7SAD2S3S"
    position = f"{pocket} phase=draw player=0,0 last_room=0,1 {RNG} explicit_chance"
    assert after(position, "draw 8S") == (
        f"{pocket} phase=draw player=0,0 last_room=0,1 refused=8S {RNG} explicit_chance"
    )
    # Without the pull the 8♠ would have had room beside the 7♠.
    free = f"{pocket} phase=place:8S player=0,0 {RNG}"
    assert "place -2,0" in {str(a) for a in GAME.legal_actions(GAME.position(free))}


def test_m8_one_legal_cell_is_still_a_decision() -> None:
    """M-8: the pocket without its 5♠ and 6♠: the drawn 9♠, pulled to the ♠J, has a
    single legal cell, (0, 2); the state waits for the player's Place all the same."""
    pocket = ".JS.4S/7SAD2S3S"
    position = f"{pocket} phase=draw player=0,0 last_room=0,1 {RNG} explicit_chance"
    assert after(position, "draw 9S") == (
        f"{pocket} phase=place:9S player=0,0 last_room=0,1 {RNG} explicit_chance"
    )
    state = parsed(position, "draw 9S")
    assert [str(a) for a in GAME.legal_actions(state)] == ["place 0,2"]


def test_m10_the_exit_too_early_is_shuffled_back() -> None:
    """M-10, boundary: eleven spades and eleven clubs are refused, so neither black suit
    is exhausted; the ♥A on the deck's top is drawn and shuffled back, and the next draw
    waits: the position is the same but for the stack. With the twelfth spade gone too,
    the Exit is placed (M-11)."""
    early = f"AD phase=draw player=0,0 refused={SPADES[:-3]},{CLUBS[:-3]}"
    assert after(f"{early} narrative=AH {RNG} explicit_chance", "draw AH") == (
        f"{early} {RNG} explicit_chance"
    )
    state = parsed(f"{early} narrative=AH {RNG} explicit_chance", "draw AH")
    assert sorted(map(str, state.narrative.cards)) == ["AH", "KC", "KS"]
    exhausted = f"AD phase=draw player=0,0 refused={SPADES} {RNG} explicit_chance"
    assert after(exhausted, "draw AH") == (
        f"AD phase=place-exit player=0,0 refused={SPADES} {RNG} explicit_chance"
    )


def test_m11_the_player_chooses_among_the_exit_candidates() -> None:
    """M-11: D = 2 (the 6♠ at (2, 0)); the candidates are the empty cells at distance 3
    touching a card: (2, -1), (2, 1) and (3, 0). The player picks (3, 0); the ♠A is put on
    the Exit and the hunt begins with the opening Move (M-12)."""
    position = f"AD5S6S phase=place-exit player=0,0 refused={SPADES_BUT_5_6} {RNG}"
    assert sorted(str(a) for a in GAME.legal_actions(GAME.position(position))) == [
        "exit 2,-1",
        "exit 2,1",
        "exit 3,0",
    ]
    assert after(position, "exit 3,0") == (
        f"AD5S6SAH phase=move player=0,0 spade=3,0 refused={SPADES_BUT_5_6} {RNG}"
    )


# ------------------------------------------------------------------------- the hunt


def test_m12_the_opening_move_stands_alone() -> None:
    """M-12, M-13: the opening Move onto the 5♠ (threshold 5) turns no Mind or Body card
    and the ♠A stays on the Exit; turn 1 then opens with its Expand, the 9♣ drawn."""
    position = f"{HOUSE} phase=move player=0,0 spade=5,0 narrative=9C mind=2H body=2D {RNG}"
    assert after(position, "move 1,0") == (
        f"{HOUSE} phase=place:9C turn=1 player=1,0 spade=5,0 mind=2H body=2D {RNG}"
    )


def test_m13_expand_is_skipped_when_the_narrative_deck_is_empty() -> None:
    """M-13: every Narrative card is on the table or refused, so turn 1 goes straight to
    its Move."""
    rest = "2S,3S,4S,10S,JS,QS,2C,3C,4C,5C,6C,7C,8C,9C,10C,KC"
    position = f"{HOUSE} phase=move player=0,0 spade=5,0 refused={rest} {RNG}"
    assert after(position, "move 1,0") == (
        f"{HOUSE} phase=move turn=1 player=1,0 spade=5,0 refused={rest} {RNG}"
    )


def test_m14_the_exit_without_a_stalker_is_escape() -> None:
    """M-14, M-21: onto the Exit with the ♠A off it: escaped at once, no Encounter (the
    stacked Mind and Body cards stay) and no Stalker step. The score is the ten cards
    on the table."""
    position = (
        f"{HOUSE} phase=move turn=4 player=4,0 spade=3,1 mind=2H body=2D spade_left_exit {RNG}"
    )
    assert after(position, "move 5,0") == (
        f"{HOUSE} phase=over:escaped turn=4 player=5,0 spade=3,1 mind=2H body=2D "
        f"spade_left_exit {RNG}"
    )
    assert parsed(position, "move 5,0").score == 10


def test_m14_m20_moving_onto_a_stalker_is_fatal() -> None:
    """M-14, M-20: the ♠A stands on the Exit; moving onto it is legal and ends the game
    consumed, with no Encounter."""
    position = f"{HOUSE} phase=move turn=4 player=4,0 spade=5,0 mind=2H body=2D {RNG}"
    assert after(position, "move 5,0") == (
        f"{HOUSE} phase=over:consumed turn=4 player=5,0 spade=5,0 mind=2H body=2D {RNG}"
    )


def test_m15_a_total_at_the_threshold_holds_the_nerve() -> None:
    """M-15 (and M-18): onto the 6♠, 4♥ + 2♦ = 6 meets the threshold 6; both cards go to
    their Aside piles. The ♠A, five cells east, steps west off the Exit (M-18: |dy| = 0 <
    |dx|), and turn 2 opens with the 9♣."""
    position = f"{HOUSE} phase=move turn=1 player=1,0 spade=5,0 narrative=9C mind=4H body=2D {RNG}"
    assert after(position, "move 2,0") == (
        f"{HOUSE} phase=place:9C turn=2 player=2,0 spade=4,0 mind_aside=4H body_aside=2D "
        f"spade_left_exit {RNG}"
    )


def test_m15_the_entrance_has_threshold_zero_but_the_cards_are_turned() -> None:
    """M-15: back onto the Entrance, 2♥ + 2♦ (4) is enough, yet both are turned and put
    aside."""
    position = f"{HOUSE} phase=move turn=1 player=1,0 spade=5,0 narrative=9C mind=2H body=2D {RNG}"
    assert after(position, "move 0,0") == (
        f"{HOUSE} phase=place:9C turn=2 player=0,0 spade=4,0 mind_aside=2H body_aside=2D "
        f"spade_left_exit {RNG}"
    )


def test_m16_a_total_below_the_threshold_holds_the_player() -> None:
    """M-16: onto the 6♠, 3♥ + 2♦ = 5 < 6: both cards hold the player, face up."""
    position = f"{HOUSE} phase=move turn=1 player=1,0 spade=5,0 narrative=9C mind=3H body=2D {RNG}"
    assert after(position, "move 2,0") == (
        f"{HOUSE} phase=place:9C turn=2 player=2,0 spade=4,0 held=3H,2D spade_left_exit {RNG}"
    )


def test_m16_a_held_player_skips_the_move_and_counts_the_holding_cards() -> None:
    """M-16, M-15: held, the player places the Expand's 9♣ above the 8♠ and goes straight to the
    Encounter: 4♥ + 5♦ plus the holding 3♥ + 2♦ = 14 >= 6 frees them, and all four cards
    go aside. The ♠A steps from (4, 0) to (3, 0)."""
    position = (
        f"{HOUSE} phase=place:9C turn=2 player=2,0 spade=4,0 held=3H,2D narrative=10C "
        f"mind=4H body=5D spade_left_exit {RNG}"
    )
    expected = parsed(position, "place 0,2")
    assert (expected.held, expected.spade, expected.turn) == ((), (3, 0), 3)
    assert after(position, "place 0,2") == (
        f"9C/{HOUSE} phase=place:10C turn=3 player=2,0 spade=3,0 mind_aside=3H,4H "
        f"body_aside=2D,5D spade_left_exit {RNG}"
    )


def test_m17_an_empty_mind_deck_takes_its_aside_pile() -> None:
    """M-17: every Mind card is in the Mind Aside pile; the Encounter's Mind draw first
    shuffles it into a new deck (the pile empties, the deck's order unknown, so not
    written) and the game notes that a deck ran dry."""
    position = (
        f"{HOUSE} phase=move turn=2 player=1,0 spade=5,0 mind_aside={HEARTS} {RNG} explicit_chance"
    )
    assert after(position, "move 2,0") == (
        f"{HOUSE} phase=draw-mind turn=2 player=2,0 spade=5,0 ran_dry {RNG} explicit_chance"
    )


def test_m17_m20_the_club_stalker_appears_on_the_entrance_at_the_end_of_the_turn() -> None:
    """M-17, M-20: a deck ran dry this turn. The 2♦ completes the Encounter on the
    Entrance (threshold 0), the ♠A steps, and then the ♣A appears on the Entrance, where
    the player stands: consumed."""
    position = (
        f"{HOUSE} phase=draw-body:7H turn=2 player=0,0 spade=5,0 ran_dry {RNG} explicit_chance"
    )
    assert after(position, "draw 2D") == (
        f"{HOUSE} phase=over:consumed turn=2 player=0,0 spade=4,0 club=0,0 mind_aside=7H "
        f"body_aside=2D ran_dry spade_left_exit {RNG} explicit_chance"
    )


def test_m18_stalkers_step_along_the_longer_gap_and_up_or_down_on_a_tie() -> None:
    """M-18: the player moves to (2, 0). The ♠A at (6, 1) has gaps dx = -4, dy = -1 and
    steps west to (5, 1); the ♣A at (1, -1), off the cards, has dx = dy = 1, a tie, and
    steps up to (1, 0). Stalkers walk through empty space as through cards."""
    position = (
        f"{HOUSE} phase=move turn=3 player=1,0 spade=6,1 club=1,-1 narrative=9C mind=4H "
        f"body=2D ran_dry spade_left_exit {RNG}"
    )
    assert after(position, "move 2,0") == (
        f"{HOUSE} phase=place:9C turn=4 player=2,0 spade=5,1 club=1,0 mind_aside=4H "
        f"body_aside=2D ran_dry spade_left_exit {RNG}"
    )


def test_m19_the_spade_stalker_sidesteps_the_exit() -> None:
    """M-19: the ♠A, off the Exit and on the ♣Q at (5, 1), would step down onto the Exit
    (5, 0) toward the player at (4, 0) (dx = dy = -1); it steps along x instead, to
    (4, 1)."""
    position = (
        f"{HOUSE} phase=move turn=3 player=3,0 spade=5,1 narrative=9C mind=KH body=2D "
        f"spade_left_exit {RNG}"
    )
    assert after(position, "move 4,0") == (
        f"{HOUSE} phase=place:9C turn=4 player=4,0 spade=4,1 mind_aside=KH body_aside=2D "
        f"spade_left_exit {RNG}"
    )


def test_m19_m20_the_spade_stalker_waits_the_club_stalker_does_not() -> None:
    """M-19, M-20: both Stalkers at (6, 0), east of the Exit under the ♣J, the player
    moving to (4, 0): the ♠A's step would land on the Exit and the y gap is 0, so it
    waits; the ♣A has no such rule and steps onto the Exit. Two Stalkers may share a
    cell (they did)."""
    position = (
        f"{HOUSE} phase=move turn=3 player=3,0 spade=6,0 club=6,0 narrative=9C mind=KH "
        f"body=2D ran_dry spade_left_exit {RNG}"
    )
    assert after(position, "move 4,0") == (
        f"{HOUSE} phase=place:9C turn=4 player=4,0 spade=6,0 club=5,0 mind_aside=KH "
        f"body_aside=2D ran_dry spade_left_exit {RNG}"
    )


def test_m20_a_stalker_stepping_onto_the_player_consumes() -> None:
    """M-20, M-18: the player holds their nerve on the 6♠ (K♥ + 2♦), then the ♠A, just
    above at (2, 1), steps down onto them: consumed, before any next turn."""
    position = (
        f"{HOUSE} phase=move turn=3 player=1,0 spade=2,1 narrative=9C mind=KH body=2D "
        f"spade_left_exit {RNG}"
    )
    assert after(position, "move 2,0") == (
        f"{HOUSE} phase=over:consumed turn=3 player=2,0 spade=2,0 "
        f"mind_aside=KH body_aside=2D narrative=9C spade_left_exit {RNG}"
    )


def test_m22_max_turns_ends_the_hunt_lost_after_the_last_turn() -> None:
    """M-22: with ``max_turns=3``, turn 3 runs its Encounter and Stalker step, then the
    game ends lost in the house instead of opening turn 4 (the 9♣ stays in the deck)."""
    game: MaplessHouse = cardcrawl.load("mapless-house", max_turns=3)
    position = f"{HOUSE} phase=move turn=3 player=1,0 spade=5,0 narrative=9C mind=KH body=2D {RNG}"
    assert after(position, "move 2,0", game) == (
        f"{HOUSE} phase=over:lost turn=3 player=2,0 spade=4,0 mind_aside=KH "
        f"body_aside=2D narrative=9C spade_left_exit {RNG}"
    )
    # The standard rules have no limit: the same move opens turn 4.
    assert after(position, "move 2,0").startswith(f"{HOUSE} phase=place:9C turn=4 ")


def test_m3_m7_the_entrance_counts_toward_the_last_rooms_degree() -> None:
    """M-3, M-7: the ♠K at (0, 1) touches the Entrance and the 5♠: degree 2, since every
    table card counts, the Entrance too. So the pull is over and the 6♣ may go west of
    the Entrance, away from the ♠K."""
    position = f"KS5S/AD phase=place:6C player=0,0 last_room=0,1 narrative=8C {RNG}"
    assert after(position, "place -1,0") == (
        f".KS5S/6CAD phase=place:8C player=0,0 last_room=0,1 {RNG}"
    )


def test_m13_a_sampled_draw_is_pinned_by_the_generator_in_the_position() -> None:
    """M-13, Randomness: with nothing stacked, the Expand's card is drawn by the
    generator the position carries, so the same position always draws the same card.

    The drawn card (3♠) and the generator's next state were taken from the engine's
    output; the asserts below check what the ruling decides: turn 1 has begun with an
    Expand, its card is one of the Narrative cards off the table, the Mind and Body
    stacks are untouched, and the draw is the same every time."""
    position = f"{HOUSE} phase=move player=0,0 spade=5,0 mind=2H body=2D {RNG}"
    state = parsed(position, "move 1,0")
    before = GAME.position(position)
    assert (state.turn, state.player, state.drawn in before.narrative.cards) == (1, (1, 0), True)
    assert (state.mind, state.body, state.rng != before.rng) == (before.mind, before.body, True)
    assert (
        after(position, "move 1,0")
        == after(position, "move 1,0")
        == (
            f"{HOUSE} phase=place:3S turn=1 player=1,0 spade=5,0 mind=2H body=2D "
            "rng=9e3779b97f4a7c16"
        )
    )
