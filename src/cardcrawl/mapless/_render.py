"""A text picture of a Mapless House state: the map, the tokens and the piles."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell, bounds
from cardcrawl.mapless._state import ENTRANCE, EXIT, MaplessState

__all__ = ["render"]


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
