"""The performance suite (benchmarks/bench.py) runs and fills its whole tables, and the
plain simulators it measures cardcrawl against play the same games as cardcrawl.

Only the shape and sign of the timings are checked, never their size: timings depend on
the machine. The plain simulators are compared with cardcrawl statistically, over a few
hundred seeded games (benchmarks/check_plain.py does it over thousands).
"""

from __future__ import annotations

import importlib.util
import math
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

import cardcrawl
from cardcrawl.core._compiled import COMPILED

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
BENCH = BENCHMARKS / "bench.py"
# bench.py imports the plain simulators and check_plain.py from its own folder.
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))


def _load() -> ModuleType:
    # Registered under a name, so that worker processes find its functions by reference.
    name = "cardcrawl_benchmarks"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCH)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


bench = _load()
check_plain = sys.modules["check_plain"]
plain_haydes = sys.modules["plain_haydes"]
plain_mapless = sys.modules["plain_mapless"]


def _number(cell: str) -> float:
    return float(cell.strip().removesuffix(" µs").removesuffix("x").replace(",", ""))


def _tables(lines: list[str]) -> list[list[str]]:
    """The Markdown tables among ``lines``, each as its lines."""
    tables: list[list[str]] = []
    inside = False
    for line in lines:
        if line.startswith("| "):
            if not inside:
                tables.append([])
            tables[-1].append(line)
        inside = line.startswith("| ")
    return tables


def _check_filled(table: list[str], columns: list[str], labels: list[str]) -> None:
    header = [c.strip() for c in table[0].strip("|").split("|")]
    assert header[1:] == columns
    rows = table[2:]
    assert [r.strip("|").split("|")[0].strip() for r in rows] == labels
    for row in rows:
        cells = row.strip().strip("|").split("|")[1:]
        assert len(cells) == len(columns)
        for cell in cells:
            value = _number(cell)
            assert math.isfinite(value)
            assert value > 0, row


