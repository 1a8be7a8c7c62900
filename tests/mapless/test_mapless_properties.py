"""Property tests of The Mapless House: random games checked ruling by ruling.

Every test plays whole games with Hypothesis choosing each decision (and, where it says
so, each chance outcome), then checks the game against the independent model of the
rulings in ``strategies.py``. Each docstring names the rulings (RULINGS.md) it checks.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cardcrawl import CHANCE, TERMINAL, Card, Grid, Suit
from cardcrawl.mapless import (
    BODY_CARDS,
    CLUB_STALKER,
    ENTRANCE,
    ENTRANCE_CELL,
    EXIT,
    MIND_CARDS,
    NARRATIVE_CARDS,
    PLACEABLE_CARDS,
    SPADE_STALKER,
    CardDrawn,
    CardPlaced,
    CardRefused,
    Consumed,
    DeckRanDry,
    Encounter,
    Ending,
    Escaped,
    ExitPlaced,
    ExitShuffledBack,
    LostInTheHouse,
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
    exit_candidates,
    room_cells,
    stalker_step,
)
from strategies import (
    ALL_52,
    GAME_SHAPE,
    Model,
    around,
    census,
    corridor,
    event_codes,
    exhausted,
    manhattan,
    mapless,
    oracle_exit_cells,
    oracle_moves,
    oracle_place_cells,
    oracle_stalker_target,
    play,
    seeds,
    touching_count,
    value,
    walk_events,
    walk_states,
)

GAME = mapless()


@given(seed=seeds, data=st.data())
def test_no_narrative_placement_gives_a_corridor_a_third_touching_card(
    seed: int, data: st.DataObject
) -> None:
    """M-6: corridors never branch; only the Exit may give a corridor a third card."""
    game = play(GAME, seed, data)
    for event, model in walk_events(game):
        if isinstance(event, CardPlaced):
            after = {**model.table, event.cell: event.card}
            for cell in around(event.cell):
                if cell in after and corridor(after[cell]):
                    assert touching_count(after, cell) <= 2, (event, cell)
    for state in game.states:
        without_exit = {c: k for c, k in state.table.items() if k != EXIT}
        for cell, card in without_exit.items():
            if corridor(card):
                assert touching_count(without_exit, cell) <= 2, (cell, card)


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_every_placement_was_legal_and_the_legal_list_is_exact(
    seed: int, data: st.DataObject, explicit: bool
) -> None:
    """M-4, M-5, M-6, M-7, M-8: placement against an independent reading of the rules.

    A corridor goes on an empty cell touching exactly one table card, a room on one
    touching at least one; no cell touching a corridor that already touches two cards;
    while the last room has degree < 2, corridors only next to it. A card with a legal
    cell is always the player's decision (even with one cell), exactly over those cells;
    a card without one is refused.
    """
    game = play(GAME, seed, data, explicit_chance=explicit)
    for event, model in walk_events(game):
        if isinstance(event, CardDrawn):
            assert model.pending is None
        if isinstance(event, CardPlaced):
            assert event.card == model.pending
            legal = oracle_place_cells(model.table, event.card, model.last_room)
            assert event.cell in legal, (event, legal)
            assert event.dread == GAME.options.dread_line(event.card)
        if isinstance(event, CardRefused):
            assert event.card == model.pending
            assert oracle_place_cells(model.table, event.card, model.last_room) == []
    for state, model in walk_states(game):
        if state.phase is Phase.PLACE:
            assert state.drawn == model.pending
            assert state.drawn is not None
            cells = oracle_place_cells(model.table, state.drawn, model.last_room)
            assert cells, "M-8: a card with no legal cell must be refused, not asked about"
            assert GAME.legal_actions(state) == tuple(Place(c) for c in cells)
        assert dict(state.table) == model.table
        assert state.last_room == model.last_room
        assert list(state.refused) == model.refused


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_exit_appears_only_after_a_black_suit_is_exhausted_on_a_candidate_cell(
    seed: int, data: st.DataObject, explicit: bool
) -> None:
    """M-10, M-11: the Exit is shuffled back exactly while neither black suit has left
    the Narrative deck, and is then placed on a cell at distance D + 1 touching the house
    (the player choosing exactly when there are several)."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    events = game.events
    placed = 0
    for i, (event, model) in enumerate(walk_events(game)):
        if isinstance(event, CardDrawn) and event.card == EXIT:
            follow = events[i + 1] if i + 1 < len(events) else None
            if exhausted(model.left_narrative):
                assert not isinstance(follow, ExitShuffledBack)
            else:
                assert isinstance(follow, ExitShuffledBack), follow
        if isinstance(event, ExitShuffledBack):
            assert model.pending == EXIT
            assert not exhausted(model.left_narrative)
        if isinstance(event, ExitPlaced):
            placed += 1
            assert model.pending == EXIT
            assert exhausted(model.left_narrative)
            candidates = oracle_exit_cells(model.table)
            assert list(event.candidates) == candidates
            assert event.cell in candidates
            far = max(manhattan(c) for c in model.table)
            assert manhattan(event.cell) == far + 1
    assert placed == 1  # every complete game gets its Exit
    for step in game.steps:
        state = step.state
        if state.phase is Phase.PLACE_EXIT:
            candidates = oracle_exit_cells(state.table)
            assert len(candidates) >= 2
            assert GAME.legal_actions(state) == tuple(PlaceExit(c) for c in candidates)
        if isinstance(step.action, PlaceExit):
            assert state.phase is Phase.PLACE_EXIT
        after = step.next_state
        exit_news = [
            e
            for e in after.events
            if isinstance(e, ExitShuffledBack) or e == CardDrawn(EXIT) or isinstance(e, ExitPlaced)
        ]
        if exit_news and isinstance(exit_news[-1], ExitShuffledBack):
            assert EXIT in after.narrative  # back in the deck, not in hand
        if not after.is_hunting:
            assert after.spade is None


