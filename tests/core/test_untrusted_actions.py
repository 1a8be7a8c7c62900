"""Actions, texts, errors and states that untrusted input cannot break.

A fuzzing audit found that ``Place((1.0, 0)) == Place((1, 0))`` let float (and bool)
cells pass as legal actions, so that ``step`` stored a float key and the saved state
would not load; that no action constructor checked its arguments; that
``parse_action`` read Unicode and underscore digits; and that Haydes actions (and so
Haydes states), ``IllegalActionError`` and custom options did not survive ``pickle``.
Each defect has a regression test here, and Hypothesis throws junk at every
constructor and at both parsers, and checks that pickled states play on exactly like
the originals.
"""

from __future__ import annotations

import copy
import enum
import fractions
import pickle
from collections.abc import Callable
from typing import Any, NamedTuple

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import (
    CHANCE,
    ActionError,
    Card,
    CardcrawlError,
    IllegalActionError,
    ParseError,
    Suit,
)
from cardcrawl import errors as errors_module
from cardcrawl import haydes as h
from cardcrawl import mapless as m
from cardcrawl.kit import standard_deck
from strategies import seeds

BOUND = 999_999_999  # the largest coordinate: nine digits, as the parsers read
CARDS = standard_deck(jokers=True)

# ---------------------------------------------------------------- the constructors

# Every action class of both games: its game's parser and what each argument is.
KINDS: list[tuple[Callable[[str], Any], type, tuple[str, ...]]] = [
    (m.parse_action, m.Place, ("cell",)),
    (m.parse_action, m.PlaceExit, ("cell",)),
    (m.parse_action, m.Move, ("cell",)),
    (m.parse_action, m.Draw, ("card",)),
    (h.parse_action, h.Move, ("cell", "guess")),
    (h.parse_action, h.Step, ("cell",)),
    (h.parse_action, h.Tuybe, ("cell", "guess")),
    (h.parse_action, h.EndTurn, ()),
    (h.parse_action, h.Choose, ("characteristic",)),
    (h.parse_action, h.FirstPlayer, ("seat",)),
    (h.parse_action, h.Reveal, ("card",)),
    (h.parse_action, h.Roll, ("total",)),
]
KIND_IDS = [f"{kind.__module__.split('.')[1]}.{kind.__name__}" for _, kind, _ in KINDS]

# Valid arguments, by what the argument is.
VALID: dict[str, st.SearchStrategy[Any]] = {
    "cell": st.tuples(st.integers(-BOUND, BOUND), st.integers(-BOUND, BOUND)),
    "card": st.sampled_from(CARDS),
    "guess": st.sampled_from(h.Guess),
    "characteristic": st.sampled_from(h.Characteristic),
    "seat": st.integers(0, 3),
    "total": st.integers(0, 999),
}
EXAMPLE: dict[str, Any] = {
    "cell": (1, 0),
    "card": Card.parse("QS"),
    "guess": h.Guess.HIGHER,
    "characteristic": h.Characteristic.CHARISMA,
    "seat": 1,
    "total": 7,
}


def is_valid(what: str, value: Any) -> bool:
    """This test's own reading of what each argument may be (see the action modules)."""
    if what == "cell":
        return (
            type(value) is tuple
            and len(value) == 2
            and all(type(v) is int and -BOUND <= v <= BOUND for v in value)
        )
    if what == "card":
        return type(value) is Card
    if what == "guess":
        return type(value) is h.Guess
    if what == "characteristic":
        return type(value) is h.Characteristic
    low, high = {"seat": (0, 3), "total": (0, 999)}[what]
    return type(value) is int and low <= value <= high


class Colour(enum.IntEnum):
    RED = 1