@pytest.mark.slow
def test_quickest_run_fills_every_row_and_column(tmp_path: Path) -> None:
    out = tmp_path / "table.md"
    argv = ["--scale", "0.0005", "--repeat", "1", "--ratio-repeat", "1"]
    assert bench.main([*argv, "--markdown-out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    main, ratios, boards = _tables(lines)
    assert lines[0] == main[0]
    labels = [s.label for s in bench.SUBJECTS]
    _check_filled(main, [c.heading for c in bench.COLUMNS], labels)
    _check_filled(ratios, [c.heading for c in bench.RATIO_COLUMNS], labels)
    sides = ("plain simulator", "public API")
    board_labels = [f"{side}, {who}" for who in ("solo", "4 players") for side in sides]
    _check_filled(boards, [c.heading for c in bench.BOARD_COLUMNS], board_labels)
    notes = "\n".join(lines[len(main) + 1 : lines.index(ratios[0])])
    assert "Load average" in notes
    assert "Machine ceiling" in notes
    assert notes.count("- ") >= len(bench.TARGETS)  # one line per target, met or not
    ratio_notes = "\n".join(lines[lines.index(boards[-1]) + 1 :])
    assert "commit" in ratio_notes
    assert "CPUs" in ratio_notes
    assert "Python" in ratio_notes


@pytest.mark.slow
def test_ratios_only_leaves_the_main_table_out(tmp_path: Path) -> None:
    out = tmp_path / "table.md"
    argv = ["--scale", "0.0005", "--ratio-repeat", "1", "--ratios-only"]
    assert bench.main([*argv, "--markdown-out", str(out)]) == 0
    ratios, boards = _tables(out.read_text(encoding="utf-8").splitlines())
    assert "plain simulator, games/s" in ratios[0]
    assert "418 cells" in boards[0]


@pytest.mark.slow
def test_interleaved_runs_take_turns_and_keep_the_least_time() -> None:
    calls: list[str] = []
    runs = {name: (lambda n=name: calls.append(n) or len(calls)) for name in "abc"}
    timed = bench.interleaved(runs, 3)
    assert calls == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert set(timed) == {"a", "b", "c"}
    assert all(seconds > 0 for seconds, _ in timed.values())
    assert timed["b"][1] == 9  # the last run's result
    made: list[int] = []
    setups = {"a": lambda: made.append(1) or len(made)}
    timed = bench.interleaved({"a": lambda x: x * 2}, 2, setups)
    assert made == [1, 1]  # a setup before each run
    assert timed["a"][1] == 4


def test_explicit_chance_play_resolves_every_chance_event() -> None:
    game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
    states: list[object] = []
    decisions = bench.play(game, 3, explicit=True, keep=states)
    assert decisions > 0
    assert game.is_terminal(states[-1])
    assert any(s.explicit_chance for s in states)  # type: ignore[attr-defined]


def test_weights_are_proportional_to_the_probabilities() -> None:
    outcomes = [("a", Fraction(1, 6)), ("b", Fraction(1, 2)), ("c", Fraction(1, 3))]
    assert bench._weights(outcomes) == [1, 3, 2]


def test_update_docs_rewrites_only_between_the_markers(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    start, end = bench.START_MARKER, bench.END_MARKER
    page.write_text(f"intro\n{start}\nold table\n{end}\noutro\n", encoding="utf-8")
    bench.update_docs("| new |\n", page)
    assert page.read_text(encoding="utf-8") == f"intro\n{start}\n| new |\n{end}\noutro\n"
    page.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(ValueError, match="markers"):
        bench.update_docs("| new |\n", page)


def test_update_docs_rewrites_the_ratio_tables_between_their_own_markers(
    tmp_path: Path,
) -> None:
    page = tmp_path / "page.md"
    ours = f"{bench.START_MARKER}\nmain\n{bench.END_MARKER}"
    start, end = bench.RATIO_START_MARKER, bench.RATIO_END_MARKER
    page.write_text(f"{ours}\n{start}\nold\n{end}\n", encoding="utf-8")
    bench.update_docs("| ratios |\n", page, start, end)
    assert page.read_text(encoding="utf-8") == f"{ours}\n{start}\n| ratios |\n{end}\n"


def test_the_docs_page_has_every_pair_of_markers() -> None:
    text = bench.DOCS_PAGE.read_text(encoding="utf-8")
    for marker in (
        bench.START_MARKER,
        bench.END_MARKER,
        bench.RATIO_START_MARKER,
        bench.RATIO_END_MARKER,
        bench.COMPILED_START_MARKER,
        bench.COMPILED_END_MARKER,
    ):
        assert text.count(marker) == 1, marker


def test_a_compiled_installation_writes_its_ratios_to_their_own_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cardcrawl, "compiled_modules", lambda: COMPILED)
    assert bench.ratio_markers() == (bench.COMPILED_START_MARKER, bench.COMPILED_END_MARKER)
    assert bench.build() == "compiled"
    monkeypatch.setattr(cardcrawl, "compiled_modules", lambda: ())
    assert bench.ratio_markers() == (bench.RATIO_START_MARKER, bench.RATIO_END_MARKER)
    assert bench.build() == "pure Python"


# ------------------------------------------------------------------ the plain simulators
#: Seeded games per side in the statistical comparison: enough for each figure to be
#: known to a few percent, few enough to take a couple of seconds.
GAMES = 400
#: How many standard errors the plain simulator's figures may lie from cardcrawl's. The
#: seeds are fixed, so the test is deterministic; over 4,000 games the largest difference
#: measured was under 2 standard errors (2.5 over these 400), while a rule played
#: differently, such as jacks that are no creatures or Mind and Body cards worth one
#: more, lies 9 or more away (see test_a_rule_played_differently_fails_the_comparison).
TOLERANCE = 4.0


@pytest.fixture(scope="module")
def comparisons() -> dict[str, list[object]]:
    seeds = range(GAMES)
    return {c.label: check_plain.compare(c, seeds) for c in check_plain.configs()}


def _rows(comparisons: dict[str, list[object]], start: str) -> dict[str, object]:
    (label,) = (label for label in comparisons if label.startswith(start))
    return {row.name: row for row in comparisons[label]}  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize(
    "config",
    [
        "The Mapless House, max_turns=200",
        "The Mapless House, max_turns=10",
        "Escape from Haydes, solo, max_rounds=100",
        "Escape from Haydes, 4 players, max_rounds=100",
        "Escape from Haydes, 4 players, max_rounds=15",
    ],
)
def test_the_plain_simulators_play_the_same_games_as_cardcrawl(
    comparisons: dict[str, list[object]], config: str
) -> None:
    rows = _rows(comparisons, config)
    assert "mean decisions" in rows
    for row in rows.values():
        assert abs(row.z) <= TOLERANCE, row.line()  # type: ignore[attr-defined]


def test_the_comparison_is_not_vacuous(comparisons: dict[str, list[object]]) -> None:
    # Each ending that the rules make common happens on both sides, so its rate is
    # really compared.
    solo = _rows(comparisons, "Escape from Haydes, solo")
    short = _rows(comparisons, "Escape from Haydes, 4 players, max_rounds=15")
    mapless = _rows(comparisons, "The Mapless House, max_turns=10")
    for rows, name in (
        (solo, "escaped rate"),
        (solo, "trapped rate"),
        (short, "time-up rate"),
        (mapless, "lost rate"),
        (mapless, "consumed rate"),
    ):
        row = rows[name]
        assert row.plain.value > 0.02, name  # type: ignore[attr-defined]
        assert row.cardcrawl.value > 0.02, name  # type: ignore[attr-defined]


def _worst(config: object) -> float:
    return max(abs(row.z) for row in check_plain.compare(config, range(GAMES)))


@pytest.mark.slow
def test_a_rule_played_differently_fails_the_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    # The comparison can fail: jacks that are no creatures (H-8), or Mind and Body
    # cards worth one more (M-15), make other games, and it says so.
    haydes = check_plain.haydes_config(1, 100)
    mapless = check_plain.mapless_config(200)
    assert _worst(haydes) <= TOLERANCE
    assert _worst(mapless) <= TOLERANCE
    monkeypatch.setattr(plain_haydes, "COURT", [False] * 12 + [True] * 2 + [False])
    assert _worst(haydes) > 2 * TOLERANCE
    monkeypatch.setattr(plain_mapless, "VALUES", list(range(3, 15)))
    assert _worst(mapless) > 2 * TOLERANCE


def test_a_plain_game_is_the_same_for_the_same_seed() -> None:
    board = plain_haydes.Haydes()
    assert board.play(5, 4, 100) == board.play(5, 4, 100)
    assert plain_mapless.play(5, 200) == plain_mapless.play(5, 200)
    assert {board.play(seed, 1, 100) for seed in range(20)} != {board.play(0, 1, 100)}


def test_the_plain_haydes_takes_any_layout_with_one_cell_per_build_card() -> None:
    assert plain_haydes.rect_layout(4) == plain_haydes.standard_layout()
    for decks in (2, 6, 16):
        layout = plain_haydes.rect_layout(decks)
        assert len(layout) == 26 * decks + 2
        assert (0, 0) in layout
        cardcrawl.load("escape-from-haydes", deck_count=decks, layout=layout)  # accepted
        result = plain_haydes.Haydes(layout, decks).play(1, 2, 30)
        assert result.ending in {"escaped", "trapped", "time-up"}
    with pytest.raises(ValueError, match="one cell per build card"):
        plain_haydes.Haydes(plain_haydes.rect_layout(4), 16)
