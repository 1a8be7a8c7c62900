"""The position notation of Escape from Haydes: states and observations as one line of
text, read back exactly (pools, mixes and several beliefs included), every malformed
field named."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, Card
from cardcrawl.errors import NotationError
from cardcrawl.haydes import EscapeFromHaydes, Phase

SMALL_LAYOUT = [(x, y) for x in range(-4, 5) for y in range(-2, 4)]


def load(**options: Any) -> EscapeFromHaydes:
    game: EscapeFromHaydes = cardcrawl.load("escape-from-haydes", **options)
    return game


GAMES = [
    load(max_rounds=25),
    load(players=2, max_rounds=12, tuybe=True),
    load(players=3, max_rounds=8, creatures="denizens"),
    load(players=4, max_rounds=6, splits=[(7, 9), (9, 7)] * 2),
    # Two decks on a small layout: the Replacement deck runs out and is reshuffled.
    load(players=2, max_rounds=60, deck_count=2, layout=SMALL_LAYOUT),
]
STACKS = [None, {"build": ["QH", "5S", "RJ"], "replacement": ["KS"], "rolls": [7, 12]}]
RNG = "rng=0000000000000001"
SOLO = GAMES[0]
STANDARD = load(max_rounds=300)


def no_events(value: Any) -> Any:
    return attrs.evolve(value, events=())


def options_at(game: EscapeFromHaydes, state: Any) -> list[Any]:
    if game.current_player(state) == CHANCE:
        return [a for a, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


@pytest.mark.slow
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32),
    data=st.data(),
    explicit=st.booleans(),
    stack=st.sampled_from(STACKS),
)
def test_every_state_of_a_random_game_reads_back_and_plays_on_alike(
    game: EscapeFromHaydes, seed: int, data: st.DataObject, explicit: bool, stack: Any
) -> None:
    """H-3 to H-13: the notation holds all that decides the game: the state read back is
    the same but for the step's events, is written the same, and the next step from it
    makes the very same state; every seat's observation reads back too."""
    state = game.initial_state(seed, explicit_chance=explicit, stack=stack)
    for step in range(60):
        text = game.notation(state)
        again = game.position(text)
        assert again == no_events(state)
        assert game.notation(again) == text
        # The seats take turns at observing (all seats see alike but for their number).
        seen = game.observe(state, step % game.num_players)
        written = game.observation_notation(seen)
        assert game.observation_position(written) == no_events(seen)
        assert "rng=" not in written
        if game.is_terminal(state):
            break
        action = data.draw(st.sampled_from(options_at(game, state)))
        after = game.step(state, action)
        assert game.step(again, action) == after
        state = after


def test_a_seat_cannot_tell_a_determinized_twin_by_its_notation() -> None:
    game = GAMES[1]
    state = game.initial_state(4, stack={"build": ["QH", "2S"], "rolls": [9]})
    for _ in range(30):
        for seat in range(2):
            twin = game.determinize(state, seat, seed=8)
            assert game.observation_notation(game.observe(twin, seat)) == (
                game.observation_notation(game.observe(state, seat))
            )
        if game.is_terminal(state):
            break
        state = game.step(state, game.legal_actions(state)[0])


def test_the_start_of_a_game() -> None:
    state = SOLO.initial_state(1)
    text = SOLO.notation(state)
    board, *fields = text.split(" ")
    rows = board.split("/")
    # The standard layout (H-4): eleven rows, the Black Joker at the centre of the sixth.
    assert [len(row) for row in rows] == [9, 11, 11, 11, 11, 12, 11, 11, 11, 9]
    assert rows[5] == "*****BJ*****"
    assert fields == [
        "phase=turn",
        "round=1",
        "current=0",
        "first=0",
        "seats=8/8@0,0",
        "unseen=all/all",
        f"rng={state.rng:016x}",
    ]


def test_rows_run_from_the_top() -> None:
    """A card turned at (0, 1) lies in the row above the Black Joker's."""
    state = SOLO.initial_state(1, stack={"build": ["QH"]})
    state = SOLO.step(state, SOLO.parse_action("higher 0,1"))
    rows = SOLO.notation(state).split(" ")[0].split("/")
    assert rows[4] == "*****QH*****"
    assert rows[5] == "*****BJ*****"
    assert "unseen=all-QH/all" in SOLO.notation(state)


def test_a_stacked_start_writes_the_stacks() -> None:
    game = GAMES[1]
    state = game.initial_state(2, stack={"build": ["QH", "5S"], "rolls": [7], "first_player": 1})
    text = game.notation(state)
    assert "unseen=QH,5S|all-5S,QH/all" in text
    assert "stacked_rolls=7" in text
    seen = game.observation_notation(game.observe(state, 0))
    assert "unseen=all/all" in seen
    assert "stacked" not in seen
    assert "player=0" in seen