@given(seed=seeds, data=st.data())
def test_spade_stalker_never_reenters_the_exit(seed: int, data: st.DataObject) -> None:
    """M-19: once the ♠A has left the Exit it never steps back onto it."""
    game = play(GAME, seed, data)
    for event, model in walk_events(game):
        if isinstance(event, ExitPlaced):
            assert model.spade is None
        if isinstance(event, StalkerStepped) and event.stalker == SPADE_STALKER:
            assert event.target != model.exit_cell
    left = False
    for state in game.states:
        if state.spade is not None:
            assert state.exit_cell is not None
            left = left or state.spade != state.exit_cell
            assert state.spade_left_exit == left
            if left:
                assert state.spade != state.exit_cell


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_stalker_steps_follow_the_rules(seed: int, data: st.DataObject, explicit: bool) -> None:
    """M-18, M-19: after every Encounter each Stalker on the table, the ♠A first, steps
    one cell toward the player along the bigger gap (up or down on a tie); a ♠A that has
    left the Exit takes the other axis instead of stepping back onto it, or waits."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    events = game.events
    for i, (event, model) in enumerate(walk_events(game)):
        if isinstance(event, (StalkerStepped, StalkerWaited)):
            previous = events[i - 1]
            if event.stalker == SPADE_STALKER:
                assert isinstance(previous, Encounter), "M-18: the ♠A steps after the Encounter"
                where = model.spade
                never = model.exit_cell if model.spade_left_exit else None
            else:
                assert isinstance(previous, (StalkerStepped, StalkerWaited)), "♠A first"
                assert previous.stalker == SPADE_STALKER
                where, never = model.club, None
            assert where is not None
            target = oracle_stalker_target(where, model.player, never)
            if isinstance(event, StalkerWaited):
                assert event.stalker == SPADE_STALKER, "only the ♠A is ever blocked"
                assert event.cell == where == target
            else:
                assert event.source == where
                assert event.target == target != where
        if isinstance(event, Encounter) and model.spade is not None:
            follow = events[i + 1]
            assert isinstance(follow, (StalkerStepped, StalkerWaited))
            assert follow.stalker == SPADE_STALKER
    for state, model in walk_states(game):
        assert (state.spade, state.club) == (model.spade, model.club)
        assert state.player == model.player


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_encounter_totals_thresholds_and_holding(
    seed: int, data: st.DataObject, explicit: bool
) -> None:
    """M-15, M-16: total = the turned Mind and Body cards + every card holding the player;
    threshold = the value of the player's card (0 on the aces); held exactly when the total
    is short, and then the Move is skipped until the player breaks free. Cards of a won
    Encounter go to their own Aside piles."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    for event, model in walk_events(game):
        if isinstance(event, Encounter):
            # A deck can only give no card when it and its Aside are both empty, which
            # would need all twelve of its cards holding the player (worth far more than
            # 13): so in real play both cards are always turned.
            assert event.mind is not None
            assert event.mind.suit is Suit.HEARTS
            assert event.body is not None
            assert event.body.suit is Suit.DIAMONDS
            assert event.holding == model.held
            assert event.total == value(event.mind) + value(event.body) + sum(
                value(c) for c in model.held
            )
            assert event.threshold == value(model.table[model.player])
            assert event.held == (event.total < event.threshold)
        if isinstance(event, MoveSkipped):
            assert model.held, "M-16: the Move is skipped only while held"
            assert event.cell == model.player
        if isinstance(event, Moved) and model.turn > 0:
            assert not model.held, "M-16: a held player never moves"
    for state, model in walk_states(game):
        assert state.held == model.held
        if state.phase is Phase.MOVE:
            assert not state.held
        assert list(state.mind_aside) == model.mind_aside
        assert list(state.body_aside) == model.body_aside
        in_hand = state.mind_card is not None  # explicit play: between Mind and Body draws
        assert len(state.mind) + in_hand == model.mind_left
        assert len(state.body) == model.body_left


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_all_52_cards_are_always_accounted_for(
    seed: int, data: st.DataObject, explicit: bool
) -> None:
    """M-1, M-2 (card_census): every state holds each of the 52 cards exactly once, each
    in a pile that may hold it."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    for state in game.states:
        assert census(state) == ALL_52
        by_place = GAME.card_census(state)
        assert Counter(c for cards in by_place.values() for c in cards) == ALL_52
        assert set(state.narrative.cards) <= set(NARRATIVE_CARDS)
        assert set(state.mind.cards) | set(state.mind_aside) <= set(MIND_CARDS)
        assert set(state.body.cards) | set(state.body_aside) <= set(BODY_CARDS)
        assert set(state.held) <= set(MIND_CARDS) | set(BODY_CARDS)
        assert set(state.table.values()) <= set(PLACEABLE_CARDS)
        assert set(state.refused) <= set(NARRATIVE_CARDS) - {EXIT}
        assert by_place["stalkers"] == (SPADE_STALKER, CLUB_STALKER)


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_club_stalker_arrives_at_the_end_of_the_first_dry_turn(
    seed: int, data: st.DataObject, explicit: bool
) -> None:
    """M-17: an empty Mind or Body deck takes its shuffled Aside pile; the ♣A appears on
    the Entrance at the end of the first turn in which a deck ran dry (after the ♠A's
    step), and at no other time."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    events = game.events
    arrivals = 0
    for i, (event, model) in enumerate(walk_events(game)):
        if isinstance(event, DeckRanDry):
            if model.dry_turn is None:
                # One Mind and one Body card per Encounter: the 13th Encounter of the game,
                # which is turn 13, is the first to find the decks empty.
                assert model.encounters == 12
                assert model.turn == 13
            if event.deck == "Mind":
                assert model.mind_left == 0
                assert event.reshuffled == len(model.mind_aside)
            else:
                assert event.deck == "Body"
                assert model.body_left == 0
                assert event.reshuffled == len(model.body_aside)
        if isinstance(event, StalkerArrived):
            arrivals += 1
            assert event.stalker == CLUB_STALKER
            assert event.cell == ENTRANCE_CELL
            assert model.club is None
            assert model.dry_turn == model.turn
            previous = events[i - 1]
            assert isinstance(previous, (StalkerStepped, StalkerWaited))
            assert previous.stalker == SPADE_STALKER
        if isinstance(event, TurnStarted) and model.dry_turn is not None:
            assert model.club is not None, "the ♣A must have arrived by the next turn"
        if isinstance(event, StalkerStepped) and event.stalker == CLUB_STALKER:
            assert model.club is not None
    assert arrivals <= 1
    for state in game.states:
        assert (state.club is not None) <= state.ran_dry


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_game_ends_only_escaped_consumed_or_lost_and_scores_the_table(
    seed: int, data: st.DataObject, explicit: bool
) -> None:
    """M-14, M-20, M-21: the game ends escaped (the Move onto a free Exit) or consumed (a
    Stalker and the player share a cell) or lost (M-22); legal actions are empty exactly
    then; the score is the number of cards on the table."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    final = game.final
    assert GAME.is_terminal(final)
    assert final.ending in set(Ending)
    for state in game.states:
        to_move = GAME.current_player(state)
        over = state is final
        assert (to_move == TERMINAL) == over
        if to_move == CHANCE:
            assert explicit
        assert (GAME.legal_actions(state) == ()) == (over or to_move == CHANCE)
        assert (GAME.outcome(state) is None) == (not over)
        if state.phase is Phase.MOVE:
            assert GAME.legal_actions(state) == tuple(
                Move(c) for c in oracle_moves(state.table, state.player)
            )

    events = game.events
    endings = [e for e in events if isinstance(e, (Escaped, Consumed, LostInTheHouse))]
    assert endings == [events[-1]]
    end = events[-1]
    placed = sum(isinstance(e, CardPlaced) for e in events)
    assert final.score == len(final.table) == 1 + placed + 1 == end.score
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert outcome.label == final.ending.value
    assert outcome.scores == (final.score,)
    assert outcome.returns == ((1.0,) if final.ending is Ending.ESCAPED else (0.0,))
    assert GAME.returns(final) == outcome.returns

    model = Model()
    for i, event in enumerate(events):
        if isinstance(event, Escaped):
            assert isinstance(events[i - 1], Moved)
            assert model.player == model.exit_cell == event.cell
            assert model.spade != event.cell
            assert model.club != event.cell
            assert final.ending is Ending.ESCAPED
        if isinstance(event, Consumed):
            where = model.spade if event.stalker == SPADE_STALKER else model.club
            assert where == model.player == event.cell
            assert final.ending is Ending.CONSUMED
        if isinstance(event, Moved):
            assert event.source == model.player
            assert event.target in oracle_moves(model.table, model.player)
        model.apply(event)
        if i + 1 < len(events):
            # M-20: the moment a Stalker and the player share a cell, the game is lost.
            shared = model.player in (model.spade, model.club)
            assert shared == isinstance(events[i + 1], Consumed), (event, events[i + 1])


@given(seed=seeds, data=st.data(), max_turns=st.integers(1, 25))
def test_max_turns_ends_the_game_lost_after_exactly_that_many_turns(
    seed: int, data: st.DataObject, max_turns: int
) -> None:
    """M-22: with a limit, the game is lost in the house exactly when it reaches the end
    of turn ``max_turns`` still going; the opening Move is not a turn."""
    game = play(mapless(max_turns), seed, data)
    final = game.final
    turns = [e.turn for e in game.events if isinstance(e, TurnStarted)]
    assert turns == list(range(1, final.turn + 1))
    assert final.turn <= max_turns
    codes = event_codes(game.events)
    if final.ending is Ending.LOST:
        assert final.turn == max_turns
        assert game.events[-1] == LostInTheHouse(max_turns, final.score)
    else:
        assert not codes.endswith("L")
    for state in game.states:
        assert state.turn <= max_turns


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_the_hunt_opens_with_a_lone_move(seed: int, data: st.DataObject, explicit: bool) -> None:
    """M-9, M-12, M-13: phase one only draws and places; once the Exit is placed there is
    exactly one Move with no Expand before it and no Encounter or Stalker step after it;
    then every turn runs Expand, Move, Encounter, Stalkers (the whole game has the shape
    ``strategies.GAME_SHAPE``)."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    codes = event_codes(game.events)
    assert GAME_SHAPE.fullmatch(codes), codes
    opening = codes.index("E")
    assert codes[opening + 1] == "m"
    assert codes[opening + 2 :][:1] in ("T", "C")
    for step in game.steps:
        if any(isinstance(e, ExitPlaced) for e in step.next_state.events):
            after = step.next_state
            assert after.phase is Phase.MOVE
            assert after.turn == 0
            assert after.player == ENTRANCE_CELL
            assert after.spade == after.exit_cell
        if step.state.turn == 0 and isinstance(step.action, Move):
            kinds = [type(e) for e in step.next_state.events]
            assert kinds[0] is Moved
            assert Encounter not in kinds
            assert StalkerStepped not in kinds
            assert StalkerWaited not in kinds
            if kinds[1:]:
                assert kinds[1] in (TurnStarted, Consumed)


