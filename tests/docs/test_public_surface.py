"""The public surface is curated: what each public package lists in ``__all__`` is what
the reference documents, and every class and function of it has a docstring with an
example (a ``>>>`` line, which the doctests run). The names a package stopped promising
still answer, with a ``DeprecationWarning``, for one release.

The reference pages (``docs/reference/*.md``, in mkdocs.yml's nav) document objects
with mkdocstrings' ``::: target`` blocks: a module's public names (its ``__all__``, less
its ``filters``, or the ``members`` listed), or one object. This test reads those blocks
as text, so it runs without MkDocs; ``tests/docs/test_reference_pages.py`` checks the
built site itself in CI's documentation step.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import cardcrawl
from cardcrawl.core._deprecation import MovedNames

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference"

# The command line is a program on top of the library, not a package to import from.
PROGRAMS = ("cardcrawl.cli",)

_DIRECTIVE = re.compile(r"^::: (?P<target>[\w.]+)[ \t]*$")


def directives(text: str) -> list[tuple[str, list[str]]]:
    """Each ``::: target`` block of a page with its indented option lines."""
    found: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        match = _DIRECTIVE.match(line)
        if match:
            found.append((match["target"], []))
        elif found and (line.startswith(" ") or not line.strip()):
            found[-1][1].append(line)
        elif found and line.strip():
            found.append(("", []))  # the block ended: later lines are prose
    return [(target, options) for target, options in found if target]


def _options(lines: Iterable[str]) -> tuple[list[str] | None, list[str]]:
    """The ``members`` listed (``None`` for all, ``[]`` for ``members: false``) and the
    ``filters`` of a block's options."""
    members: list[str] | None = None
    filters: list[str] = []
    in_members = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("members:"):
            value = stripped.partition(":")[2].strip()
            members = [] if value == "false" else None if value else []
            in_members = value == ""
        elif in_members and stripped.startswith("- "):
            assert members is not None
            members.append(stripped[2:].strip())
        elif stripped.startswith("filters:"):
            filters = re.findall(r'"([^"]*)"', stripped)
            in_members = False
        elif stripped:
            in_members = False
    return members, filters


def _passes(name: str, filters: list[str]) -> bool:
    """Whether mkdocstrings' ``filters`` (regexes, ``!`` to exclude) keep ``name``."""
    for pattern in filters:
        excluded = pattern.startswith("!")
        if excluded and re.search(pattern[1:], name):
            return False
        if not excluded and not re.search(pattern, name):
            return False
    return True


def documented_in(pages: Iterable[str]) -> set[tuple[str, str]]:
    """Every (module, name) the blocks of ``pages`` document."""
    shown: set[tuple[str, str]] = set()
    for text in pages:
        for target, lines in directives(text):
            try:
                module: ModuleType | None = importlib.import_module(target)
            except ImportError:
                module = None
            if module is None:
                parent, _, name = target.rpartition(".")
                shown.add((parent, name))
                continue
            members, filters = _options(lines)
            if members is None:
                names = getattr(module, "__all__", [n for n in vars(module) if n[0] != "_"])
                members = [n for n in names if _passes(n, filters or ["!^_"])]
            shown.update((target, name) for name in members)
    return shown


def undocumented(modules: Iterable[str], shown: set[tuple[str, str]]) -> list[str]:
    """The names of the modules' ``__all__`` that no block documents: neither under this
    module nor, as the very same object, under another."""
    where: dict[int, Any] = {}
    for module_name, name in shown:
        try:
            value = getattr(importlib.import_module(module_name), name)
        except (ImportError, AttributeError):
            continue
        where[id(value)] = value
    missing = []
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            if name.startswith("__") or (module_name, name) in shown:
                continue
            value = getattr(module, name)
            # A name re-exported here is documented where its page has it: the very same
            # object (a number or a string may be the same object by chance, so not those).
            if not isinstance(value, (int, float, str)) and id(value) in where:
                continue
            missing.append(f"{module_name}.{name}")
    return missing


