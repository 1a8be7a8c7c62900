"""Doctest collection of ``src/``: leave out modules whose extra is missing.

``--doctest-modules`` imports every module under ``src/cardcrawl``; an adapter imports
its optional package at the top, so without that extra it cannot even be imported.
CI installs the extras and sets ``CARDCRAWL_REQUIRE_EXTRAS=1``, and then nothing is
left out.
"""

import importlib.util
import os

_EXTRAS = {
    "src/cardcrawl/adapters/_env.py": ("numpy",),
    "src/cardcrawl/adapters/gymnasium.py": ("gymnasium", "numpy"),
    "src/cardcrawl/adapters/pettingzoo.py": ("pettingzoo", "gymnasium", "numpy"),
    "src/cardcrawl/adapters/openspiel.py": ("pyspiel", "numpy"),
    "src/cardcrawl/adapters/vector.py": ("gymnasium", "numpy"),
    # Imports fine without matplotlib, but its example draws a plot.
    "src/cardcrawl/compare/_plot.py": ("matplotlib",),
}


def _missing(modules: tuple[str, ...]) -> bool:
    return any(importlib.util.find_spec(module) is None for module in modules)


collect_ignore = (
    []
    if os.environ.get("CARDCRAWL_REQUIRE_EXTRAS") == "1"
    else [path for path, modules in _EXTRAS.items() if _missing(modules)]
)