MULTI = (
    "*********/***********/***********/******~****/***1*1*1*~5S***/***1*1*BJ*3S***/******"
    "*****/***********/***********/********* phase=turn round=9 current=0 first=0 seats=7"
    "/7@2,1 shown=2,1;2,0 removed=QH,4S,4S,5S,5S,6S,6S,7S,8S,8S,9S,9S,10S,10S,JS,JS,QS,QS"
    ",KS,KS,AH,AH,2H,2H,3H,3H,4H,4H,5H,5H,6H,6H,7H,7H,8H,8H,9H,9H,10H,10H,JH,JH,QH,KH,KH,"
    "AD,AD,2D,2D,3D,3D,4D,4D,5D,5D,6D,6D,7D,7D,8D,8D,9D,9D,10D,10D,JD,JD,QD,QD,KD,KD,AC,A"
    "C,2C,2C,3C,3C,4C,4C,5C,5C,6C,7C,7C,8C,8C,9C,9C,10C,10C,JC,JC,QC,QC,KC,KC mixes=RJ un"
    "seen=3*all-3S,3S,5S,9S,2D,4D,5D,3C,RJ/AS,AS,2S,2S,3S/3S,3S,7S,9S,2D,4D,5D,3C,6C:0.0."
    "1;2*all-3S,3S,5S,9S,2D,4D,5D,3C,RJ/AS,AS,2S,2S,3S,3S/3S,7S,9S,2D,4D,5D,3C,6C:0.1.0 r"
    "ng=0000000000000003 explicit_chance"
)


def test_several_beliefs_about_the_unseen_cards_read_back() -> None:
    """H-10, H-12: the Replacement deck ran out while the Red Joker's turn was dealt, so
    a mix holds cards of two pools; a 3S turned there may have come from either, and the
    public knowledge is two weighted beliefs."""
    state = STANDARD.position(MULTI)
    assert [belief.weight for belief in state.beliefs] == [3, 2]
    assert len(state.beliefs[0].unseen) == 3
    assert state.mixes[0].known == (Card.parse("RJ"),)
    assert STANDARD.notation(state) == MULTI
    seen = STANDARD.observe(state, 0)
    assert STANDARD.observation_position(STANDARD.observation_notation(seen)) == seen
    # It plays on: every legal action, and every chance outcome after it.
    for action in STANDARD.legal_actions(state):
        after = STANDARD.step(state, action)
        assert STANDARD.position(STANDARD.notation(after)) == no_events(after)
        for outcome in (
            options_at(STANDARD, after) if STANDARD.current_player(after) == CHANCE else ()
        ):
            final = STANDARD.step(after, outcome)
            assert STANDARD.position(STANDARD.notation(final)) == no_events(final)


def test_a_pool_is_written_the_shorter_way() -> None:
    """A pool of the setup's decks is written as all but what left it, or as its cards,
    whichever is shorter; a reshuffled pool always as its cards."""
    unseen = next(f for f in MULTI.split(" ") if f.startswith("unseen="))
    first = unseen.removeprefix("unseen=").split(";")[0]
    build, replacement, reshuffled = first.split(":")[0].split("/")
    assert build.startswith("3*all-")
    assert replacement == "AS,AS,2S,2S,3S"
    assert not reshuffled.startswith("all")


