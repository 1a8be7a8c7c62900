"""SVG pictures: the generic renderer lookup, The Mapless House's picture, and
``cardcrawl render``.

Every picture is parsed as XML, and what it shows (which cards, face up or down, on
which cells) is compared with what the state holds, computed here from the state's
fields alone.
"""

from __future__ import annotations

import io
import json
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, Card, Match, NoRendererError
from cardcrawl.cli._main import main
from cardcrawl.haydes import EscapeFromHaydes
from cardcrawl.haydes import _svg as haydes_svg
from cardcrawl.kit import Picture
from cardcrawl.kit._svg import card_svg, document, register_svg
from cardcrawl.mapless import MaplessHouse, MaplessState, Phase, render_svg

GAME = "mapless-house"
GAME_OBJ = cardcrawl.load(GAME, max_turns=40)
NS = "{http://www.w3.org/2000/svg}"
seeds = st.integers(0, 2**64 - 1)


# ------------------------------------------------------------------ helpers
def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def cards_of(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if "card" in classes(g)]


def cell_of(element: ET.Element) -> tuple[int, int]:
    x, y = element.get("data-cell", "").split(",")
    return int(x), int(y)


def expected_face_up(state: MaplessState) -> Counter[str]:
    """Every face-up card a picture of ``state`` shows, by code: the table, both
    Stalkers (on the table or still to come), the piles, the held cards, and the card
    drawn or turned."""
    cards = [
        *state.table.values(),
        Card.parse("AS"),
        Card.parse("AC"),
        *state.mind_aside,
        *state.body_aside,
        *state.refused,
        *state.held,
        *(c for c in (state.drawn, state.mind_card) if c is not None),
    ]
    return Counter(c.code for c in cards)


def expected_backs(state: MaplessState) -> list[int]:
    """One face-down card per deck that is not empty, with its size."""
    return [len(d) for d in (state.narrative, state.mind, state.body) if d]


def expected_card_count(state: MaplessState) -> int:
    return sum(expected_face_up(state).values()) + len(expected_backs(state))


def states_of_random_game(seed: int, explicit: bool, data: st.DataObject) -> list[Any]:
    """Every state of one game played to its end with choices drawn by Hypothesis."""
    game = GAME_OBJ
    states = [game.initial_state(seed, explicit_chance=explicit)]
    while not game.is_terminal(states[-1]):
        state = states[-1]
        options = game.legal_actions(state) or tuple(a for a, _ in game.chance_outcomes(state))
        states.append(game.step(state, data.draw(st.sampled_from(options))))
    return states


def check_picture(state: MaplessState) -> ET.Element:
    """Parse the picture of ``state`` and check it against the state's fields."""
    text = render_svg(state)
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    width, height = root.get("width"), root.get("height")
    assert root.get("viewBox") == f"0 0 {width} {height}"
    cards = cards_of(root)
    face_up = [g for g in cards if "back" not in classes(g)]
    backs = [g for g in cards if "back" in classes(g)]
    assert Counter(g.get("data-card") for g in face_up) == expected_face_up(state)
    assert [int(g.get("data-count", "-1")) for g in backs] == expected_backs(state)
    assert len(cards) == expected_card_count(state)
    table = {cell_of(g): g.get("data-card") for g in face_up if "table" in classes(g)}
    assert table == {cell: card.code for cell, card in state.table.items()}
    stalkers = {
        g.get("data-card"): cell_of(g)
        for g in face_up
        if "stalker" in classes(g) and "waiting" not in classes(g)
    }
    on_table = {"AS": state.spade, "AC": state.club}
    assert stalkers == {code: cell for code, cell in on_table.items() if cell is not None}
    pawns = [g for g in root.iter(f"{NS}g") if classes(g) == {"token", "player"}]
    assert len(pawns) == 1
    return root


# ------------------------------------------------------------ the picture
@given(seeds, st.booleans(), st.data())
def test_every_state_is_drawn_faithfully(seed: int, explicit: bool, data: st.DataObject) -> None:
    """Each picture is well-formed XML and shows exactly the cards the state holds,
    face up where the player sees them and one back per deck (M-2)."""
    states = states_of_random_game(seed, explicit, data)
    # Drawing is the slow part: a dozen states of each game, always the last one.
    some = data.draw(st.sets(st.integers(0, len(states) - 1), max_size=12))
    for index in sorted(some | {len(states) - 1}):
        check_picture(states[index])


