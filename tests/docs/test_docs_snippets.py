"""Every code example in the documentation runs and prints what the page shows."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
# The adapter pages run code that needs an optional extra. Without it they are
# skipped, except in CI, which installs the extras and sets CARDCRAWL_REQUIRE_EXTRAS.
NEEDS = {
    "gymnasium.md": ("gymnasium", "numpy"),
    "pettingzoo.md": ("pettingzoo", "gymnasium", "numpy"),
    "openspiel.md": ("pyspiel", "numpy"),
}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_run(page: Path) -> None:
    if page.parent.name == "adapters" and os.environ.get("CARDCRAWL_REQUIRE_EXTRAS") != "1":
        for module in NEEDS.get(page.name, ()):
            if importlib.util.find_spec(module) is None:
                pytest.skip(f"{page.name} needs the optional package {module}")
    checker = ROOT / "docs" / "_ext" / "check_snippets.py"
    result = subprocess.run(
        [sys.executable, str(checker), str(page)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