START = SOLO.notation(SOLO.initial_state(1))
BOARD, _, REST = START.partition(" ")


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        (f"{BOARD} phase=turn seats=8/8@0,0 {RNG}", "unseen", "gives its unseen"),
        (f"{BOARD} phase=turn unseen=all/all {RNG}", "seats", "gives its seats"),
        (f"{BOARD} seats=8/8@0,0 unseen=all/all {RNG}", "phase", "gives its phase"),
        (f"{BOARD}/* {REST}", "board", "has 10 rows"),
        (f"*{BOARD} {REST}", "board", "row 1 of the layout has 9 cells, not 10"),
        (f"{BOARD.replace('BJ', 'XX')} {REST}", "board", "row 6 has 'XX"),
        (f"{BOARD.replace('BJ', '*')} {REST}", "board", "Black Joker"),
        (START.replace("phase=turn", "phase=reveal:higher"), "phase", "reveal:GUESS:x,y"),
        (START.replace("phase=turn", "phase=roll:luck"), "phase", "roll:charisma|endurance"),
        (START.replace("phase=turn", "phase=over:won"), "phase", "over:ENDING"),
        (START.replace("phase=turn", "phase=flee"), "phase", "'flee' is not a phase"),
        (START.replace("phase=turn", "phase=turn:0"), "phase", "written alone"),
        (START.replace("seats=8/8@0,0", "seats=8/8"), "seats", "CHARISMA/ENDURANCE@x,y"),
        (START.replace("seats=8/8@0,0", "seats=8/8@0,1"), "seats", "not on a face-up card"),
        (START.replace("seats=8/8@0,0", "seats=8/8@0,0;8/8@0,0"), "seats", "1 seats"),
        (START.replace("seats=8/8@0,0", "seats=10/9@0,0"), "seats", "out of 0..9"),
        (START.replace("unseen=all/all", "unseen=all/all/all"), "unseen", "no deck of the setup"),
        (START.replace("unseen=all/all", "unseen=all-ZZ/all"), "unseen", "'ZZ' is not a card"),
        (START.replace("unseen=all/all", "unseen=all/all-RJ"), "unseen", "fewer times"),
        (START.replace("unseen=all/all", "unseen=all"), "unseen", "Replacement pool"),
        (START.replace("round=1", "round=x"), "round", "'x' is not a count"),
        (START.replace("current=0", "current=2"), "current", "the player to move"),
        (START + " mixes=RJ", "mixes", "the board marks the cells of 0 mixes"),
        (START + " shown=0,1", "shown", "shown must list"),
        (START + " stacked_rolls=1", "stacked_rolls", "stacked rolls are totals"),
        (START.replace("rng=", "rng=x"), "rng", "16 hex digits"),
    ],
)
def test_a_malformed_position_names_its_field(text: str, field: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as caught:
        SOLO.position(text)
    assert caught.value.field == field


def test_an_observation_names_its_seat() -> None:
    game = GAMES[1]
    text = game.observation_notation(game.observe(game.initial_state(3), 1))
    assert game.observation_position(text).player == 1
    with pytest.raises(NotationError, match="has 2 players") as caught:
        game.observation_position(text.replace("player=1", "player=2"))
    assert caught.value.field == "player"
    with pytest.raises(NotationError, match="not a field of an observation") as caught:
        game.observation_position(f"{text} {RNG}")
    assert caught.value.field == "rng"


@given(
    start=st.integers(0, len(START)),
    length=st.integers(0, 12),
    junk=st.text(
        alphabet="*~!/0123456789SHDCQKJABR.,;:|=-@ abcdefghijklmnopqrstuvwxyz", max_size=12
    ),
)
def test_an_edited_notation_reads_as_a_position_or_raises_notation_error(
    start: int, length: int, junk: str
) -> None:
    text = START[:start] + junk + START[start + length :]
    try:
        state = SOLO.position(text)
    except NotationError:
        return
    SOLO.validate(state)
    assert SOLO.position(SOLO.notation(state)) == state


@given(text=st.text(max_size=60))
def test_arbitrary_text_raises_only_notation_error(text: str) -> None:
    for read in (SOLO.position, SOLO.observation_position):
        with contextlib.suppress(NotationError):
            read(text)


@pytest.mark.parametrize("players", [1, 4])
def test_the_repr_is_the_notation(players: int) -> None:
    """A state's and an observation's repr is the notation ``game.position`` reads, along
    a whole game, with the ``all`` pools of the setup the layout implies."""
    game = cardcrawl.load("escape-from-haydes", players=players)
    state = game.initial_state(seed=3)
    chooser = random.Random(players)
    while not game.is_terminal(state):
        state = game.step(state, chooser.choice(game.legal_actions(state)))
        assert repr(state) == f"<HaydesState {game.notation(state)!r}>"
        seen = game.observe(state, players - 1)
        assert repr(seen) == f"<HaydesObservation {game.observation_notation(seen)!r}>"
    assert game.position(repr(state)[14:-2]) == attrs.evolve(state, events=())


def test_the_repr_of_a_larger_setup() -> None:
    """With eight decks the layout holds 210 cells, and the repr reads against eight decks'
    pools: ``all`` means the same as in ``game.notation``."""
    cells = [(x, y) for y in range(-7, 7) for x in range(-7, 8)]
    game = cardcrawl.load("escape-from-haydes", deck_count=8, layout=cells)
    state = game.initial_state(seed=1)
    assert "unseen=all/all" in repr(state)
    assert repr(state) == f"<HaydesState {game.notation(state)!r}>"


def test_a_junk_state_still_has_a_repr() -> None:
    state = attrs.evolve(SOLO.initial_state(1), layout=((0, 0),))
    assert repr(state) == "<HaydesState that its notation cannot write>"


# ---------------------------------------------------------------- the builder
def parts_of(state: Any) -> dict[str, Any] | None:
    """The parts game.build takes for ``state``, or None for a state it cannot build
    (a mix, a stacked deck, several beliefs)."""
    (belief, *others) = state.beliefs
    if others or state.mixes or any(deck.stacked for deck in belief.unseen):
        return None
    up = {c: card.code for c, card in zip(state.layout, state.face_up, strict=True) if card}
    del up[(0, 0)]
    return {
        "face_up": up,
        "pools": {c: p for c, p in zip(state.layout, state.pool_of, strict=True) if p > 0},
        "overcome": sorted(state.overcome),
        "phase": state.phase,
        "aim": None if state.aim is None else (state.aim.cell, state.aim.guess, state.aim.tuybe),
        "chosen": state.chosen,
        "ending": state.ending,
        "winner": state.winner,
        "round": state.round,
        "current": state.current,
        "first": state.first,
        "seats": [(f.charisma, f.endurance, f.cell) for f in state.seats],
        "shown": list(state.shown),
        "discard": state.discard,
        "removed": [card.code for card in state.removed],
        "unseen": [deck.rest for deck in belief.unseen],
        "stacked_first": state.stacked_first,
        "stacked_rolls": list(state.stacked_rolls),
        "rng": state.rng,
        "explicit_chance": state.explicit_chance,
    }


@pytest.mark.slow
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), data=st.data())
def test_every_plain_state_of_a_random_game_builds_from_its_parts(
    game: EscapeFromHaydes, seed: int, data: st.DataObject
) -> None:
    """game.build(**parts) makes the state whose parts they are (but for its events)."""
    state = game.initial_state(seed, explicit_chance=data.draw(st.booleans()))
    built = 0
    for _ in range(40):
        parts = parts_of(state)
        if parts is not None:
            assert game.build(**parts) == no_events(state)
            built += 1
        if game.is_terminal(state):
            break
        state = game.step(state, data.draw(st.sampled_from(options_at(game, state))))
    assert built


