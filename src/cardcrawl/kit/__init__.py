"""The card-and-grid kit a game author builds with: cards, decks, grids, SVG pictures.

- :class:`Card`, :class:`Suit`, :func:`parse_cards`, :func:`standard_deck`: one card is
  one small integer, with the text forms ``"QS"``, ``"10H"``, ``"RJ"``;
- :class:`Deck`: a shuffled multiset with an optional stacked top, drawn with the state's
  generator (so a shuffle needs no chance event of its own);
- :class:`Grid`, :func:`neighbours`, :func:`touching`, :func:`distance`, :func:`bounds`:
  an immutable map of cells with an incremental frontier of empty cells; a cell's two
  text forms, :func:`cell_text` (``"(1, 0)"``, in events) and :func:`cell_code`
  (``"1,0"``, in actions);
- :func:`svg`, ``register_svg`` (deprecated: a game declares its renderer as
  ``GameTools(svg=...)``), and the primitives the games draw with (:func:`card_svg`,
  :func:`back_svg`, :func:`slot_svg`, :func:`pawn_svg`, :func:`label_svg`,
  :func:`element`, :func:`document`).

The names are also re-exported by :mod:`cardcrawl`.

Examples:
    >>> from cardcrawl.kit import Card, Grid, card_svg
    >>> Grid({(0, 0): Card.parse("AD")}).frontier[(1, 0)]
    1
    >>> card_svg(Card.parse("QS"), 0, 0).startswith("<g")
    True
"""

from typing import TYPE_CHECKING

from cardcrawl.core._deprecation import moved_names
from cardcrawl.kit._cards import Card, Suit, parse_cards, standard_deck
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import (
    Cell,
    Grid,
    bounds,
    cell_code,
    cell_text,
    distance,
    neighbours,
    parse_cell_code,
    touching,
)
from cardcrawl.kit._svg import (
    NoRendererError,
    Picture,
    back_svg,
    card_svg,
    document,
    element,
    escape,
    find_renderer,
    label_svg,
    pawn_svg,
    slot_svg,
    svg,
)

__all__ = [
    "Card",
    "Cell",
    "Deck",
    "Grid",
    "NoRendererError",
    "Picture",
    "Suit",
    "back_svg",
    "bounds",
    "card_svg",
    "cell_code",
    "cell_text",
    "distance",
    "document",
    "element",
    "escape",
    "find_renderer",
    "label_svg",
    "neighbours",
    "parse_cards",
    "parse_cell_code",
    "pawn_svg",
    "slot_svg",
    "standard_deck",
    "svg",
    "touching",
]

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "RANK_NAMES": "cardcrawl.kit._cards",
            "CARD_HEIGHT": "cardcrawl.kit._svg",
            "CARD_WIDTH": "cardcrawl.kit._svg",
            "CELL_BOUND": "cardcrawl.kit._grid",
            "check_cell_argument": "cardcrawl.kit._grid",
            "register_svg": "cardcrawl.kit._svg",
        },
    )
