"""Stacked-deck scenarios of The Mapless House: the rulings random games seldom reach.

Each scenario stacks the decks (``initial_state(seed, stack=...)``), makes every decision
itself, and asserts on the exact events and state. Three houses serve most of them:

* **the line**: ♠K at (1, 0), then every other spade and club in a straight line east
  to (24, 0), the Exit at (25, 0). The ♠A starts 25 cells away, so the player can
  dawdle beside the Entrance for the 13 turns it takes the decks to run dry; the ♠K
  next to the Entrance (threshold 13) is where the player gets held.
* **the cross**: four short arms around the Entrance, the east arm ``2♠ J♠ 3♠`` with
  ``4♠`` above the ♠J, the Exit above the ♠3 at (3, 1), the clubs still to come in
  phase two. Everything happens within three cells of the Exit.
* **the pocket**: a ♠J at (0, 1) whose only table neighbour is the Entrance and whose
  empty neighbours are all unusable for a corridor.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import attrs

import cardcrawl
from cardcrawl import CHANCE, Card, Deck, parse_cards
from cardcrawl.mapless import (
    CLUB_STALKER,
    EXIT,
    MIND_CARDS,
    SPADE_STALKER,
    CardDrawn,
    CardPlaced,
    CardRefused,
    Consumed,
    DeckRanDry,
    Draw,
    Encounter,
    Ending,
    Escaped,
    ExitPlaced,
    ExitShuffledBack,
    LostInTheHouse,
    MaplessHouse,
    MaplessState,
    Move,
    Moved,
    MoveSkipped,
    Phase,
    Place,
    PlaceExit,
    StalkerArrived,
    StalkerStepped,
    StalkerWaited,
    TurnStarted,
    corridor_cells,
)
from cardcrawl.mapless._dread import STANDARD_DREAD_LINES
from strategies import advance, options_at, oracle_exit_cells, oracle_place_cells, stacked

GAME: MaplessHouse = cardcrawl.load("mapless-house")


def card(code: str) -> Card:
    return Card.parse(code)


def dread(code: str) -> str:
    return STANDARD_DREAD_LINES[code]


# The line: 24 cards along y = 0, then the Exit.
LINE = "KS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AH"
LINE_BUILD = [f"place {x},0" for x in range(1, 25)]
LINE_CANDIDATES = ((24, -1), (24, 1), (25, 0))

# The cross: east arm (1,0) 2♠, (2,0) ♠J, (3,0) 3♠, (2,1) 4♠; west 5♠ 6♠ 7♠; north
# 8♠ 9♠ 10♠; south ♠Q ♠K; the Exit at (3, 1); the clubs come in phase two.
CROSS = "2S JS 3S 4S 5S 6S 7S 8S 9S 10S QS KS AH 2C 3C 4C 5C"
CROSS_BUILD = [
    *("place 1,0", "place 2,0", "place 3,0", "place 2,1"),
    *("place -1,0", "place -2,0", "place -3,0"),
    *("place 0,1", "place 0,2", "place 0,3"),
    *("place 0,-1", "place 0,-2"),
    "exit 3,1",
]

# The pocket: (1,0) 2♠ (2,0) 3♠ (2,1) 4♠ (2,2) 5♠ (1,2) 6♠ (-1,0) 7♠, then ♠J at (0,1).
POCKET = "2S 3S 4S 5S 6S 7S JS 8S 9S 10S QS KS AH"
POCKET_BUILD = [
    *("place 1,0", "place 2,0", "place 2,1", "place 2,2", "place 1,2", "place -1,0"),
    "place 0,1",
]


def line_house(
    mind: str = "", body: str = "", *, explicit_chance: bool = False, **options: object
) -> tuple[MaplessHouse, MaplessState]:
    """The line, at the opening Move, with these Mind and Body cards on top."""
    game: MaplessHouse = cardcrawl.load("mapless-house", **options)
    stack = {"narrative": LINE, "mind": mind, "body": body}
    state = stacked(game, stack, LINE_BUILD, explicit_chance=explicit_chance)
    assert state.phase is Phase.PLACE_EXIT
    return game, advance(game, state, ["exit 25,0"])


def cross_house(mind: str, body: str, *, explicit_chance: bool = False) -> MaplessState:
    """The cross, at the opening Move, with these Mind and Body cards on top."""
    stack = {"narrative": CROSS, "mind": mind, "body": body}
    return stacked(GAME, stack, CROSS_BUILD, explicit_chance=explicit_chance)


# ----------------------------------------------------------------- building (phase one)


def test_a_pull_with_no_legal_cell_ends_in_refusals() -> None:
    """M-7, M-8: the ♠J at (0, 1) touches only the Entrance, so it pulls every corridor;
    but each of its empty neighbours touches a second card or a full corridor, so 8♠, 9♠
    and 10♠ are refused one after the other, though they had room elsewhere. The ♠Q, a
    room, is not pulled."""
    state = stacked(GAME, {"narrative": POCKET}, POCKET_BUILD)
    assert state.events == (
        CardPlaced(card("JS"), (0, 1), dread("JS")),
        CardDrawn(card("8S")),
        CardRefused(card("8S")),
        CardDrawn(card("9S")),
        CardRefused(card("9S")),
        CardDrawn(card("10S")),
        CardRefused(card("10S")),
        CardDrawn(card("QS")),
    )
    assert state.refused == parse_cards("8S 9S 10S")
    assert state.last_room == (0, 1)
    assert state.table.degree((0, 1)) == 1
    # Without the pull there would have been room: the refusals are M-7's doing.
    table = dict(state.table)
    assert oracle_place_cells(table, card("8S"), None) == [(-2, 0), (-1, -1), (0, -1), (1, 3)]
    assert corridor_cells(state.table, state.closed, None) == [(-2, 0), (-1, -1), (0, -1), (1, 3)]
    assert corridor_cells(state.table, state.closed, (0, 1)) == []
    # Rooms drawn meanwhile are not pulled: the ♠Q may go far from the ♠J.
    assert Place((-2, 0)) in GAME.legal_actions(state)
    assert Place((1, 3)) in GAME.legal_actions(state)


def test_refused_cards_count_toward_an_exhausted_suit() -> None:
    """M-10: a black suit is exhausted once its twelve cards have left the Narrative deck,
    placed *or refused*: after the pocket's three refusals and the ♠Q and ♠K, the Exit
    opens."""
    state = stacked(GAME, {"narrative": POCKET}, [*POCKET_BUILD, "place -2,0", "place -3,0"])
    assert state.events == (
        CardPlaced(card("KS"), (-3, 0), dread("KS")),
        CardDrawn(EXIT),
    )
    assert state.phase is Phase.PLACE_EXIT
    assert GAME.legal_actions(state) == (PlaceExit((2, 3)), PlaceExit((3, 2)))


def test_a_single_legal_cell_is_still_the_players_decision() -> None:
    """M-8: with exactly one legal cell the player still decides (one Place action)."""
    stack = {"narrative": "2S 3S 4S 5S 7S JS 6S"}
    decisions = ["place 1,0", "place 2,0", "place 2,1", "place 2,2", "place -1,0", "place 0,1"]
    state = stacked(GAME, stack, decisions)
    assert state.phase is Phase.PLACE
    assert state.drawn == card("6S")
    assert GAME.current_player(state) == 0
    assert GAME.legal_actions(state) == (Place((0, 2)),)
    assert GAME.step(state, Place((0, 2))).table[(0, 2)] == card("6S")


def test_the_exit_drawn_too_early_is_shuffled_back() -> None:
    """M-10: the ♥A drawn before a black suit is exhausted goes back into the deck and the
    next card is drawn."""
    state = stacked(GAME, {"narrative": ["AH", "KS"]})
    assert state.events == (CardDrawn(EXIT), ExitShuffledBack(), CardDrawn(card("KS")))
    assert state.phase is Phase.PLACE
    assert state.drawn == card("KS")
    assert EXIT in state.narrative
    assert len(state.narrative) == 24
    assert state.exit_cell is None


def test_the_exit_shuffled_back_is_a_chance_event() -> None:
    """M-10 and Randomness: shuffling the Exit back is chance; while the Exit may not open,
    the draw brings one of the 24 other Narrative cards, equally likely: the ♥A is not an
    outcome, since drawing it would only shuffle it back (the chance tree never loops)."""
    state = GAME.initial_state(0, explicit_chance=True, stack={"narrative": ["AH"]})
    assert state.events == (CardDrawn(EXIT), ExitShuffledBack())
    assert GAME.current_player(state) == CHANCE
    assert EXIT in state.narrative
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 24
    assert Draw(EXIT) not in {a for a, _ in outcomes}
    assert {p for _, p in outcomes} == {Fraction(1, 24)}
    assert not GAME.is_legal(state, Draw(EXIT))


def test_the_folded_draw_is_what_sampled_play_places() -> None:
    """M-10 folded exactly: in sampled play a ♥A drawn too early is shuffled back and the
    draw repeated, so the card that comes out is uniform over the other cards, as the
    explicit outcomes say. Over every seed of a range, the first card is never the ♥A and
    each of the 24 others comes out."""
    firsts = Counter()
    for seed in range(2_000):
        firsts[GAME.initial_state(seed).drawn] += 1
    assert EXIT not in firsts
    assert set(firsts) == {
        a.card for a, _ in GAME.chance_outcomes(GAME.initial_state(0, explicit_chance=True))
    }
    assert min(firsts.values()) > 2_000 / 24 / 2


def test_eleven_of_each_black_suit_is_not_enough() -> None:
    """M-10, boundary: with eleven spades and eleven clubs gone the Exit is still too
    early; once the twelfth spade has gone it opens."""
    order = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC AH KS"
    state = GAME.initial_state(0, explicit_chance=True, stack={"narrative": order})
    events = list(state.events)
    while GAME.current_player(state) == 0:
        state = GAME.step(state, GAME.legal_actions(state)[0])
        events += state.events
    drawn = [e.card for e in events if isinstance(e, CardDrawn)]
    assert tuple(drawn) == parse_cards(order)
    assert [type(e) for e in events].count(ExitShuffledBack) == 1
    shuffled_at = next(i for i, e in enumerate(events) if isinstance(e, ExitShuffledBack))
    assert events[shuffled_at - 1] == CardDrawn(EXIT)
    assert not any(isinstance(e, ExitPlaced) for e in events)
    # Only the ♣K and the Exit are left: a fair chance event between them.
    assert GAME.current_player(state) == CHANCE
    assert GAME.chance_outcomes(state) == (
        (Draw(EXIT), Fraction(1, 2)),
        (Draw(card("KC")), Fraction(1, 2)),
    )
    state = GAME.step(state, Draw(EXIT))
    assert state.events == (CardDrawn(EXIT),)
    assert state.phase is Phase.PLACE_EXIT


def test_several_exit_candidates_are_the_players_choice() -> None:
    """M-11: D = 24 (the ♣K at (24, 0)); the candidates are the empty cells at distance
    25 touching a card, and the player picks one; the ♠A waits on it."""
    stack = {"narrative": LINE}
    state = stacked(GAME, stack, LINE_BUILD)
    assert state.phase is Phase.PLACE_EXIT
    assert state.drawn == EXIT
    assert GAME.legal_actions(state) == tuple(PlaceExit(c) for c in LINE_CANDIDATES)
    assert oracle_exit_cells(dict(state.table)) == list(LINE_CANDIDATES)
    state = GAME.step(state, PlaceExit((25, 0)))
    assert state.events == (ExitPlaced((25, 0), LINE_CANDIDATES, dread("AH")),)
    assert state.table[(25, 0)] == EXIT
    assert state.exit_cell == state.spade == (25, 0)
    assert not state.spade_left_exit
    assert state.drawn is None
    assert (state.phase, state.turn) == (Phase.MOVE, 0)


def test_a_single_exit_candidate_is_placed_automatically() -> None:
    """M-11, one candidate: the Exit goes there with no decision.

    Every real table has at least two candidates (see
    ``test_every_table_has_at_least_two_exit_candidates``), so this branch is reached by
    a game whose ``exit_cells`` hook narrows the candidates to one cell.
    """
    game = cardcrawl.load("mapless-house")
    game.exit_cells = lambda state: [(25, 0)]  # type: ignore[method-assign]
    state = stacked(game, {"narrative": LINE}, LINE_BUILD[:-1])
    state = game.step(state, Place((24, 0)))
    assert state.events == (
        CardPlaced(card("KC"), (24, 0), dread("KC")),
        CardDrawn(EXIT),
        ExitPlaced((25, 0), ((25, 0),), dread("AH")),
    )
    assert (state.phase, state.exit_cell, state.spade) == (Phase.MOVE, (25, 0), (25, 0))


# ------------------------------------------------------------------------ the hunt


def test_the_hunt_opens_with_a_lone_move() -> None:
    """M-12, M-13: the opening Move has no Expand before it and no Encounter or Stalker
    step after it; it is not a turn. With the Narrative deck empty, turn 1 skips its
    Expand and goes straight to the Move."""
    game, state = line_house()
    assert GAME.legal_actions(state) == (Move((1, 0)),)
    state = game.step(state, Move((1, 0)))
    assert state.events == (Moved((0, 0), (1, 0)), TurnStarted(1))
    assert (state.phase, state.turn, state.player) == (Phase.MOVE, 1, (1, 0))
    assert state.spade == (25, 0)
    assert (len(state.mind), len(state.body)) == (12, 12)


def test_the_first_turn_expands_after_the_opening_move() -> None:
    """M-12, M-13: after the opening Move, turn 1 begins with its Expand."""
    state = advance(GAME, cross_house("KH", "KD"), ["move 1,0"])
    assert state.events == (Moved((0, 0), (1, 0)), TurnStarted(1), CardDrawn(card("2C")))
    assert state.phase is Phase.PLACE
    # Pulled by the ♠K at (0, -2), which touches only the ♠Q.
    assert GAME.legal_actions(state) == (Place((-1, -2)), Place((0, -3)), Place((1, -2)))


def test_a_held_player_skips_the_move_until_breaking_free() -> None:
    """M-15, M-16: on the ♠K (threshold 13), 2♥ + 2♦ = 4 holds the player; held, the
    Move is skipped and the holding cards count again: 4 + 3♥ + 3♦ = 10 still holds;
    4 + 6 + 4♥ + 4♦ = 18 breaks free, and all six cards go to their Aside piles."""
    game, state = line_house("KH 2H 3H 4H", "KD 2D 3D 4D")
    state = advance(game, state, ["move 1,0", "move 0,0"])
    assert state.events == (
        Moved((1, 0), (0, 0)),
        Encounter(card("KH"), card("KD"), (), 26, 0, False),
        StalkerStepped(SPADE_STALKER, (25, 0), (24, 0)),
        TurnStarted(2),
    )
    state = advance(game, state, ["move 1,0"])
    two, three = parse_cards("2H 2D"), parse_cards("3H 3D")
    assert state.events == (
        Moved((0, 0), (1, 0)),
        Encounter(card("2H"), card("2D"), (), 4, 13, True),
        StalkerStepped(SPADE_STALKER, (24, 0), (23, 0)),
        TurnStarted(3),
        MoveSkipped((1, 0)),
        Encounter(card("3H"), card("3D"), two, 10, 13, True),
        StalkerStepped(SPADE_STALKER, (23, 0), (22, 0)),
        TurnStarted(4),
        MoveSkipped((1, 0)),
        Encounter(card("4H"), card("4D"), two + three, 18, 13, False),
        StalkerStepped(SPADE_STALKER, (22, 0), (21, 0)),
        TurnStarted(5),
    )
    assert (state.phase, state.turn, state.held) == (Phase.MOVE, 5, ())
    assert state.mind_aside == parse_cards("KH 2H 3H 4H")
    assert state.body_aside == parse_cards("KD 2D 3D 4D")
    assert game.legal_actions(state) == (Move((0, 0)), Move((2, 0)))


def test_held_cards_wait_face_up_between_turns() -> None:
    """M-16, explicit chance: while held, the holding cards are in ``state.held``, not in
    an Aside pile, and the game waits at the next turn's Mind draw without a Move."""
    game, state = line_house("KH 2H", "KD 2D", explicit_chance=True)
    state = advance(game, state, ["move 1,0", "move 0,0", "move 1,0"])
    assert state.held == parse_cards("2H 2D")
    assert state.mind_aside == (card("KH"),)
    assert (state.phase, state.turn) == (Phase.DRAW_MIND, 3)
    assert state.events[-2:] == (TurnStarted(3), MoveSkipped((1, 0)))


