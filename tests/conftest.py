"""Shared test configuration: Hypothesis profiles.

``ci`` is derandomized with bounded examples and no deadlines, so CI is never flaky;
``.ci/run`` selects it with ``HYPOTHESIS_PROFILE=ci``. ``dev`` (the default) explores
a little more on every run; ``deep`` is for long local hunts for counterexamples:
``HYPOTHESIS_PROFILE=deep python -m pytest tests``.
"""

from __future__ import annotations

import os

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
