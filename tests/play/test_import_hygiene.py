"""Imports are at the top of each module, and play/ has no import circle.

A function-level import hides a module's dependencies and is paid again at every call;
it is only worth it to break an import circle or to put off an optional extra, and
then a comment says so. ``play._html`` reads a match through a protocol of its own, so
that ``play._match`` (whose ``Match.to_html`` draws the page) can import it at the top
and neither module needs the other at call time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "cardcrawl"

# The modules this rule has been applied to; the others keep theirs until their turn.
CHECKED = sorted(
    [
        *(SRC / "play").glob("*.py"),
        *(SRC / "simulate").glob("*.py"),
        *(
            SRC / name
            for name in (
                "errors.py",
                "testing.py",
                "core/_codec.py",
                "core/_options.py",
                "core/_protocol.py",
                "core/_random.py",
                "core/_tools.py",
                "kit/_cards.py",
                "kit/_svg.py",
                "encoding/_base.py",
                "bots/_base.py",
                "bots/_random_bot.py",
                "bots/_search.py",
            )
        ),
    ]
)


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def deferred_imports(module: ast.Module) -> Iterator[tuple[int, str]]:
    """The imports below module level: in functions, classes or ``if`` blocks."""
    for node in ast.walk(module):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    yield inner.lineno, ast.unparse(inner)


def imported_modules(module: ast.Module) -> set[str]:
    """The absolute names of every module ``module`` imports from, anywhere in it."""
    names = set()
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_files_are_found() -> None:
    assert len(CHECKED) >= 20
    assert all(path.is_file() for path in CHECKED)


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_are_at_module_level(path: Path) -> None:
    assert list(deferred_imports(tree(path))) == []


def test_the_html_page_does_not_import_the_match() -> None:
    assert "cardcrawl.play._match" not in imported_modules(tree(SRC / "play" / "_html.py"))


def test_play_modules_form_no_import_circle() -> None:
    graph = {
        f"cardcrawl.play.{path.stem}": {
            name for name in imported_modules(tree(path)) if name.startswith("cardcrawl.play.")
        }
        for path in (SRC / "play").glob("_*.py")
    }

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
            for nxt in graph.get(start, ())
        )

    assert graph["cardcrawl.play._match"] >= {"cardcrawl.play._html", "cardcrawl.play._record"}
    assert [name for name in graph if reaches(name, name)] == []


def test_the_errors_module_imports_nothing_of_the_library() -> None:
    # So that every module, however low, can import its errors from there.
    imports = imported_modules(tree(SRC / "errors.py"))
    assert [name for name in imports if name.startswith("cardcrawl")] == []


def test_the_checks_can_fail() -> None:
    source = ast.parse(
        "import json\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from cardcrawl.play._match import Match\n"
        "def page(match):\n"
        "    from cardcrawl.play._html import replay_html\n"
        "    return replay_html(match)\n"
    )
    assert list(deferred_imports(source)) == [
        (4, "from cardcrawl.play._match import Match"),
        (6, "from cardcrawl.play._html import replay_html"),
    ]
    assert "cardcrawl.play._match" in imported_modules(source)
