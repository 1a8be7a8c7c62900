"""Pictures of game states as SVG: one renderer per game, found generically, and the
building blocks those renderers share.

:func:`svg` draws any state of any game that has a renderer, and wraps the text in a
:class:`Picture`, which Jupyter shows inline (``_repr_svg_``). A game provides its
renderer either as a method ``render_svg(state) -> str`` on its class, or as the
``svg`` slot of the :class:`~cardcrawl.GameTools` it registers with; a variant uses its
base game's tools.

Everything here is plain string building with no dependencies: the same state gives
byte-for-byte the same picture on every platform, and the text is well-formed XML.
Suits are drawn as vector shapes, not font glyphs, so a picture looks the same
whatever fonts the viewer has. Every card drawn carries ``class="card"`` (a face-down
one ``class="card back"``), so tests and pages can count the cards of a picture.

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("mapless-house")
    >>> picture = cardcrawl.svg(game, game.initial_state(seed=1))
    >>> picture.text.startswith("<svg")
    True
    >>> picture._repr_svg_() == picture.text
    True
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

# The module, not its names: the registry imports the engine, which imports the kit, so
# the registry may be half made when this module is; its names are read when called.
from cardcrawl.core import _registry
from cardcrawl.errors import NoRendererError, OptionsError
from cardcrawl.kit._cards import RANK_NAMES, Card, Suit

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "NoRendererError",
    "Picture",
    "SvgRenderer",
    "back_svg",
    "card_svg",
    "document",
    "element",
    "escape",
    "find_renderer",
    "label_svg",
    "pawn_svg",
    "register_svg",
    "slot_svg",
    "svg",
]

#: A function drawing one state of a game: ``renderer(game, state) -> svg text``.
SvgRenderer = Callable[[Any, Any], str]

#: The size of a card as the building blocks draw it by default, in SVG units.
CARD_WIDTH = 50
CARD_HEIGHT = 70
"""The height of a card as the building blocks draw it by default (``CARD_WIDTH`` wide)."""

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_RED = "#c62828"
_BLACK = "#1d1d1f"
_INK = "#2b2b2b"

# The four suits as shapes in a 100 x 100 box, each a <symbol> used by reference.
_SUIT_PATHS: Mapping[Suit, str] = {
    Suit.HEARTS: (
        "M50 94C22 70 2 52 2 30C2 13 15 3 29 3C39 3 47 9 50 18C53 9 61 3 71 3"
        "C85 3 98 13 98 30C98 52 78 70 50 94Z"
    ),
    Suit.DIAMONDS: "M50 2L90 50L50 98L10 50Z",
    Suit.SPADES: (
        "M50 2C72 26 98 42 98 64C98 80 86 88 73 88C64 88 57 84 54 77C55 88 60 95 68 98"
        "H32C40 95 45 88 46 77C43 84 36 88 27 88C14 88 2 80 2 64C2 42 28 26 50 2Z"
    ),
    Suit.CLUBS: (
        "M50 4A21 21 0 1 1 49.9 4ZM26 38A21 21 0 1 1 25.9 38ZM74 38A21 21 0 1 1 73.9 38Z"
        "M45 55C45 78 39 91 31 98H69C61 91 55 78 55 55Z"
    ),
}


def _suit_id(suit: Suit) -> str:
    return f"cardcrawl-suit-{suit.value}"


# ------------------------------------------------------------ the renderers
# Renderers given to register_svg, kept for one release while it is deprecated.
_RENDERERS: dict[type, SvgRenderer] = {}


def register_svg(game_class: type, renderer: SvgRenderer, *, replace: bool = False) -> None:
    """Deprecated: declare the renderer where the game registers, as the ``svg`` slot of
    its :class:`~cardcrawl.GameTools` (``register_game(..., tools=GameTools(svg=...))``),
    or give the game class a ``render_svg(state)`` method.

    Makes :func:`svg` draw the states of ``game_class`` (and its subclasses) with
    ``renderer(game, state)``, when the game's tools and class name no renderer.

    Args:
        game_class: the game's class.
        renderer: a function of the game and a state returning SVG text.
        replace: allow replacing a renderer already registered for this class.

    Raises:
        OptionsError: a renderer is registered for the class and ``replace`` is false.

    Examples:
        >>> import warnings, cardcrawl
        >>> from cardcrawl.kit._svg import register_svg
        >>> class Solitaire(cardcrawl.mapless.MaplessHouse):
        ...     def render_svg(self, state):
        ...         return "<svg/>"
        >>> cardcrawl.svg(Solitaire(), None).text
        '<svg/>'
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     register_svg(Solitaire, lambda game, state: "<svg/>", replace=True)
        >>> caught[0].category.__name__, "GameTools(svg=...)" in str(caught[0].message)
        ('DeprecationWarning', True)
    """
    warnings.warn(
        "cardcrawl.register_svg is deprecated and will be removed in the next release: "
        "declare the renderer where the game registers, "
        "register_game(..., tools=GameTools(svg=...)), or give the class a "
        "render_svg(state) method",
        DeprecationWarning,
        stacklevel=2,
    )
    if game_class in _RENDERERS and not replace:
        raise OptionsError(
            f"an SVG renderer is already registered for {game_class.__name__}; "
            "pass replace=True to override it"
        )
    _RENDERERS[game_class] = renderer


def find_renderer(game: Any) -> SvgRenderer | None:
    """The renderer :func:`svg` would use for ``game``, or ``None`` when it has none.

    Args:
        game: a loaded game.

    Returns:
        A function ``renderer(game, state) -> str``: the game's ``render_svg`` method
        if it has one, else the ``svg`` slot of its :class:`~cardcrawl.GameTools`.

    Examples:
        >>> import cardcrawl
        >>> cardcrawl.find_renderer(cardcrawl.load("mapless-house")) is not None
        True
    """
    method = getattr(game, "render_svg", None)
    if callable(method):
        return lambda _game, state: str(method(state))
    declared = _registry.tools_for(game).svg
    if declared is not None:
        return declared
    for cls in type(game).__mro__:
        renderer = _RENDERERS.get(cls)
        if renderer is not None:
            return renderer
    return None


@attrs.frozen
class Picture:
    """An SVG picture, shown inline by Jupyter and written to a file by :meth:`save`.

    Attributes:
        text: the SVG document.

    Examples:
        >>> Picture("<svg/>")._repr_svg_()
        '<svg/>'
    """

    text: str

    def _repr_svg_(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text

    def save(self, path: str | Path) -> None:
        """Write the picture to ``path`` as UTF-8.

        Raises:
            OSError: the file cannot be written.
        """
        Path(path).write_text(self.text, encoding="utf-8")


def svg(game: Any, state: Any) -> Picture:
    """A picture of ``state``, drawn by ``game``'s renderer.

    Args:
        game: a loaded game, such as ``cardcrawl.load("mapless-house")``.
        state: any state of that game.

    Returns:
        The picture; its ``text`` is a standalone SVG document.

    Raises:
        NoRendererError: the game has no renderer.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> 'class="card' in cardcrawl.svg(game, game.initial_state(seed=3)).text
        True
    """
    renderer = find_renderer(game)
    if renderer is None:
        raise NoRendererError(
            f"no SVG renderer is known for {type(game).__name__}: give the class a "
            "render_svg(state) method, or declare one where the game registers, "
            "GameTools(svg=...)"
        )
    return Picture(renderer(game, state))


# ------------------------------------------------------------ building blocks
def escape(text: object) -> str:
    """``text`` made safe inside an XML element or a double-quoted attribute.

    Examples:
        >>> escape('<K♠ & "Q">')
        '&lt;K♠ &amp; &quot;Q&quot;&gt;'
    """
    return (
        str(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def _number(value: float) -> str:
    # Integers print without a point and other numbers with at most two decimals, so
    # that the text never depends on float formatting details.
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def element(tag: str, attributes: Mapping[str, object] | None = None, *children: str) -> str:
    """One XML element; attributes that are ``None`` are left out, numbers are written
    compactly, and the element closes itself when it has no children.

    Examples:
        >>> element("rect", {"x": 1, "y": 2.5, "class": None})
        '<rect x="1" y="2.5"/>'
        >>> element("text", {"x": 0}, escape("A & B"))
        '<text x="0">A &amp; B</text>'
    """
    parts = [tag]
    for name, value in (attributes or {}).items():
        if value is None:
            continue
        shown = _number(value) if isinstance(value, (int, float)) else escape(value)
        parts.append(f'{name}="{shown}"')
    opening = " ".join(parts)
    if not children:
        return f"<{opening}/>"
    return f"<{opening}>{''.join(children)}</{tag}>"


def _classes(*names: str | Iterable[str] | None) -> str:
    found: list[str] = []
    for name in names:
        if name is None:
            continue
        found.extend([name] if isinstance(name, str) else name)
    return " ".join(n for n in found if n)


def _suit_use(suit: Suit, x: float, y: float, size: float) -> str:
    ref = "#" + _suit_id(suit)
    return element(
        "use",
        {
            "href": ref,
            "xlink:href": ref,
            "x": x,
            "y": y,
            "width": size,
            "height": size,
            "fill": _RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK,
        },
    )


def label_svg(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 12,
    anchor: str = "start",
    bold: bool = False,
    fill: str = _INK,
    classes: str | Iterable[str] | None = None,
) -> str:
    """A line of text with its baseline at ``y``.

    Examples:
        >>> label_svg(4, 12, "Turn 3", bold=True)
        '<text x="4" y="12" font-size="12" font-weight="bold" fill="#2b2b2b">Turn 3</text>'
    """
    return element(
        "text",
        {
            "x": x,
            "y": y,
            "font-size": size,
            "text-anchor": None if anchor == "start" else anchor,
            "font-weight": "bold" if bold else None,
            "fill": fill,
            "class": _classes(classes) or None,
        },
        escape(text),
    )


def card_svg(
    card: Card,
    x: float,
    y: float,
    *,
    width: float = CARD_WIDTH,
    height: float = CARD_HEIGHT,
    caption: str | None = None,
    classes: str | Iterable[str] | None = None,
    title: str | None = None,
    stroke: str = "#5f5f5f",
    stroke_width: float = 1,
    extra: Mapping[str, object] | None = None,
) -> str:
    """A face-up card with its top-left corner at ``(x, y)``: rank and suit in the
    corner, a large suit in the middle (or ``caption`` under a smaller one).

    The group carries ``class="card"`` plus ``classes``, and ``data-card`` with the
    card's code.

    Examples:
        >>> from cardcrawl import Card
        >>> text = card_svg(Card.parse("QH"), 0, 0, classes="pile")
        >>> text.startswith('<g class="card pile" data-card="QH"')
        True
    """
    suit = card.suit
    colour = _RED if card.is_red else _BLACK
    rank = RANK_NAMES[card.rank] if suit is not None else "★"
    scale = width / CARD_WIDTH
    corner = 13 * scale
    parts = [
        element("title", None, escape(title if title is not None else card.symbol)),
        element(
            "rect",
            {
                "x": x,
                "y": y,
                "width": width,
                "height": height,
                "rx": 5 * scale,
                "fill": "#fffdf8",
                "stroke": stroke,
                "stroke-width": stroke_width,
            },
        ),
        label_svg(
            x + 3 * scale, y + corner, rank, size=corner, bold=True, fill=colour, classes="rank"
        ),
    ]
    if suit is None:
        parts.append(
            label_svg(
                x + width / 2,
                y + height * 0.6,
                "JOKER",
                size=9 * scale,
                anchor="middle",
                bold=True,
                fill=colour,
            )
        )
    else:
        small = 10 * scale
        parts.append(_suit_use(suit, x + 3 * scale, y + corner + 2 * scale, small))
        big = (18 if caption else 24) * scale
        middle_y = y + height / 2 - big / 2 + (4 * scale if not caption else 0)
        parts.append(_suit_use(suit, x + width / 2 - big / 2, middle_y, big))
    if caption:
        parts.append(
            label_svg(
                x + width / 2,
                y + height - 6 * scale,
                caption,
                size=8 * scale,
                anchor="middle",
                bold=True,
                fill=colour,
            )
        )
    attributes: dict[str, object] = {"class": _classes("card", classes), "data-card": card.code}
    attributes.update(extra or {})
    return element("g", attributes, *parts)


def back_svg(
    x: float,
    y: float,
    *,
    width: float = CARD_WIDTH,
    height: float = CARD_HEIGHT,
    count: int | None = None,
    classes: str | Iterable[str] | None = None,
    title: str | None = None,
    extra: Mapping[str, object] | None = None,
) -> str:
    """A face-down card (``class="card back"``), with ``count`` written on it if given.

    Examples:
        >>> back_svg(0, 0, count=12).startswith('<g class="card back" data-count="12">')
        True
    """
    scale = width / CARD_WIDTH
    inset = 4 * scale
    parts = [
        element("title", None, escape(title)) if title is not None else "",
        element(
            "rect",
            {
                "x": x,
                "y": y,
                "width": width,
                "height": height,
                "rx": 5 * scale,
                "fill": "#2f4a86",
                "stroke": "#17264a",
            },
        ),
        element(
            "rect",
            {
                "x": x + inset,
                "y": y + inset,
                "width": width - 2 * inset,
                "height": height - 2 * inset,
                "rx": 3 * scale,
                "fill": "none",
                "stroke": "#9db2e0",
                "stroke-dasharray": "3 2",
            },
        ),
    ]
    if count is not None:
        parts.append(
            label_svg(
                x + width / 2,
                y + height / 2 + 6 * scale,
                str(count),
                size=16 * scale,
                anchor="middle",
                bold=True,
                fill="#ffffff",
            )
        )
    attributes: dict[str, object] = {
        "class": _classes("card", "back", classes),
        "data-count": count,
    }
    attributes.update(extra or {})
    return element("g", attributes, *parts)


def slot_svg(
    x: float,
    y: float,
    *,
    width: float = CARD_WIDTH,
    height: float = CARD_HEIGHT,
    classes: str | Iterable[str] | None = None,
    title: str | None = None,
    stroke: str = "#a9a59a",
    fill: str = "none",
    text: str | None = None,
    extra: Mapping[str, object] | None = None,
) -> str:
    """An empty place for a card: a dashed outline (``class="slot"``), not a card.

    Examples:
        >>> slot_svg(0, 0).startswith('<g class="slot">')
        True
    """
    parts = [
        element("title", None, escape(title)) if title is not None else "",
        element(
            "rect",
            {
                "x": x + 1,
                "y": y + 1,
                "width": width - 2,
                "height": height - 2,
                "rx": 5,
                "fill": fill,
                "stroke": stroke,
                "stroke-dasharray": "4 3",
            },
        ),
    ]
    if text:
        parts.append(
            label_svg(x + width / 2, y + height / 2 + 3, text, size=9, anchor="middle", fill=stroke)
        )
    attributes: dict[str, object] = {"class": _classes("slot", classes)}
    attributes.update(extra or {})
    return element("g", attributes, *parts)


def pawn_svg(
    x: float,
    y: float,
    *,
    size: float = 22,
    fill: str = "#f2b705",
    classes: str | Iterable[str] | None = None,
    title: str | None = None,
) -> str:
    """A pawn (a player's token) standing in a ``size`` box with its top-left at ``(x, y)``.

    Examples:
        >>> pawn_svg(0, 0, classes="player").startswith('<g class="token player">')
        True
    """
    s = size / 20
    head = element(
        "circle",
        {"cx": x + 10 * s, "cy": y + 5.5 * s, "r": 4.5 * s, "fill": fill, "stroke": _BLACK},
    )
    body = element(
        "path",
        {
            "d": (
                f"M{_number(x + 3 * s)} {_number(y + 20 * s)}"
                f"C{_number(x + 3 * s)} {_number(y + 13 * s)} {_number(x + 6 * s)} "
                f"{_number(y + 10 * s)} {_number(x + 10 * s)} {_number(y + 10 * s)}"
                f"C{_number(x + 14 * s)} {_number(y + 10 * s)} {_number(x + 17 * s)} "
                f"{_number(y + 13 * s)} {_number(x + 17 * s)} {_number(y + 20 * s)}Z"
            ),
            "fill": fill,
            "stroke": _BLACK,
        },
    )
    parts = [element("title", None, escape(title)) if title is not None else "", body, head]
    return element("g", {"class": _classes("token", classes)}, *parts)


@functools.cache
def _suit_symbols() -> str:
    # Every picture carries the same four symbols; a live table draws a picture per
    # version, so they are written once.
    return "".join(
        element(
            "symbol",
            {"id": _suit_id(suit), "viewBox": "0 0 100 100"},
            element("path", {"d": path}),
        )
        for suit, path in _SUIT_PATHS.items()
    )


def document(
    width: float,
    height: float,
    body: Iterable[str],
    *,
    title: str,
    background: str = "#efece3",
) -> str:
    """A standalone SVG document of the given size around ``body``, with the suit
    shapes that :func:`card_svg` refers to.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> root = ET.fromstring(document(100, 50, [label_svg(4, 20, "hi")], title="Demo"))
        >>> root.get("viewBox"), root.find("{http://www.w3.org/2000/svg}title").text
        ('0 0 100 50', 'Demo')
    """
    return element(
        "svg",
        {
            "xmlns": _SVG_NS,
            "xmlns:xlink": _XLINK_NS,
            "width": width,
            "height": height,
            "viewBox": f"0 0 {_number(width)} {_number(height)}",
            "font-family": _FONT,
        },
        element("title", None, escape(title)),
        element("defs", None, _suit_symbols()),
        element("rect", {"width": width, "height": height, "fill": background}),
        *body,
    )
