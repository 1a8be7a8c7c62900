"""The working position: thawing and freezing keep states immutable values, and freezing
shares with the parent state what a step did not change."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.bots import RandomBot
from cardcrawl.mapless import Phase
from cardcrawl.mapless._kernel import MaplessKernel
from cardcrawl.mapless._position import (
    WorkingDeck,
    WorkingGrid,
    empty_around,
    empty_neighbours,
    freeze,
    laid_neighbours,
    open_cells,
    put_card,
    setup,
    thaw,
)
from cardcrawl.mapless._rules import _CORRIDOR


def _states(seed: int) -> list[Any]:
    game = cardcrawl.load("mapless-house", max_turns=30)
    state, bot, states = game.initial_state(seed), RandomBot(game, seed, 0), []
    while not game.is_terminal(state):
        states.append(state)
        state = game.step(state, bot.choose(game, None, game.legal_actions(state)))
    return [*states, state]


def test_a_state_thawed_and_frozen_is_the_same_state() -> None:
    for seed in range(5):
        for state in _states(seed):
            again = freeze(thaw(state), list(state.events))
            assert again == state
            assert again.table is state.table
            assert again.narrative is state.narrative


def test_a_copy_of_the_working_table_reads_as_the_table() -> None:
    """A hook may copy what it is given (copy.copy, pickle): the working grid's copy
    reads as the grid does, and the grid itself goes on changing alone."""
    game = cardcrawl.load("mapless-house")
    position = thaw(game.initial_state(seed=1, stack={"narrative": ["KS"]}))
    table = position.working_table()
    for copied in (copy.copy(table), pickle.loads(pickle.dumps(table))):
        assert copied.cards == table.cards
        assert copied.frontier == table.frontier
        assert copied.degree((0, 0)) == 0
        assert len(copied) == 1
    copied = copy.copy(table)
    table.put((1, 0), cardcrawl.Card.parse("KS"))
    assert (1, 0) in table.cards
    assert (1, 0) not in copied.cards
    assert (1, 0) in copied.frontier
    assert (1, 0) not in table.frontier


def test_no_state_changes_whatever_is_played_from_it() -> None:
    """Immutability: a state handed out never changes, however many steps and rollouts
    are played from it and from the states made from it."""
    game = cardcrawl.load("mapless-house", max_turns=30)
    kernel = MaplessKernel(game)
    for seed in range(4):
        states = _states(seed)
        saved = [pickle.dumps(s) for s in states]
        for i, state in enumerate(states):
            if game.is_terminal(state):
                continue
            for action in game.legal_actions(state):
                child = game.step(state, action)
                if not game.is_terminal(child):
                    game.step(child, game.legal_actions(child)[-1])
            kernel.play(seed + i, 10_000, start=state)
        assert [pickle.dumps(s) for s in states] == saved


def test_a_move_shares_the_table_it_did_not_change() -> None:
    game = cardcrawl.load("mapless-house", max_turns=30)
    moves = 0
    for seed in range(3):
        for state in _states(seed):
            if state.phase is Phase.MOVE:
                # A move, maybe an Encounter and a new turn's draw: no card is placed.
                after = game.step(state, game.legal_actions(state)[0])
                assert after.table is state.table
                moves += 1
    assert moves > 10


def _grids(seed: int, cards: int, spread: int) -> list[tuple[Any, Any]]:
    """A table grown at random, card by card, on a board and by dicts, each step's two
    grids: cells of the frontier, or anywhere within ``spread`` of the Entrance."""
    rng = random.Random(seed)
    start = cardcrawl.Grid({(0, 0): cardcrawl.Card.parse("AD")})
    on_board, by_dicts = WorkingGrid.copy_of(start, board=True), WorkingGrid.copy_of(start)
    assert on_board.board is not None
    assert by_dicts.board is None
    grids = []
    for _ in range(cards):
        if rng.random() < 0.8:
            cell = rng.choice(sorted(by_dicts.frontier))
        else:
            cell = (rng.randint(-spread, spread), rng.randint(-spread, spread))
            if cell in by_dicts:
                continue
        card = cardcrawl.Card(rng.randrange(52))
        put_card(on_board, cell, card)
        put_card(by_dicts, cell, card)
        grids.append((on_board, by_dicts))
    return grids


@pytest.mark.parametrize(("seed", "spread"), [(1, 10), (2, 10), (3, 40), (4, 80)])
def test_a_grid_on_a_board_answers_as_one_by_dicts(seed: int, spread: int) -> None:
    """The rules' questions (open_cells, empty_neighbours, empty_around, laid_neighbours)
    and the grid's own (cards, frontier) get the same answers of either form, on the
    board and off it."""
    rng = random.Random(seed)
    left_the_board = False
    for on_board, by_dicts in _grids(seed, 60, spread):
        left_the_board |= on_board.board is None
        assert on_board.cards == by_dicts.cards
        assert on_board.frontier == by_dicts.frontier
        frontier = sorted(by_dicts.frontier)
        closed = frozenset(rng.sample(frontier, k=len(frontier) // 3))
        cells = [*frontier, *on_board.cards, (spread + 40, 0)]
        among = tuple(rng.sample(cells, k=4))
        for touching in (0, 1, 2, 3):
            for grid_closed in (closed, frozenset(), closed):  # the marks follow the set
                ours = open_cells(on_board, touching, grid_closed)
                assert ours == open_cells(by_dicts, touching, grid_closed)
                ours = open_cells(on_board, touching, grid_closed, among)
                assert ours == open_cells(by_dicts, touching, grid_closed, among)
        for cell in on_board.cards:
            assert empty_neighbours(on_board, cell) == empty_neighbours(by_dicts, cell)
        for cell in [*on_board.cards, *frontier]:
            for kinds in (_CORRIDOR, [True] * 52):
                assert empty_around(on_board, cell, kinds) == empty_around(by_dicts, cell, kinds)
            assert laid_neighbours(on_board, cell) == laid_neighbours(by_dicts, cell)
        # The frozen grids a working grid makes read as the ones of the other form.
        cell, ace = frontier[0], cardcrawl.Card.parse("AS")
        assert on_board.place(cell, ace).frontier == by_dicts.place(cell, ace).frontier
        replaced = on_board.replace(next(iter(on_board.cards)), ace)
        assert replaced == by_dicts.replace(next(iter(by_dicts.cards)), ace)
        assert replaced.frontier == by_dicts.frontier
    assert left_the_board == (spread > 30)


def test_a_position_on_a_board_freezes_into_the_state_of_one_by_dicts() -> None:
    game = cardcrawl.load("mapless-house", max_turns=30)
    for seed in range(3):
        for state in _states(seed)[::5]:
            on_board, by_dicts = thaw(state), thaw(state)
            on_board.board_table()
            assert type(on_board.table) is WorkingGrid
            assert game._decision_cells(on_board) == game._decision_cells(by_dicts)
            # A hook's changed copy shares the board, whose marks follow the set it reads.
            for closed in (frozenset(), state.closed):
                ours = game.room_cells(attrs.evolve(on_board, closed=closed))
                assert ours == game.room_cells(attrs.evolve(by_dicts, closed=closed))
            frozen = freeze(on_board, list(state.events))
            assert frozen == state
            assert frozen.table.frontier == state.table.frontier


@pytest.mark.parametrize("stacked", ["", "5S 9C"])
def test_a_working_deck_draws_as_a_deck_draws_first_frozen_then_by_lists(stacked: str) -> None:
    """Whatever form a working deck holds its cards in (the next frozen deck after its
    first draw or take, its own lists after that), it draws exactly as ``Deck.draw``
    and takes as ``Deck.take``, and the frozen deck it was made from never changes."""
    cards = cardcrawl.parse_cards("2S 3S 5S 7S 9C JC KC KD")
    top = cardcrawl.parse_cards(stacked) if stacked else []
    source = cardcrawl.Deck.stacked_on(top, cardcrawl.Deck.of(cards))
    kept = copy.deepcopy(source)
    position = setup(
        0, False, dict.fromkeys(("narrative", "mind", "body"), source), cardcrawl.Grid()
    )
    for seed in range(20):
        rng = random.Random(seed)
        working, deck, state = WorkingDeck.of(source), source, rng.getrandbits(64)
        while deck:
            if rng.random() < 0.3:
                card = rng.choice([c for c, _ in deck.outcomes()])
                working.take(card)
                deck = deck.take(card)
            else:
                card, deck, expected = deck.draw(state)
                position.rng = state  # the draw moves the position's generator on
                drawn = working.draw(position)
                state = position.rng
                assert (drawn, state) == (card, expected)
            assert working.freeze() == deck
            assert len(working) == len(deck)
            assert working.cards == deck.cards
        assert source == kept