MIND_ORDER = "2H KH 3H QH 4H JH 5H 10H 6H 9H 7H 8H"
BODY_ORDER = MIND_ORDER.replace("H", "D")


def test_the_club_stalker_arrives_on_the_player_at_the_entrance() -> None:
    """M-17, M-20: one Mind and one Body card per Encounter, so the 13th turn finds both
    decks empty; each takes its shuffled Aside, and at the end of that turn the ♣A appears
    on the Entrance, where the player stands: consumed."""
    game, state = line_house(MIND_ORDER, BODY_ORDER)
    state = advance(game, state, ["move 1,0"])
    for turn in range(1, 13):
        state = advance(game, state, ["move 0,0" if turn % 2 else "move 1,0"])
        assert state.club is None
        assert not state.ran_dry
    assert (state.turn, state.player, len(state.mind), len(state.body)) == (13, (1, 0), 0, 0)
    state = advance(game, state, ["move 0,0"])
    events = state.events
    assert events[:3] == (Moved((1, 0), (0, 0)), DeckRanDry("Mind", 12), DeckRanDry("Body", 12))
    encounter = events[3]
    assert isinstance(encounter, Encounter)
    assert (encounter.threshold, encounter.held) == (0, False)
    assert events[4:] == (
        StalkerStepped(SPADE_STALKER, (13, 0), (12, 0)),
        StalkerArrived(CLUB_STALKER, (0, 0)),
        Consumed(CLUB_STALKER, (0, 0), 26),
    )
    assert (state.ending, state.club, state.ran_dry) == (Ending.CONSUMED, (0, 0), True)
    outcome = game.outcome(state)
    assert outcome is not None
    assert (outcome.label, outcome.returns, outcome.scores) == ("consumed", (0.0,), (26,))


