"""The position notation of The Mapless House: states and observations as one line of
text, read back exactly, every malformed field named."""

from __future__ import annotations

import contextlib

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import Card, Grid
from cardcrawl.errors import NotationError, ParseError
from cardcrawl.mapless import Ending, MaplessState, Phase
from strategies import mapless, options_at, play, play_by_policy, seeds

GAME = mapless(40)
RNG = "rng=0000000000000007"

# Stacked starts, so that states with stacked decks are read and written too.
STACKS = [None, {"narrative": ["KS", "5C", "AH"], "mind": "QH 2H", "body": ["KD"]}]


def no_events(value: object) -> object:
    return attrs.evolve(value, events=())  # type: ignore[misc]


@given(seed=seeds, data=st.data(), explicit=st.booleans(), stack=st.sampled_from(STACKS))
def test_every_state_of_a_random_game_reads_back_and_plays_on_alike(
    seed: int, data: st.DataObject, explicit: bool, stack: object
) -> None:
    """M-2..M-22: the notation holds all that decides the game: the state read back is
    the same but for the step's events, is written the same, and the next step from it
    (its chance draws in sampled play included) makes the very same state."""
    start = GAME.initial_state(seed, explicit_chance=explicit, stack=stack)  # type: ignore[arg-type]
    state = start
    for _ in range(400):
        text = GAME.notation(state)
        again = GAME.position(text)
        assert again == no_events(state)
        assert GAME.notation(again) == text
        assert "\n" not in text
        if GAME.is_terminal(state):
            break
        action = data.draw(st.sampled_from(options_at(GAME, state)))
        after = GAME.step(state, action)
        assert GAME.step(again, action) == after
        state = after


@given(seed=seeds, data=st.data(), explicit=st.booleans())
def test_every_observation_reads_back(seed: int, data: st.DataObject, explicit: bool) -> None:
    """The redacted form holds what the player knows, no more: an observation reads back
    the same (but for events), and a determinized twin writes the same text."""
    game = play(GAME, seed, data, explicit_chance=explicit)
    for state in game.states[::3]:
        seen = GAME.observe(state, 0)
        text = GAME.observation_notation(seen)
        assert GAME.observation_position(text) == no_events(seen)
        assert GAME.observation_notation(GAME.observe(GAME.determinize(state, 0, 5), 0)) == text
        # The position's notation is the observation's with the hidden fields added.
        assert set(text.split(" ")) <= set(GAME.notation(state).split(" "))
        assert "rng=" not in text


def test_the_start_of_a_stacked_game() -> None:
    state = GAME.initial_state(1, stack={"narrative": ["KS", "5C"], "mind": ["QH"]})
    rng = f"rng={state.rng:016x}"
    assert GAME.notation(state) == f"AD phase=place:KS player=0,0 narrative=5C mind=QH {rng}"
    assert GAME.observation_notation(GAME.observe(state, 0)) == "AD phase=place:KS player=0,0"


def test_rows_run_from_the_top_and_the_entrance_places_the_table() -> None:
    # KS above and right of the Entrance, 5C right of it: y grows upwards, as drawn.
    state = GAME.position(f".KS/AD5C phase=place:9S player=0,0 {RNG}")
    assert dict(state.table) == {
        (1, 1): Card.parse("KS"),
        (0, 0): Card.parse("AD"),
        (1, 0): Card.parse("5C"),
    }
    assert state.drawn == Card.parse("9S")
    assert state.rng == 7
    # Leading empty cells are written; a count stands for a run of them.
    state = GAME.position(f"2.KS/10SQCAD phase=place:9S player=0,0 {RNG}")
    assert state.table[(0, 1)] == Card.parse("KS")
    assert state.table[(-2, 0)] == Card.parse("10S")
    assert GAME.notation(state) == f"2.KS/10SQCAD phase=place:9S player=0,0 {RNG}"


def test_the_decks_hold_every_card_of_theirs_found_nowhere_else() -> None:
    state = GAME.position(f"KS/AD phase=place:5C player=0,0 narrative=2S,3S mind=QH {RNG}")
    assert state.narrative.stacked == (Card.parse("2S"), Card.parse("3S"))
    assert len(state.narrative) == 25 - 2  # KS and 5C are out of it
    assert Card.parse("KS") not in state.narrative
    assert state.mind.stacked == (Card.parse("QH"),)
    assert len(state.mind) == len(state.body) == 12
    GAME.validate(state)


