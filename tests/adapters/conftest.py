"""Shared helpers of the adapter tests: importing an optional extra, or failing for it.

The base test run installs no extras, so each adapter test module starts with
``gym = require("gymnasium")``, which skips the module when the package is missing. CI
installs the extras and sets ``CARDCRAWL_REQUIRE_EXTRAS=1``: then a missing package is an
error, not a skip, so an adapter can never pass by being silently skipped.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

__all__ = ["extras_required", "require"]


def extras_required() -> bool:
    """True when ``CARDCRAWL_REQUIRE_EXTRAS=1``: optional packages must be importable."""
    return os.environ.get("CARDCRAWL_REQUIRE_EXTRAS", "") == "1"


def require(module_name: str) -> ModuleType:
    """Import ``module_name``; skip the calling test module if it is missing, unless
    ``CARDCRAWL_REQUIRE_EXTRAS=1``, in which case the ImportError propagates.

    Call it at the top of a test module: ``gym = require("gymnasium")``.
    """
    if extras_required():
        return importlib.import_module(module_name)
    return pytest.importorskip(module_name)
