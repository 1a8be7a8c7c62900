"""The table of rule hooks (docs/reference/hooks.md) covers every ruling and names real hooks.

For each ruling the table names the hooks and options through which a variant may vary
it, or says that it is fixed. The checks here read that table: every ruling of the
rulings index appears exactly once; every hook named is a public method of the game
class (or, written ``Class.method``, of a public class of the game's package) whose
docstring cites that ruling; every option named is a field of the game's options class;
and, the other way round, every hook of a game class and every option is in the table,
so that a hook added later cannot go undocumented.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from pathlib import Path
from types import ModuleType

import attrs
import pytest

import cardcrawl.haydes
import cardcrawl.mapless
from cardcrawl import GameBase
from cardcrawl.haydes import EscapeFromHaydes, HaydesOptions
from cardcrawl.mapless import MaplessHouse, MaplessOptions

ROOT = Path(__file__).resolve().parents[2]
HOOKS_PAGE = ROOT / "docs" / "reference" / "hooks.md"
RULINGS_PAGE = ROOT / "docs" / "rules" / "rulings.md"


@attrs.frozen
class Game:
    """What a ruling's prefix stands for: a game class, its options and its package."""

    game_class: type[GameBase]  # type: ignore[type-arg]
    options_class: type
    package: ModuleType
    #: Options that decide no rule, so need not be in the table.
    narration: frozenset[str] = frozenset()


GAMES = {
    "M": Game(MaplessHouse, MaplessOptions, cardcrawl.mapless, frozenset({"dread_lines"})),
    "H": Game(EscapeFromHaydes, HaydesOptions, cardcrawl.haydes),
}


@attrs.frozen
class Row:
    """One row of the table."""

    ruling: str
    hooks: tuple[str, ...]
    options: tuple[str, ...]
    fixed: bool
    note: str


ROW = re.compile(
    r"^\| \[(?P<ruling>[MH]-\d+)\]\([^)]*\)[^|]*"
    r"\|(?P<hooks>[^|]*)\|(?P<options>[^|]*)\|(?P<note>[^|]*)\|\s*$"
)
CODE = re.compile(r"`([^`]+)`")
# A ruling cited in a docstring: "M-18", or a range such as "M-4 to M-7".
CITED = re.compile(r"\b([MH])-(\d+)\b(?:\s+to\s+\1-(\d+)\b)?")
RULINGS_INDEX_ROW = re.compile(r"^\| \[(?P<ruling>[MH]-\d+)\]\(", re.MULTILINE)


def parse_rows(text: str) -> tuple[list[Row], list[str]]:
    """The rows of every table of the page, and a problem for each malformed row."""
    rows, problems = [], []
    for line in text.splitlines():
        if not line.startswith("| ["):
            continue
        m = ROW.match(line)
        if m is None:
            problems.append(f"malformed row: {line}")
            continue
        hooks_cell = m["hooks"].strip()
        rows.append(
            Row(
                ruling=m["ruling"],
                hooks=tuple(CODE.findall(hooks_cell)),
                options=tuple(CODE.findall(m["options"])),
                fixed=hooks_cell == "fixed",
                note=m["note"].strip(),
            )
        )
    return rows, problems


def cited(doc: str) -> set[str]:
    """The ruling ids a docstring cites, ranges expanded."""
    found = set()
    for prefix, first, last in CITED.findall(doc):
        for n in range(int(first), int(last or first) + 1):
            found.add(f"{prefix}-{n}")
    return found


def resolve(game: Game, hook: str) -> object | None:
    """The method a hook name names, or None: ``name`` of the game class, or
    ``Class.name`` of a class of the game's package."""
    *owner_name, name = hook.split(".")
    if len(owner_name) > 1:
        return None
    owner = game.game_class
    if owner_name:
        if owner_name[0] not in game.package.__all__:
            return None
        owner = getattr(game.package, owner_name[0])
    method = getattr(owner, name, None)
    return method if inspect.isroutine(method) else None


def hook_problems(row: Row) -> list[str]:
    """What is wrong with the hooks and options one row names."""
    game = GAMES[row.ruling[0]]
    problems = []
    if row.fixed == bool(row.hooks or row.options):
        problems.append(f"{row.ruling}: a row names hooks or options, or says fixed, not both")
    if not row.note:
        problems.append(f"{row.ruling}: no reason or change given")
    for hook in row.hooks:
        if any(part.startswith("_") for part in hook.split(".")):
            problems.append(f"{row.ruling}: {hook} is not public")
            continue
        method = resolve(game, hook)
        if method is None:
            problems.append(f"{row.ruling}: {hook} is not a method of {game.game_class.__name__}")
        elif row.ruling not in cited(inspect.getdoc(method) or ""):
            problems.append(f"{row.ruling}: the docstring of {hook} does not cite {row.ruling}")
    fields = attrs.fields_dict(game.options_class)
    for option in row.options:
        if option not in fields:
            problems.append(
                f"{row.ruling}: {option} is not an option of {game.options_class.__name__}"
            )
    return problems


