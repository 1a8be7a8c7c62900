"""An SVG picture of an Escape from Haydes state: the cards of Haydes, the figures, the
Replacement deck and the discard and removed piles.

The game's registration names this module's renderer in the ``svg`` slot of its
:class:`~cardcrawl.GameTools`, so :func:`cardcrawl.svg` draws
:class:`~cardcrawl.haydes.EscapeFromHaydes` and its variants with it; importing the module registers
nothing.
"""

from __future__ import annotations

import functools
from typing import Any

from cardcrawl.haydes._render import CreatureHook, holder, stock_creature
from cardcrawl.haydes._state import MIXED, Ending, HaydesState, Mix, Phase
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

__all__ = ["render_svg"]

_MARGIN = 16
_HEADER = 58
_AXIS = 18
_CARD_W, _CARD_H = 44, 62
_PITCH_X, _PITCH_Y = 50, 68
_PILE_W, _PILE_H = 40, 56
_GOLD = "#d39e00"
_SEAT_COLOURS = ("#f2b705", "#1e88e5", "#43a047", "#e53935")

# Each piece of a picture (a cell, a figure, the piles, a player's line) is a pure
# function of what it shows and where: of the state's public content and of the answers
# the game's hooks gave for it (is this card a creature, which one), which are asked
# afresh for every picture. So each piece is drawn once and kept: the picture of the
# next state, which differs in a few cells, draws only those (a server pushes a picture
# at every step of every table).
# The cap bounds the memory: some thousands of pieces of a few hundred bytes.
_kept = functools.lru_cache(maxsize=8192)


def render_svg(state: HaydesState, creature: CreatureHook | None = None) -> str:
    """The state as a standalone SVG picture, north (larger y) at the top.

    Every cell of Haydes shows its card, face up or face down; the cells among which
    the Red Joker was shuffled back (H-10) carry a gold ``?``. A face-up card that the
    game's ``creature`` hook (``creature``; ``None``: the standard game's) makes a
    creature has the class ``creature`` and says so in its title, captioned
    ``overcome`` once it is (H-8). Each figure is a pawn in its
    seat's colour with the seat number, the player to move ringed. While a move waits
    for its card, the aimed-at cell is outlined in gold with the announcement. Under
    the map: the Replacement deck face down with its size, the top cards of the
    discard and removed piles with their sizes, and one line per player.

    Every card drawn has ``class="card"`` (face down: ``"card back"``): one per cell,
    one back for the Replacement deck unless it is empty, and the top card of each pile
    that is not empty.

    Examples:
        >>> import xml.etree.ElementTree as ET
        >>> import cardcrawl
        >>> from cardcrawl.haydes._svg import render_svg
        >>> game = cardcrawl.load("escape-from-haydes", players=2)
        >>> root = ET.fromstring(render_svg(game.initial_state(seed=3)))
        >>> cards = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
        ...          if "card" in g.get("class", "").split()]
        >>> len(cards)  # 106 cells and the Replacement deck
        107
    """
    creature = creature or stock_creature
    top = _MARGIN + _HEADER
    body, map_width, map_bottom = _haydes(state, _MARGIN, top, creature)
    panel, panel_width, panel_bottom = _panel(state, _MARGIN, map_bottom + 14, creature)
    width = _MARGIN * 2 + max(map_width, panel_width)
    height = panel_bottom + _MARGIN
    status = _status(state)
    header = [
        label_svg(_MARGIN, _MARGIN + 16, "Escape from Haydes", size=17, bold=True),
        label_svg(_MARGIN, _MARGIN + 38, status, size=13, classes="status"),
    ]
    return document(width, height, [*header, *body, *panel], title=f"Escape from Haydes: {status}")


def _joker_mix(state: HaydesState) -> Mix | None:
    return next((m for m in state.mixes if Card.RED_JOKER in m.known), None)


