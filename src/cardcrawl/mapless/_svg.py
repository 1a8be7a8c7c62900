"""An SVG picture of a Mapless House state: the house, the tokens, the decks and piles.

The game's registration names this module's renderer in the ``svg`` slot of its
:class:`~cardcrawl.GameTools`, so :func:`cardcrawl.svg` draws
:class:`~cardcrawl.mapless.MaplessHouse` and its variants with it; importing the module registers
nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell, bounds, cell_code, cell_text
from cardcrawl.kit._svg import (
    back_svg,
    card_svg,
    document,
    element,
    label_svg,
    pawn_svg,
    slot_svg,
)
from cardcrawl.mapless._actions import Move, Place, PlaceExit
from cardcrawl.mapless._events import CardPlaced, ExitPlaced
from cardcrawl.mapless._game import MaplessHouse
from cardcrawl.mapless._state import (
    CLUB_STALKER,
    ENTRANCE,
    EXIT,
    SPADE_STALKER,
    MaplessState,
    Phase,
)

__all__ = ["render_svg"]

_MARGIN = 16
_CARD_W, _CARD_H = 50, 70
_PITCH_X, _PITCH_Y = 58, 78
_HEADER = 58
# Room for the coordinates above and left of the map, which name cells as the actions do.
_AXIS = 18
# How far a Stalker standing on the Entrance or the Exit is lifted, off the caption.
_LIFT = 20
# The piles under the map: smaller cards, fanned.
_PILE_W, _PILE_H = 40, 56
_FAN = 15
_GROUP_GAP = 20
_ROW_H = 14 + _PILE_H + 14
_MIN_PANEL_W = 460
_STALKER_W, _STALKER_H = 28, 39

_GREEN = "#2e7d32"
_GOLD = "#d39e00"
_STALKER_RED = "#b71c1c"

# Each piece of a picture (a cell, a token, a pile) is a pure function of what it
# shows and where: of the state's public content and of the answers the game's rules
# gave for it (its legal actions), which are asked afresh for every picture. So each
# piece is drawn once and kept: the picture of the next state, which differs in a few
# cells, draws only those (a server pushes a picture at every step of every table).
# The cap bounds the memory: some thousands of pieces of a few hundred bytes.
_kept = functools.lru_cache(maxsize=8192)


def render_svg(state: MaplessState, game: MaplessHouse | None = None) -> str:
    """The state as a standalone SVG picture, north (larger y) at the top.

    The house is drawn card by card at its cells (the Entrance and the Exit captioned),
    with the player's pawn and the Stalkers (♠A and ♣A, drawn as small cards) on the
    cells where they stand. Empty cells touching the house are dashed outlines: green
    where the drawn card may go, grey and crossed where no Narrative card may (M-6).
    Cards placed in the step that made the state are outlined in gold; in a Move the
    cards the player may step to are outlined in green. Under the map: the three
    decks face down with the number of cards left, the card waiting to be placed, the
    Mind card of an Encounter, the Aside and Refused piles, the cards holding the
    player, and the Stalkers not yet on the table.

    Every card drawn has ``class="card"`` (face down: ``"card back"``): the table
    cards, both Stalkers, one back per deck that is not empty, and each card of the
    piles, held, drawn or turned.

    The highlighted cells are the game's legal actions, so a variant's own rules
    (say, its Exit cells) show as they play.

    The cells and the tokens are drawn in one group (``class="house"``) moved into place
    by its ``transform``, and the piles in another (``class="piles"``): a card keeps
    its own coordinates as the house grows, so that the picture of the next state
    differs from this one where the state does.

    Args:
        state: a state of The Mapless House.
        game: the game (or variant) the state belongs to; ``None`` for the standard
            rules.

    Returns:
        The SVG document, as text.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> import cardcrawl
        >>> from cardcrawl.mapless import render_svg
        >>> game = cardcrawl.load("mapless-house")
        >>> root = ET.fromstring(render_svg(game.initial_state(seed=3)))
        >>> cards = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
        ...          if "card" in g.get("class", "").split()]
        >>> len(cards)  # the Entrance, two Stalkers, three decks, the drawn card
        7
    """
    top = _MARGIN + _HEADER
    body, map_width, map_bottom = _house(state, game or MaplessHouse(), _MARGIN, top)
    # The panel is drawn from its own top and moved under the map, which grows.
    panel_top = map_bottom + 12
    panel, panel_width, panel_height = _panel(state, _MARGIN, 0, max(map_width, _MIN_PANEL_W))
    width = _MARGIN * 2 + max(map_width, panel_width)
    height = panel_top + panel_height + _MARGIN
    status = _status(state)
    header = [
        label_svg(_MARGIN, _MARGIN + 16, "The Mapless House", size=17, bold=True),
        label_svg(_MARGIN, _MARGIN + 38, status, size=13, classes="status"),
    ]
    piles = element("g", {"class": "piles", "transform": _translate(0, panel_top)}, *panel)
    return document(width, height, [*header, *body, piles], title=f"The Mapless House: {status}")


def _translate(x: int, y: int) -> str:
    return f"translate({x} {y})"


def _status(state: MaplessState) -> str:
    if state.ending is not None:
        return f"Game over: {state.ending.value} after {state.turn} turns · score {state.score}"
    parts = []
    if state.exit_cell is None:
        parts.append("Phase one: building the house")
    elif state.turn:
        parts.append(f"Phase two: the hunt, turn {state.turn}")
    else:
        parts.append("Phase two: the opening Move")
    waiting = {
        Phase.PLACE: f"place {state.drawn.symbol}" if state.drawn else "",
        Phase.PLACE_EXIT: "choose the Exit's cell",
        Phase.MOVE: "move to a touching card",
        Phase.DRAW: "draw from the Narrative deck",
        Phase.DRAW_MIND: "turn a Mind card",
        Phase.DRAW_BODY: "turn a Body card",
    }.get(state.phase, "")
    if waiting:
        parts.append(waiting)
    if state.held:
        parts.append("you are held")
    return " · ".join(parts)


def _legal_cells(
    game: MaplessHouse, state: MaplessState
) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """(empty cells the drawn card may go to, table cells the player may move to)."""
    places: set[Cell] = set()
    moves: set[Cell] = set()
    for action in game.legal_actions(state):
        if isinstance(action, Move):
            moves.add(action.cell)
        elif isinstance(action, (Place, PlaceExit)):
            places.add(action.cell)
    return frozenset(places), frozenset(moves)


def _house(
    state: MaplessState, game: MaplessHouse, left: int, top: int
) -> tuple[list[str], int, int]:
    """The map with its coordinates: (SVG parts, width, bottom y)."""
    table = state.table
    tokens = [c for c in (state.player, state.spade, state.club) if c is not None]
    min_x, min_y, max_x, max_y = bounds([*table, *table.frontier, *tokens])
    origin_x, origin_y = left + _AXIS, top + _AXIS
    parts: list[str] = []
    for column in range(min_x, max_x + 1):
        x = origin_x + (column - min_x) * _PITCH_X
        parts.append(_axis(x + _CARD_W / 2, top + 12, str(column), "middle"))
    for row in range(max_y, min_y - 1, -1):
        y = origin_y + (max_y - row) * _PITCH_Y
        parts.append(_axis(origin_x - 6, y + _CARD_H / 2 + 4, str(row), "end"))

    # Each cell is drawn at a place of its own, whatever the house's bounds, and the
    # map is moved into place as a whole: when the house grows west or north, one
    # attribute changes, not every card.
    def at(cell: Cell) -> tuple[int, int]:
        return cell[0] * _PITCH_X, -cell[1] * _PITCH_Y

    places, moves = _legal_cells(game, state)
    new = {e.cell for e in state.events if isinstance(e, (CardPlaced, ExitPlaced))}
    cells: list[str] = []
    drawn = state.drawn.symbol if state.drawn is not None else "the card"
    for cell in sorted(table.frontier):
        x, y = at(cell)
        if cell in places:
            cells.append(_slot(cell, x, y, "legal", drawn))
        elif cell in state.closed:
            cells.append(_slot(cell, x, y, "closed", ""))
        else:
            cells.append(_slot(cell, x, y, "empty", ""))
    for cell in sorted(table):
        x, y = at(cell)
        mark = "target" if cell in moves else "new" if cell in new else ""
        cells.append(_table_card(table[cell], cell, x, y, mark))
    stalkers = [(SPADE_STALKER, state.spade), (CLUB_STALKER, state.club)]
    for stalker, where in stalkers:
        if where is None:
            continue
        x, y = at(where)
        shared = state.spade == state.club and stalker == CLUB_STALKER
        sx = x + (0 if shared else _CARD_W - _STALKER_W + 4)
        lift = _LIFT if table.get(where) in (ENTRANCE, EXIT) else 0
        cells.append(_stalker(stalker, where, sx, y + _CARD_H - _STALKER_H + 4 - lift))
    px, py = at(state.player)
    cells.append(_pawn(state.player, px + _CARD_W - 20, py + 3, state.held))
    shift = (origin_x - min_x * _PITCH_X, origin_y + max_y * _PITCH_Y)
    parts.append(element("g", {"class": "house", "transform": _translate(*shift)}, *cells))
    width = _AXIS + (max_x - min_x) * _PITCH_X + _CARD_W
    bottom = origin_y + (max_y - min_y) * _PITCH_Y + _CARD_H
    return parts, width, bottom


@_kept
def _axis(x: float, y: float, text: str, anchor: str) -> str:
    return label_svg(x, y, text, size=10, anchor=anchor, fill="#777", classes="axis")


@_kept
def _slot(cell: Cell, x: int, y: int, kind: str, drawn: str) -> str:
    """An empty cell touching the house: where ``drawn`` may go (``kind`` ``"legal"``),
    closed to Narrative cards (``"closed"``) or neither (``"empty"``)."""
    data = {"data-cell": cell_code(cell)}
    if kind == "legal":
        return slot_svg(
            x,
            y,
            classes="legal",
            stroke=_GREEN,
            fill="#dcefdc",
            title=f"{cell_text(cell)}: {drawn} may go here",
            extra=data,
        )
    if kind == "closed":
        return slot_svg(
            x,
            y,
            classes="closed",
            fill="#e3dfd4",
            text="closed",
            title=f"{cell_text(cell)}: closed to Narrative cards",
            extra=data,
        )
    return slot_svg(x, y, title=f"{cell_text(cell)}: empty", extra=data)


@_kept
def _table_card(card: Card, cell: Cell, x: int, y: int, mark: str) -> str:
    """A card of the house; ``mark`` is ``"target"`` (the player may move there),
    ``"new"`` (placed by the last step) or ``""``."""
    caption = "ENTRANCE" if card == ENTRANCE else "EXIT" if card == EXIT else None
    classes = ["table"]
    stroke, stroke_width = "#5f5f5f", 1.0
    if mark == "target":
        classes.append("target")
        stroke, stroke_width = _GREEN, 3.0
    elif mark == "new":
        classes.append("new")
        stroke, stroke_width = _GOLD, 3.0
    name = caption.title() if caption else card.symbol
    return card_svg(
        card,
        x,
        y,
        width=_CARD_W,
        height=_CARD_H,
        caption=caption,
        classes=classes,
        title=f"{name} at {cell_text(cell)}",
        stroke=stroke,
        stroke_width=stroke_width,
        extra={"data-cell": cell_code(cell)},
    )


@_kept
def _stalker(stalker: Card, where: Cell, x: int, y: int) -> str:
    return card_svg(
        stalker,
        x,
        y,
        width=_STALKER_W,
        height=_STALKER_H,
        classes="stalker",
        stroke=_STALKER_RED,
        stroke_width=2,
        title=f"The {stalker.symbol} Stalker at {cell_text(where)}",
        extra={"data-cell": cell_code(where)},
    )


@_kept
def _pawn(cell: Cell, x: int, y: int, held: tuple[Card, ...]) -> str:
    holding = f", held by {' '.join(c.symbol for c in held)}" if held else ""
    return pawn_svg(
        x,
        y,
        size=22,
        fill="#e57373" if held else "#f2b705",
        classes="player",
        title=f"You, at {cell_text(cell)}{holding}",
    )


# A group of the panel: its label, its width, and how to draw it at (x, y).
_Group = tuple[str, int, Callable[[int, int], list[str]]]


def _deck(name: str, left: int) -> _Group:
    return name, _PILE_W, lambda x, y: [_deck_at(name, left, x, y)]


@_kept
def _deck_at(name: str, left: int, x: int, y: int) -> str:
    if not left:
        return slot_svg(
            x,
            y,
            width=_PILE_W,
            height=_PILE_H,
            text="empty",
            title=f"The {name} deck is empty",
        )
    return back_svg(
        x,
        y,
        width=_PILE_W,
        height=_PILE_H,
        count=left,
        classes="deck",
        title=f"The {name} deck: {left} cards face down",
    )


def _fan(name: str, cards: Sequence[Card], classes: str, empty: str = "none") -> _Group:
    width = _PILE_W + _FAN * max(len(cards) - 1, 0)

    def draw(x: int, y: int) -> list[str]:
        if not cards:
            return [_empty_pile(name, empty, x, y)]
        return [_pile_card(card, name, classes, x + i * _FAN, y) for i, card in enumerate(cards)]

    return name, width, draw


@_kept
def _empty_pile(name: str, empty: str, x: int, y: int) -> str:
    return slot_svg(x, y, width=_PILE_W, height=_PILE_H, text=empty, title=f"{name}: no card")


@_kept
def _pile_card(card: Card, name: str, classes: str, x: int, y: int) -> str:
    return card_svg(
        card,
        x,
        y,
        width=_PILE_W,
        height=_PILE_H,
        classes=classes,
        title=f"{card.symbol} ({name})",
    )


def _waiting(stalkers: Sequence[Card]) -> _Group:
    def draw(x: int, y: int) -> list[str]:
        return [
            _waiting_stalker(stalker, x + i * (_STALKER_W + 6), y)
            for i, stalker in enumerate(stalkers)
        ]

    return "Stalkers to come", len(stalkers) * (_STALKER_W + 6), draw


@_kept
def _waiting_stalker(stalker: Card, x: int, y: int) -> str:
    return element(
        "g",
        {"opacity": 0.55},
        card_svg(
            stalker,
            x,
            y,
            width=_STALKER_W,
            height=_STALKER_H,
            classes="stalker waiting",
            stroke=_STALKER_RED,
            stroke_width=2,
            title=f"The {stalker.symbol} Stalker, not yet on the table",
        ),
    )


@_kept
def _pile_label(x: int, y: int, name: str) -> str:
    return label_svg(x, y, name, size=11, bold=True, classes="pile-label")


def _panel(state: MaplessState, left: int, top: int, limit: int) -> tuple[list[str], int, int]:
    """The decks and piles under the map: (SVG parts, width used, bottom y)."""
    groups: list[_Group] = [
        _deck("Narrative", len(state.narrative)),
        _deck("Mind", len(state.mind)),
        _deck("Body", len(state.body)),
    ]
    if state.drawn is not None:
        title = "Exit to place" if state.phase is Phase.PLACE_EXIT else "To place"
        groups.append(_fan(title, (state.drawn,), "drawn"))
    if state.mind_card is not None:
        groups.append(_fan("Mind card", (state.mind_card,), "turned"))
    groups += [
        _fan("Mind aside", state.mind_aside, "aside"),
        _fan("Body aside", state.body_aside, "aside"),
        _fan("Refused", state.refused, "refused"),
    ]
    if state.held:
        groups.append(_fan("Holding you", state.held, "held"))
    waiting = [
        s
        for s, where in ((SPADE_STALKER, state.spade), (CLUB_STALKER, state.club))
        if where is None
    ]
    if waiting:
        groups.append(_waiting(waiting))
    parts: list[str] = []
    x, y, used = left, top, 0
    for name, width, draw in groups:
        # Labels are about 6.5 units a character at this size; fonts differ a little.
        span = max(width, int(len(name) * 6.5))
        if x > left and x - left + span > limit:
            x, y = left, y + _ROW_H
        parts.append(_pile_label(x, y + 11, name))
        parts.extend(draw(x, y + 16))
        used = max(used, x - left + span)
        x += span + _GROUP_GAP
    return parts, used, y + _ROW_H - 8


def _renderer(game: Any, state: MaplessState) -> str:
    return render_svg(state, game)