class Point(NamedTuple):
    x: int
    y: int


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(10**30), 10**30),
    st.floats(),
    st.complex_numbers(),
    st.fractions(),
    st.decimals(),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.sampled_from(
        [
            10**5000,
            -(10**12),
            BOUND + 1,
            Colour.RED,
            Suit.SPADES,
            "higher",
            "QS",
            "1,0",
            BadRepr(),
            object(),
            fractions.Fraction(1, 1),
            *h.Guess,
            *h.Characteristic,
            *CARDS[::13],
        ]
    ),
)
JUNK = st.one_of(
    _scalars,
    st.tuples(_scalars, _scalars),
    st.tuples(st.integers(), st.integers()),
    st.tuples(st.integers(-9, 9), st.integers(-9, 9), st.integers(-9, 9)),
    st.tuples(st.integers(-9, 9)),
    st.lists(st.integers(-9, 9), max_size=3),
    st.builds(Point, st.integers(-9, 9), st.integers(-9, 9)),
    st.frozensets(st.integers(-9, 9), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


@pytest.mark.parametrize(("parse", "kind", "fields"), KINDS, ids=KIND_IDS)
@given(data=st.data())
def test_junk_arguments_raise_only_action_errors(
    parse: Callable[[str], Any], kind: type, fields: tuple[str, ...], data: st.DataObject
) -> None:
    """Any arguments at all make an action or raise ActionError naming the class (never
    another error), exactly as this test's own reading of the arguments predicts; an
    action made formats as text that parses back to it, and pickles."""
    args = [data.draw(st.one_of(VALID[f], JUNK), label=f) for f in fields]
    if not all(map(is_valid, fields, args)):
        with pytest.raises(ActionError, match=rf"^{kind.__name__}\(\w+=\.\.\.\) takes "):
            kind(*args)
        return
    action = kind(*args)
    assert parse(str(action)) == action
    assert str(parse(str(action))) == str(action)
    assert pickle.loads(pickle.dumps(action)) == action


@pytest.mark.parametrize(("parse", "kind", "fields"), KINDS, ids=KIND_IDS)
def test_valid_arguments_make_an_action_equal_to_its_repr(
    parse: Callable[[str], Any], kind: type, fields: tuple[str, ...]
) -> None:
    action = kind(*(EXAMPLE[f] for f in fields))
    namespace = {"Card": Card, "Guess": h.Guess, "Characteristic": h.Characteristic}
    namespace[kind.__name__] = kind
    assert eval(repr(action), namespace) == action
    assert parse(str(action)) == action


@pytest.mark.parametrize(
    "make",
    [m.Place, m.PlaceExit, m.Move, h.Step, lambda c: h.Move(c, h.Guess.LOWER)],
    ids=["Place", "PlaceExit", "mapless.Move", "Step", "haydes.Move"],
)
@pytest.mark.parametrize(
    "cell",
    [
        (1.0, 0),
        (1, 0.0),
        (True, 0),
        (0, False),
        None,
        [1, 0],
        (1,),
        (1, 0, 0),
        "1,0",
        (BOUND + 1, 0),
        (0, -BOUND - 1),
        (Colour.RED, 0),
        Point(1, 0),
    ],
    ids=repr,
)
def test_a_cell_is_a_tuple_of_two_plain_integers(make: Callable[[Any], Any], cell: Any) -> None:
    with pytest.raises(ActionError, match=r"takes a cell, a tuple \(x, y\) of two integers"):
        make(cell)


def test_a_cell_may_reach_nine_digits() -> None:
    for cell in ((BOUND, -BOUND), (-BOUND, BOUND)):
        assert m.parse_action(str(m.Place(cell))) == m.Place(cell)
        assert h.parse_action(str(h.Tuybe(cell, h.Guess.HIGHER))) == h.Tuybe(cell, h.Guess.HIGHER)


def test_a_float_cell_no_longer_passes_for_a_legal_one() -> None:
    """The defect: Place((1.0, 0)) == Place((1, 0)), so step took it and stored (1.0, 0)."""
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(seed=1)
    assert m.Place((1, 0)) in game.legal_actions(state)
    with pytest.raises(ActionError, match=r"not \(1\.0, 0\)"):
        m.Place((1.0, 0))
    with pytest.raises(TypeError):  # what code catching a built-in would expect
        m.Place(cell=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"not \(True, 0\)"):
        m.Place((True, 0))
    after = game.step(state, m.Place((1, 0)))
    assert game.state_from_data(game.state_to_data(after)) == after


def test_a_float_seat_no_longer_breaks_step() -> None:
    """The defect: Haydes' FirstPlayer(0.0) raised a bare TypeError inside step."""
    game = cardcrawl.load("escape-from-haydes", players=2)
    state = game.initial_state(seed=1, explicit_chance=True)
    for seat in (0.0, True, -1, 4, "0", None):
        with pytest.raises(ActionError, match=r"FirstPlayer\(seat=\.\.\.\) takes a seat"):
            h.FirstPlayer(seat)  # type: ignore[arg-type]
    assert game.step(state, h.FirstPlayer(0)).current == 0


def test_a_well_formed_action_may_still_be_illegal_in_a_state() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2)
    state = game.initial_state(seed=1, explicit_chance=True)
    with pytest.raises(IllegalActionError):
        game.step(state, h.FirstPlayer(3))  # a seat, but not of a two-player game


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: m.Draw("QS"), r"Draw\(card=\.\.\.\) takes a Card such as Card.parse\('QS'\)"),
        (lambda: m.Draw(12), r"Draw\(card=\.\.\.\) takes a Card"),
        (lambda: h.Reveal(None), r"Reveal\(card=\.\.\.\) takes a Card"),
        (lambda: h.Move((0, 1), "higher"), r"Move\(guess=\.\.\.\) takes a Guess"),
        (lambda: h.Tuybe((0, 2), None), r"Tuybe\(guess=\.\.\.\) takes a Guess"),
        (lambda: h.Choose("charisma"), r"Choose\(characteristic=\.\.\.\) takes a Characteristic"),
        (lambda: h.Choose(h.Guess.LOWER), r"takes a Characteristic.*; not Guess.LOWER$"),
        (
            lambda: h.Roll(1000),
            r"Roll\(total=\.\.\.\) takes a roll total, an integer from 0 to 999",
        ),
        (lambda: h.Roll(7.0), r"Roll\(total=\.\.\.\) takes a roll total"),
        (lambda: h.Roll(10**5000), r"not an integer of about 5000 digits$"),
        (lambda: m.Move(BadRepr()), r"not a BadRepr whose repr fails$"),
        (lambda: m.Move("x" * 10_000), r"not 'x+\.\.\.$"),
        (lambda: attrs.evolve(m.Place((1, 0)), cell=(1.5, 0)), r"Place\(cell=\.\.\.\)"),
        (lambda: attrs.evolve(h.Roll(7), total=1000), r"Roll\(total=\.\.\.\)"),
    ],
)
def test_every_argument_is_checked_and_the_message_says_what_it_takes(
    make: Callable[[], Any], message: str
) -> None:
    with pytest.raises(ActionError, match=message) as caught:
        make()
    assert len(str(caught.value)) < 200


