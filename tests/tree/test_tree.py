"""cardcrawl.tree: the solver's tree laid out and drawn, IS-MCTS's line kept."""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl.bots import make_bot
from cardcrawl.cli._analyze import analyze_match, tree_page
from cardcrawl.cli._main import main
from cardcrawl.errors import OptionsError, SolverBudgetError, UnsolvableError
from cardcrawl.solve import solve
from cardcrawl.tree import (
    TreeNode,
    search_html,
    search_position,
    search_text,
    solver_tree,
    tree_html,
    tree_svg,
)

STACK = {"build": ["5S", "QH", "2C", "RJ"]}


def facing_the_queen() -> tuple[object, object]:
    """One round of Escape from Haydes: the 5♠ and then the Q♥ turned (H-8)."""
    game = cardcrawl.load("escape-from-haydes", max_rounds=1)
    state = game.initial_state(seed=1, explicit_chance=True, stack=STACK)
    for text in ("higher 1,0", "higher 2,0"):
        state = game.step(state, game.parse_action(text))
    return game, state


def test_every_value_is_the_expectimax_of_its_children() -> None:
    game, state = facing_the_queen()
    root = solver_tree(game, state, hidden=True, max_nodes=1000)
    assert root.size == 473
    assert root.value == solve(game, state, hidden=True).value
    checked = 0
    for _, node in root.walk():
        if not node.children:
            continue
        values = [c.value for c in node.children]
        if node.kind == "chance":
            assert sum(c.probability for c in node.children) == 1  # type: ignore[misc]
            assert node.value == sum(c.probability * c.value for c in node.children)  # type: ignore[operator]
        else:
            assert node.kind == "decision"
            assert node.value == max(values)
            assert [c.best for c in node.children] == [v == node.value for v in values]
        checked += 1
    assert checked > 10


def test_the_roll_against_the_queen_by_hand() -> None:
    """Charisma 8 against the queen: a total of 8 or less on 2D6 overcomes it, 26 ways
    in 36 (H-8); overcome, the player can still win (value 1), else not (0)."""
    game, state = facing_the_queen()
    root = solver_tree(game, state, hidden=True, depth=2)
    charisma = root.children[0]
    assert charisma.edge == "charisma"
    assert charisma.kind == "chance"
    rolls = {c.edge: (c.probability, c.value) for c in charisma.children}
    assert rolls["roll 7"] == (Fraction(6, 36), Fraction(1))
    assert rolls["roll 9"] == (Fraction(4, 36), Fraction(0))
    won = sum(p for p, v in rolls.values() if v == 1)
    assert won == Fraction(26, 36) == charisma.value
    assert {c.kind for c in charisma.children} == {"cut", "end"}


def test_a_tree_too_big_is_refused_and_a_depth_bounds_it() -> None:
    game, state = facing_the_queen()
    with pytest.raises(SolverBudgetError, match="more than 20 nodes") as caught:
        solver_tree(game, state, hidden=True, max_nodes=20)
    assert caught.value.budget == "tree_nodes"
    assert solver_tree(game, state, hidden=True, depth=1).size == 3
    assert solver_tree(game, state, hidden=True, depth=0).kind == "cut"
    with pytest.raises(OptionsError):
        solver_tree(game, state, hidden=True, max_nodes=0)
    with pytest.raises(OptionsError):
        solver_tree(game, state, hidden=True, depth=-1)


def test_the_solver_s_refusals_hold() -> None:
    game, state = facing_the_queen()
    with pytest.raises(UnsolvableError, match="hides"):
        solver_tree(game, state)
    two = cardcrawl.load("escape-from-haydes", players=2, max_rounds=1)
    with pytest.raises(UnsolvableError):
        solver_tree(two, two.initial_state(seed=1, explicit_chance=True), max_nodes=10)


def test_pictures_are_well_formed_and_self_contained() -> None:
    game, state = facing_the_queen()
    root = solver_tree(game, state, hidden=True, depth=2)
    svg = ET.fromstring(tree_svg(root, title="The queen"))
    nodes = list(svg.iter("{http://www.w3.org/2000/svg}g"))
    assert len(nodes) == root.size
    best = [g for g in nodes if "best" in g.get("class", "").split()]
    assert len(best) == len(root.best_line())
    page = tree_html(root)
    assert page.count("<details") == sum(1 for _, n in root.walk() if n.children)
    assert "src=" not in page
    assert "http" not in page.replace("http-equiv", "")
    assert "26/36" not in page  # fractions are written in lowest terms
    assert "13/18" in page


def test_a_node_is_data() -> None:
    leaf = TreeNode("end", -4, Fraction(1), "over", "end")
    assert leaf.size == 1
    assert leaf.best_line() == [leaf]


def test_keeping_the_principal_variation_changes_no_search() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=4)
    state = game.initial_state(seed=4)
    seen, legal = game.observe(state, 0), game.legal_actions(state)
    plain = make_bot("ismcts", game, seed=4, iterations=120).search(game, seen, legal)
    kept = make_bot("ismcts", game, seed=4, iterations=120).search(
        game, seen, legal, principal_variation=True
    )
    assert kept.actions == plain.actions
    assert plain.principal_variation == ()
    line = kept.principal_variation
    assert line[0].action == kept.best
    assert line[0].visits == kept.stats(kept.best).visits
    assert all(0 < step.share <= 1 for step in line)


