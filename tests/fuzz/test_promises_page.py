"""The page of promises (``docs/explanation/promises.md``) names the tests that check
each promise: every test it names exists, every promise names one, and the bugs it
lists as broken today are exactly those the fuzz suite knows, so the page cannot go
stale. (It lives with the fuzz suite, whose promises the page sets out.)"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from ._fuzz import KNOWN_BUGS
from .test_fuzz_found import open_bugs

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "explanation" / "promises.md"
#: A test named on the page: `tests/folder/test_file.py::test_name`.
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")


@functools.cache
def _tests_in(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.name.startswith("test_")
    )


def _sections() -> dict[str, str]:
    """The page's text by second-level heading (anchors left out)."""
    parts = re.split(r"^## (.+?)(?: \{#[\w-]+\})?$", PAGE.read_text(encoding="utf-8"), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _bullets(text: str) -> list[str]:
    """The page's list items, each with its continuation lines."""
    return [b for b in re.split(r"^- ", text, flags=re.M)[1:] if b.strip()]


def test_every_test_the_page_names_exists() -> None:
    found = REFERENCE.findall(PAGE.read_text(encoding="utf-8"))
    assert len(found) > 50
    missing = [
        f"{path}::{name}"
        for path, name in found
        if not (ROOT / path).is_file() or name not in _tests_in(ROOT / path)
    ]
    assert not missing, f"the promises page names tests that do not exist: {missing}"


def test_every_promise_names_the_test_that_checks_it() -> None:
    for title, text in _sections().items():
        if title == "The fuzz suite":
            continue
        for bullet in _bullets(text):
            assert REFERENCE.search(bullet), f"under {title!r}, {bullet[:80]!r} names no test"


def test_the_bugs_broken_today_are_the_ones_pinned() -> None:
    """Listed as broken today: exactly the tests of test_fuzz_found.py that are strict
    xfails (in whole or for some parameters), among them every bug the fuzzers pass
    over."""
    broken = _sections()["Broken today"]
    listed = {name for path, name in REFERENCE.findall(broken) if path.endswith("_found.py")}
    assert listed == set(open_bugs())
    assert {bug.test for bug in KNOWN_BUGS} <= listed


def test_every_fuzz_test_is_on_the_page() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for path in sorted((ROOT / "tests" / "fuzz").glob("test_fuzz_*.py")):
        if path.name == "test_fuzz_found.py":
            continue
        for name in _tests_in(path):
            assert f"tests/fuzz/{path.name}::{name}" in text, name


def test_the_page_is_in_the_navigation() -> None:
    assert "explanation/promises.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
