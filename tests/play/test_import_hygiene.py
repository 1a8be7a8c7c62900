"""Imports are at the top of each module, and play/ has no import circle.

A function-level import hides a module's dependencies and is paid again at every call;
it is only worth it to break an import circle or to put off an optional extra, and
then a comment says so. ``play._html`` reads a match through a protocol of its own, so
that ``play._match`` (whose ``Match.to_html`` draws the page) can import it at the top
and neither module needs the other at call time.
"""

from __future__ import annotations

import ast
import subprocess
import sys
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
                "web/_routes.py",
                "web/_tables.py",
                "web/_storage.py",
                "web/_errors.py",
                "encoding/_compact.py",
                "encoding/_layout.py",
                "adapters/vector.py",
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


# ------------------------------------------------------------ the web extra
WEB_EXTRA = ("starlette", "uvicorn", "websockets", "httpx")


def test_only_the_web_package_imports_the_web_extra() -> None:
    outside = {
        str(path.relative_to(SRC)): sorted(
            name for name in imported_modules(tree(path)) if name.split(".")[0] in WEB_EXTRA
        )
        for path in SRC.rglob("*.py")
        if "web" not in path.relative_to(SRC).parts
    }
    assert {path: names for path, names in outside.items() if names} == {}
    # cardcrawl serve imports the web package only when it runs, inside its function.
    serve = tree(SRC / "cli" / "_serve.py")
    assert [text for _, text in deferred_imports(serve)] == ["from cardcrawl import web"]


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def test_the_core_and_the_command_line_load_without_the_web_extra() -> None:
    done = run_python(
        "import sys, io\n"
        "import cardcrawl, cardcrawl.cli\n"
        "cardcrawl.cli.main(['games'], stdout=io.StringIO())\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {WEB_EXTRA!r}"
        " or m.startswith('cardcrawl.web')))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_missing_web_extra_is_told_with_the_install_hint() -> None:
    # A module set to None in sys.modules cannot be imported: the extra is "missing".
    done = run_python(
        "import sys, io\n"
        "sys.modules['starlette'] = None\n"
        "from cardcrawl.errors import MissingExtraError\n"
        "try:\n"
        "    import cardcrawl.web\n"
        "except MissingExtraError as exc:\n"
        "    print('refused:', exc)\n"
        "sys.modules.pop('cardcrawl.web', None)\n"
        "from cardcrawl.cli import main\n"
        "err = io.StringIO()\n"
        "print('exit', main(['serve'], stdout=io.StringIO(), stderr=err))\n"
        "print(err.getvalue().strip())\n"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    hint = "pip install 'cardcrawl[web]'"
    assert lines[0].startswith("refused: ")
    assert hint in lines[0]
    assert lines[1] == "exit 2"
    assert hint in lines[2]