def test_the_club_stalker_arrives_then_hunts() -> None:
    """M-17, M-18: the ♣A appears on the Entrance at the end of the first dry turn, after
    the ♠A's step, and from the next turn it steps toward the player like the ♠A."""
    game, state = line_house(MIND_ORDER, BODY_ORDER, explicit_chance=True)
    state = advance(game, state, ["move 1,0"])
    for turn in range(1, 13):
        state = advance(game, state, ["move 2,0" if turn % 2 else "move 1,0"])
    state = advance(game, state, ["move 2,0"])
    assert state.events == (Moved((1, 0), (2, 0)), DeckRanDry("Mind", 12))
    assert game.current_player(state) == CHANCE
    assert len(game.chance_outcomes(state)) == 12
    state = advance(game, state, ["draw KH"])
    assert state.events == (DeckRanDry("Body", 12),)
    state = advance(game, state, ["draw KD"])
    assert state.events == (
        Encounter(card("KH"), card("KD"), (), 26, 2, False),
        StalkerStepped(SPADE_STALKER, (13, 0), (12, 0)),
        StalkerArrived(CLUB_STALKER, (0, 0)),
        TurnStarted(14),
    )
    assert state.club == (0, 0)
    state = advance(game, state, ["move 3,0", "draw QH", "draw QD"])
    assert state.events == (
        Encounter(card("QH"), card("QD"), (), 24, 3, False),
        StalkerStepped(SPADE_STALKER, (12, 0), (11, 0)),
        StalkerStepped(CLUB_STALKER, (0, 0), (1, 0)),
        TurnStarted(15),
    )


