"""The HTML replay and the SVG pictures, checked as written and in a real browser.

The first tests read the page as text (fast, no browser). The browser tests open it
in headless Chromium through Playwright, step through it with the buttons, the slider
and the keyboard, count the cards drawn and take screenshots. They are skipped only
when Playwright or ``/usr/bin/chromium`` is not installed, and never when the
environment sets ``CARDCRAWL_REQUIRE_BROWSER=1`` (as CI does): then a missing browser
is a failure.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl import Match
from cardcrawl.cli._main import main
from cardcrawl.mapless import MaplessHouse, render_svg
from cardcrawl.mapless._dread import STANDARD_DREAD_LINES
from kit.test_svg import expected_card_count, haydes_expected

GAME = "mapless-house"
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
# A dread line that tries to break out of the page's script and markup.
NASTY = '</script><script>document.title="pwned"</script><b>& "quoted"</b>'


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def finished_match(seed: int, **options: Any) -> Match:
    game = cardcrawl.load(GAME, max_turns=40, **options)
    match = Match.start(game, seed)
    while not game.is_terminal(match.state):
        match.play(game.legal_actions(match.state)[-1])
    return match


def steps_data(page: str) -> list[dict[str, Any]]:
    """Every step of the page, its picture and text rebuilt from the pieces and edits
    the page stores (as its script does)."""
    found = re.search(r'<script type="application/json" id="steps">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    pieces: list[str] = data["pieces"]
    numbers: dict[str, list[int]] = {"svg": [], "text": []}
    steps = []
    for stored in data["steps"]:
        step = dict(stored)
        for kind, before in numbers.items():
            after = list(before)
            # Edits count positions in the step before: apply the last first.
            for start, end, *new in reversed(stored[kind]):
                after[start:end] = new
            numbers[kind] = after
            step[kind] = "".join(pieces[n] for n in after)
        steps.append(step)
    return steps


def haydes_match(seed: int, actions: int) -> Match:
    """A four-player game of Haydes, ``actions`` long, each action drawn by a seeded
    generator."""
    game = cardcrawl.load("escape-from-haydes", players=4, max_rounds=100)
    match = Match.start(game, seed)
    choose = random.Random(seed).choice
    for _ in range(actions):
        match.play(choose(game.legal_actions(match.state)))
    return match


@pytest.fixture(scope="module")
def match() -> Match:
    return finished_match(9)


@pytest.fixture(scope="module")
def page_path(match: Match, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replay")
    record = folder / "game.json"
    record.write_text(match.to_record().to_json(), "utf-8")
    path = folder / "replay.html"
    code, out, err = run("replay", str(record), "--html", str(path))
    assert (code, err.startswith(f"cardcrawl: {record}: verified: ")) == (0, True)
    assert out == f"Replay of {len(match.history)} actions written to {path}.\n"
    return path


# ------------------------------------------------------------ the page as text
def test_page_holds_every_step_picture_and_story(match: Match, page_path: Path) -> None:
    page = page_path.read_text("utf-8")
    steps = steps_data(page)
    game = match.game
    assert len(steps) == len(match.states)
    for k, (step, state) in enumerate(zip(steps, match.states, strict=True)):
        assert step["svg"] == render_svg(state)
        assert step["events"] == [str(e) for e in state.events]
        assert step["text"] == game.render(state)
        if k:
            assert step["action"] == f"Step {k}: {game.format_action(match.actions[k - 1])}"
    assert steps[-1]["status"] == f"Game over: {game.outcome(match.state).label}"
    # Without scripts the page still shows the first step.
    assert f'<figure id="picture">{render_svg(match.states[0])}</figure>' in page


def test_page_is_self_contained(page_path: Path) -> None:
    page = page_path.read_text("utf-8")
    # The SVG and XLink namespace names are names, never fetched.
    without_namespaces = page.replace("http://www.w3.org/2000/svg", "").replace(
        "http://www.w3.org/1999/xlink", ""
    )
    for needle in ("http:", "https:", "//cdn", "<link", "@import", "url(", " src="):
        assert needle not in without_namespaces, needle
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<script") == 2


def test_text_cannot_break_out_of_the_page() -> None:
    lines = dict.fromkeys(STANDARD_DREAD_LINES, NASTY)
    page = cardcrawl.replay_html(finished_match(9, dread_lines=lines))
    assert NASTY not in page
    assert page.count("</script>") == 2
    assert any(NASTY in line for step in steps_data(page) for line in step["events"])


def test_replay_html_opens_at_a_step(match: Match) -> None:
    page = cardcrawl.replay_html(match, step=3, title="Seed <9>")
    assert '<body data-step="3">' in page
    assert "<title>Seed &lt;9&gt; · cardcrawl replay</title>" in page
    with pytest.raises(ValueError, match="steps 0 to"):
        cardcrawl.replay_html(match, step=len(match.states))


def test_replay_html_of_a_game_without_pictures_shows_its_text(match: Match) -> None:
    class Plain(type(match.game)):  # type: ignore[misc]
        def render_svg(self, state: Any) -> str:
            return ""

    plain = Match.start(Plain(match.game.options), 9)
    plain.play(plain.game.legal_actions(plain.state)[0])
    page = cardcrawl.replay_html(plain)
    assert '<figure id="picture" hidden>' in page
    assert "<details open>" in page
    assert [s["svg"] for s in steps_data(page)] == ["", ""]


@pytest.mark.parametrize(
    ("argv", "code", "named"),
    [
        (["--step", "9999"], 2, "--step 9999"),
        (["--html", "/no/such/dir/r.html"], 2, "does not exist"),
    ],
)
def test_replay_html_bad_arguments(
    page_path: Path, argv: list[str], code: int, named: str, tmp_path: Path
) -> None:
    record = page_path.parent / "game.json"
    out = str(tmp_path / "r.html")
    args = ["replay", str(record), *argv] + ([] if "--html" in argv else ["--html", out])
    got, stdout, err = run(*args)
    assert (got, stdout) == (code, "")
    assert named in err
    assert not Path(out).exists()


def test_replay_html_bad_record_fails_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text("{not json", "utf-8")
    code, stdout, err = run("replay", str(path), "--html", str(tmp_path / "r.html"))
    assert (code, stdout) == (1, "")
    assert "JSON" in err
    code, _, err = run("replay", str(tmp_path / "missing.json"), "--html", str(tmp_path / "r"))
    assert code == 1
    assert "cannot read" in err


def test_a_long_game_of_four_makes_a_small_page() -> None:
    """A 200-action game of Haydes for four weighs under 1 MB, although its pictures
    alone weigh several: each is stored as the edits of the one before, and rebuilt
    byte for byte."""
    match = haydes_match(4, 200)
    game = match.game
    page = cardcrawl.replay_html(match)
    pictures = [cardcrawl.svg(game, state).text for state in match.states]
    assert sum(len(p.encode()) for p in pictures) > 5_000_000
    assert len(page.encode()) < 1_000_000
    steps = steps_data(page)
    assert [step["svg"] for step in steps] == pictures
    assert [step["text"] for step in steps] == [game.render(state) for state in match.states]


class Peeking(MaplessHouse):
    """A variant whose pictures and text show what only an all-seeing viewer knows:
    the stacked cards still waiting, face down, in the decks."""

    def peek(self, state: Any) -> str:
        decks = (state.narrative, state.mind, state.body)
        return "peek:" + " ".join(card.code for deck in decks for card in deck.stacked)

    def render_svg(self, state: Any) -> str:
        return render_svg(state, self).replace("</svg>", f"<text>{self.peek(state)}</text></svg>")

    def render(self, state: Any) -> str:
        return f"{super().render(state)}\n{self.peek(state)}"


def test_a_seats_view_holds_no_hidden_card() -> None:
    game = Peeking(cardcrawl.load(GAME, max_turns=40).options)
    stack = {"mind": "2H 3H 4H 5H 6H 7H 8H 9H 10H", "body": "2D 3D 4D 5D 6D 7D 8D 9D 10D"}
    match = Match.start(game, 9, stack=stack)
    while not game.is_terminal(match.state):
        match.play(game.legal_actions(match.state)[-1])
    hidden = [game.peek(state) for state in match.states]
    assert sum(peek != "peek:" for peek in hidden) > 10
    # The all-seeing view shows them (so this test can fail) ...
    everything = steps_data(cardcrawl.replay_html(match))
    assert [step["text"].rsplit("\n", 1)[1] for step in everything] == hidden
    # ... the seat's view never does, nor the seed.
    page = cardcrawl.replay_html(match, seat=0)
    assert f"seed {match.seed}" not in page
    assert "chance gives" not in page
    for step, state in zip(steps_data(page), match.states, strict=True):
        assert step["svg"].endswith("<text>peek:</text></svg>")
        assert step["text"].endswith("\npeek:")
        assert step["events"] == [str(e) for e in game.observe(state, 0).events]


def test_a_seats_view_of_a_game_of_four() -> None:
    match = haydes_match(4, 60)
    game = match.game
    page = cardcrawl.replay_html(match, seat=2)
    assert "<title>escape-from-haydes, seat 2 · cardcrawl replay</title>" in page
    assert f"seed {match.seed}" not in page
    for step, state in zip(steps_data(page), match.states, strict=True):
        seen = game.determinize(state, 2, 7)
        assert step["svg"] == cardcrawl.svg(game, seen).text
        assert step["text"] == game.render(seen)
        assert step["events"] == [str(e) for e in game.observe(state, 2).events]
    for seat in (-1, 4):
        with pytest.raises(cardcrawl.OptionsError, match="the seats are 0 to 3"):
            cardcrawl.replay_html(match, seat=seat)


def test_replay_seat_on_the_command_line(tmp_path: Path) -> None:
    match = haydes_match(4, 30)
    record = tmp_path / "game.json"
    record.write_text(match.to_record().to_json(), "utf-8")
    path = tmp_path / "seat.html"
    code, out, _ = run("replay", str(record), "--seat", "1", "--html", str(path))
    assert (code, out) == (0, f"Replay of 30 actions written to {path}.\n")
    assert path.read_text("utf-8") == cardcrawl.replay_html(match, seat=1)
    code, out, _ = run("replay", str(record), "--seat", "3")
    game = match.game
    told = [str(e) for state in match.states for e in game.observe(state, 3).events]
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "Replaying escape-from-haydes as seat 3 saw it (30 actions)."
    assert lines[1 : 1 + len(told)] == told
    assert str(match.seed) not in lines[0]
    for argv in (["--html", str(tmp_path / "x.html")], []):
        code, out, err = run("replay", str(record), "--seat", "4", *argv)
        assert (code, out) == (2, "")
        assert "--seat 4: escape-from-haydes has no seat 4; the seats are 0 to 3" in err
    assert not (tmp_path / "x.html").exists()


# ------------------------------------------------------------ in a browser
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # CI sets CARDCRAWL_REQUIRE_BROWSER=1: there a missing browser fails the run
    # instead of skipping quietly.
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


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page that may read local files and nothing else; it fails the test on
    any script error or attempt to reach the network."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url.startswith(("file:", "data:", "about:")):
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield page
    context.close()
    assert errors == []
    assert outside == []


def shown(page: Any) -> dict[str, Any]:
    """What the page displays now."""
    return {
        "label": page.inner_text("#step-label"),
        "cards": page.locator("#picture svg .card").count(),
        "backs": page.locator("#picture svg .card.back").count(),
        "svg": page.inner_html("#picture"),
        "events": page.locator("#events li").all_inner_texts(),
        "slider": page.input_value("#slider"),
    }


def check_png(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 400
    assert height >= 300
    # A blank or one-colour page compresses to a few hundred bytes.
    assert len(data) > 20_000
    return width, height


def test_stepping_through_the_replay_in_chromium(
    page: Any, match: Match, page_path: Path, tmp_path: Path
) -> None:
    states = match.states
    last = len(states) - 1
    page.goto(page_path.as_uri())

    start = shown(page)
    assert start["label"] == f"Step 0 of {last}"
    assert start["cards"] == expected_card_count(states[0])
    assert start["backs"] == 3
    assert start["events"] == [str(e) for e in states[0].events]
    assert page.is_disabled("#prev")
    first_shot = tmp_path / "step0.png"
    page.screenshot(path=str(first_shot), full_page=True)
    check_png(first_shot)

    page.click("#next")
    one = shown(page)
    assert one["label"] == f"Step 1 of {last}"
    assert one["slider"] == "1"
    assert one["cards"] == expected_card_count(states[1])
    assert one["events"] == [str(e) for e in states[1].events]
    assert one["svg"] != start["svg"]
    assert not page.is_disabled("#prev")
    second_shot = tmp_path / "step1.png"
    page.screenshot(path=str(second_shot), full_page=True)
    check_png(second_shot)
    assert second_shot.read_bytes() != first_shot.read_bytes()

    middle = last // 2
    page.fill("#slider", str(middle))
    now = shown(page)
    assert now["label"] == f"Step {middle} of {last}"
    assert now["cards"] == expected_card_count(states[middle])
    assert now["events"] == [str(e) for e in states[middle].events]
    assert page.url.endswith(f"#step={middle}")

    page.click("#prev")
    assert shown(page)["label"] == f"Step {middle - 1} of {last}"

    page.click("body")
    page.keyboard.press("End")
    end = shown(page)
    assert end["label"] == f"Step {last} of {last}"
    assert end["cards"] == expected_card_count(states[-1])
    assert page.is_disabled("#next")
    assert page.inner_text("#status") == f"Game over: {match.game.outcome(states[-1]).label}"
    page.keyboard.press("ArrowLeft")
    assert shown(page)["label"] == f"Step {last - 1} of {last}"
    page.keyboard.press("Home")
    assert shown(page)["svg"] == start["svg"]


def test_the_address_chooses_the_first_step(page: Any, match: Match, page_path: Path) -> None:
    page.goto(page_path.as_uri() + "#step=4")
    assert shown(page)["label"] == f"Step 4 of {len(match.states) - 1}"
    assert shown(page)["cards"] == expected_card_count(match.states[4])


def test_a_nasty_event_line_is_shown_as_text(page: Any, tmp_path: Path) -> None:
    lines = dict.fromkeys(STANDARD_DREAD_LINES, NASTY)
    match = finished_match(9, dread_lines=lines)
    path = tmp_path / "nasty.html"
    path.write_text(cardcrawl.replay_html(match), "utf-8")
    page.goto(path.as_uri())
    page.click("#next")
    assert any(NASTY in line for line in shown(page)["events"])
    assert page.title() != "pwned"
    assert page.locator("#events b").count() == 0


def test_a_standalone_svg_draws_its_cards(page: Any, match: Match, tmp_path: Path) -> None:
    state = match.states[len(match.states) // 2]
    path = tmp_path / "state.svg"
    cardcrawl.svg(match.game, state).save(path)
    page.goto(path.as_uri())
    assert page.locator(".card").count() == expected_card_count(state)
    # The cards and the suits they refer to are really drawn, at the size asked.
    box = page.locator(".card.table").first.bounding_box()
    assert box is not None
    # The stroke adds a little around the 50 x 70 card.
    assert 50 <= box["width"] <= 52
    assert 70 <= box["height"] <= 72
    suit = page.locator(".card.table use").first.bounding_box()
    assert suit is not None
    assert suit["width"] > 5


def test_a_replay_of_escape_from_haydes_in_chromium(page: Any, tmp_path: Path) -> None:
    """The page is generic: a four-player game of Haydes steps the same way."""
    game = cardcrawl.load("escape-from-haydes", players=4, max_rounds=3)
    match = Match.start(game, 21)
    for i in range(12):
        legal = game.legal_actions(match.state)
        if not legal:
            break
        match.play(legal[(5 * i) % len(legal)])
    path = tmp_path / "haydes.html"
    path.write_text(cardcrawl.replay_html(match), "utf-8")
    page.goto(path.as_uri())
    counts = []
    for k, state in enumerate(match.states):
        now = shown(page)
        assert now["label"] == f"Step {k} of {len(match.states) - 1}"
        assert now["cards"] == haydes_expected(state)[1]
        assert page.locator("#picture svg .figure").count() == len(state.players_in)
        assert page.text_content("#text") == game.render(state)
        counts.append(now["backs"])
        if k < len(match.states) - 1:
            page.click("#next")
    # Cards are turned face up as the figures move.
    assert counts[-1] < counts[0]
    shot = tmp_path / "haydes.png"
    page.screenshot(path=str(shot), full_page=True)
    check_png(shot)


def test_a_seats_view_in_chromium(page: Any, tmp_path: Path) -> None:
    """The seat's page steps like the others, showing what the seat observed."""
    match = haydes_match(4, 40)
    game = match.game
    path = tmp_path / "seat.html"
    path.write_text(cardcrawl.replay_html(match, seat=3), "utf-8")
    page.goto(path.as_uri() + "#step=40")
    for k in range(40, 30, -1):
        state = match.states[k]
        now = shown(page)
        assert now["label"] == f"Step {k} of 40"
        assert now["cards"] == haydes_expected(state)[1]
        assert now["events"] == [str(e) for e in game.observe(state, 3).events]
        assert page.text_content("#text") == game.render(game.determinize(state, 3, 0))
        page.keyboard.press("ArrowLeft")
    assert f"seed {match.seed}" not in page.inner_text("header")
