"""Every code example in the documentation runs and prints what the page shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_run(page: Path) -> None:
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