def _status(state: HaydesState) -> str:
    if state.ending is Ending.ESCAPED:
        return f"Game over: player {state.winner} escaped"
    if state.ending is Ending.TRAPPED:
        return "Game over: everyone is trapped, nobody escaped"
    if state.ending is not None:
        return f"Game over: time is up after round {state.round}, nobody escaped"
    if state.phase is Phase.FIRST:
        return "Drawing the first player"
    parts = [f"Round {state.round}", f"player {state.current} to play"]
    if state.phase is Phase.REVEAL and state.aim is not None:
        parts.append(f"turning {cell_text(state.aim.cell)}: {state.aim.guess.value}?")
    elif state.phase is Phase.ENCOUNTER:
        parts.append("facing a creature: choose a characteristic")
    elif state.phase is Phase.ROLL and state.chosen is not None:
        parts.append(f"rolling 2D6 with {state.chosen.value}")
    mix = _joker_mix(state)
    if mix is not None:
        cells = "the cell" if len(mix.cells) == 1 else f"one of {len(mix.cells)} cells"
        parts.append(f"the Red Joker lies under {cells} marked ?")
    return " · ".join(parts)


def _haydes(
    state: HaydesState, left: int, top: int, creature: CreatureHook
) -> tuple[list[str], int, int]:
    """The map with its axes: (SVG parts, width, bottom y)."""
    layout = state.layout
    min_x, min_y, max_x, max_y = bounds(layout)
    origin_x, origin_y = left + _AXIS, top + _AXIS

    def at(cell: Cell) -> tuple[int, int]:
        return origin_x + (cell[0] - min_x) * _PITCH_X, origin_y + (max_y - cell[1]) * _PITCH_Y

    parts: list[str] = [_axes((min_x, min_y, max_x, max_y), left, top)]
    mix = _joker_mix(state)
    mixed_cells = set(mix.cells) if mix is not None else set()
    known_down = {m.cells[0]: m.known[0] for m in state.mixes if len(m.cells) == len(m.known) == 1}
    aim = state.aim.cell if state.aim is not None else None
    for i, cell in sorted(enumerate(layout), key=lambda item: item[1]):
        x, y = at(cell)
        card = state.face_up[i]
        if card is not None:
            kind = creature(card)
            parts.append(
                _face_up(
                    card, cell, x, y, cell in state.overcome, None if kind is None else kind.name
                )
            )
            continue
        mixed = cell in mixed_cells
        parts.append(
            _face_down(
                cell,
                x,
                y,
                "mix" if mixed else known_down.get(cell),
                mixed and state.pool_of[i] == MIXED,
            )
        )
    if aim is not None and state.aim is not None:
        x, y = at(aim)
        guess = state.aim.guess.value
        parts.append(
            element(
                "g",
                {"class": "aim", "data-cell": cell_code(aim)},
                element("title", None, f"Aimed at, announcing {guess}"),
                element(
                    "rect",
                    {
                        "x": x - 3,
                        "y": y - 3,
                        "width": _CARD_W + 6,
                        "height": _CARD_H + 6,
                        "rx": 7,
                        "fill": "none",
                        "stroke": _GOLD,
                        "stroke-width": 3,
                    },
                ),
                element(
                    "rect",
                    {
                        "x": x + 2,
                        "y": y + _CARD_H - 17,
                        "width": _CARD_W - 4,
                        "height": 14,
                        "rx": 3,
                        "fill": _GOLD,
                    },
                ),
                label_svg(
                    x + _CARD_W / 2,
                    y + _CARD_H - 6,
                    guess,
                    size=10,
                    anchor="middle",
                    bold=True,
                    fill="#ffffff",
                ),
            )
        )
    parts.extend(_figures(state, at, creature))
    width = _AXIS + (max_x - min_x) * _PITCH_X + _CARD_W
    bottom = origin_y + (max_y - min_y) * _PITCH_Y + _CARD_H
    return parts, width, bottom


