"""Which games' rollout kernels run as compiled machine code in this installation.

A regular ``pip install .`` compiles the kernels of the built-in games with Cython,
from the very source the pure-Python package runs (see ``hatch_build.py``); without a C
compiler, with ``CARDCRAWL_PURE_PYTHON=1``, or installed editable, they stay Python. The
games are the same either way (``cardcrawl.testing.check_kernel`` proves each kernel
against the public path); only ``simulate`` and the bots' playouts run faster.
"""

from __future__ import annotations

import importlib.machinery
import sys
from typing import Any

from cardcrawl.core._registry import _REGISTRY

__all__ = ["compiled_kernels"]


def compiled_kernels() -> tuple[str, ...]:
    """The registered games (variants aside) whose rollout kernel is compiled, sorted.

    Only what is registered now is looked at: the built-in games, and the games of
    plug-ins already loaded.

    Returns:
        Their names; ``()`` where every kernel runs as Python.

    Examples:
        >>> import cardcrawl
        >>> set(cardcrawl.compiled_kernels()) <= {"escape-from-haydes", "mapless-house"}
        True
    """
    return tuple(
        name
        for name, spec in sorted(_REGISTRY.items())
        if spec.base is None and _is_compiled(spec.tools.rollout)
    )


def _is_compiled(factory: Any) -> bool:
    # A function of an extension module: the module was loaded from a shared library
    # (Cython's and mypyc's alike) rather than from its .py source.
    module = sys.modules.get(getattr(factory, "__module__", None) or "")
    path = getattr(module, "__file__", None) or ""
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
