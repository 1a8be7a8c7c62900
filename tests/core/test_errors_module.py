"""One public home for every error: ``cardcrawl.errors``.

Every error class the library defines is importable from :mod:`cardcrawl.errors`, is
defined in a public module (so that a traceback names a path a user can import), and
derives from a built-in exception besides :class:`~cardcrawl.CardcrawlError`, so that
code catching ``ValueError``, ``LookupError`` and the like keeps working.

The checks are functions returning the problems they find, so that the last tests can
show each of them failing on a class made to break it.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import traceback
from collections.abc import Iterable, Iterator
from types import ModuleType

import pytest

import cardcrawl
from cardcrawl import errors
from cardcrawl.errors import CardcrawlError

PUBLIC_MODULES = (
    "cardcrawl",
    "cardcrawl.errors",
    "cardcrawl.mapless",
    "cardcrawl.haydes",
    "cardcrawl.bots",
    "cardcrawl.encoding",
    "cardcrawl.simulate",
    "cardcrawl.testing",
    "cardcrawl.play",
    "cardcrawl.kit",
)

# Exception and BaseException are every exception's bases: deriving from them says
# nothing a caller could catch more precisely.
_TOO_BROAD = (BaseException, Exception)


def builtin_bases(cls: type) -> list[type]:
    """The built-in exception classes ``cls`` derives from, Exception and above left out."""
    return [
        base
        for base in inspect.getmro(cls)
        if base.__module__ == "builtins"
        and issubclass(base, BaseException)
        and base not in _TOO_BROAD
    ]


def is_public_module(name: str) -> bool:
    """True when no component of the dotted module name starts with an underscore."""
    return not any(part.startswith("_") for part in name.split("."))


def hierarchy_problems(cls: type) -> list[str]:
    """What is wrong with ``cls`` as an error class of the library, in words."""
    problems = []
    if not issubclass(cls, CardcrawlError):
        problems.append(f"{cls.__name__} does not derive from CardcrawlError")
    if cls is not CardcrawlError and not builtin_bases(cls):
        problems.append(f"{cls.__name__} derives from no built-in exception but Exception")
    if not is_public_module(cls.__module__):
        problems.append(f"{cls.__name__} is defined in the private module {cls.__module__}")
    return problems


def home_problems(classes: Iterable[type], home: ModuleType = errors) -> list[str]:
    """The error classes among ``classes`` that ``home`` does not export, in words."""
    return [
        f"{cls.__module__}.{cls.__qualname__} is not importable from {home.__name__}"
        for cls in classes
        if getattr(home, cls.__name__, None) is not cls or cls.__name__ not in home.__all__
    ]


def error_classes_of(module: ModuleType) -> Iterator[type]:
    """The CardcrawlError classes a module offers: its public names and its __all__."""
    names = set(getattr(module, "__all__", ())) | {n for n in vars(module) if n[0] != "_"}
    for name in sorted(names):
        obj = getattr(module, name, None)
        if inspect.isclass(obj) and issubclass(obj, CardcrawlError):
            yield obj


def reachable_error_classes() -> set[type]:
    """Every CardcrawlError class reachable from the public modules."""
    found: set[type] = set()
    for name in PUBLIC_MODULES:
        found.update(error_classes_of(importlib.import_module(name)))
    return found


# The command line is a program on top of the library: its own usage errors are caught
# in main() and printed with the usage line, never raised to a caller.
PROGRAM_PACKAGES = ("cardcrawl.cli",)


def library_modules() -> Iterator[ModuleType]:
    """Every module of the library that imports here (optional extras may be missing)."""
    for info in pkgutil.walk_packages(cardcrawl.__path__, "cardcrawl."):
        if info.name.endswith("__main__") or info.name.startswith(PROGRAM_PACKAGES):
            continue
        try:
            yield importlib.import_module(info.name)
        except ImportError:  # an adapter whose framework is not installed
            continue


def defined_error_classes() -> set[type]:
    """Every CardcrawlError subclass that a module of the library defines."""
    found: set[type] = set()
    for module in library_modules():
        for obj in vars(module).values():
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and obj.__module__.startswith("cardcrawl")
            ):
                found.add(obj)
    return {cls for cls in found if issubclass(cls, CardcrawlError)}


EXPORTED = [getattr(errors, name) for name in errors.__all__]


def test_the_walkers_find_the_errors() -> None:
    # A guard against checks that pass because they look at nothing.
    assert len(EXPORTED) >= 20
    assert {errors.UndoError, errors.EncodingError, errors.ConformanceError} <= (
        reachable_error_classes()
    )
    assert errors.PluginError in defined_error_classes()


def test_errors_exports_only_error_classes() -> None:
    assert all(inspect.isclass(cls) and issubclass(cls, BaseException) for cls in EXPORTED)
    assert errors.__all__ == sorted(errors.__all__)


@pytest.mark.parametrize("cls", EXPORTED, ids=lambda cls: cls.__name__)
def test_every_exported_error_derives_from_the_root_and_a_builtin(cls: type) -> None:
    assert hierarchy_problems(cls) == []


def test_the_root_is_exported_and_derives_from_exception() -> None:
    assert CardcrawlError in EXPORTED
    assert CardcrawlError.__bases__ == (Exception,)


def test_every_error_reachable_from_a_public_module_lives_in_errors() -> None:
    assert home_problems(reachable_error_classes()) == []


def test_every_error_the_library_defines_lives_in_errors() -> None:
    # Stronger than the public walk: an error raised from a private module but not
    # re-exported anywhere would still reach users in a traceback.
    defined = defined_error_classes()
    assert home_problems(defined) == []
    assert sorted(cls.__name__ for cls in defined) == sorted(errors.__all__)


@pytest.mark.parametrize("cls", sorted(reachable_error_classes(), key=lambda c: c.__name__))
def test_every_error_is_defined_in_a_public_module(cls: type) -> None:
    assert is_public_module(cls.__module__), cls.__module__
    assert cls.__module__ == "cardcrawl.errors"


def example(cls: type[BaseException]) -> BaseException:
    """An instance of ``cls`` whose message is ``what went wrong``."""
    if issubclass(cls, errors.IllegalActionError):
        return cls(None, "jump", "the player to move", [], "what went wrong")
    return cls("what went wrong")


@pytest.mark.parametrize("cls", EXPORTED, ids=lambda cls: cls.__name__)
def test_a_traceback_names_the_public_path(cls: type[BaseException]) -> None:
    line = traceback.format_exception_only(cls, example(cls))[-1]
    assert line.startswith(f"cardcrawl.errors.{cls.__name__}: ")
    assert "what went wrong" in line


# --------------------------------------------------------- the checks can fail
def test_the_checks_fail_on_an_error_without_a_builtin_base_in_a_private_module() -> None:
    bare = type("BareError", (CardcrawlError,), {"__module__": "cardcrawl.play._match"})
    assert hierarchy_problems(bare) == [
        "BareError derives from no built-in exception but Exception",
        "BareError is defined in the private module cardcrawl.play._match",
    ]
    assert home_problems([bare]) == [
        "cardcrawl.play._match.BareError is not importable from cardcrawl.errors"
    ]


def test_the_checks_fail_on_an_error_outside_the_hierarchy() -> None:
    stray = type("StrayError", (ValueError,), {"__module__": "cardcrawl.errors"})
    assert hierarchy_problems(stray) == ["StrayError does not derive from CardcrawlError"]


def test_the_home_check_fails_on_a_same_named_class_that_is_another() -> None:
    # A re-export must be the class itself, not a copy with the same name.
    twin = type("UndoError", (CardcrawlError, RuntimeError), {"__module__": "cardcrawl.errors"})
    assert home_problems([twin]) == [
        "cardcrawl.errors.UndoError is not importable from cardcrawl.errors"
    ]


def test_the_public_walk_finds_an_error_a_public_module_offers() -> None:
    module = ModuleType("cardcrawl.fake")
    hidden = type("HiddenError", (CardcrawlError, LookupError), {"__module__": "cardcrawl.fake"})
    module.HiddenError = hidden  # type: ignore[attr-defined]
    module.__all__ = ["HiddenError"]  # type: ignore[attr-defined]
    assert list(error_classes_of(module)) == [hidden]
    assert home_problems(error_classes_of(module)) == [
        "cardcrawl.fake.HiddenError is not importable from cardcrawl.errors"
    ]


def test_builtin_bases_ignores_exception_itself() -> None:
    assert builtin_bases(CardcrawlError) == []
    assert builtin_bases(errors.ActionError) == [TypeError, ValueError]
    assert builtin_bases(errors.UnknownFigureError) == [KeyError, LookupError]
    assert builtin_bases(errors.UndoError) == [RuntimeError]