@_kept
def _axes(box: tuple[int, int, int, int], left: int, top: int) -> str:
    """The coordinates above and left of a map of ``box`` (min x, min y, max x, max y)."""
    min_x, min_y, max_x, max_y = box
    origin_x, origin_y = left + _AXIS, top + _AXIS
    parts = [
        label_svg(
            origin_x + (x - min_x) * _PITCH_X + _CARD_W / 2,
            top + 12,
            str(x),
            size=10,
            anchor="middle",
            fill="#777",
            classes="axis",
        )
        for x in range(min_x, max_x + 1)
    ]
    parts += [
        label_svg(
            left + _AXIS - 6,
            origin_y + (max_y - y) * _PITCH_Y + _CARD_H / 2 + 4,
            str(y),
            size=10,
            anchor="end",
            fill="#777",
            classes="axis",
        )
        for y in range(max_y, min_y - 1, -1)
    ]
    return "".join(parts)


@_kept
def _face_up(
    card: Card, cell: Cell, x: int, y: int, overcome: bool, creature_name: str | None
) -> str:
    """A face-up cell; ``creature_name`` is what the game's hook makes of the card
    (``None``: no creature)."""
    name = "" if creature_name is None else f", a creature ({creature_name})"
    return card_svg(
        card,
        x,
        y,
        width=_CARD_W,
        height=_CARD_H,
        caption="overcome" if overcome else None,
        classes=[
            "cell",
            *(["creature"] if creature_name is not None else []),
            *(["overcome"] if overcome else []),
        ],
        title=f"{card.code if card.is_joker else card.symbol} at {cell_text(cell)}{name}",
        extra={"data-cell": cell_code(cell)},
    )


@_kept
def _face_down(cell: Cell, x: int, y: int, known: str | Card | None, marked: bool) -> str:
    """A face-down cell: in the mix that hides the Red Joker (``known`` is ``"mix"``,
    with a gold ``?`` when ``marked``), a card seen and turned back down, or unknown."""
    where = cell_text(cell)
    classes = ["cell"]
    if known == "mix":
        classes.append("mix")
        title = f"Face down at {where}: maybe the Red Joker"
    elif isinstance(known, Card):
        title = f"Face down at {where}: {known.symbol}, turned back down"
    else:
        title = f"Face down at {where}"
    back = back_svg(
        x,
        y,
        width=_CARD_W,
        height=_CARD_H,
        classes=classes,
        title=title,
        extra={"data-cell": cell_code(cell)},
    )
    if not marked:
        return back
    return back + label_svg(
        x + _CARD_W / 2,
        y + _CARD_H / 2 + 8,
        "?",
        size=22,
        anchor="middle",
        bold=True,
        fill=_GOLD,
        classes="mark",
    )


def _held_text(state: HaydesState, cell: Cell, seat: int, creature: CreatureHook) -> str:
    """`` · held by K♠`` for player ``seat`` held on ``cell`` (`` · facing K♠`` while it
    is that player's encounter), else the empty string."""
    card = holder(state, cell, creature)
    if card is None:
        return ""
    facing = seat == state.current and state.phase in (Phase.ENCOUNTER, Phase.ROLL)
    return f" · {'facing' if facing else 'held by'} {card.symbol}"


def _figures(state: HaydesState, at: Any, creature: CreatureHook) -> list[str]:
    parts: list[str] = []
    standing: dict[Cell, list[int]] = {}
    for seat, figure in enumerate(state.seats):
        if figure.cell is not None:
            standing.setdefault(figure.cell, []).append(seat)
    for cell, seats in sorted(standing.items()):
        x, y = at(cell)
        for k, seat in enumerate(seats):
            current = seat == state.current and state.ending is None
            held = _held_text(state, cell, seat, creature)
            parts.append(
                _figure(seat, cell, x + _CARD_W - 19 - k * 11, y + 2 + (k % 2) * 6, current, held)
            )
    return parts


@_kept
def _figure(seat: int, cell: Cell, px: int, py: int, current: bool, held: str) -> str:
    """Player ``seat``'s pawn at ``(px, py)`` on ``cell``, ringed when ``current``;
    ``held`` ends its title (see :func:`_held_text`)."""
    colour = _SEAT_COLOURS[seat % len(_SEAT_COLOURS)]
    ring = (
        element(
            "circle",
            {
                "cx": px + 9,
                "cy": py + 10,
                "r": 12,
                "fill": "none",
                "stroke": "#222",
                "stroke-width": 2,
            },
        )
        if current
        else ""
    )
    return element(
        "g",
        {"class": "figure", "data-seat": seat, "data-cell": cell_code(cell)},
        ring,
        pawn_svg(
            px,
            py,
            size=18,
            fill=colour,
            classes=["player", f"seat-{seat}", *(["current"] if current else [])],
            title=f"Player {seat} at {cell_text(cell)}{held}",
        ),
        label_svg(px + 9, py + 17, str(seat), size=7, anchor="middle", bold=True),
    )


