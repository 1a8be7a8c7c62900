"""Shared test configuration: Hypothesis profiles, and the shared test helpers' folder.

The tests mirror the package: ``core/``, ``kit/``, ``play/``, ``cli/``, one folder per
game (``mapless/``, ``haydes/``), ``bots/``, ``simulate/``, ``adapters/``, ``variants/``
(rule variants and the hooks they use) and ``docs/`` (pages, examples, docstrings).
Shared strategies live in ``tests/strategies.py``, importable from every folder.

``ci`` is derandomized with bounded examples and no deadlines, so CI is never flaky;
``.ci/run`` selects it with ``HYPOTHESIS_PROFILE=ci``. ``dev`` (the default) explores
a little more on every run; ``deep`` is for long local hunts for counterexamples:
``HYPOTHESIS_PROFILE=deep python -m pytest tests``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=25,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "deep",
    max_examples=2_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# Test modules in the folders import the shared helpers (strategies.py) by name.
sys.path.insert(0, str(Path(__file__).resolve().parent))
