"""cardcrawl.compiled_kernels: which rollout kernels this installation runs compiled."""

from __future__ import annotations

import importlib.machinery
import os

import pytest

import cardcrawl
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
    # CARDCRAWL_EXPECT_COMPILED=1, so that a build that silently fell back fails there.
    expect = os.environ.get("CARDCRAWL_EXPECT_COMPILED") == "1"
    assert bool(cardcrawl.compiled_kernels()) == expect