def test_initial_picture_counts() -> None:
    state = GAME_OBJ.initial_state(3)
    root = check_picture(state)
    # The Entrance, two Stalkers to come, three decks and the card to place.
    assert len(cards_of(root)) == 7
    assert [g.get("data-count") for g in cards_of(root) if "back" in classes(g)] == [
        "24",
        "12",
        "12",
    ]


def test_legal_cells_and_targets_are_marked() -> None:
    game = GAME_OBJ
    match = Match.start(game, 1)
    seen = set()
    while not game.is_terminal(match.state):
        state = match.state
        root = ET.fromstring(render_svg(state))
        legal = {g for g in root.iter(f"{NS}g") if "legal" in classes(g)}
        targets = {g for g in root.iter(f"{NS}g") if "target" in classes(g)}
        cells = {a.cell for a in game.legal_actions(state)}  # type: ignore[attr-defined]
        if state.phase in (Phase.PLACE, Phase.PLACE_EXIT):
            assert {cell_of(g) for g in legal} == cells
            assert not targets
        if state.phase is Phase.MOVE:
            assert {cell_of(g) for g in targets} == cells
            assert not legal
        seen.add(state.phase)
        match.play(game.legal_actions(state)[0])
    assert {Phase.PLACE, Phase.PLACE_EXIT, Phase.MOVE} <= seen


def test_explicit_chance_shows_the_turned_mind_card() -> None:
    game = GAME_OBJ
    match = Match.start(game, 2, explicit_chance=True)
    while match.state.mind_card is None:
        state = match.state
        if game.current_player(state) == CHANCE:
            match.play(game.chance_outcomes(state)[0][0])
        else:
            match.play(game.legal_actions(state)[0])
    assert match.state.phase is Phase.DRAW_BODY
    root = check_picture(match.state)
    turned = [g for g in cards_of(root) if "turned" in classes(g)]
    assert [g.get("data-card") for g in turned] == [match.state.mind_card.code]


def test_cards_placed_in_the_step_are_outlined() -> None:
    game = GAME_OBJ
    state = game.initial_state(4)
    action = game.legal_actions(state)[0]
    after = game.step(state, action)
    new = [g for g in cards_of(ET.fromstring(render_svg(after))) if "new" in classes(g)]
    assert [cell_of(g) for g in new] == [action.cell]  # type: ignore[attr-defined]


def test_pictures_are_deterministic_and_differ_between_steps() -> None:
    game = GAME_OBJ
    match = Match.start(game, 11)
    for _ in range(6):
        match.play(game.legal_actions(match.state)[0])
    pictures = [render_svg(s) for s in match.states]
    assert pictures == [render_svg(s) for s in Match.from_record(match.to_record()).states]
    assert len(set(pictures)) == len(pictures)


def test_text_is_escaped() -> None:
    card = card_svg(Card.parse("10H"), 0, 0, title='<"10♥"> & more')
    root = ET.fromstring(document(60, 80, [card], title="A & B <c>"))
    assert root.find(f"{NS}title").text == "A & B <c>"  # type: ignore[union-attr]
    group = root.find(f"{NS}g")
    assert group is not None
    assert group.find(f"{NS}title").text == '<"10♥"> & more'  # type: ignore[union-attr]
    assert group.get("data-card") == "10H"


# ------------------------------------------------------- generic lookup
def test_svg_wraps_the_games_renderer_in_a_picture(tmp_path: Path) -> None:
    state = GAME_OBJ.initial_state(5)
    picture = cardcrawl.svg(GAME_OBJ, state)
    assert picture == Picture(render_svg(state))
    assert picture._repr_svg_() == str(picture) == picture.text
    path = tmp_path / "state.svg"
    picture.save(path)
    assert path.read_text("utf-8") == picture.text


def test_a_variant_class_inherits_the_renderer() -> None:
    class Haunted(MaplessHouse):
        pass

    cardcrawl.register_variant(
        "mapless-house-haunted-test", base=GAME, game_class=Haunted, replace=True
    )
    game = cardcrawl.load("mapless-house-haunted-test")
    state = game.initial_state(5)
    assert cardcrawl.svg(game, state).text == render_svg(state)


