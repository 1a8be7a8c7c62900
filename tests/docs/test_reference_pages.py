"""The built documentation site, read in a real browser: the reference reads like
documentation, and no picture overflows its page.

The site is built once (``mkdocs build --strict`` into a temporary folder, about ten
seconds) and opened in headless Chromium through Playwright. On every reference page:
no heading is taller than 100 px (a heading holds a name, never a long value or a
signature that wraps), and no member entry is empty; every public name has its entry.
On the pages with pictures, every picture is drawn and fits the page, on a phone and on
a desktop.

The test needs the ``docs`` extra (MkDocs) as well as Playwright and
``/usr/bin/chromium``; without them it is skipped, except where the environment sets
``CARDCRAWL_REQUIRE_DOCS=1`` (CI's documentation step): then it fails.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REFERENCE = sorted(p.stem for p in (ROOT / "docs" / "reference").glob("*.md"))
# The modules the reference documents: every name of their __all__ has an entry.
MODULES = [
    "cardcrawl",
    "cardcrawl.kit",
    "cardcrawl.play",
    "cardcrawl.errors",
    "cardcrawl.mapless",
    "cardcrawl.haydes",
    "cardcrawl.testing",
    "cardcrawl.bots",
    "cardcrawl.simulate",
    "cardcrawl.tournament",
    "cardcrawl.encoding",
    "cardcrawl.adapters",
    "cardcrawl.solve",
    "cardcrawl.compare",
    "cardcrawl.tree",
    "cardcrawl.tune",
    "cardcrawl.web",
]
PICTURE_PAGES = [
    "tutorial",
    "how-to/render",
    "rules/mapless-house",
    "rules/escape-from-haydes",
]

# What a page shows: its headings taller than 100 px, its empty member entries (an
# object whose contents, its members left aside, hold no text), and how many entries.
MEASURE = """() => {
  const content = document.querySelector('.md-content');
  const tall = [...content.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .map(h => [Math.round(h.getBoundingClientRect().height), h.id || h.textContent.trim()])
    .filter(([height]) => height > 100);
  const objects = [...content.querySelectorAll('.doc-object')];
  const empty = objects.filter(o => {
    const contents = o.querySelector(':scope > .doc-contents');
    if (!contents) { return true; }
    const own = contents.cloneNode(true);
    own.querySelectorAll('.doc-children').forEach(c => c.remove());
    return own.textContent.trim() === '';
  }).map(o => (o.querySelector('.doc-heading') || {}).id || '?');
  const ids = [...content.querySelectorAll('.doc-heading[id]')].map(h => h.id);
  // Full entries: classes and functions (an attribute naming one is a line, an alias).
  const full = [...content.querySelectorAll('.doc-class, .doc-function')]
    .map(o => o.querySelector(':scope > .doc-heading[id]'))
    .filter(h => h).map(h => h.id);
  return {tall, empty, entries: objects.length, ids, full};
}"""

FIT = """() => {
  const pictures = [...document.querySelectorAll('figure.cardcrawl-picture img')];
  return {
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    pictures: pictures.map(img => ({
      src: img.getAttribute('src'),
      loaded: img.complete && img.naturalWidth > 0,
      width: img.getBoundingClientRect().width,
      room: img.closest('article, .md-content').getBoundingClientRect().width,
    })),
    emptyHeaders: [...document.querySelectorAll('.md-content thead tr')]
      .filter(row => row.textContent.trim() === '').length,
  };
}"""


def _required() -> bool:
    return os.environ.get("CARDCRAWL_REQUIRE_DOCS") == "1"


def _missing(what: str) -> None:
    if _required():
        pytest.fail(f"CARDCRAWL_REQUIRE_DOCS=1 but {what}")
    pytest.skip(what)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("mkdocs") is None:
        _missing("MkDocs is not installed (pip install -e '.[docs]')")
    folder = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright import sync_api
    except ImportError:
        _missing("Playwright is not installed (pip install playwright)")
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def open_page(browser: Any, url: str, width: int) -> Any:
    """A page of the local site at ``width`` px; it may read local files only."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort(),
    )
    page = context.new_page()
    page.goto(url)
    return context, page


@pytest.fixture(scope="module")
def reference(site: Path, browser: Any) -> dict[str, dict[str, Any]]:
    """What each reference page shows, read at desktop width."""
    context, page = open_page(browser, "about:blank", 1280)
    shown = {}
    for name in REFERENCE:
        page.goto((site / "reference" / name / "index.html").as_uri())
        shown[name] = page.evaluate(MEASURE)
    context.close()
    return shown


@pytest.mark.parametrize("name", REFERENCE)
def test_reference_page_reads_like_documentation(
    reference: dict[str, dict[str, Any]], name: str
) -> None:
    shown = reference[name]
    assert shown["tall"] == [], "headings taller than 100 px"
    assert shown["empty"] == [], "member entries with nothing in them"
    if name != "hooks":  # the one reference page written by hand, with tables
        assert shown["entries"] > 0


def test_every_public_name_has_an_entry(reference: dict[str, dict[str, Any]]) -> None:
    ids = {i for shown in reference.values() for i in shown["ids"]}
    missing = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            if name.startswith("__"):
                continue
            if not any(f"{other}.{name}" in ids for other in MODULES):
                missing.append(f"{module_name}.{name}")
    assert missing == []


def test_each_name_has_one_entry(reference: dict[str, dict[str, Any]]) -> None:
    """A class or function re-exported by several modules has one full entry."""
    pages_of: dict[int, set[str]] = {}
    for page_name, shown in reference.items():
        for heading in shown["full"]:
            module_name, _, name = heading.rpartition(".")
            if module_name not in MODULES:
                continue  # a member of a class, or a submodule's name
            value = getattr(importlib.import_module(module_name), name, None)
            if isinstance(value, type) or callable(value):
                pages_of.setdefault(id(value), set()).add(f"{page_name}:{heading}")
    twice = sorted(str(sorted(pages)) for pages in pages_of.values() if len(pages) > 1)
    assert twice == []


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("name", PICTURE_PAGES)
def test_pictures_are_drawn_and_fit_the_page(
    site: Path, browser: Any, name: str, width: int
) -> None:
    context, page = open_page(browser, (site / name / "index.html").as_uri(), width)
    # The pictures load lazily, as they come into view: load them all now.
    page.evaluate("document.querySelectorAll('img').forEach(i => { i.loading = 'eager'; })")
    page.wait_for_function("[...document.images].every(i => i.complete)")
    fit = page.evaluate(FIT)
    context.close()
    assert fit["pictures"], name
    for picture in fit["pictures"]:
        assert picture["loaded"], picture
        assert picture["width"] <= picture["room"] + 0.5, picture
    assert fit["overflow"] <= 0
    assert fit["emptyHeaders"] == 0