def test_a_position_in_the_hunt() -> None:
    text = (
        "KS/ADAH/.5C phase=move turn=2 player=1,0 spade=1,0 held=4H,9D mind_aside=2H "
        "refused=QS ran_dry spade_left_exit rng=00000000000000ff explicit_chance"
    )
    state = GAME.position(text)
    assert state.phase is Phase.MOVE
    assert state.turn == 2
    assert state.exit_cell == (1, 0)
    assert state.spade == (1, 0)
    assert state.club is None
    assert state.held == (Card.parse("4H"), Card.parse("9D"))
    assert state.ran_dry
    assert state.spade_left_exit
    assert state.explicit_chance
    assert GAME.notation(state) == text
    assert repr(state) == f"<MaplessState {text!r}>"
    # The fields may come in any order; the notation writes them in one.
    shuffled = " ".join([text.split(" ")[0], *reversed(text.split(" ")[1:])])
    assert GAME.position(shuffled) == state


def test_phases_with_what_they_hold() -> None:
    over = GAME.position(f"AD phase=over:lost player=0,0 {RNG}")
    assert over.ending is Ending.LOST
    assert GAME.is_terminal(over)
    body = GAME.position(f"ADAH phase=draw-body:7H player=0,0 spade=1,0 {RNG} explicit_chance")
    assert body.mind_card == Card.parse("7H")
    assert GAME.current_player(body) == cardcrawl.CHANCE
    exit_ = GAME.position(f"KS/AD phase=place-exit player=0,0 {RNG}")
    assert exit_.drawn == Card.parse("AH")


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("", "table", "tokens separated by single spaces"),
        ("AD  phase=move", "phase", "tokens separated by single spaces"),
        ("AD player=0,0 rng=0000000000000007", "phase", "gives its phase"),
        ("AD phase=move rng=0000000000000007", "player", "gives its player"),
        ("AD phase=move player=0,0", "rng", "gives its rng"),
        (f"AD phase=move player=0,0 {RNG} {RNG}", "rng", "given twice"),
        (f"AD phase=jump player=0,0 {RNG}", "phase", "'jump' is not a phase"),
        (f"AD phase=place player=0,0 {RNG}", "phase", "place is written place:CARD"),
        (f"AD phase=move:KS player=0,0 {RNG}", "phase", "move is written alone"),
        (f"AD phase=over player=0,0 {RNG}", "phase", "over:ENDING"),
        (f"KS phase=move player=0,0 {RNG}", "table", "found it 0 times"),
        (f"AD/AD phase=move player=0,0 {RNG}", "table", "found it 2 times"),
        (f"ADKX phase=move player=0,0 {RNG}", "table", "row 1 has 'KX'"),
        (f"AD phase=move player=0 {RNG}", "player", "'0' is not a cell"),
        (f"AD phase=move player=0,0 turn=01 {RNG}", "turn", "'01' is not a count"),
        ("AD phase=move player=0,0 rng=7", "rng", "16 hex digits"),
        (f"AD phase=move player=0,0 held=XX {RNG}", "held", "'XX' is not a card code"),
        (f"AD phase=move player=0,0 seed=3 {RNG}", "seed", "not a field"),
        (f"AD phase=move player=0,0 {RNG} hunting", "hunting", "not a flag"),
        (f"AD phase=move player=0,0 {RNG} ran_dry ran_dry", "ran_dry", "given twice"),
        (f"KS/AD phase=place:KS player=0,0 {RNG}", "phase", "KS is written twice: table"),
        (f"AD phase=place:KS narrative=KS player=0,0 {RNG}", "narrative", "written twice"),
        # Well formed, but no position the rules can reach (checked by game.validate):
        (f"AD phase=move player=1,0 {RNG}", "player", "not on a table card"),
        (f"AD phase=draw player=0,0 turn=3 {RNG}", "turn", "turn must be 0 before the hunt"),
        (f"AD phase=move player=0,0 spade=0,0 {RNG}", "spade", "exactly once the Exit is"),
        (f"AD phase=place:KS player=0,0 held=2H {RNG}", "held", "before the hunt"),
        (f"AD phase=place:KS player=0,0 narrative=2H {RNG}", "narrative", "Narrative deck holds"),
        (f"AD phase=place:KS player=0,0 last_room=0,0 {RNG}", "last_room", "not a room"),
        (f"AD phase=draw player=0,0 refused=2H {RNG}", "refused", "Refused pile holds 2"),
        (f"AD2S phase=draw player=0,0 club=1,0 {RNG}", "club", "no deck has run dry"),
    ],
)
def test_a_malformed_position_names_its_field(text: str, field: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as caught:
        GAME.position(text)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: " if field else "")
    assert isinstance(caught.value, ParseError)


def test_an_observation_has_no_hidden_fields() -> None:
    with pytest.raises(NotationError, match="not a field of an observation") as caught:
        GAME.observation_position(f"AD phase=place:KS player=0,0 {RNG}")
    assert caught.value.field == "rng"
    with pytest.raises(NotationError, match="not a legal position") as caught:
        GAME.observation_position("AD phase=move player=3,3")
    assert caught.value.field == "player"


def test_the_notation_refuses_what_is_not_text() -> None:
    with pytest.raises(NotationError, match="written as text, not int"):
        GAME.position(3)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="at most 10000 characters"):
        GAME.position("AD " + "x" * 20_000)


