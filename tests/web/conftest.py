"""Shared pieces of the web app's tests: a client, a live server, a browser, and the
hidden things a seat must never be sent.

The live server is uvicorn in a thread of the test process, on a free port of
127.0.0.1, stopped when the tests that use it are done; its tables are those of the
app (``app.state.tables``), so the tests can compare what the browser was sent with
the true states. The browser is Debian's Chromium driven by Playwright, as in
``tests/play/test_html_browser.py``: skipped when either is missing, unless
``CARDCRAWL_REQUIRE_BROWSER=1`` (as in CI), which turns that into a failure.
Screenshots go to ``test-artifacts/web/`` at the top of the repository (ignored by
git), kept after the run.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

import uvicorn

with warnings.catch_warnings():
    # Starlette asks for httpx2 in its next version; httpx is what is installed.
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from cardcrawl import Card
from cardcrawl.web import create_app

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
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
# Where each game keeps its face-down cards, by card_census name.
DECKS = ("narrative", "mind", "body")


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A client of a fresh app whose bots move at once, addressed as 127.0.0.1."""
    with TestClient(create_app(bot_delay=0), base_url="http://127.0.0.1") as test_client:
        yield test_client


class LiveServer:
    """uvicorn serving a fresh app in a thread, on a free port of 127.0.0.1."""

    def __init__(self, port: int = 0, **options: Any) -> None:
        self.app = create_app(bot_delay=0, **options)
        # A port given again (a restarted server) is bound again at once: the socket
        # takes SO_REUSEADDR, so the last one's closed connections do not hold it.
        self._socket = socket.create_server(("127.0.0.1", port))
        self.port = self._socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", ws="websockets-sansio")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    @property
    def tables(self) -> Any:
        return self.app.state.tables

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._socket.close()


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    with LiveServer() as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    required = os.environ.get("CARDCRAWL_REQUIRE_BROWSER") == "1"
    try:
        from playwright import sync_api
    except ImportError:
        if required:
            pytest.fail("CARDCRAWL_REQUIRE_BROWSER=1 but Playwright is not installed")
        pytest.skip("Playwright is not installed (pip install playwright)")
    if not CHROMIUM.exists():
        if required:
            pytest.fail(f"CARDCRAWL_REQUIRE_BROWSER=1 but {CHROMIUM} is not installed")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# ------------------------------------------------------------ what must stay hidden
def card_forms(card: Card) -> list[str]:
    """The ways a card can be written in what the client receives: its code (``QH``,
    in ``data-card``) and its symbol (``Q♥``, in titles and events)."""
    return sorted({card.code, card.symbol})


def never_shown_cards(game: Any, states: Iterable[Any]) -> set[Card]:
    """The cards that stayed face down in a deck in every one of ``states``."""
    hidden: set[Card] | None = None
    for state in states:
        census = game.card_census(state)
        in_decks = {card for name in DECKS for card in census.get(name, ())}
        hidden = in_decks if hidden is None else hidden & in_decks
    return hidden or set()


def secret_numbers(states: Iterable[Any], seed: int) -> set[str]:
    """The generator values of ``states`` and the seed, as decimal and hex text."""
    numbers = {seed, *(state.rng for state in states)}
    found = set()
    for number in numbers:
        if number >= 1000:  # short numbers are everywhere (coordinates, counts)
            found.update({str(number), f"{number:x}", f"{number:X}"})
    return found


def leaks(texts: Iterable[str], cards: Iterable[Card], numbers: Iterable[str]) -> list[str]:
    """What of ``cards`` and ``numbers`` appears in ``texts`` (as whole words)."""
    forms = sorted({f for card in cards for f in card_forms(card)} | set(numbers), key=len)
    if not forms:
        return []
    # One pattern for them all, longest first, so "10H" is not read as "0H".
    either = "|".join(re.escape(f) for f in reversed(forms))
    pattern = re.compile(rf"(?<![0-9A-Za-z])(?:{either})(?![0-9A-Za-z])")
    return sorted({found for text in texts for found in pattern.findall(text)})