def test_every_table_has_at_least_two_exit_candidates() -> None:
    """M-11: the farthest card always has two or three empty neighbours at distance D + 1
    (off an axis: one across and one up or down; on an axis: three), so the Exit is always
    the player's choice and the single-candidate branch cannot happen in a real game."""

    @given(
        cells=st.sets(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), max_size=30),
    )
    def check(cells: set[tuple[int, int]]) -> None:
        table = {c: Card.of(5, Suit.SPADES) for c in cells} | {ENTRANCE_CELL: Card.parse("AD")}
        assert len(oracle_exit_cells(table)) >= 2

    check()


def test_stalker_step_agrees_with_the_rulings_everywhere() -> None:
    """M-18, M-19: the engine's ``stalker_step`` agrees with the independent reading for
    every Stalker and player cell in a 9 x 9 square, with no cell forbidden and with each
    of the Stalker's neighbours forbidden in turn."""
    square = [(x, y) for x in range(-4, 5) for y in range(-4, 5)]
    for stalker in square:
        for player in square:
            if stalker == player:
                continue
            for never in (None, *around(stalker)):
                expected = oracle_stalker_target(stalker, player, never)
                assert stalker_step(stalker, player, never) == expected, (stalker, player, never)


@given(
    spots=st.dictionaries(
        st.tuples(st.integers(-4, 4), st.integers(-4, 4)),
        st.sampled_from(NARRATIVE_CARDS),
        max_size=20,
    ),
    drawn=st.sampled_from([c for c in NARRATIVE_CARDS if c != EXIT]),
    pick=st.integers(0, 100),
)
def test_the_rule_functions_agree_with_the_rulings(
    spots: dict[tuple[int, int], Card], drawn: Card, pick: int
) -> None:
    """M-4 to M-7, M-11: ``corridor_cells``, ``room_cells`` and ``exit_candidates`` agree
    with the independent reading on arbitrary tables (closed cells recomputed from
    scratch: every empty cell touching a corridor that touches two or more cards)."""
    table = {**spots, ENTRANCE_CELL: ENTRANCE}
    grid = Grid(table)
    closed = frozenset(
        n
        for cell, card in table.items()
        if corridor(card) and touching_count(table, cell) >= 2
        for n in around(cell)
        if n not in table
    )
    rooms = sorted(c for c, k in table.items() if k.rank >= 11)
    last_room = rooms[pick % len(rooms)] if rooms and pick % 3 else None
    expected = oracle_place_cells(table, drawn, last_room)
    if corridor(drawn):
        assert corridor_cells(grid, closed, last_room) == expected
    else:
        assert room_cells(grid, closed) == expected
    assert exit_candidates(grid) == oracle_exit_cells(table)