def _own_docstrings(modules: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Each class and function of the modules' ``__all__`` with its own docstring (one
    inherited from a base class does not count: it is ``""``)."""
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value):
                doc = value.__dict__.get("__doc__")
            elif inspect.isroutine(value):
                doc = getattr(value, "__doc__", None)
            else:
                continue
            yield f"{module_name}.{name}", doc or ""


def without_docstring(modules: Iterable[str]) -> list[str]:
    """The classes and functions of the modules' ``__all__`` with no docstring of their
    own."""
    return [name for name, doc in _own_docstrings(modules) if not doc.strip()]


def without_example(modules: Iterable[str]) -> list[str]:
    """The classes and functions of the modules' ``__all__`` whose own docstring shows
    no example (no ``>>>`` line)."""
    return [
        name
        for name, doc in _own_docstrings(modules)
        if not any(line.lstrip().startswith(">>>") for line in doc.splitlines())
    ]


def reference_pages() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted(REFERENCE.glob("*.md"))]


def public_modules() -> list[str]:
    """``cardcrawl`` and each of its public packages and modules with names in an
    ``__all__`` (what users import from), less the programs; those whose optional extra
    is missing are left out."""
    found = ["cardcrawl"]
    for info in pkgutil.iter_modules(cardcrawl.__path__, "cardcrawl."):
        if info.name.rpartition(".")[2].startswith("_") or info.name in PROGRAMS:
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # cardcrawl.web without its extra
            continue
        if getattr(module, "__all__", None):
            found.append(info.name)
    return found


def test_the_reference_pages_and_packages_are_found() -> None:
    shown = documented_in(reference_pages())
    # A guard against a check that passes because it reads nothing.
    assert ("cardcrawl", "GameBase") in shown
    assert ("cardcrawl.bots", "EngineError") in shown
    assert ("cardcrawl.core._notation", "parse_fields") in shown
    assert ("cardcrawl", "UndoError") not in shown  # filtered: documented with the errors
    assert {"cardcrawl", "cardcrawl.errors", "cardcrawl.bots", "cardcrawl.kit"} <= set(
        public_modules()
    )
    assert len(public_modules()) >= 15


def test_every_public_name_is_in_the_reference() -> None:
    assert undocumented(public_modules(), documented_in(reference_pages())) == []


def test_every_public_class_and_function_has_a_docstring() -> None:
    assert without_docstring(public_modules()) == []


def test_every_public_class_and_function_shows_an_example() -> None:
    assert without_example(public_modules()) == []


#: Names each package stopped promising, with where the object they still give lives.
NARROWED = [
    ("cardcrawl", "FORMAT_VERSION", "cardcrawl.core._saving"),
    ("cardcrawl", "MatchEntry", "cardcrawl.play._match"),
    ("cardcrawl", "RANK_NAMES", "cardcrawl.kit._cards"),
    ("cardcrawl.play", "RecordClaims", "cardcrawl.play._record"),
    ("cardcrawl.haydes", "TurnBegan", "cardcrawl.haydes:TurnStarted"),
    ("cardcrawl.mapless", "STANDARD_DREAD_LINES", "cardcrawl.mapless._dread"),
    ("cardcrawl.kit", "CELL_BOUND", "cardcrawl.kit._grid"),
    ("cardcrawl.simulate", "mean_interval", "cardcrawl.simulate._stats"),
    ("cardcrawl.tournament", "pairings", "cardcrawl.tournament._schedule"),
    ("cardcrawl.tree", "fraction_text", "cardcrawl.tree._render"),
    ("cardcrawl.solve", "DEFAULT_MAX_NODES", "cardcrawl.solve._solver"),
]


@pytest.mark.parametrize(("package", "name", "home"), NARROWED)
def test_a_name_no_longer_promised_still_answers_with_a_warning(
    package: str, name: str, home: str
) -> None:
    module = importlib.import_module(package)
    assert name not in module.__all__
    assert name not in vars(module)  # else no warning could be given
    home_module, _, attribute = home.partition(":")
    expected = getattr(importlib.import_module(home_module), attribute or name)
    with pytest.warns(DeprecationWarning, match=rf"{re.escape(package)}\.{name} is no longer"):
        old = getattr(module, name)
    assert old is expected
    with pytest.warns(DeprecationWarning, match=name):
        exec(f"from {package} import {name}", {})


def narrowed_packages() -> list[tuple[str, MovedNames]]:
    """Each public package with old names, and its ``__getattr__`` answering them."""
    found = []
    for package in public_modules():
        getter = vars(importlib.import_module(package)).get("__getattr__")
        if isinstance(getter, MovedNames):
            found.append((package, getter))
    return found


def test_every_old_name_of_every_package_warns_and_gives_its_object() -> None:
    packages = narrowed_packages()
    assert len(packages) >= 9  # a guard against a check that reads nothing
    for package, getter in packages:
        module = importlib.import_module(package)
        for name, home in getter.moved.items():
            assert name not in module.__all__, name
            assert name not in vars(module), name  # else no warning could be given
            home_module, _, attribute = home.partition(":")
            expected = getattr(importlib.import_module(home_module), attribute or name)
            with pytest.warns(DeprecationWarning, match=rf"{re.escape(package)}\.{name} is no"):
                assert getattr(module, name) is expected
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
                getattr(module, "no_such_name")  # noqa: B009


def test_a_public_name_with_no_example_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    tune = importlib.import_module("cardcrawl.tune")

    def tuned() -> None:
        """Tune, but show no example."""

    monkeypatch.setattr(tune, "tune", tuned)
    assert without_example(["cardcrawl.tune"]) == ["cardcrawl.tune.tune"]


def test_every_public_package_is_a_reference_page() -> None:
    targets = {target for text in reference_pages() for target, _ in directives(text)}
    assert [name for name in public_modules() if name not in targets] == []


# --------------------------------------------------------- the checks can fail
def test_a_name_left_off_a_page_is_found() -> None:
    page = "::: cardcrawl.tune\n    options:\n      members:\n        - tune\n"
    assert undocumented(["cardcrawl.tune"], documented_in([page])) == [
        "cardcrawl.tune.Candidate",
        "cardcrawl.tune.Configured",
        "cardcrawl.tune.TuneResult",
    ]


def test_a_filter_hides_a_name_unless_another_page_has_it() -> None:
    filtered = '::: cardcrawl.testing\n    options:\n      filters: ["!^_", "!Error$"]\n'
    assert undocumented(["cardcrawl.testing"], documented_in([filtered])) == [
        "cardcrawl.testing.ConformanceError"
    ]
    errors = "::: cardcrawl.errors\n"
    assert undocumented(["cardcrawl.testing"], documented_in([filtered, errors])) == []


def test_a_block_ends_where_prose_begins() -> None:
    page = "::: cardcrawl.tree\n    options:\n      members: false\n\nSome prose.\n"
    assert directives(page) == [
        ("cardcrawl.tree", ["    options:", "      members: false", ""]),
    ]
    assert undocumented(["cardcrawl.tree"], documented_in([page]))[:1] == [
        "cardcrawl.tree.TreeNode"
    ]


def test_a_class_without_its_own_docstring_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    tune = importlib.import_module("cardcrawl.tune")

    class Bare(tune.TuneResult):  # a docstring inherited is not its own
        pass

    monkeypatch.setattr(tune, "TuneResult", Bare)
    assert without_docstring(["cardcrawl.tune"]) == ["cardcrawl.tune.TuneResult"]
