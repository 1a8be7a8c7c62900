"""Every public class and function is documented with an example, and the README's
examples run.

"Public" is what the packages list in ``__all__``. Each such class or function needs a
docstring with an ``Examples:`` section holding at least one doctest (pytest runs the
doctests themselves, with ``--doctest-modules``); each public method of a public class
needs a docstring. In the audited core modules, a public function also documents its
arguments (``Args:``) and what it returns (``Returns:``).
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = (
    "cardcrawl",
    "cardcrawl.mapless",
    "cardcrawl.haydes",
    "cardcrawl.testing",
    "cardcrawl.bots",
    "cardcrawl.simulate",
    "cardcrawl.solve",
    "cardcrawl.tournament",
    "cardcrawl.compare",
    "cardcrawl.tree",
    "cardcrawl.tune",
    "cardcrawl.web",
)
# Modules whose public functions must also have Args: and Returns: sections.
AUDITED = (
    "cardcrawl.kit._cards",
    "cardcrawl.kit._grid",
    "cardcrawl.core._protocol",
    "cardcrawl.core._registry",
    "cardcrawl.play._record",
    "cardcrawl.errors",
    "cardcrawl.core._options",
    "cardcrawl.core._codec",
    "cardcrawl.play._match",
    "cardcrawl.kit._svg",
    "cardcrawl.play._html",
    "cardcrawl.testing",
    "cardcrawl.simulate",
)

# Public names still without an example, by the module they are defined in. This list
# may only shrink: give one an example and remove it here (test_allow_list_is_current
# fails until you do, so the list never hides a name that no longer needs it).
ALLOWED_WITHOUT_EXAMPLE: frozenset[str] = frozenset()

EXAMPLES = re.compile(r"^Examples:\n(?:[ \t]*\n)*(?P<body>(?:[ \t]+.*\n?|[ \t]*\n)+)", re.MULTILINE)


def public_objects() -> Iterator[tuple[str, Any]]:
    """Every public class and function, by the name users import it under."""
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                yield f"{module_name}.{name}", obj


PUBLIC = dict(public_objects())


def has_example(obj: Any) -> bool:
    """True when the docstring has an ``Examples:`` section with a doctest in it."""
    doc = inspect.getdoc(obj) or ""
    return any(">>> " in m.group("body") for m in EXAMPLES.finditer(doc + "\n"))


def test_the_public_api_is_found() -> None:
    # A guard against a walker that finds nothing and so checks nothing.
    assert len(PUBLIC) > 100
    assert {"cardcrawl.Match", "cardcrawl.load", "cardcrawl.simulate.simulate"} <= set(PUBLIC)


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_name_has_a_docstring_with_an_example(name: str) -> None:
    obj = PUBLIC[name]
    assert inspect.getdoc(obj), f"{name} has no docstring"
    if name not in ALLOWED_WITHOUT_EXAMPLE:
        assert has_example(obj), f"{name}'s docstring has no Examples: section with a doctest"


def test_allow_list_is_current() -> None:
    unknown = sorted(ALLOWED_WITHOUT_EXAMPLE - set(PUBLIC))
    assert not unknown, f"not public names: remove them from ALLOWED_WITHOUT_EXAMPLE: {unknown}"
    done = sorted(n for n in ALLOWED_WITHOUT_EXAMPLE if has_example(PUBLIC[n]))
    assert not done, f"these have an example now: remove them from ALLOWED_WITHOUT_EXAMPLE: {done}"


def public_methods(cls: type) -> Iterator[tuple[str, Any]]:
    """The public methods and properties a class defines itself (not inherited)."""
    for attr, value in vars(cls).items():
        if attr.startswith("_"):
            continue
        func = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
        func = func.fget if isinstance(func, property) else func
        if inspect.isfunction(func):
            yield attr, func


@pytest.mark.parametrize("name", sorted(n for n, o in PUBLIC.items() if inspect.isclass(o)))
def test_public_methods_have_docstrings(name: str) -> None:
    missing = [attr for attr, func in public_methods(PUBLIC[name]) if not inspect.getdoc(func)]
    assert not missing, f"{name}: methods without a docstring: {missing}"


AUDITED_FUNCTIONS = sorted(
    n for n, o in PUBLIC.items() if inspect.isfunction(o) and o.__module__.startswith(AUDITED)
)


@pytest.mark.parametrize("name", AUDITED_FUNCTIONS)
def test_audited_functions_document_arguments_and_returns(name: str) -> None:
    func = PUBLIC[name]
    doc = inspect.getdoc(func) or ""
    signature = inspect.signature(func)
    if signature.parameters:
        assert "\nArgs:\n" in doc, f"{name} takes arguments but has no Args: section"
    if signature.return_annotation not in (None, "None", inspect.Signature.empty):
        assert "\nReturns:\n" in doc, f"{name} returns a value but has no Returns: section"


def test_examples_section_detection() -> None:
    def documented() -> None:
        """Do nothing.

        Examples:
            >>> documented()
        """

    def undocumented() -> None:
        """Do nothing; ``>>> documented()`` in prose is no example."""

    assert has_example(documented)
    assert not has_example(undocumented)


def test_readme_examples_run() -> None:
    """The README's Python examples are doctests, run here (python-chess does the same)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "README.md", str(ROOT / "README.md"), 0)
    assert test.examples, "the README has no >>> examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    output: list[str] = []
    result = runner.run(test, out=output.append)
    assert result.failed == 0, "".join(output)
    assert result.attempted == len(test.examples)