def test_a_game_without_renderer_says_how_to_give_it_one() -> None:
    class Plain:
        pass

    assert cardcrawl.find_renderer(Plain()) is None
    with pytest.raises(NoRendererError, match=r"GameTools\(svg=\.\.\.\)") as caught:
        cardcrawl.svg(Plain(), None)
    assert isinstance(caught.value, LookupError)


def test_a_render_svg_method_wins_over_the_registry() -> None:
    class Drawn(MaplessHouse):
        def render_svg(self, state: Any) -> str:
            return "<svg xmlns='http://www.w3.org/2000/svg'/>"

    assert cardcrawl.svg(Drawn(), None).text == "<svg xmlns='http://www.w3.org/2000/svg'/>"


def test_the_renderer_is_a_slot_of_the_game_tools() -> None:
    class Framed(MaplessHouse):
        pass

    tools = attrs.evolve(cardcrawl.tools_for("mapless-house"), svg=lambda game, state: "<svg/>")
    cardcrawl.register_game("framed-house-test", Framed, tools=tools, replace=True)
    game = cardcrawl.load("framed-house-test")
    assert cardcrawl.svg(game, game.initial_state(1)).text == "<svg/>"
    # A variant draws with its base game's renderer.
    cardcrawl.register_variant("framed-house-brief-test", base="framed-house-test", replace=True)
    assert cardcrawl.svg(cardcrawl.load("framed-house-brief-test"), None).text == "<svg/>"


def test_register_svg_still_works_for_a_release_and_says_what_replaces_it() -> None:
    class Own:
        pass

    with pytest.warns(DeprecationWarning, match=r"GameTools\(svg=\.\.\.\)"):
        register_svg(Own, lambda game, state: "<svg/>")
    with (
        pytest.warns(DeprecationWarning, match="register_svg is deprecated"),
        pytest.raises(cardcrawl.CardcrawlError, match="already registered"),
    ):
        register_svg(Own, lambda game, state: "<svg/>")
    with pytest.warns(DeprecationWarning, match="register_svg is deprecated"):
        register_svg(Own, lambda game, state: f"<svg>{state}</svg>", replace=True)
    assert cardcrawl.svg(Own(), 3).text == "<svg>3</svg>"


def test_importing_a_game_package_registers_no_renderer() -> None:
    """Renderers are declared in the games' tools, none registered by importing."""
    from cardcrawl.kit import _svg
    from cardcrawl.mapless import _svg as mapless_svg

    assert {haydes_svg.__name__, mapless_svg.__name__} <= set(sys.modules)
    assert MaplessHouse not in _svg._RENDERERS
    assert EscapeFromHaydes not in _svg._RENDERERS
    assert cardcrawl.tools_for("escape-from-haydes").svg is not None


# ------------------------------------------------------- the command line
def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def record_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = Match.start(GAME_OBJ, 9)
    while not GAME_OBJ.is_terminal(match.state):
        match.play(GAME_OBJ.legal_actions(match.state)[-1])
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(match.to_record().to_json(), "utf-8")
    return path


def states_of(path: Path) -> list[Any]:
    return list(cardcrawl.Record.from_json(path.read_text("utf-8")).states())


def test_render_writes_the_last_state_by_default(record_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "last.svg"
    code, stdout, err = run("render", str(record_path), "--output", str(out))
    states = states_of(record_path)
    assert (code, err) == (0, "")
    assert stdout == f"Step {len(states) - 1} of {len(states) - 1} drawn to {out}.\n"
    assert out.read_text("utf-8") == render_svg(states[-1]) + "\n"


def test_render_a_step_to_standard_output(record_path: Path) -> None:
    code, stdout, err = run("render", str(record_path), "--step", "2")
    assert (code, err) == (0, "")
    assert stdout == render_svg(states_of(record_path)[2]) + "\n"
    ET.fromstring(stdout)


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--step", "9999"], "--step 9999"),
        (["--step", "-1"], "--step -1"),
        (["--step", "two"], "two"),
        (["--output", "/no/such/dir/x.svg"], "does not exist"),
        (["--colour"], "--colour"),
    ],
)
def test_render_bad_arguments_are_usage_errors(
    record_path: Path, argv: list[str], named: str
) -> None:
    code, stdout, err = run("render", str(record_path), *argv)
    assert code == 2
    assert stdout == ""
    assert err.startswith("usage: cardcrawl")
    assert named in err


