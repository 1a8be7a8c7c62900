"""cardcrawl.compiled_modules and compiled_kernels: what this installation runs compiled."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.core._compiled import COMPILED
from cardcrawl.haydes import _kernel as haydes_kernel
from cardcrawl.mapless import _kernel as mapless_kernel


def _loaded_as_extension(module: object) -> bool:
    return str(getattr(module, "__file__", "")).endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES)
    )


def test_it_names_exactly_the_games_whose_kernel_module_is_an_extension() -> None:
    expected = {
        name
        for name, module in [
            ("escape-from-haydes", haydes_kernel),
            ("mapless-house", mapless_kernel),
        ]
        if _loaded_as_extension(module)
    }
    assert set(cardcrawl.compiled_kernels()) == expected


def test_a_kernel_module_loaded_from_a_shared_library_counts_as_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    monkeypatch.setattr(mapless_kernel, "__file__", f"/site-packages/_kernel{suffix}")
    assert "mapless-house" in cardcrawl.compiled_kernels()
    monkeypatch.setattr(mapless_kernel, "__file__", "/site-packages/_kernel.py")
    assert "mapless-house" not in cardcrawl.compiled_kernels()


def test_variants_are_not_listed_apart_from_their_game() -> None:
    # A variant shares its base game's kernel module: only base games are named.
    names = cardcrawl.compiled_kernels()
    assert all(cardcrawl.get_spec(name).base is None for name in names)
    assert "escape-from-haydes-tuybe" not in names


def test_the_suite_runs_on_the_build_it_expects() -> None:
    # The suite runs on the pure-Python reference (an editable install) unless it is
    # pointed at a compiled build on purpose: .ci/compiled-check sets
    # CARDCRAWL_EXPECT_COMPILED=1, so that a build that silently fell back, or compiled
    # only some of the modules, fails there.
    expect = os.environ.get("CARDCRAWL_EXPECT_COMPILED") == "1"
    assert bool(cardcrawl.compiled_kernels()) == expect
    assert cardcrawl.compiled_modules() == (COMPILED if expect else ())


def test_compiled_modules_names_exactly_those_loaded_as_extensions() -> None:
    expected = tuple(
        name for name in COMPILED if _loaded_as_extension(importlib.import_module(name))
    )
    assert cardcrawl.compiled_modules() == expected


def test_a_module_loaded_from_a_shared_library_counts_as_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = sys.modules["cardcrawl.core._engine"]
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    monkeypatch.setattr(engine, "__file__", f"/site-packages/_engine{suffix}")
    assert "cardcrawl.core._engine" in cardcrawl.compiled_modules()
    monkeypatch.setattr(engine, "__file__", "/site-packages/_engine.py")
    assert "cardcrawl.core._engine" not in cardcrawl.compiled_modules()


def test_every_module_listed_is_a_module_of_the_package_with_its_source() -> None:
    # The build hook reads the list as text and compiles src/<name>.py. It skips a name
    # whose source is gone, so the build never breaks; this keeps the list current, so
    # that a renamed hot module is not silently left uncompiled.
    source = Path(cardcrawl.__file__).parent
    assert len(set(COMPILED)) == len(COMPILED)
    for name in COMPILED:
        top, *inner = name.split(".")
        assert top == "cardcrawl"
        assert (source.joinpath(*inner[:-1]) / f"{inner[-1]}.py").is_file(), (
            f"COMPILED in cardcrawl/core/_compiled.py names {name}, which has no source: "
            "list the module that holds that code now, or drop the name"
        )


def test_the_build_hook_compiles_exactly_the_listed_modules() -> None:
    # hatch_build.py reads COMPILED from the source as text (a build must not import the
    # package it builds): what it reads is the tuple the package itself holds.
    pytest.importorskip("hatchling")
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("hatch_build", root / "hatch_build.py")
    assert spec is not None
    assert spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    modules = hook.compiled_modules(root)
    assert tuple(modules) == COMPILED
    assert all((root / source).is_file() for source in modules.values())


def _hook_module() -> object:
    pytest.importorskip("hatchling")
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("hatch_build", root / "hatch_build.py")
    assert spec is not None
    assert spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    return hook


@pytest.mark.parametrize(
    ("compile_", "pure", "wanted"),
    [("", "", False), ("0", "", False), ("1", "", True), ("1", "1", False), ("", "1", False)],
)
def test_the_build_compiles_only_when_asked_and_only_then_needs_cython(
    monkeypatch: pytest.MonkeyPatch, compile_: str, pure: str, wanted: bool
) -> None:
    # A plain `pip install .` builds the pure-Python wheel in seconds, without Cython:
    # CARDCRAWL_COMPILE=1 opts in, CARDCRAWL_PURE_PYTHON=1 wins over it.
    hook: Any = _hook_module()
    monkeypatch.setenv("CARDCRAWL_COMPILE", compile_)
    monkeypatch.setenv("CARDCRAWL_PURE_PYTHON", pure)
    assert hook.wanted() is wanted
    needs = hook.CompiledModules.dependencies(object())
    assert any(need.startswith("Cython") for need in needs) is wanted


def test_a_listed_module_that_is_gone_is_skipped_not_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A module renamed by a rewrite of the rules leaves a stale name: --version and
    # compiled_modules() still answer, for the modules that exist.
    from cardcrawl.core import _compiled

    gone = ("cardcrawl.mapless._no_such_module", "cardcrawl.no_such_package._module")
    monkeypatch.setattr(_compiled, "COMPILED", (*COMPILED, *gone))
    assert set(cardcrawl.compiled_modules()) <= set(COMPILED)
    assert _compiled.build_name(()) == "pure Python"
    assert _compiled.build_name(COMPILED) == "compiled"
