"""Shared test configuration: Hypothesis profiles, and the shared test helpers' folder.

The tests mirror the package: ``core/``, ``kit/``, ``play/``, ``cli/``, one folder per
game (``mapless/``, ``haydes/``), ``bots/``, ``simulate/``, ``adapters/``, ``variants/``
(rule variants and the hooks they use) and ``docs/`` (pages, examples, docstrings).
Shared strategies live in ``tests/strategies.py``, importable from every folder.

``ci`` is derandomized with bounded examples and no deadlines, so CI is never flaky;
``.ci/run`` selects it with ``HYPOTHESIS_PROFILE=ci``. ``dev`` (the default) explores
a little more on every run; ``deep`` is for long local hunts for counterexamples:
``HYPOTHESIS_PROFILE=deep python -m pytest tests``.

The slow set (``@pytest.mark.slow``) holds the long explorations: the default run leaves
it out (``-m 'not slow'`` in pyproject.toml) and ``python -m pytest -n auto -m slow``
runs it, as ``.ci/run`` does. A test marks itself; the cases of a parametrized test that
are long while the others are quick are listed in :data:`SLOW_CASES` instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
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

#: Single cases of parametrized tests that belong to the slow set, by file and test id:
#: the documentation pages whose examples run whole studies, and the searching bot's
#: whole games.
SLOW_CASES = frozenset(
    {
        ("test_docs_snippets.py", "test_page_examples_run[docs/how-to/analyze.md]"),
        ("test_docs_snippets.py", "test_page_examples_run[docs/how-to/many-games.md]"),
        ("test_docs_snippets.py", "test_page_examples_run[docs/how-to/plugins.md]"),
        ("test_docs_snippets.py", "test_page_examples_run[docs/how-to/write-a-variant.md]"),
        ("test_docs_snippets.py", "test_page_examples_run[docs/how-to/ismcts.md]"),
        ("test_docs_snippets.py", "test_page_examples_run[docs/how-to/tournament.md]"),
        ("test_docs_snippets.py", "test_page_examples_run[docs/how-to/explicit-chance.md]"),
        ("test_docs_snippets.py", "test_page_examples_run[docs/how-to/tune-a-bot.md]"),
        (
            "test_bot_parameters.py",
            "test_the_defaults_choose_as_the_untuned_bot[mapless-house-1-planner-self]",
        ),
        (
            "test_bots.py",
            "test_every_bot_plays_legally_to_the_end_and_the_same_seed_replays[search]",
        ),
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if (item.path.name, item.name) in SLOW_CASES:
            item.add_marker(pytest.mark.slow)
