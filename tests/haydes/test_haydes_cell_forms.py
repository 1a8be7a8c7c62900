"""The two forms of a Haydes state's by-cell fields (``face_up`` and ``pool_of``).

The rules' steps keep the face-up cards as a small mapping and the pools by cell apart
from them (``_up``, ``_pools``); the public fields are tuples made from those when first
read. These tests check that the two forms never disagree, whichever a state was built
with, and that a state holding only one form plays on exactly as one holding the other;
and that a working position's own form (the cards as bytes by cell) and its copies hold
what the state does.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.core._random import rng_from_seed
from cardcrawl.haydes import EscapeFromHaydes, HaydesState
from cardcrawl.haydes._position import Position, cards_by_cell, freeze, thaw
from cardcrawl.haydes._state import DOWN, Phase, _face_up_of, _pool_of_of, _up_of, flat_pools
from cardcrawl.kit._cards import standard_deck


class _Sticky(EscapeFromHaydes):
    """Every turned card stays face up (H-12 changed): the face-up cards pile up."""

    def stays_face_up(self, cell: Any, card: Any, occupied: bool) -> bool:
        return True


GAMES: list[EscapeFromHaydes] = [
    cardcrawl.load("escape-from-haydes", max_rounds=40),
    cardcrawl.load("escape-from-haydes", players=4, max_rounds=25),
    cardcrawl.load("escape-from-haydes", players=2, max_rounds=20, tuybe=True),
    cardcrawl.load(
        "escape-from-haydes",
        players=3,
        max_rounds=60,
        deck_count=2,
        layout=[(x, y) for x in range(-4, 5) for y in range(-3, 3)][:54],
    ),
    _Sticky(cardcrawl.load("escape-from-haydes", players=2, max_rounds=15).options),
]


def _forms_agree(state: HaydesState) -> None:
    """Whatever forms ``state.__dict__`` holds say the same."""
    fields = state.__dict__
    assert {"face_up", "pool_of"} <= fields.keys() or {"_up", "_pools"} <= fields.keys()
    if {"_up", "_pools"} <= fields.keys():
        assert all(card is not None for card in fields["_up"].values())
        if "face_up" in fields:
            assert fields["face_up"] == _face_up_of(fields)
        if "pool_of" in fields:
            assert fields["pool_of"] == _pool_of_of(fields)
    if {"face_up", "pool_of"} <= fields.keys():
        if "_up" in fields:
            assert fields["_up"] == _up_of(fields)
        if "_pools" in fields:
            # A face-up cell's pool entry means nothing: only face-down cells count.
            rules, public = flat_pools(fields["_pools"]), fields["pool_of"]
            assert [p for i, p in enumerate(rules) if fields["face_up"][i] is None] == [
                p for i, p in enumerate(public) if fields["face_up"][i] is None
            ]


def _games(game: EscapeFromHaydes, seeds: range, *, explicit: bool = False) -> Any:
    """Every state of random games (read and unread in turn), with the action taken."""
    for seed in seeds:
        choose = random.Random(seed).choice
        state = game.initial_state(seed, explicit_chance=explicit)
        while not game.is_terminal(state):
            if game.current_player(state) == cardcrawl.CHANCE:
                action = choose(game.chance_outcomes(state))[0]
            else:
                action = choose(game.legal_actions(state))
            yield state, action
            state = game.step(state, action)
            if seed % 2:
                state.face_up  # noqa: B018 - some states are read, some never are
        yield state, None


@pytest.mark.parametrize("game", GAMES, ids=lambda g: type(g).__name__ + str(g.options.players))
def test_the_forms_never_disagree(game: EscapeFromHaydes) -> None:
    for state, _ in _games(game, range(6)):
        _forms_agree(state)
    for state, _ in _games(game, range(2), explicit=True):
        _forms_agree(state)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: type(g).__name__ + str(g.options.players))
def test_a_state_rebuilt_by_its_constructor_plays_on_the_same(game: EscapeFromHaydes) -> None:
    # attrs.evolve builds through the constructor: the public form alone. The step from
    # it must be the step from the state the rules made, which holds their form alone.
    for state, action in _games(game, range(4)):
        if action is None:
            continue
        rebuilt = attrs.evolve(state)
        assert "_up" not in rebuilt.__dict__
        assert rebuilt == state
        after, again = game.step(state, action), game.step(rebuilt, action)
        assert after == again
        assert after.events == again.events
        _forms_agree(rebuilt)


def test_the_forms_are_what_the_public_fields_say() -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=20)
    state = game.initial_state(7)
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        state = game.step(state, legal[-2] if len(legal) > 1 else legal[0])  # moves, mostly
        fields = state.__dict__
        face_up, pool_of = state.face_up, state.pool_of
        assert fields["_up"] == {i: c for i, c in enumerate(face_up) if c is not None}
        assert all(pool_of[i] == -1 for i in fields["_up"])
        pools = flat_pools(fields["_pools"])
        assert len(pools) == len(face_up)
        assert all(pool_of[i] == pools[i] for i in range(len(face_up)) if face_up[i] is None)
        assert all(len(part) == 32 for part in fields["_pools"][:-1])


def test_a_step_shares_the_pools_it_left_alone() -> None:
    """A card turned changes the face-up cards only: the new state shares its pools by
    cell with the state it was thawed from (see cardcrawl.haydes._position), and a
    state handed out never changes."""
    game = cardcrawl.load("escape-from-haydes", max_rounds=20)
    state = game.initial_state(1, stack={"build": ["5S"]})
    before = state.face_up
    after = game.step(state, game.parse_action("higher 1,0"))
    assert after.__dict__["_pools"] is state.__dict__["_pools"]
    assert after.__dict__["_up"] is not state.__dict__["_up"]
    assert state.face_up == before
    assert after.face_up != before


def _slots(position: Position) -> dict[str, Any]:
    """Every field of a position, its lists copied (and the lists in them), so that a
    change in place shows."""

    def snapshot(value: Any) -> Any:
        if isinstance(value, bytearray):
            return bytes(value)
        if isinstance(value, list):
            return [snapshot(v) for v in value]
        return value

    return {name: snapshot(getattr(position, name)) for name in _SLOTS}


_SLOTS = (
    "_began_on", "_beliefs", "_card_at", "_changed", "_held", "_mask", "_mixed", "_pools",
    "_pools_frozen", "_seats_in", "_stood", "_thawed", "_unseen", "_unshown", "_up_frozen",
    "aim", "aimed", "at", "charisma",
    "chosen", "correct", "current", "discard", "encounters", "ending", "endurance",
    "events", "explicit_chance", "first", "frozen_seats", "guesses", "layout", "mixes",
    "overcame", "overcome", "phase", "removed", "replacement_left", "rng", "round", "shown",
    "stacked_first", "stacked_rolls", "turns", "winner",
)  # fmt: skip


def test_the_slots_listed_here_are_the_positions() -> None:
    slots = getattr(Position, "__slots__", None)
    if slots is not None:  # the pure-Python class; the compiled one is checked below
        assert sorted(slots) == sorted(_SLOTS)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: type(g).__name__ + str(g.options.players))
def test_a_position_holds_the_cards_by_cell_a_state_does(game: EscapeFromHaydes) -> None:
    for state, _ in _games(game, range(3)):
        position = thaw(state, game._index, list(state.events))
        card_at = cards_by_cell(state)
        assert position._card_at == card_at
        cards = standard_deck(jokers=True)  # by index
        assert [None if c == DOWN else cards[c] for c in card_at] == list(state.face_up)
        assert position._up == state._up
        assert freeze(position, game._legal_key, None) == state


@pytest.mark.parametrize("game", GAMES, ids=lambda g: type(g).__name__ + str(g.options.players))
def test_a_copy_of_a_position_is_its_own(game: EscapeFromHaydes) -> None:
    """A copy has every field of the position, shares none of its mutable parts, and
    plays on alone: the rules played on the copy leave the original as it was."""
    rules = game._rules
    escaped = False
    for seed in range(200):
        position = game._started(rng_from_seed(seed), False, {}, [], listed=seed % 2 == 1)
        while position.phase is not Phase.OVER:
            copy = position.copy()
            fields = _slots(position)
            assert _slots(copy) == fields
            for name in _SLOTS:
                value = getattr(position, name)
                if isinstance(value, list | bytearray):
                    assert getattr(copy, name) is not value, name
            codes = rules.legal_entry(copy.at[copy.current], copy.phase, copy._card_at)[1]
            rules.play(copy, codes[seed % len(codes)])
            assert _slots(position) == fields  # the original is unchanged
            position = copy
        assert _slots(position.copy()) == _slots(position)  # the winner and the ending too
        escaped = position.winner is not None
        if escaped and seed >= 3:
            break
    assert escaped  # a copy keeps the winner


class _Courtly(EscapeFromHaydes):
    """Court cards stay face up too (H-12 changed): figures step onto cards that stayed
    with nobody on them, and leave them staying."""

    def stays_face_up(self, cell: Any, card: Any, occupied: bool) -> bool:
        return occupied or (not card.is_joker and card.rank >= 11)


@pytest.mark.parametrize(
    "game",
    [*GAMES, _Courtly(cardcrawl.load("escape-from-haydes", players=4, max_rounds=30).options)],
    ids=lambda g: type(g).__name__ + str(g.options.players),
)
def test_the_end_of_a_turn_asks_again_what_can_change(game: EscapeFromHaydes) -> None:
    """H-12 asks again only the cells shown this turn and the cell the player's figure
    left (``Position._stood``, ``_began_on``): a position that asks every cell shown
    plays each decision the same."""
    rules = game._rules
    ends = 0
    for seed in range(12):
        position = game._started(rng_from_seed(seed), False, {}, None, listed=seed % 2 == 1)
        choose = random.Random(seed).choice
        while position.phase is not Phase.OVER:
            asking_all = position.copy()
            asking_all._stood = 0
            code = choose(
                rules.legal_entry(position.at[position.current], position.phase, position._card_at)[
                    1
                ]
            )
            turns = position.turns
            rules.play(position, code)
            rules.play(asking_all, code)
            ends += position.turns != turns
            mine, theirs = _slots(position), _slots(asking_all)
            del mine["_stood"], theirs["_stood"]
            assert mine == theirs
    assert ends > 50