def test_an_action_error_is_a_cardcrawl_error_a_type_error_and_a_value_error() -> None:
    assert issubclass(ActionError, CardcrawlError)
    assert issubclass(ActionError, TypeError)
    assert issubclass(ActionError, ValueError)
    assert cardcrawl.ActionError is errors_module.ActionError
    assert "ActionError" in cardcrawl.__all__


# ---------------------------------------------------------------- the parsers

PARSERS = [m.parse_action, h.parse_action]
PARSER_IDS = ["mapless", "haydes"]


@pytest.mark.parametrize("parse", PARSERS, ids=PARSER_IDS)
@pytest.mark.parametrize(
    "number",
    [
        "١",  # ARABIC-INDIC DIGIT ONE
        "１",  # FULLWIDTH DIGIT ONE
        "𝟏",  # MATHEMATICAL BOLD DIGIT ONE
        "1_0",
        "+1",
        "--1",
        "- 1",
        "1e3",
        "0x1",
        "1.0",
        "",
        "9" * 10,
        "-" + "9" * 10,
        "1" * 5000,
    ],
    ids=repr,
)
def test_numbers_are_ascii_digits_with_an_optional_minus(
    parse: Callable[[str], Any], number: str
) -> None:
    texts = [f"{verb} {number},0" for verb in ("place", "move", "higher", "step")]
    texts += [f"{verb} 0,{number}" for verb in ("exit", "lower")]
    texts += [f"tuybe higher {number},0", f"first {number}", f"roll {number}"]
    for text in texts:
        with pytest.raises(ParseError, match="is not an action of") as caught:
            parse(text)
        assert len(str(caught.value)) < 600


@pytest.mark.parametrize(
    ("parse", "text", "action"),
    [
        (m.parse_action, "place -0,007", m.Place((0, 7))),
        (m.parse_action, "  MOVE 999999999,-999999999\n", m.Move((BOUND, -BOUND))),
        (h.parse_action, "Tuybe LOWER -1,2", h.Tuybe((-1, 2), h.Guess.LOWER)),
        (h.parse_action, "first 03", h.FirstPlayer(3)),
        (h.parse_action, "roll 12", h.Roll(12)),
    ],
)
def test_ascii_numbers_still_parse(parse: Callable[[str], Any], text: str, action: Any) -> None:
    assert parse(text) == action