def test_a_seeded_ismcts_game_plays_the_same_after_a_search_kept_its_line() -> None:
    game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=3)

    def play(search_first: bool) -> list[object]:
        bot = make_bot("ismcts", game, seed=9, iterations=40)
        if search_first:
            other = make_bot("ismcts", game, seed=9, iterations=40)
            state = game.initial_state(seed=9)
            other.search(
                game, game.observe(state, 0), game.legal_actions(state), principal_variation=True
            )
        state, actions = game.initial_state(seed=9), []
        while not game.is_terminal(state):
            action = bot.choose(game, game.observe(state, 0), game.legal_actions(state))
            actions.append(action)
            state = game.step(state, action)
        return actions

    assert play(True) == play(False)


def test_search_views() -> None:
    game = cardcrawl.load("escape-from-haydes", players=1, max_rounds=5)
    result = search_position(game, game.initial_state(seed=2), iterations=100, seed=1)
    text = search_text(game, result)
    assert text[0] == "IS-MCTS, seat 0, 100 iterations"
    assert sum(1 for line in text if line.endswith("best")) == 1
    assert text[-1].startswith("Principal variation: ")
    assert "<ol><li>" in search_html(game, result)
    with pytest.raises(OptionsError, match="seat 0 decides"):
        search_position(game, game.initial_state(seed=2), seat=1)


def test_analyze_links_a_costly_solved_decision_to_its_tree(tmp_path: Path) -> None:
    """Twenty-one (a test game), seed 1: hitting on 16 is a blunder the solver finds."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))
    import twentyone

    twentyone.register()
    game = cardcrawl.load(twentyone.NAME)
    match = cardcrawl.Match.start(game, seed=1)
    for action in ("hit", "hit", "hit"):
        match.play(action)
    on_16 = analyze_match(match, iterations=20)[2]
    assert (on_16.method, on_16.mark) == ("solver", "??")
    page = tree_page(game, on_16)
    assert "<details" in page
    assert "The best line is green" in page
    record = tmp_path / "game.json"
    match.to_record().save(record)
    out = io.StringIO()
    replay = tmp_path / "replay.html"
    code = main(
        ["analyze", str(record), "--iterations", "20", "--trees", str(tmp_path / "t"),
         "--html", str(replay)],
        stdout=out,
        stderr=io.StringIO(),
    )  # fmt: skip
    assert code == 0
    assert f"tree: {tmp_path / 't' / 'step-3.html'}" in out.getvalue()
    assert f"tree: {tmp_path / 't' / 'step-3.html'}" in replay.read_text(encoding="utf-8")
    written = (tmp_path / "t" / "step-3.html").read_text(encoding="utf-8")
    assert written == page


def test_analyze_links_a_searched_decision_to_its_search(tmp_path: Path) -> None:
    game = cardcrawl.load("escape-from-haydes", max_rounds=1)
    match = cardcrawl.Match.start(game, 1, stack=STACK)
    for text in ("lower 1,0",):  # never right from the Black Joker, worth 0 (H-6)
        match.play(text)
    review = analyze_match(match, iterations=60, solver_nodes=0)[0]
    assert review.method == "ismcts"
    assert review.source.principal_variation
    assert "Principal variation" in tree_page(game, review)


def run_tree(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["tree", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_tree_command(tmp_path: Path) -> None:
    game, state = facing_the_queen()
    position = game.notation(state)  # type: ignore[attr-defined]
    svg, page = tmp_path / "t.svg", tmp_path / "t.html"
    code, out, err = run_tree(
        "escape-from-haydes", "--max-rounds", "1", "--hidden", "--position", position,
        "--depth", "2", "--svg", str(svg), "--html", str(page),
    )  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[:2] == [
        "Value 13/18 (0.722), 25 nodes.",
        "Best line: charisma -> roll 7",
    ]
    assert ET.fromstring(svg.read_text(encoding="utf-8")).tag.endswith("svg")
    code, out, err = run_tree(
        "escape-from-haydes", "--max-rounds", "1", "--hidden", "--position", position,
        "--max-nodes", "10", "--iterations", "30",
    )  # fmt: skip
    assert code == 0
    assert "more than 10 nodes" in err
    assert out.startswith("IS-MCTS, seat 0, 30 iterations")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--depth", "-1"], "--depth"),
        (["--max-nodes", "0"], "--max-nodes"),
        (["--iterations", "0"], "--iterations"),
        (["--position", "nonsense"], "--position"),
    ],
)
def test_the_tree_command_s_usage_errors(argv: list[str], message: str) -> None:
    code, _, err = run_tree("escape-from-haydes", "--max-rounds", "1", *argv)
    assert code == 2
    assert message in err


def test_the_picture_in_the_docs_is_what_the_library_draws() -> None:
    """docs/images/tree-queen.svg is checked in; it must not go stale."""
    game, state = facing_the_queen()
    root = solver_tree(game, state, hidden=True, depth=2)
    title = f"{game.name}: {game.describe(state)}"  # type: ignore[attr-defined]
    picture = Path(__file__).resolve().parents[2] / "docs" / "images" / "tree-queen.svg"
    assert picture.read_text(encoding="utf-8") == tree_svg(root, title=title)