def test_a_variant_reads_with_its_own_rules() -> None:
    """The closed cells are the game's hooks' (M-6), not a copy of the standard rule."""

    class NoCorridors(type(GAME)):  # type: ignore[misc]
        def is_corridor(self, card: Card) -> bool:
            return False

    variant = NoCorridors(GAME.options)
    # 5C, a corridor of the standard rules, touches two cards: its empty neighbours close.
    text = f"KS/AD5C/.KC phase=place:9S player=0,0 {RNG}"
    assert GAME.position(text).closed == {(2, 0), (1, 1)}
    assert variant.position(text).closed == frozenset()


def test_a_state_repr_is_short_and_its_notation() -> None:
    game = play_by_policy(mapless(80), 5, 5)
    for state in game.states:
        shown = repr(state)
        assert shown == f"<MaplessState {GAME.notation(state)!r}>"
        assert len(shown) < 400
    assert len(repr(game.states[0])) < 100
    seen = GAME.observe(game.final, 0)
    assert repr(seen) == f"<MaplessObservation {GAME.observation_notation(seen)!r}>"
    # A state edited into junk still shows.
    junk = attrs.evolve(game.final, table=Grid(), player=None)
    assert repr(junk).startswith("<MaplessState")


# ---------------------------------------------------------------- the builder
def parts_of(state: MaplessState) -> dict[str, object]:
    """The parts game.build takes for ``state``: its fields the notation does not imply."""
    return {
        "table": {cell: card.code for cell, card in state.table.items()},
        "phase": state.phase,
        "drawn": None if state.phase is Phase.PLACE_EXIT else state.drawn,
        "mind_card": state.mind_card,
        "ending": state.ending,
        "turn": state.turn,
        "player": state.player,
        "spade": state.spade,
        "club": state.club,
        "last_room": state.last_room,
        "held": state.held,
        "mind_aside": [card.code for card in state.mind_aside],
        "body_aside": " ".join(card.code for card in state.body_aside),
        "refused": state.refused,
        "narrative": state.narrative.stacked,
        "mind": state.mind.stacked,
        "body": state.body.stacked,
        "ran_dry": state.ran_dry,
        "spade_left_exit": state.spade_left_exit,
        "rng": state.rng,
        "explicit_chance": state.explicit_chance,
    }


@pytest.mark.slow
@given(seed=seeds, data=st.data(), explicit=st.booleans(), stack=st.sampled_from(STACKS))
def test_every_state_of_a_random_game_builds_from_its_parts(
    seed: int, data: st.DataObject, explicit: bool, stack: object
) -> None:
    """game.build(**parts) makes the state whose parts they are (but for its events)."""
    state = GAME.initial_state(seed, explicit_chance=explicit, stack=stack)  # type: ignore[arg-type]
    for _ in range(400):
        assert GAME.build(**parts_of(state)) == no_events(state)
        if GAME.is_terminal(state):
            break
        state = GAME.step(state, data.draw(st.sampled_from(options_at(GAME, state))))