def test_a_built_position_is_the_start_of_a_game_by_default() -> None:
    state = SOLO.initial_state(1)
    assert SOLO.build(rng=state.rng) == no_events(state)


def test_the_seen_cards_leave_the_build_deck_first() -> None:
    """Without unseen=, the cards seen came from the Build deck, as many as its face-down
    cells leave room for (here the two face up); the rest from the Replacement deck."""
    game = GAMES[1]
    state = game.build(
        face_up={(0, 1): "QH", (1, 0): "5S"},
        seats=[(8, 8, (1, 0)), (7, 9, (0, 1))],
        current=1,
        discard="2C 3C",
        removed=["KD"],
        round=3,
        phase="encounter",
    )
    build, replacement = state.beliefs[0].unseen
    assert len(build) == 105 - 2
    assert Counter(build.cards)[Card.parse("QH")] == 1
    assert len(replacement) == state.replacement_left == 104 - 3
    assert Counter(replacement.cards)[Card.parse("KD")] == 1
    # Seat 1 stands on the Q♥: its creature waits to be faced (H-8).
    assert state.phase is Phase.ENCOUNTER
    assert {type(a).__name__ for a in game.legal_actions(state)} == {"Choose"}


@pytest.mark.parametrize(
    ("parts", "field", "message"),
    [
        ({"seed": 3}, "seed", "not a part of a position"),
        ({"face_up": [(0, 1)]}, "face_up", "a mapping of cells"),
        ({"face_up": {(0, 0): "QH"}}, "face_up", "the Black Joker"),
        ({"face_up": {(9, 9): "QH"}}, "face_up", "not a cell of the layout"),
        ({"face_up": {(0, 1): "ZZ"}}, "face_up", "a card or its code"),
        ({"seats": [(8, 8)]}, "seats", "a seat is"),
        ({"seats": [(8, 8, (0, 1))]}, "seats", "not on a face-up card"),
        ({"aim": (0, 1)}, "aim", "(cell, guess)"),
        ({"aim": ((3, 3), "higher")}, "phase", "not one a move can aim at"),
        ({"aim": ((0, 1), "higher"), "phase": "turn"}, "aim", "only phase reveal"),
        ({"phase": "roll", "chosen": "luck"}, "chosen", "a Characteristic"),
        ({"ending": "won"}, "ending", "an Ending"),
        ({"winner": 0}, "winner", "only phase over"),
        ({"pools": {(0, 1): 2}}, "unseen", "give the unseen cards"),
        ({"pools": {(0, 0): 1}}, "pools", "not a face-down cell"),
        ({"discard": ["RJ", "RJ"]}, "unseen", "seen more often than the decks hold it"),
        ({"round": -1}, "round", "a number from 0"),
        ({"current": "0"}, "current", "a number from -1"),
        ({"shown": [(0, 1)]}, "shown", "shown must list"),
        ({"unseen": [[], []]}, "unseen", "not a legal position"),
        ({"rng": -1}, "rng", "2\\*\\*64 - 1"),
    ],
)
def test_a_bad_part_is_named(parts: dict[str, Any], field: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as caught:
        SOLO.build(**parts)
    assert caught.value.field == field