def _panel(
    state: HaydesState, left: int, top: int, creature: CreatureHook
) -> tuple[list[str], int, int]:
    """The piles and the players under the map: (SVG parts, width, bottom y)."""
    piles, width = _piles(
        state.replacement_left, _top_of(state.discard), _top_of(state.removed), left, top
    )
    parts = [piles]
    y = top + 16 + _PILE_H + 22
    for seat, figure in enumerate(state.seats):
        if state.winner == seat:
            where = "escaped"
        elif figure.cell is None:
            where = "out"
        else:
            where = f"at {cell_text(figure.cell)}{_held_text(state, figure.cell, seat, creature)}"
        current = seat == state.current and state.ending is None and state.phase is not Phase.FIRST
        text = (
            f"Player {seat}: Charisma {figure.charisma} · Endurance {figure.endurance} · {where}"
            + (" · to play" if current else "")
        )
        parts.append(_seat_line(seat, text, current, left, y))
        width = max(width, 18 + int(len(text) * 6.8))
        y += 20
    return parts, width, y - 8


def _top_of(pile: tuple[Card, ...]) -> tuple[int, Card | None]:
    return len(pile), pile[-1] if pile else None


@_kept
def _piles(
    replacement_left: int,
    discard: tuple[int, Card | None],
    removed: tuple[int, Card | None],
    left: int,
    top: int,
) -> tuple[str, int]:
    """The Replacement deck, and the discard and removed piles (each its size and top
    card): (SVG text, width)."""
    parts: list[str] = []
    x, y = left, top + 16
    parts.append(label_svg(x, top + 11, "Replacement", size=11, bold=True, classes="pile-label"))
    if replacement_left:
        parts.append(
            back_svg(
                x,
                y,
                width=_PILE_W,
                height=_PILE_H,
                count=replacement_left,
                classes="deck",
                title=f"The Replacement deck: {replacement_left} cards",
            )
        )
    else:
        parts.append(
            slot_svg(
                x,
                y,
                width=_PILE_W,
                height=_PILE_H,
                text="empty",
                title="The Replacement deck is empty",
            )
        )
    for name, (size, top_card), classes in (
        ("Discard", discard, "discard"),
        ("Removed", removed, "removed"),
    ):
        x += 92
        parts.append(label_svg(x, top + 11, name, size=11, bold=True, classes="pile-label"))
        if top_card is not None:
            parts.append(
                card_svg(
                    top_card,
                    x,
                    y,
                    width=_PILE_W,
                    height=_PILE_H,
                    classes=classes,
                    title=f"{name}: {size} cards, {top_card.symbol} on top",
                )
            )
        else:
            parts.append(
                slot_svg(x, y, width=_PILE_W, height=_PILE_H, text="none", title=f"{name}: no card")
            )
        parts.append(
            label_svg(
                x + _PILE_W + 6,
                y + _PILE_H - 4,
                f"{size}",
                size=11,
                fill="#555",
                classes="pile-count",
            )
        )
    return "".join(parts), x + _PILE_W + 40 - left


@_kept
def _seat_line(seat: int, text: str, current: bool, left: int, y: int) -> str:
    """Player ``seat``'s line under the map, in bold when ``current``."""
    colour = _SEAT_COLOURS[seat % len(_SEAT_COLOURS)]
    return element(
        "circle", {"cx": left + 6, "cy": y - 4, "r": 6, "fill": colour, "stroke": "#222"}
    ) + label_svg(left + 18, y, text, size=12, bold=current, classes="seat")


def _renderer(game: Any, state: HaydesState) -> str:
    return render_svg(state, game._rules.creature_of)