def test_render_without_a_record_is_a_usage_error() -> None:
    assert run("render")[0] == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read"), ("{not json", "JSON"), ('{"game": 1}', "keys")],
)
def test_render_bad_files_fail_with_a_message(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content, "utf-8")
    code, stdout, err = run("render", str(path))
    assert (code, stdout) == (1, "")
    assert message in err
    assert "Traceback" not in err


def test_render_refuses_a_record_that_does_not_replay(record_path: Path, tmp_path: Path) -> None:
    data = json.loads(record_path.read_text("utf-8"))
    data["actions"][4] = "move 99,99"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), "utf-8")
    code, stdout, err = run("render", str(path), "--step", "1")
    assert (code, stdout) == (1, "")
    assert "entry 4" in err


# ------------------------------------------------------- Escape from Haydes
def haydes_expected(state: Any) -> tuple[dict[tuple[int, int], str | None], int]:
    """(the card code by cell, None when face down; how many cards are drawn): one per
    cell, a back for the Replacement deck unless it is empty, the top of each pile."""
    cells = {
        cell: (card.code if card is not None else None)
        for cell, card in zip(state.layout, state.face_up, strict=True)
    }
    extra = (state.replacement_left > 0) + bool(state.discard) + bool(state.removed)
    return cells, len(cells) + extra


def check_haydes_picture(state: Any) -> ET.Element:
    root = ET.fromstring(haydes_svg.render_svg(state))
    cards = cards_of(root)
    cells, count = haydes_expected(state)
    assert len(cards) == count
    drawn = {
        cell_of(g): (None if "back" in classes(g) else g.get("data-card"))
        for g in cards
        if "cell" in classes(g)
    }
    assert drawn == cells
    piles = {
        next(iter(classes(g) - {"card"})): g.get("data-card")
        for g in cards
        if classes(g) & {"discard", "removed"}
    }
    tops = {"discard": state.discard, "removed": state.removed}
    assert piles == {name: pile[-1].code for name, pile in tops.items() if pile}
    figures = {
        int(g.get("data-seat", "-1")): cell_of(g)
        for g in root.iter(f"{NS}g")
        if classes(g) == {"figure"}
    }
    assert figures == {s: f.cell for s, f in enumerate(state.seats) if f.cell is not None}
    mix = next((m for m in state.mixes if Card.RED_JOKER in m.known), None)
    marked = {cell_of(g) for g in cards if "mix" in classes(g)}
    assert marked == (set(mix.cells) if mix is not None else set())
    aims = [cell_of(g) for g in root.iter(f"{NS}g") if classes(g) == {"aim"}]
    assert aims == ([state.aim.cell] if state.aim is not None else [])
    return root


@given(seeds, st.integers(1, 4), st.booleans(), st.data())
def test_every_haydes_state_is_drawn_faithfully(
    seed: int, players: int, explicit: bool, data: st.DataObject
) -> None:
    """Every cell shows its card face up or face down as the state holds it (H-4,
    H-6), the Red Joker's mix is marked (H-10), and each figure stands on its cell."""
    game = cardcrawl.load("escape-from-haydes", players=players, max_rounds=12)
    state = game.initial_state(seed, explicit_chance=explicit)
    states = [state]
    while not game.is_terminal(state) and len(states) < 200:
        options = game.legal_actions(state) or tuple(a for a, _ in game.chance_outcomes(state))
        state = game.step(state, data.draw(st.sampled_from(options)))
        states.append(state)
    some = data.draw(st.sets(st.integers(0, len(states) - 1), max_size=3))
    for index in sorted(some | {len(states) - 1}):
        check_haydes_picture(states[index])


def test_haydes_has_a_renderer_once_its_module_is_imported() -> None:
    game = cardcrawl.load("escape-from-haydes-tuybe", players=2)
    state = game.initial_state(4)
    assert cardcrawl.svg(game, state).text == haydes_svg.render_svg(state)
    root = check_haydes_picture(state)
    assert len(cards_of(root)) == 107


def test_render_refuses_a_record_of_another_rules_version(
    record_path: Path, tmp_path: Path
) -> None:
    data = json.loads(record_path.read_text("utf-8"))
    data["rules_version"] = "0-old"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), "utf-8")
    code, stdout, err = run("render", str(path))
    assert (code, stdout) == (1, "")
    assert "rules version '0-old'" in err