def own_hooks(game_class: type) -> set[str]:
    """The public methods a game class adds to GameBase: its rule hooks."""
    return {
        name
        for name in dir(game_class)
        if not name.startswith("_")
        and not hasattr(GameBase, name)
        and inspect.isroutine(getattr(game_class, name))
    }


def table_problems(text: str, rulings: list[str]) -> list[str]:
    """Every problem of the page ``text`` against the ruling ids ``rulings``."""
    rows, problems = parse_rows(text)
    counts = Counter(row.ruling for row in rows)
    for ruling in rulings:
        if counts[ruling] != 1:
            problems.append(f"{ruling} appears {counts[ruling]} times, not once")
    problems.extend(f"{r} is no ruling" for r in sorted(set(counts) - set(rulings)))
    for row in rows:
        problems.extend(hook_problems(row))
    for prefix, game in GAMES.items():
        rows_of_game = [row for row in rows if row.ruling.startswith(prefix)]
        named = {hook for row in rows_of_game for hook in row.hooks}
        for hook in sorted(own_hooks(game.game_class) - named):
            problems.append(f"the hook {game.game_class.__name__}.{hook} is not in the table")
        options = {option for row in rows_of_game for option in row.options}
        for field in sorted(set(attrs.fields_dict(game.options_class)) - options):
            if field not in game.narration:
                problems.append(f"the option {field} of {game.game_class.__name__} is missing")
    return problems


def rulings() -> list[str]:
    """Every ruling id of the rulings index, in order."""
    return RULINGS_INDEX_ROW.findall(RULINGS_PAGE.read_text(encoding="utf-8"))


PAGE = HOOKS_PAGE.read_text(encoding="utf-8")


def test_the_rulings_index_lists_every_ruling() -> None:
    assert rulings() == [f"M-{n}" for n in range(1, 23)] + [f"H-{n}" for n in range(1, 14)]


def test_every_ruling_appears_exactly_once_in_the_table() -> None:
    rows, malformed = parse_rows(PAGE)
    assert malformed == []
    assert [row.ruling for row in rows] == rulings()


def test_the_hooks_table_has_no_problems() -> None:
    assert table_problems(PAGE, rulings()) == []


def test_the_table_names_hooks_of_both_games() -> None:
    rows, _ = parse_rows(PAGE)
    hooks = {hook for row in rows for hook in row.hooks}
    assert {"exit_cells", "stalker_step", "guess_is_correct"} <= hooks
    assert "HaydesOptions.split_is_valid" in hooks
    assert sum(row.fixed for row in rows) >= 5


def test_docstring_citations_expand_ranges() -> None:
    assert cited("Where it may go (M-4 to M-7); see M-10.") == {"M-4", "M-5", "M-6", "M-7", "M-10"}
    assert cited("(H-1, H-8)") == {"H-1", "H-8"}
    assert "M-1" not in cited("M-10 and M-11")


def _row_of(ruling: str) -> str:
    return next(line for line in PAGE.splitlines() if line.startswith(f"| [{ruling}]("))


BROKEN = {
    "a hook that does not exist": (
        lambda page: page.replace("| `exit_cells` |", "| `exit_cell` |"),
        "M-11: exit_cell is not a method of MaplessHouse",
    ),
    "a private method": (
        lambda page: page.replace("| `exit_cells` |", "| `_open_exit` |"),
        "M-11: _open_exit is not public",
    ),
    "a hook that does not cite the ruling": (
        lambda page: page.replace("| `guess_is_correct` |", "| `is_escape` |"),
        "H-7: the docstring of is_escape does not cite H-7",
    ),
    "an option that does not exist": (
        lambda page: page.replace("`max_turns`", "`max_turn`"),
        "M-22: max_turn is not an option of MaplessOptions",
    ),
    "a ruling left out": (
        lambda page: page.replace(_row_of("H-9") + "\n", ""),
        "H-9 appears 0 times, not once",
    ),
    "a ruling listed twice": (
        lambda page: page.replace(_row_of("M-3"), _row_of("M-3") + "\n" + _row_of("M-3")),
        "M-3 appears 2 times, not once",
    ),
    "a fixed ruling that names a hook": (
        lambda page: page.replace(_row_of("M-9"), _row_of("M-9").replace("fixed", "`score`")),
        "M-9: the docstring of score does not cite M-9",
    ),
    "a row without a hook, an option or fixed": (
        lambda page: page.replace(_row_of("H-11"), _row_of("H-11").replace("fixed", "")),
        "H-11: a row names hooks or options, or says fixed, not both",
    ),
    "a hook missing from the table": (
        lambda page: page.replace(_row_of("M-21"), _row_of("M-21").replace("`score`", "fixed")),
        "the hook MaplessHouse.score is not in the table",
    ),
}


@pytest.mark.parametrize("what", BROKEN, ids=list(BROKEN))
def test_the_check_finds_a_broken_table(what: str) -> None:
    break_page, problem = BROKEN[what]
    broken = break_page(PAGE)
    assert broken != PAGE
    assert problem in table_problems(broken, rulings())