def test_a_dry_deck_with_an_empty_aside_gives_no_card() -> None:
    """M-17: a deck and its Aside both empty: the draw gives no card, worth 0, and the
    deck still counts as run dry (the ♣A arrives at the end of the turn).

    In a real game this cannot happen: it needs all twelve hearts holding the player, and
    they are worth 90 while a hold needs a total under 13. So the scenario takes a real
    state of the cross and moves every heart into the cards holding the player.
    """
    state = advance(GAME, cross_house("", "KD", explicit_chance=True), ["move 1,0"])
    assert (state.phase, state.drawn, state.turn) == (Phase.PLACE, card("2C"), 1)
    state = attrs.evolve(state, held=MIND_CARDS, mind=Deck(), mind_aside=())
    state = GAME.step(state, Place((0, -3)))
    assert state.events == (
        CardPlaced(card("2C"), (0, -3), dread("2C")),
        MoveSkipped((1, 0)),
        DeckRanDry("Mind", 0),
        Encounter(None, card("KD"), MIND_CARDS, 90 + 13, 2, False),
        StalkerStepped(SPADE_STALKER, (3, 1), (2, 1)),
        StalkerArrived(CLUB_STALKER, (0, 0)),
        TurnStarted(2),
        CardDrawn(card("3C")),
    )
    assert state.mind_aside == MIND_CARDS
    assert (len(state.mind), state.held, state.ran_dry) == (0, (), True)
    assert str(state.events[3]).startswith("Encounter: nothing + K♦ + held")


