"""The web app in a real browser: Debian's Chromium driven by Playwright, against uvicorn
serving the app on 127.0.0.1.

A whole game of The Mapless House is played by clicking the board, and a two-player
game of Escape from Haydes from two browser contexts, one seat each, to the end. Every
response body and websocket message each page receives is kept and searched for the
cards that stayed face down and the generator's values. Screenshots are kept in
``test-artifacts/web/``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardcrawl import Match, Record
from conftest import LiveServer, leaks, never_shown_cards, secret_numbers

# A page may reach the test server and nothing else.
_TIMEOUT = 10_000


class Tab:
    """A page in a browser context of its own, with everything it received."""

    def __init__(self, browser: Any, server: LiveServer) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.received: list[str] = []
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.server = server

        def route(request_route: Any) -> None:
            url = request_route.request.url
            if url.startswith((server.url, "about:", "data:")):
                request_route.continue_()
            else:
                self.outside.append(url)
                request_route.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(_TIMEOUT)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("response", self._keep_body)
        self.page.on("websocket", self._keep_frames)

    def _keep_body(self, response: Any) -> None:
        # The record and the replay are fetched once the game is over and hold the
        # seed on purpose; everything else is searched.
        if "/record?" in response.url or "/replay?" in response.url:
            return
        # A body the browser did not keep (a redirect, a download) is not there to read.
        with contextlib.suppress(Exception):
            self.received.append(response.text())

    def _keep_frames(self, socket: Any) -> None:
        socket.on(
            "framereceived",
            lambda payload: self.received.append(
                payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
            ),
        )

    def version(self) -> int:
        return int(self.page.get_attribute("body", "data-version") or "-1")

    def wait_turn_or_end(self) -> None:
        # Selectors, not scripts: the page's Content-Security-Policy forbids eval.
        self.page.wait_for_selector("body[data-turn='1'], body[data-over='1']")

    def wait_newer(self, version: int) -> None:
        # Versions only grow: another than ``version`` is a newer one.
        self.page.wait_for_selector(f"body:not([data-version='{version}'])")

    def close(self) -> None:
        self.context.close()
        assert self.errors == []
        assert self.outside == []


@pytest.fixture
def tabs(browser: Any, live_server: LiveServer) -> Iterator[list[Tab]]:
    opened = [Tab(browser, live_server), Tab(browser, live_server)]
    yield opened
    for tab in opened:
        tab.close()


def start_in_lobby(
    tab: Tab, game: str, options: dict[str, Any], seed: int, seats: list[str]
) -> str:
    """Fill the lobby's form and start; the new table's id."""
    page = tab.page
    page.goto(tab.server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    # The options form is built from the game's options class: one field each.
    for name, value in options.items():
        field = f'[data-option="{name}"]'
        if isinstance(value, bool):
            page.set_checked(field, value)
        else:
            page.fill(field, json.dumps(value) if not isinstance(value, int) else str(value))
        page.dispatch_event(field, "change")
    page.wait_for_selector(f"#seat-{len(seats) - 1}")
    page.wait_for_selector(f"#seat-{len(seats)}", state="detached")
    for number, player in enumerate(seats):
        page.select_option(f"#seat-{number}", player)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#created:not([hidden])")
    return page.get_attribute("#table-id", "data-table") or ""


def test_a_whole_mapless_game_by_clicking(
    tabs: list[Tab], live_server: LiveServer, artifacts: Path, tmp_path: Path
) -> None:
    tab = tabs[0]
    page = tab.page
    table_id = start_in_lobby(tab, "mapless-house", {"max_turns": 3}, 21, ["person"])
    page.screenshot(path=str(artifacts / "mapless-lobby.png"), full_page=True)
    page.click("#play-here")
    page.wait_for_selector("#board svg")
    clicks = 0
    while True:
        tab.wait_turn_or_end()
        if page.get_attribute("body", "data-over") == "1":
            break
        # Every action of this game names a cell: click the first one on the board.
        cell = page.get_attribute("#actions button.action >> nth=0", "data-cell")
        assert cell is not None
        highlighted = page.locator(f'#board [data-cell="{cell}"].legal-target')
        assert highlighted.count() >= 1
        before = tab.version()
        highlighted.first.click()
        tab.wait_newer(before)
        clicks += 1
        if clicks == 3:
            assert page.is_hidden("#ending")  # the record and replay wait for the end
            assert page.is_hidden("#undo")  # each placing draws a card: no fair undo
            page.screenshot(path=str(artifacts / "mapless-playing.png"), full_page=True)
        assert clicks < 200
    page.wait_for_selector("#ending:not([hidden])")
    page.screenshot(path=str(artifacts / "mapless-over.png"), full_page=True)
    table = live_server.tables.get(table_id)
    match = table.match
    assert clicks == len(match.history)
    assert page.inner_text("#status").startswith("Game over: ")
    assert page.locator("#log > li").count() == len(match.history)
    # Save the record, and open the replay.
    with page.expect_download() as download:
        page.click("#record-link")
    path = tmp_path / "game.json"
    download.value.save_as(str(path))
    record = Record.load(path)
    assert record.verified
    assert Match.from_record(record).state == match.state
    replay = tab.context.new_page()
    replay.goto(live_server.url + (page.get_attribute("#replay-link", "href") or ""))
    assert replay.locator("#picture svg").count() == 1
    replay.screenshot(path=str(artifacts / "mapless-replay.png"), full_page=True)
    replay.close()
    # Nothing the player could not see was ever sent.
    game, states = table.game, match.states
    hidden = never_shown_cards(game, states)
    assert len(hidden) >= 10
    assert len(tab.received) > clicks
    assert leaks(tab.received, hidden, secret_numbers(states, 21)) == []


def play_a_seat(tab: Tab) -> bool:
    """One action of the seat shown, if it is to play: the first legal one, through the
    board when it names a cell. False once the game is over."""
    page = tab.page
    if page.get_attribute("body", "data-over") == "1":
        return False
    if page.get_attribute("body", "data-turn") != "1":
        return True
    first = page.locator("#actions button.action").first
    text = first.get_attribute("data-action")
    cell = first.get_attribute("data-cell")
    before = tab.version()
    if cell is not None:
        # Clicking a cell with several actions picks it; the buttons then say which.
        page.locator(f'#board [data-cell="{cell}"].legal-target').first.click()
        page.wait_for_selector(f'#board [data-cell="{cell}"].chosen')
    page.click(f'#actions button[data-action="{text}"]')
    tab.wait_newer(before)
    return True


def test_a_two_player_haydes_game_from_two_browsers(
    tabs: list[Tab], live_server: LiveServer, artifacts: Path
) -> None:
    first = tabs[0]
    options = {"players": 2, "max_rounds": 2}
    table_id = start_in_lobby(first, "escape-from-haydes", options, 7, ["person", "person"])
    links = [
        first.page.get_attribute(f'#seat-links a[data-seat="{seat}"]', "href") for seat in (0, 1)
    ]
    for tab, link in zip(tabs, links, strict=True):
        assert link is not None
        tab.page.goto(live_server.url + link)
        tab.page.wait_for_selector("#board svg")
    for _ in range(60):
        going = [play_a_seat(tab) for tab in tabs]
        if not any(going):
            break
        for number, tab in enumerate(tabs):
            # Each browser shows its own seat, and only the seat to play is offered moves.
            assert tab.page.get_attribute("body", "data-seat") == str(number)
    else:
        pytest.fail("the game did not end")
    table = live_server.tables.get(table_id)
    match = table.match
    assert table.over
    assert {entry.player for entry in match.history} == {0, 1}
    for number, tab in enumerate(tabs):
        tab.page.wait_for_selector("#ending:not([hidden])")
        assert tab.page.locator("#log > li").count() == len(match.history)
        assert tab.page.inner_text("#status").startswith("Game over: ")
        tab.page.screenshot(path=str(artifacts / f"haydes-seat-{number}.png"), full_page=True)
        assert leaks(tab.received, (), secret_numbers(match.states, 7)) == []


def test_hot_seat_shows_each_person_their_turn_in_one_browser(
    tabs: list[Tab], live_server: LiveServer, artifacts: Path
) -> None:
    tab = tabs[0]
    options = {"players": 2, "max_rounds": 1}
    table_id = start_in_lobby(tab, "escape-from-haydes", options, 5, ["person", "person"])
    tab.page.click("#play-here")
    tab.page.wait_for_selector("#board svg")
    shown = set()
    for _ in range(60):
        tab.wait_turn_or_end()
        shown.add(tab.page.get_attribute("body", "data-seat"))
        if not play_a_seat(tab):
            break
    else:
        pytest.fail("the game did not end")
    table = live_server.tables.get(table_id)
    assert table.over
    # Both people played here, each shown the table as their own seat in turn.
    assert {entry.player for entry in table.match.history} == {0, 1}
    assert shown >= {"0", "1"}
    tab.page.screenshot(path=str(artifacts / "haydes-hot-seat.png"), full_page=True)
