"""Which of cardcrawl's modules run as compiled machine code in this installation.

``CARDCRAWL_COMPILE=1 pip install .`` compiles the modules of :data:`COMPILED` with
Cython, from the very source the pure-Python package runs (see ``hatch_build.py``,
which reads the tuple from this file); a plain ``pip install .``, a machine without a C
compiler, or an editable install leaves them Python. The games are the same either
way: the compiled build runs the same tests, and ``cardcrawl.testing.check_kernel``
proves each rollout kernel against the public path. Only the speed differs.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from typing import Any

from cardcrawl.core._registry import _REGISTRY

__all__ = ["COMPILED", "build_name", "compiled_kernels", "compiled_modules"]

#: The modules the compiled build compiles, each from its unchanged source.
#: First the rollout kernels, the bots' seeds they derive and the figures they report
#: (``simulate``); then what
#: every step of the public API runs: the engine, the generator, the kit's cards, decks
#: and grid, and each game's rules, state, events and actions; last the built-in bots
#: that search or weigh positions through that API; then the native vector
#: environment's batch loop (numpy-free), the games' working interfaces it steps and the
#: compact rows it writes. Everything else (the command line,
#: the records, the pictures, the web app) stays Python: it is not where time goes.
#: A name whose module is gone is skipped by the build and by the functions here, so a
#: renamed module slows the compiled build down but never breaks it or ``--version``.
COMPILED = (
    "cardcrawl.core._seeds",
    "cardcrawl.haydes._kernel",
    "cardcrawl.mapless._kernel",
    "cardcrawl.mapless._figures",
    "cardcrawl.core._engine",
    "cardcrawl.core._random",
    "cardcrawl.kit._cards",
    "cardcrawl.kit._deck",
    "cardcrawl.kit._grid",
    "cardcrawl.haydes._actions",
    "cardcrawl.haydes._events",
    "cardcrawl.haydes._game",
    "cardcrawl.haydes._play",
    "cardcrawl.haydes._position",
    "cardcrawl.haydes._rules",
    "cardcrawl.haydes._state",
    "cardcrawl.haydes._unseen",
    "cardcrawl.mapless._actions",
    "cardcrawl.mapless._events",
    "cardcrawl.mapless._game",
    "cardcrawl.mapless._play",
    "cardcrawl.mapless._position",
    "cardcrawl.mapless._rules",
    "cardcrawl.mapless._state",
    "cardcrawl.haydes._bots",
    "cardcrawl.mapless._bot_model",
    "cardcrawl.mapless._bots",
    "cardcrawl.core._working",
    "cardcrawl.haydes._working",
    "cardcrawl.mapless._working",
    "cardcrawl.encoding._compact",
    "cardcrawl.haydes._compact",
    "cardcrawl.mapless._compact",
    "cardcrawl.adapters._batch",
)


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`COMPILED` that this installation runs compiled, in order.

    Returns:
        Their names; ``()`` for the pure-Python package, every one of ``COMPILED``
        that exists for a build that compiled.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.core._compiled import COMPILED
        >>> cardcrawl.compiled_modules() in {(), COMPILED}
        True
    """
    return tuple(name for name in _present() if _is_extension(importlib.import_module(name)))


def build_name(compiled: tuple[str, ...] | None = None) -> str:
    """The build, in words (``cardcrawl --version``, the benchmarks' notes).

    Args:
        compiled: the modules compiled; by default :func:`compiled_modules`.

    Returns:
        ``"compiled"``, ``"pure Python"``, or for a build that compiled only some of
        :data:`COMPILED` (an older or hand-made one) ``"partly compiled: "`` and which.

    Examples:
        >>> build_name(()), build_name(COMPILED)
        ('pure Python', 'compiled')
        >>> build_name(("cardcrawl.haydes._kernel",))
        'partly compiled: cardcrawl.haydes._kernel'
    """
    if compiled is None:
        compiled = compiled_modules()
    if not compiled:
        return "pure Python"
    if set(compiled) >= set(_present()):
        return "compiled"
    return f"partly compiled: {', '.join(compiled)}"


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


def _present() -> tuple[str, ...]:
    # The names of COMPILED that are modules of this installation.
    present = []
    for name in COMPILED:
        try:
            if importlib.util.find_spec(name) is not None:
                present.append(name)
        except ModuleNotFoundError:  # its package is gone too
            pass
    return tuple(present)


def _is_compiled(factory: Any) -> bool:
    return _is_extension(sys.modules.get(getattr(factory, "__module__", None) or ""))


def _is_extension(module: Any) -> bool:
    return runs_compiled(getattr(module, "__file__", None) or "")


def runs_compiled(path: str) -> bool:
    """Whether the module loaded from ``path`` (its ``__file__``) runs compiled: loaded
    from a shared library, Cython's or mypyc's alike, rather than from its ``.py``
    source. A module that picks between two equal forms of the same work by build asks
    this with its own ``__file__``.

    Examples:
        >>> runs_compiled("cardcrawl/core/_engine.py")
        False
        >>> import importlib.machinery
        >>> runs_compiled("_engine" + importlib.machinery.EXTENSION_SUFFIXES[0])
        True
    """
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
