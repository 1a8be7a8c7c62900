"""The documentation's pictures: every ``cardcrawl-svg`` block of every page is drawn by
the MkDocs hook ``docs/_ext/pictures.py``, the rulings easier seen than read have one,
and a block that no longer plays fails with its page and line."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

import cardcrawl

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_ext" not in p.parts)
SVG = "{http://www.w3.org/2000/svg}"


def load_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_pictures", DOCS / "_ext" / "pictures.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


pictures = load_hook()


def page_url(page: Path) -> str:
    """The page's address in the site, as MkDocs makes it (directory URLs)."""
    relative = page.relative_to(DOCS).with_suffix("")
    if relative.name == "index":
        relative = relative.parent
    return "" if str(relative) == "." else f"{relative.as_posix()}/"


@pytest.fixture(scope="module")
def drawn() -> dict[Path, tuple[str, str, dict[str, str]]]:
    """Each page: its Markdown, the Markdown the hook makes of it, and its pictures."""
    found = {}
    for page in PAGES:
        markdown = page.read_text("utf-8")
        text, made = pictures.render_pictures(markdown, page_url(page), str(page))
        found[page] = (markdown, text, made)
    return found


def test_every_block_of_every_page_is_drawn(
    drawn: dict[Path, tuple[str, str, dict[str, str]]],
) -> None:
    total = 0
    for page, (markdown, text, made) in drawn.items():
        blocks = markdown.count("```cardcrawl-svg")
        assert "cardcrawl-svg" not in text, page
        figures = re.findall(r'<figure class="cardcrawl-picture"><img src="([^"]+)"', text)
        assert len(figures) == blocks, page
        for src in figures:
            # The address leads from the page's folder to the site's _pictures folder.
            resolved = Path("/site", page_url(page), src).resolve()
            assert resolved.parent == Path("/site/_pictures"), (page, src)
            svg = made[resolved.name]
            assert resolved.name == pictures.picture_name(svg)
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg"
            cards = [g for g in root.iter(f"{SVG}g") if "card" in g.get("class", "").split()]
            assert cards, (page, src)
        total += blocks
    assert total >= 20


def section(markdown: str, heading: str) -> str:
    start = markdown.index(heading)
    end = markdown.find("\n#", start + len(heading))
    return markdown[start : end if end != -1 else len(markdown)]


@pytest.mark.parametrize(
    ("page", "headings"),
    [
        (
            "rules/mapless-house.md",
            ["## Setup", *(f"### M-{n} " for n in (4, 5, 6, 7, 11, 12, 16, 18, 19, 20))],
        ),
        (
            "rules/escape-from-haydes.md",
            ["## Setup", "### H-6 ", "### H-7 ", "### H-8 ", "### H-9 ", "### H-10 "],
        ),
        ("how-to/render.md", ["## SVG"]),
        ("tutorial.md", ["## 2. Look at the table", "## 5. The hunt"]),
    ],
)
def test_the_rulings_easier_seen_than_read_have_pictures(page: str, headings: list[str]) -> None:
    markdown = (DOCS / page).read_text("utf-8")
    for heading in headings:
        assert "```cardcrawl-svg" in section(markdown, heading), (page, heading)


def test_a_picture_shows_the_state_its_block_describes() -> None:
    body = "game: mapless-house\nseed: 1\nstack: narrative=5S 6S QS\n"
    body += "play: place 1,0; place 2,0\ncaption: The Q♠ & its cells <M-6>\n"
    game = cardcrawl.load("mapless-house")
    state = game.initial_state(seed=1, stack={"narrative": "5S 6S QS"})
    for text in ("place 1,0", "place 2,0"):
        state = game.step(state, game.parse_action(text))
    text, made = pictures.render_pictures(
        f"Before.\n\n```cardcrawl-svg\n{body}```\n\nAfter.\n", "rules/mapless-house/", "p.md"
    )
    (svg,) = made.values()
    assert svg == cardcrawl.svg(game, state).text
    name = pictures.picture_name(svg)
    assert text == (
        "Before.\n\n"
        f'<figure class="cardcrawl-picture"><img src="../../_pictures/{name}" '
        f'alt="The Q♠ &amp; its cells &lt;M-6&gt;" width="{ET.fromstring(svg).get("width")}" '
        'style="max-width: 100%; height: auto;" loading="lazy">'
        "<figcaption>The Q♠ &amp; its cells &lt;M-6&gt;</figcaption></figure>\n\nAfter.\n"
    )


