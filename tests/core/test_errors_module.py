"""One root and a public home for every error.

The core's errors live in :mod:`cardcrawl.errors`; the errors of a surface (the engine
protocol's and the language-model seat's in :mod:`cardcrawl.bots`, the web app's in
:mod:`cardcrawl.web`) live with that surface. Every error class the library defines is
named by a public module that exports it (so that a traceback names a path a user can
import), and derives from a built-in exception besides
:class:`~cardcrawl.CardcrawlError`, so that code catching ``ValueError``,
``LookupError`` and the like keeps working. The surface errors' old names in
``cardcrawl.errors`` still work, with a ``DeprecationWarning``.

The checks are functions returning the problems they find, so that the last tests can
show each of them failing on a class made to break it.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
import traceback
import warnings
from collections.abc import Iterable, Iterator
from types import ModuleType

import pytest

import cardcrawl
from cardcrawl import errors
from cardcrawl.errors import CardcrawlError

# Each surface whose errors live with it, and those errors. (The web needs its extra.)
SURFACES = {
    "cardcrawl.bots": ("EngineError", "EngineTimeoutError", "ModelReplyError"),
    "cardcrawl.web": ("RequestError", "StorageError"),
}

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


def home_of(cls: type) -> str:
    """Where ``cls`` should live: its surface, if it is a surface's error; else the core's
    :mod:`cardcrawl.errors`."""
    for surface, names in SURFACES.items():
        if cls.__name__ in names:
            return surface
    return "cardcrawl.errors"


def home_problems(classes: Iterable[type], home: ModuleType | None = None) -> list[str]:
    """The error classes among ``classes`` that their home (``home``, else
    :func:`home_of`) does not define and export, in words."""
    problems = []
    for cls in classes:
        module = home or importlib.import_module(home_of(cls))
        if (
            getattr(module, cls.__name__, None) is not cls
            or cls.__name__ not in module.__all__
            or cls.__module__ != module.__name__
        ):
            problems.append(
                f"{cls.__module__}.{cls.__qualname__} is not importable from {module.__name__}"
            )
    return problems


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


def surface_errors() -> list[type]:
    """The errors of every surface that imports here (the web needs its extra)."""
    found = []
    for surface, names in SURFACES.items():
        try:
            module = importlib.import_module(surface)
        except ImportError:
            continue
        found.extend(getattr(module, name) for name in names)
    return found


SURFACE_ERRORS = surface_errors()


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


def test_every_error_the_library_defines_lives_in_its_home() -> None:
    # Stronger than the public walk: an error raised from a private module but not
    # re-exported anywhere would still reach users in a traceback.
    defined = defined_error_classes()
    assert home_problems(defined) == []
    core = sorted(cls.__name__ for cls in defined if home_of(cls) == "cardcrawl.errors")
    assert core == sorted(errors.__all__)
    assert {cls for cls in defined if home_of(cls) != "cardcrawl.errors"} == set(SURFACE_ERRORS)


@pytest.mark.parametrize("cls", sorted(reachable_error_classes(), key=lambda c: c.__name__))
def test_every_error_is_defined_in_a_public_module(cls: type) -> None:
    assert is_public_module(cls.__module__), cls.__module__
    assert cls.__module__ == home_of(cls)


def test_the_surface_errors_are_found() -> None:
    # The bots' are always there; the web's with its extra (the test extra has it).
    assert len(SURFACE_ERRORS) == 5
    assert not set(SURFACE_ERRORS) & set(EXPORTED)


@pytest.mark.parametrize("cls", SURFACE_ERRORS, ids=lambda cls: cls.__name__)
def test_a_surface_error_derives_from_the_root_and_a_builtin(cls: type) -> None:
    assert hierarchy_problems(cls) == []


@pytest.mark.parametrize("cls", SURFACE_ERRORS, ids=lambda cls: cls.__name__)
def test_a_surface_errors_old_name_in_errors_warns_and_is_the_class(cls: type) -> None:
    with pytest.warns(DeprecationWarning, match=rf"import it from {cls.__module__}"):
        old = getattr(errors, cls.__name__)
    assert old is cls
    assert cls.__name__ not in errors.__all__
    with pytest.warns(DeprecationWarning, match=cls.__name__):
        exec(f"from cardcrawl.errors import {cls.__name__} as imported", {})


def test_an_unknown_name_in_errors_is_still_an_attribute_error() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no attribute 'NoSuchError'"):
            errors.NoSuchError  # type: ignore[attr-defined]  # noqa: B018
        assert not hasattr(errors, "NoSuchError")


def test_the_errors_module_imports_no_surface_nor_extra() -> None:
    # Importing every core error (the star import reads __all__) loads neither a surface
    # nor an optional extra; only an old surface name, when asked for, loads its surface.
    code = (
        "import sys\n"
        "from cardcrawl.errors import *\n"
        "import cardcrawl\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('starlette', 'uvicorn', 'websockets', 'httpx') or m.startswith('cardcrawl.web')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def example(cls: type[BaseException]) -> BaseException:
    """An instance of ``cls`` whose message is ``what went wrong``."""
    if issubclass(cls, errors.IllegalActionError):
        return cls(None, "jump", "the player to move", [], "what went wrong")
    return cls("what went wrong")


@pytest.mark.parametrize("cls", EXPORTED + SURFACE_ERRORS, ids=lambda cls: cls.__name__)
def test_a_traceback_names_the_public_path(cls: type[BaseException]) -> None:
    line = traceback.format_exception_only(cls, example(cls))[-1]
    assert line.startswith(f"{home_of(cls)}.{cls.__name__}: ")
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
    # A surface's error named by the core's module, where it no longer lives.
    strayed = type("StorageError", (CardcrawlError, OSError), {"__module__": "cardcrawl.errors"})
    assert home_of(strayed) == "cardcrawl.web"
    assert home_problems([strayed]) == [
        "cardcrawl.errors.StorageError is not importable from cardcrawl.web"
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
