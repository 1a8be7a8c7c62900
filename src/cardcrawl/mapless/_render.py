"""A text picture of a Mapless House state: the map, the tokens and the piles."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell, bounds
from cardcrawl.kit._textmap import crop_note, text_map
from cardcrawl.mapless._actions import Move, Place, PlaceExit
from cardcrawl.mapless._state import ENTRANCE, EXIT, MaplessState

__all__ = ["render", "render_terminal"]


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(c.symbol for c in cards) or "-"


def render(state: MaplessState, places: Collection[Cell] = ()) -> str:
    """The state as a map, north (larger y) at the top, followed by its piles.

    Each cell is six characters: the card (``ENT`` for the Entrance, ``EXT`` for the
    Exit), then markers: ``@`` the player, ``S`` the ♠A Stalker, ``C`` the ♣A Stalker.
    An empty cell where a Stalker stands shows only its marker; other empty cells are
    blank, ``·`` marks an empty cell touching the house, and ``+`` one of ``places``:
    where the drawn card or the Exit may go (the game's ``render`` passes its legal
    cells, so a variant's own rules show).

    Args:
        state: a state of The Mapless House.
        places: the cells to mark with ``+``.

    Returns:
        The map and a few lines on the phase and piles, joined by newlines.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> print(game.render(game.initial_state(seed=3, stack={"narrative": ["KS"]})))
               +
         +    ENT@   +
               +
        Phase one: building · place K♠ · Narrative 24 left
        Mind 12 left, aside - · Body 12 left, aside - · Refused -
    """
    table = state.table
    marks: dict[tuple[int, int], str] = {state.player: "@"}
    if state.spade is not None:
        marks[state.spade] = marks.get(state.spade, "") + "S"
    if state.club is not None:
        marks[state.club] = marks.get(state.club, "") + "C"
    min_x, min_y, max_x, max_y = bounds([*table, *marks, *table.frontier])
    lines = []
    for y in range(max_y, min_y - 1, -1):
        row = []
        for x in range(min_x, max_x + 1):
            card = table.get((x, y))
            mark = marks.get((x, y), "")
            if card is None:
                if (x, y) in places:
                    text = " + "
                elif (x, y) in table.frontier and not mark:
                    text = " · "
                else:
                    text = "   "
                if mark:
                    text = " " + mark.ljust(2)
                    mark = ""
            elif card == ENTRANCE:
                text = "ENT"
            elif card == EXIT:
                text = "EXT"
            else:
                text = card.symbol.rjust(3)
            row.append((text + mark).ljust(6))
        lines.append("".join(row).rstrip())
    lines.append(_status(state))
    lines.append(
        f"Mind {len(state.mind)} left, aside {_cards(state.mind_aside)} · "
        f"Body {len(state.body)} left, aside {_cards(state.body_aside)} · "
        f"Refused {_cards(state.refused)}"
    )
    if state.held:
        lines.append(f"Held by {_cards(state.held)}")
    return "\n".join(lines)


def _marks(state: MaplessState) -> dict[Cell, str]:
    marks: dict[Cell, str] = {state.player: "@"}
    if state.spade is not None:
        marks[state.spade] = marks.get(state.spade, "") + "S"
    if state.club is not None:
        marks[state.club] = marks.get(state.club, "") + "C"
    return marks


#: What the numbers on the map mean, by the kind of the actions numbered.
_LEGENDS = {
    Place: "(N): where choice N below puts the card",
    PlaceExit: "(N): where choice N below puts the Exit",
    Move: "(N): the card choice N below moves you to",
}


def render_terminal(
    state: MaplessState,
    legal: Sequence[Any] = (),
    *,
    width: int | None = 80,
    focus: Cell | None = None,
) -> str:
    """The state for a terminal: the map with its coordinates and numbered choices.

    As :func:`render`, but the x coordinates run above the map and the y coordinates
    down its left side, and each cell that one of the ``legal`` actions names shows the
    action's number in brackets (the first action is ``(1)``): on an empty cell where
    a card or the Exit may go, or after the card a Move goes to. ``·`` marks the other
    empty cells touching the house. When the map is wider than ``width`` it is cropped
    to the columns around the numbered cells and the player (or around ``focus``), and
    a line says what was left out.

    Args:
        state: a state of The Mapless House.
        legal: the actions to number, in order (the game's legal actions).
        width: the most characters a line of the map may have; ``None``: the whole map.
        focus: a cell to centre the map on instead.

    Returns:
        The map, a line on what its numbers mean, and the lines :func:`render` ends
        with, joined by newlines.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless._render import render_terminal
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=3, stack={"narrative": ["KS"]})
        >>> print(render_terminal(state, game.legal_actions(state)))
             -1     0     1
          1       (3)
          0 (1)   ENT@  (4)
         -1       (2)
        (N): where choice N below puts the card.
        Phase one: building · place K♠ · Narrative 24 left
        Mind 12 left, aside - · Body 12 left, aside - · Refused -
    """
    table = state.table
    marks = _marks(state)
    labels: dict[Cell, str] = {}
    numbers: dict[Cell, int] = {}
    legends: list[str] = []
    for number, action in enumerate(legal, 1):
        if isinstance(action, (Place, PlaceExit, Move)):
            labels[action.cell] = f"({number})"
            numbers[action.cell] = number
            legend = _LEGENDS[type(action)]
            if legend not in legends:
                legends.append(legend)
    contents: dict[Cell, str] = {}
    for cell in {*table, *marks, *table.frontier}:
        card = table.get(cell)
        mark = marks.get(cell, "")
        label = labels.get(cell, "")
        if card is None:
            if label:
                text = label.rjust(3) + mark
            elif mark:
                text = " " + mark
            else:
                text = " · " if cell in table.frontier else ""
        else:
            name = "ENT" if card == ENTRANCE else "EXT" if card == EXIT else card.symbol
            text = name.rjust(3) + mark + label
        contents[cell] = text
    around = [state.player, *labels] if focus is None else [focus]
    area = bounds(contents)
    lines, shown = text_map(contents, area, width=width, focus=around, pin=focus is not None)
    hidden = sorted(n for cell, n in numbers.items() if cell[0] not in shown)
    note = crop_note(shown, area, hidden)
    if note:
        lines.append(note)
    lines.extend(f"{legend}." for legend in legends)
    lines.extend(render(state).splitlines()[-2 - bool(state.held) :])
    return "\n".join(lines)


def _status(state: MaplessState) -> str:
    if state.ending is not None:
        head = f"Game over: {state.ending.value} after {state.turn} turns"
    elif state.exit_cell is None:
        head = "Phase one: building"
    else:
        head = (
            f"Phase two: the hunt, turn {state.turn}" if state.turn else "Phase two: opening Move"
        )
    parts = [head]
    if state.drawn is not None:
        parts.append(f"place {state.drawn.symbol}")
    parts.append(f"Narrative {len(state.narrative)} left")
    if state.ending is not None:
        parts.append(f"score {state.score}")
    return " · ".join(parts)
