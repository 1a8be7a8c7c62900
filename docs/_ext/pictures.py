"""An MkDocs hook that draws the documentation's pictures with the library, at build time.

A page asks for a picture with a fenced block of the language ``cardcrawl-svg``, whose
lines are ``key: value`` pairs::

    ```cardcrawl-svg
    game: mapless-house
    seed: 1
    stack: narrative=5S 6S QS
    play: place 1,0; place 2,0
    caption: The Q♠ may not go beside the 5♠, which has two neighbours (M-6).
    ```

The keys:

* ``game`` (required): a registered game name;
* ``options``: the game's options, ``name=value`` pairs separated by commas (values are
  read as JSON where they can be, else kept as text), such as ``players=2, max_rounds=3``;
* ``seed``: the seed (default 0); ``explicit_chance: true`` stops at chance events;
* ``stack``: stacked outcomes by chance source, ``source=VALUE`` separated by ``;``,
  each value read as JSON where it can be (``rolls=[9, 4]``), else kept as text
  (``build=5S RJ``);
* ``position``: instead of ``seed``, ``stack`` and ``explicit_chance``, the state to
  start from, in the game's position notation (``game.notation(state)``, see the page
  *Position notation*), which holds the generator, the stacked tops and whether chance
  is explicit. It draws a position no seed reaches, or one that would take a long
  ``play`` to set up::

      ```cardcrawl-svg
      game: mapless-house
      position: KS/ADAH5C phase=move turn=2 player=2,0 spade=1,0 rng=0000000000000005
      caption: The player on the 5♣ beside the Exit, the ♠A on it.
      ```

* ``play``: the actions to play from the initial state (or the position), in their
  text form, separated by ``;``. An item ``first-legal`` (or ``last-legal``) plays the
  first (or last) legal action, and ``first-legal*N`` does it N times;
* ``until``: then play the first legal action until the state's phase has this value
  (``place-exit``, say), at most 1,000 actions;
* ``caption`` (required): the text under the picture, also its ``alt`` text;
* ``width``: the picture's width on the page in pixels (default: its own width).

The hook replaces each block with a ``<figure>`` holding an ``<img>`` of the SVG that
:func:`cardcrawl.svg` draws for the state reached, and writes the SVG files into the
built site (``_pictures/``, named by a digest of their content) after the build. So the
pictures are drawn by the same code as the library's, from the same rules, at every
build: they cannot go stale, and a spec that no longer plays (an action become illegal)
fails the build, naming the page and line. Every picture is at most as wide as the page
(``max-width: 100%``), so none overflows sideways.

The snippet checker (``check_snippets.py``) does not run these blocks: they are not
``python``. ``tests/docs/test_pictures.py`` calls :func:`render_pictures` on every
page.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

import cardcrawl

LANGUAGE = "cardcrawl-svg"
FOLDER = "_pictures"
_BLOCK = re.compile(
    r"^(?P<indent> *)```" + re.escape(LANGUAGE) + r"[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_KEYS = frozenset(
    {
        *("game", "options", "seed", "explicit_chance", "stack", "position"),
        *("play", "until", "caption", "width"),
    }
)
# What a position holds already: a block gives either these or a position.
_STARTS = ("seed", "stack", "explicit_chance")
_MAX_UNTIL = 1000
_REPEAT = re.compile(r"^(first|last)-legal(?:\s*\*\s*(\d+))?$")


class PictureError(ValueError):
    """A picture block that cannot be drawn: its page, line and why."""


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_spec(body: str, where: str) -> dict[str, str]:
    """The ``key: value`` pairs of a block, checked against the known keys."""
    spec: dict[str, str] = {}
    for line in body.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep or key not in _KEYS:
            known = ", ".join(sorted(_KEYS))
            raise PictureError(
                f"{where}: {line.strip()!r} is not 'key: value' with a key of {known}"
            )
        if key in spec:
            raise PictureError(f"{where}: {key!r} is given twice")
        spec[key] = value.strip()
    for key in ("game", "caption"):
        if not spec.get(key):
            raise PictureError(f"{where}: a picture needs a {key!r}")
    if "position" in spec:
        both = [key for key in _STARTS if key in spec]
        if both:
            raise PictureError(
                f"{where}: {both[0]!r} and 'position' are given; a position holds its "
                "generator, stacked tops and explicit_chance already"
            )
        if not spec["position"]:
            raise PictureError(f"{where}: 'position' is empty; give a position's notation")
    return spec


def draw(spec: dict[str, str], where: str) -> str:
    """The SVG of the state that ``spec`` describes."""
    game, match = play(spec, where)
    return cardcrawl.svg(game, match.state).text


def play(spec: dict[str, str], where: str) -> tuple[Any, cardcrawl.Match]:
    """The game and the match that ``spec`` describes, played to the state to draw."""
    options = {}
    for pair in filter(None, (p.strip() for p in spec.get("options", "").split(","))):
        name, sep, value = pair.partition("=")
        if not sep:
            raise PictureError(f"{where}: option {pair!r} is not name=value")
        options[name.strip()] = _value(value.strip())
    stack = {}
    for pair in filter(None, (p.strip() for p in spec.get("stack", "").split(";"))):
        source, sep, cards = pair.partition("=")
        if not sep:
            raise PictureError(f"{where}: stack {pair!r} is not source=CARDS")
        stack[source.strip()] = _value(cards.strip())
    try:
        game = cardcrawl.load(spec["game"], **options)
        if "position" in spec:
            match = cardcrawl.Match.start(game, position=spec["position"])
        else:
            match = cardcrawl.Match.start(
                game,
                int(spec.get("seed", "0")),
                explicit_chance=spec.get("explicit_chance", "false") == "true",
                stack=stack or None,
            )
        for item in filter(None, (p.strip() for p in spec.get("play", "").split(";"))):
            repeat = _REPEAT.match(item)
            if repeat is None:
                match.play(item)
                continue
            for _ in range(int(repeat.group(2) or 1)):
                legal = _legal(game, match, f"{where}: {item!r}")
                match.play(legal[0] if repeat.group(1) == "first" else legal[-1])
        until = spec.get("until")
        if until:
            for _ in range(_MAX_UNTIL):
                if getattr(match.state.phase, "value", None) == until:
                    break
                match.play(_legal(game, match, f"{where}: phase {until!r} not reached")[0])
            else:
                raise PictureError(f"{where}: phase {until!r} not reached in {_MAX_UNTIL} actions")
        return game, match
    except PictureError:
        raise
    except (cardcrawl.CardcrawlError, ValueError, IndexError) as error:
        raise PictureError(f"{where}: {error}") from error


def _legal(game: Any, match: cardcrawl.Match, doing: str) -> Any:
    legal = game.legal_actions(match.state)
    if not legal:
        raise PictureError(f"{doing}: the game is over after {len(match.actions)} actions")
    return legal


def picture_name(svg: str) -> str:
    """The file name of a picture: a digest of its content, so it changes with it."""
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16] + ".svg"


def figure(spec: dict[str, str], src: str, svg: str) -> str:
    """The HTML that shows the picture on the page."""
    width_match = re.search(r'<svg[^>]* width="(\d+(?:\.\d+)?)"', svg)
    width = spec.get("width") or (width_match.group(1) if width_match else "")
    size = f' width="{html.escape(width)}"' if width else ""
    caption = html.escape(spec["caption"])
    return (
        '<figure class="cardcrawl-picture">'
        f'<img src="{html.escape(src)}" alt="{caption}"{size} '
        'style="max-width: 100%; height: auto;" loading="lazy">'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def render_pictures(markdown: str, page_url: str, page_path: str) -> tuple[str, dict[str, str]]:
    """``markdown`` with every picture block replaced by its figure, and the pictures
    drawn, by file name.

    Args:
        markdown: a page's Markdown.
        page_url: the page's address in the site (``rules/mapless-house/``), from which
            the pictures' relative addresses are made.
        page_path: the page's file, for error messages.

    Raises:
        PictureError: a block is malformed or does not play.
    """
    pictures: dict[str, str] = {}
    # "rules/mapless-house/" (or "rules/mapless-house.html") is two (or one) folders deep.
    prefix = "../" * page_url.count("/")

    def replace(block: re.Match[str]) -> str:
        line = markdown.count("\n", 0, block.start()) + 1
        where = f"{page_path}:{line}"
        spec = parse_spec(block.group("body"), where)
        svg = draw(spec, where)
        name = picture_name(svg)
        pictures[name] = svg
        return block.group("indent") + figure(spec, f"{prefix}{FOLDER}/{name}", svg)

    return _BLOCK.sub(replace, markdown), pictures


# ------------------------------------------------------------ the MkDocs hooks
_DRAWN: dict[str, str] = {}


def on_pre_build(config: Any, **kwargs: Any) -> None:
    _DRAWN.clear()


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any, **kwargs: Any) -> str:
    text, pictures = render_pictures(markdown, page.url, page.file.src_uri)
    _DRAWN.update(pictures)
    return text


def on_post_build(config: Any, **kwargs: Any) -> None:
    folder = Path(config["site_dir"]) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, svg in _DRAWN.items():
        (folder / name).write_text(svg, encoding="utf-8")