def test_options_stacks_repeats_and_phases() -> None:
    body = (
        "game: escape-from-haydes\noptions: players=2, max_rounds=30\nseed: 4\n"
        "explicit_chance: true\nstack: first_player=0; rolls=[9, 4]\n"
        "play: higher 1,0\nwidth: 300\ncaption: c\n"
    )
    text, made = pictures.render_pictures(f"```cardcrawl-svg\n{body}```\n", "", "p.md")
    assert 'width="300"' in text
    assert 'src="_pictures/' in text
    (svg,) = made.values()
    assert 'class="aim"' in svg
    spec = "game: mapless-house\nplay: first-legal*3\nuntil: move\ncaption: c"
    _, match = pictures.play(pictures.parse_spec(spec, "p"), "p")
    assert match.state.phase.value == "move"
    assert len(match.actions) > 3


def test_a_picture_may_start_from_a_position() -> None:
    """A ``position`` block draws ``game.position(text)`` with its ``play`` played from
    there: the M-19 sidestep, which no seeded game is known to reach."""
    position = (
        "8S4.QCJC/AD5S6SKS7SAH/9S phase=move turn=3 player=3,0 spade=5,1 mind=KH body=2D "
        "spade_left_exit rng=0000000000000001"
    )
    game = cardcrawl.load("mapless-house")
    body = f"game: mapless-house\nposition: {position}\ncaption: c\n"
    _, made = pictures.render_pictures(f"```cardcrawl-svg\n{body}```\n", "", "p.md")
    assert list(made.values()) == [cardcrawl.svg(game, game.position(position)).text]
    spec = pictures.parse_spec(body + "play: move 4,0\n", "p")
    _, match = pictures.play(spec, "p")
    assert (match.seed, match.position, [str(a) for a in match.actions]) == (
        None,
        position,
        ["move 4,0"],
    )
    assert match.state.spade == (4, 1)  # M-19: beside the Exit, not on it


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("game: mapless-house\nplay: place 9,9\ncaption: c", "p.md:3: illegal action place 9,9"),
        (
            "game: mapless-house\nseed: 2\nposition: AD phase=draw player=0,0 rng=0000000000000001"
            "\ncaption: c",
            "p.md:3: 'seed' and 'position' are given; a position holds its generator",
        ),
        (
            "game: mapless-house\nposition: AD phase=move player=0,0 rng=7\ncaption: c",
            "p.md:3: rng: '7' is not a generator state",
        ),
        ("game: mapless-house\nposition:\ncaption: c", "p.md:3: 'position' is empty"),
        ("game: mapless-house\ncolour: red\ncaption: c", "p.md:3: 'colour: red' is not"),
        ("game: mapless-house", "p.md:3: a picture needs a 'caption'"),
        ("game: mapless-house\ngame: haydes\ncaption: c", "p.md:3: 'game' is given twice"),
        ("game: no-such-game\ncaption: c", "p.md:3: "),
        ("game: mapless-house\nuntil: nowhere\ncaption: c", "phase 'nowhere' not reached"),
        ("game: mapless-house\noptions: max_turns\ncaption: c", "option 'max_turns' is not"),
    ],
)
def test_a_bad_block_fails_with_its_page_and_line(body: str, message: str) -> None:
    with pytest.raises(pictures.PictureError) as error:
        pictures.render_pictures(f"# Page\n\n```cardcrawl-svg\n{body}\n```\n", "", "p.md")
    assert message in str(error.value)


def test_the_hooks_write_the_pictures_into_the_site(tmp_path: Path) -> None:
    page = SimpleNamespace(url="how-to/x/", file=SimpleNamespace(src_uri="how-to/x.md"))
    config = {"site_dir": str(tmp_path)}
    pictures.on_pre_build(config)
    text = pictures.on_page_markdown(
        "```cardcrawl-svg\ngame: mapless-house\nseed: 3\ncaption: c\n```\n", page, config, None
    )
    pictures.on_post_build(config)
    (written,) = (tmp_path / "_pictures").iterdir()
    assert f'src="../../_pictures/{written.name}"' in text
    game = cardcrawl.load("mapless-house")
    assert written.read_text("utf-8") == cardcrawl.svg(game, game.initial_state(seed=3)).text