def test_the_spade_stalker_steps_around_the_exit() -> None:
    """M-19: the ♠A left the Exit at (3, 1) for (3, 0). The player moves to (2, 1): the
    gaps are equal, so the ♠A would step up, onto the Exit; it steps along the other axis
    instead, to (2, 0), and the way out is free."""
    state = cross_house("KH QH", "KD QD")
    state = advance(GAME, state, ["move 1,0", "place 0,-3", "move 2,0"])
    assert state.events[:3] == (
        Moved((1, 0), (2, 0)),
        Encounter(card("KH"), card("KD"), (), 26, 11, False),
        StalkerStepped(SPADE_STALKER, (3, 1), (3, 0)),
    )
    state = advance(GAME, state, ["place -4,0", "move 2,1"])
    assert state.events == (
        Moved((2, 0), (2, 1)),
        Encounter(card("QH"), card("QD"), (), 24, 4, False),
        StalkerStepped(SPADE_STALKER, (3, 0), (2, 0)),
        TurnStarted(3),
        CardDrawn(card("4C")),
    )
    assert state.spade_left_exit
    state = advance(GAME, state, ["place -5,0"])
    assert GAME.legal_actions(state) == (Move((2, 0)), Move((3, 1)))
    state = advance(GAME, state, ["move 3,1"])
    assert state.events == (Moved((2, 1), (3, 1)), Escaped((3, 1), 17))
    assert state.ending is Ending.ESCAPED
    assert state.score == len(state.table) == 17
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.label, outcome.returns, outcome.winners) == ("escaped", (1.0,), (0,))