@pytest.mark.parametrize("text", ["roll 1000", "roll -1", "first 4", "first -1"])
def test_a_number_out_of_range_is_a_parse_error_saying_what_is_allowed(text: str) -> None:
    with pytest.raises(ParseError, match="an integer from") as caught:
        h.parse_action(text)
    assert not isinstance(caught.value, ActionError)


@pytest.mark.parametrize("parse", PARSERS, ids=PARSER_IDS)
@pytest.mark.parametrize(
    "text",
    ["draw Qſ", "dra\u0301w QS", "place\u00a01,0", "tuybe" + " " * 60 + "higher 1,0", "x" * 10**6],
)
def test_text_beyond_short_ascii_is_a_parse_error(parse: Callable[[str], Any], text: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse(text)
    assert len(str(caught.value)) < 600  # a huge text is not copied into the message


_VERBS = [
    "place",
    "exit",
    "move",
    "draw",
    "higher",
    "lower",
    "tuybe",
    "step",
    "end",
    "charisma",
    "endurance",
    "first",
    "reveal",
    "roll",
]
_TOKENS = st.one_of(
    st.sampled_from(_VERBS),
    st.sampled_from(_VERBS).map(str.upper),
    st.from_regex(r"[-+]?[0-9_١]{0,11}(,[-+]?[0-9_１]{0,11})?", fullmatch=True),
    st.sampled_from([c.code for c in CARDS] + ["10h", "1s", "rj", "ZZ"]),
    st.text(max_size=5),
)
TEXTS = st.one_of(
    st.text(),
    st.lists(_TOKENS, max_size=4).map(" ".join),
    st.tuples(st.sampled_from(["", " ", "\t", "\u3000"]), st.lists(_TOKENS, max_size=4)).map(
        lambda pair: pair[0].join(pair[1]) + pair[0]
    ),
)


@given(text=TEXTS)
def test_random_text_is_an_action_that_formats_back_or_a_parse_error(text: str) -> None:
    """Whatever the text, each parser raises ParseError (only) or gives an action whose
    text parses back to it; text with any non-ASCII character left once stripped never
    names an action."""
    for parse in PARSERS:
        try:
            action = parse(text)
        except ParseError:
            continue
        assert text.strip().isascii()
        assert parse(str(action)) == action
        assert str(parse(str(action))) == str(action)


# ---------------------------------------------------------------- pickling and copying


def round_trips(value: Any) -> list[Any]:
    """``value`` through pickle (every protocol), copy.copy and copy.deepcopy."""
    copies = [pickle.loads(pickle.dumps(value, protocol)) for protocol in range(2, 6)]
    return [*copies, copy.copy(value), copy.deepcopy(value)]


def every_action() -> list[Any]:
    actions: list[Any] = []
    for _, kind, fields in KINDS:
        actions.append(kind(*(EXAMPLE[f] for f in fields)))
    actions += [h.Move((-3, 2), h.Guess.LOWER), h.Choose(h.Characteristic.ENDURANCE)]
    return actions


@pytest.mark.parametrize("action", every_action(), ids=repr)
def test_every_action_round_trips_through_pickle_and_copy(action: Any) -> None:
    """The defect: a Haydes action came back without its order key, so ==, hash and
    sorting raised AttributeError."""
    others = every_action()
    for again in round_trips(action):
        assert type(again) is type(action)
        assert again == action
        assert hash(again) == hash(action)
        assert repr(again) == repr(action)
        assert str(again) == str(action)
        if isinstance(action, h.Move | h.Step | h.Tuybe | h.Choose | h.Roll | h.Reveal):
            # One order across kinds: the copy sorts exactly where the original does.
            mixed = [a for a in others if type(a).__module__ == type(action).__module__]
            assert [a < again for a in mixed] == [a < action for a in mixed]


def error_examples() -> list[BaseException]:
    """One instance of every error class _errors defines."""
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(seed=1)
    try:
        game.step(state, m.Place((5, 5)))
    except IllegalActionError as error:
        illegal = error
    illegal.add_note("while fuzzing")
    built = []
    for name in errors_module.__all__:
        cls = getattr(errors_module, name)
        built.append(illegal if cls is IllegalActionError else cls(f"a {name}"))
    return built


@pytest.mark.parametrize("error", error_examples(), ids=lambda e: type(e).__name__)
def test_every_error_round_trips_through_pickle_and_copy(error: BaseException) -> None:
    """The defect: IllegalActionError could not be unpickled (its __init__ takes the
    state, the action, the decision, the legal actions and the reason, not a message)."""
    for again in round_trips(error):
        assert type(again) is type(error)
        assert str(again) == str(error)
        assert again.args == error.args
        assert getattr(again, "__notes__", None) == getattr(error, "__notes__", None)
        if isinstance(error, IllegalActionError):
            assert isinstance(again, IllegalActionError)
            assert again.state == error.state
            assert (again.action, again.decision, again.reason) == (
                error.action,
                error.decision,
                error.reason,
            )
            assert again.legal == error.legal


def test_every_error_class_is_covered() -> None:
    names = {type(e).__name__ for e in error_examples()}
    classes = {
        name
        for name, obj in vars(errors_module).items()
        if isinstance(obj, type)
        and issubclass(obj, BaseException)
        and obj.__module__ == errors_module.__name__
    }
    assert classes == names


# Games whose states, options, observations and events are copied below; their options
# include the frozen mappings (dread lines, a creature table) that pickle cannot take.
def dread_lines() -> dict[str, str]:
    return {c.code: f"Dread {c.code}." for c in m.PLACEABLE_CARDS}


GAMES: list[tuple[str, dict[str, Any]]] = [
    ("mapless-house", {"max_turns": 12}),
    ("mapless-house", {"max_turns": 12, "dread_lines": dread_lines()}),
    ("escape-from-haydes", {"players": 2, "max_rounds": 12}),
    (
        "escape-from-haydes",
        {"players": 3, "tuybe": True, "max_rounds": 8, "creatures": "denizens"},
    ),
    (
        "escape-from-haydes",
        {"players": 1, "max_rounds": 8, "creatures": dict(h.CREATURE_TABLES["denizens"])},
    ),
]
GAME_IDS = ["mapless", "mapless-dread-lines", "haydes-2p", "haydes-3p-tuybe", "haydes-table"]


def next_action(game: Any, state: Any, data: st.DataObject) -> Any:
    if game.current_player(state) == CHANCE:
        outcomes = [outcome for outcome, _ in game.chance_outcomes(state)]
        return data.draw(st.sampled_from(outcomes), label="outcome")
    return data.draw(st.sampled_from(game.legal_actions(state)), label="action")


@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
def test_options_round_trip_through_pickle_and_copy(name: str, options: dict[str, Any]) -> None:
    game = cardcrawl.load(name, **options)
    for again in round_trips(game.options):
        assert type(again) is type(game.options)
        assert again == game.options
        assert again.to_data() == game.options.to_data()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("explicit", [False, True], ids=["sampled", "explicit"])
@given(seed=seeds, data=st.data())
def test_a_pickled_state_plays_on_exactly_like_the_original(
    name: str, options: dict[str, Any], explicit: bool, seed: int, data: st.DataObject
) -> None:
    """Mid-game, a state's pickled and deep copies equal it, start with an empty cache,
    list the same legal actions, and (given the same actions, themselves pickled) step
    to the same states with the same events, observations and saved data."""
    game = cardcrawl.load(name, **options)
    state = game.initial_state(seed, explicit_chance=explicit)
    for _ in range(data.draw(st.integers(0, 40), label="cut")):
        if game.is_terminal(state):
            break
        state = game.step(state, next_action(game, state, data))
    game.legal_actions(state)  # fill the original's cache: copies must not depend on it
    copies = [pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)]
    for again in copies:
        assert again == state
        assert again._memo == {}
        assert game.state_to_data(again) == game.state_to_data(state)
    for _ in range(25):
        assert [game.legal_actions(c) for c in copies] == [game.legal_actions(state)] * 3
        if game.is_terminal(state):
            assert all(game.is_terminal(c) for c in copies)
            break
        action = next_action(game, state, data)
        state = game.step(state, action)
        copies = [game.step(c, pickle.loads(pickle.dumps(action))) for c in copies]
        for again in copies:
            assert again == state
            assert again.events == state.events
        player = game.current_player(state)
        if player >= 0:
            seen = game.observe(state, player)
            assert all(o == seen for o in round_trips(seen))
        for event in state.events:
            assert all(e == event for e in round_trips(event))
