"""cardcrawl.compiled_modules and compiled_kernels: what this installation runs compiled."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

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
    # The build hook reads the list as text and compiles src/<name>.py: a name that is
    # no module, or a module that is a package, would break every compiled build.
    source = Path(cardcrawl.__file__).parent
    assert len(set(COMPILED)) == len(COMPILED)
    for name in COMPILED:
        top, *inner = name.split(".")
        assert top == "cardcrawl"
        assert (source.joinpath(*inner[:-1]) / f"{inner[-1]}.py").is_file(), name


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