def test_the_spade_stalker_blocked_by_the_exit_waits() -> None:
    """M-19: the ♠A at (4, 1), the Exit at (3, 1), the player at (2, 1): its step would
    land on the Exit and the other gap is 0, so it waits.

    No real game reaches this (an exhaustive search of the Stalker's pursuit finds no
    way for the player to get the Exit between them in a line), so the scenario takes a
    real state of the cross and puts the ♠A at (4, 1).
    """
    state = cross_house("KH QH", "KD QD")
    state = advance(GAME, state, ["move 1,0", "place 0,-3", "move 2,0", "place -4,0"])
    assert (state.spade, state.spade_left_exit, state.player) == ((3, 0), True, (2, 0))
    state = attrs.evolve(state, spade=(4, 1))
    state = advance(GAME, state, ["move 2,1"])
    assert state.events == (
        Moved((2, 0), (2, 1)),
        Encounter(card("QH"), card("QD"), (), 24, 4, False),
        StalkerWaited(SPADE_STALKER, (4, 1)),
        TurnStarted(3),
        CardDrawn(card("4C")),
    )
    assert state.spade == (4, 1)
    state = advance(GAME, state, ["place -5,0", "move 3,1"])
    assert state.events == (Moved((2, 1), (3, 1)), Escaped((3, 1), 17))