def test_a_built_position_plays_on() -> None:
    """M-12, M-16: a hunt set up by hand, the player held by two cards, the ♠A on the
    Exit; its next Mind card stacked. The player's one move leads onto the Exit."""
    state = GAME.build(
        table={(1, 0): "AH", (0, 1): "KS", (2, 0): "5C"},
        spade=(1, 0),
        player=(2, 0),
        held="4H 9D",
        mind=["QH"],
        turn=2,
        rng=5,
    )
    assert state.phase is Phase.MOVE
    assert state.exit_cell == (1, 0)
    assert state.held == (Card.parse("4H"), Card.parse("9D"))
    assert len(state.mind) == 12 - 1  # 4H is held
    assert state.mind.stacked == (Card.parse("QH"),)
    assert GAME.legal_actions(state) == (GAME.parse_action("move 1,0"),)
    # Before the Exit, the house waits on its next Narrative card (M-12).
    assert GAME.build() == GAME.position("AD phase=draw player=0,0 rng=0000000000000000")


def test_the_phase_follows_from_what_is_given() -> None:
    assert GAME.build(drawn="KS").phase is Phase.PLACE
    assert GAME.build(drawn="AH", table={(1, 0): "KS"}).phase is Phase.PLACE_EXIT
    over = GAME.build(ending=Ending.CONSUMED)
    assert over.phase is Phase.OVER
    assert over.ending is Ending.CONSUMED
    assert GAME.build(phase="over", ending="lost").ending is Ending.LOST


@pytest.mark.parametrize(
    ("parts", "field", "message"),
    [
        ({"seed": 3}, "seed", "not a part of a position"),
        ({"table": [(1, 0)]}, "table", "a mapping of cells to cards"),
        ({"table": {(0, 0): "KS"}}, "table", "the Entrance"),
        ({"table": {(1, 0): "ZZ"}}, "table", "a card or its code"),
        ({"table": {"1,0": "KS"}}, "table", "a cell"),
        ({"table": {(5, 5): "KS"}}, "table", "not one piece"),
        ({"player": "0,0"}, "player", "a cell"),
        ({"player": (True, 0)}, "player", "a cell"),
        ({"held": 5}, "held", "cards, or their codes"),
        ({"turn": -1}, "turn", "a count"),
        ({"turn": 2}, "turn", "before the hunt"),
        ({"rng": 2**64}, "rng", "2\\*\\*64 - 1"),
        ({"ran_dry": 1}, "ran_dry", "True or False"),
        ({"phase": 3}, "phase", "a Phase or its name"),
        ({"drawn": "ZZ"}, "drawn", "a card or its code"),
        ({"drawn": "KS", "phase": "move"}, "drawn", "only phase place or place-exit"),
        ({"mind_card": "2H"}, "mind_card", "only phase draw-body"),
        ({"ending": "lost", "phase": Phase.MOVE}, "ending", "only phase over"),
        ({"drawn": "KS", "phase": "place-exit"}, "drawn", "the Exit"),
        ({"held": ["2H"]}, "held", "before the hunt"),
        ({"mind_aside": ["KS"]}, "mind_aside", "Mind Aside pile holds"),
    ],
)
def test_a_bad_part_is_named(parts: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as caught:
        GAME.build(**parts)
    assert caught.value.field == field


# ------------------------------------------------------------ untrusted text
NOTATION_ALPHABET = "AD0123456789JQKSHCB.,/:=- _abcdefghijklmnopqrstuvwxyz"
VALID = [
    f"KS/ADAH5C phase=move turn=2 player=2,0 spade=1,0 held=4H,9D mind=QH {RNG}",
    f"AD phase=place:KS player=0,0 narrative=5C,2S {RNG} explicit_chance",
    f"2.KS/10SQCAD phase=over:consumed player=0,0 refused=2H {RNG} ran_dry",
]


@given(
    base=st.sampled_from(VALID),
    start=st.integers(0, 90),
    length=st.integers(0, 12),
    junk=st.text(alphabet=NOTATION_ALPHABET, max_size=12),
)
def test_an_edited_notation_reads_as_a_position_or_raises_notation_error(
    base: str, start: int, length: int, junk: str
) -> None:
    """Any text, however mangled, gives a state that validates and writes a notation
    that reads back as itself, or a NotationError; never another exception."""
    text = base[:start] + junk + base[start + length :]
    try:
        state = GAME.position(text)
    except NotationError:
        return
    GAME.validate(state)
    assert GAME.position(GAME.notation(state)) == state


@given(text=st.text(max_size=60))
def test_arbitrary_text_raises_only_notation_error(text: str) -> None:
    for read in (GAME.position, GAME.observation_position):
        with contextlib.suppress(NotationError):
            read(text)