def test_moving_onto_a_stalker_is_fatal() -> None:
    """M-14, M-20: a Move onto the ♠A's cell is legal and ends the game at once, with no
    Encounter."""
    state = cross_house("KH", "KD")
    state = advance(GAME, state, ["move 1,0", "place 0,-3", "move 2,0", "place -4,0"])
    assert state.spade == (3, 0)
    assert Move((3, 0)) in GAME.legal_actions(state)
    state = GAME.step(state, Move((3, 0)))
    assert state.events == (Moved((2, 0), (3, 0)), Consumed(SPADE_STALKER, (3, 0), 16))
    assert (state.ending, GAME.legal_actions(state)) == (Ending.CONSUMED, ())


def test_a_stalker_steps_onto_a_held_player() -> None:
    """M-16, M-18, M-20: held on the ♠J (threshold 11), the player cannot flee; the ♠A
    steps onto them."""
    state = cross_house("2H 3H", "2D 3D")
    state = advance(GAME, state, ["move 1,0", "place 0,-3", "move 2,0"])
    assert state.events[:3] == (
        Moved((1, 0), (2, 0)),
        Encounter(card("2H"), card("2D"), (), 4, 11, True),
        StalkerStepped(SPADE_STALKER, (3, 1), (3, 0)),
    )
    state = advance(GAME, state, ["place -4,0"])
    assert state.events == (
        CardPlaced(card("3C"), (-4, 0), dread("3C")),
        MoveSkipped((2, 0)),
        Encounter(card("3H"), card("3D"), parse_cards("2H 2D"), 10, 11, True),
        StalkerStepped(SPADE_STALKER, (3, 0), (2, 0)),
        Consumed(SPADE_STALKER, (2, 0), 16),
    )


def test_max_turns_ends_the_hunt_lost() -> None:
    """M-22: with ``max_turns=3`` the game ends lost in the house at the end of turn 3."""
    game, state = line_house("KH QH JH", "KD QD JD", max_turns=3)
    state = advance(game, state, ["move 1,0", "move 0,0", "move 1,0"])
    assert state.turn == 3
    state = advance(game, state, ["move 0,0"])
    assert state.events == (
        Moved((1, 0), (0, 0)),
        Encounter(card("JH"), card("JD"), (), 22, 0, False),
        StalkerStepped(SPADE_STALKER, (23, 0), (22, 0)),
        LostInTheHouse(3, 26),
    )
    assert state.ending is Ending.LOST
    assert options_at(game, state) == []
    outcome = game.outcome(state)
    assert outcome is not None
    assert (outcome.label, outcome.returns, outcome.scores) == ("lost", (0.0,), (26,))
