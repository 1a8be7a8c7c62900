"""Pure rule functions of The Mapless House, each small enough to test on its own."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from cardcrawl.kit._cards import Card, Suit
from cardcrawl.kit._deck import Deck
from cardcrawl.kit._grid import Cell, Grid
from cardcrawl.mapless._position import (
    WorkingDeck,
    empty_around,
    empty_neighbours,
    frontier_cells,
    laid_index,
    laid_neighbours,
    open_cells,
)
from cardcrawl.mapless._state import ENTRANCE_CELL, SPADE_STALKER

__all__ = [
    "black_suit_exhausted",
    "card_value",
    "club_arrival",
    "corridor_cells",
    "encounter_threshold",
    "encounter_total",
    "exit_candidates",
    "is_corridor",
    "is_room",
    "move_cells",
    "newly_closed",
    "room_cells",
    "stalker_step",
    "stalker_target",
]


def card_value(card: Card | None) -> int:
    """The value of a card (M-1): 2-10 face value, J 11, Q 12, K 13; aces and no card 0.

    Args:
        card: a card, or ``None`` for a draw from a deck with nothing to give (M-17).

    Returns:
        The card's value, from 0 to 13.

    Examples:
        >>> from cardcrawl import Card
        >>> from cardcrawl.mapless import card_value
        >>> card_value(Card.parse("QH")), card_value(Card.parse("AD")), card_value(None)
        (12, 0, 0)
    """
    if card is None:
        return 0
    rank = card.rank
    return rank if rank >= 2 else 0


# Looked up by card index: these are asked at every placement.
_CORRIDOR = tuple(2 <= Card(i).rank <= 10 for i in range(54))
_ROOM = tuple(Card(i).rank >= 11 for i in range(54))


def is_corridor(card: Card) -> bool:
    """2-10 are corridors (M-3).

    Args:
        card: any card.

    Returns:
        Whether the card is a corridor: a 2 to 10 of any suit. Aces, court cards and
        jokers are not.

    Examples:
        >>> from cardcrawl import parse_cards
        >>> from cardcrawl.mapless import is_corridor
        >>> [is_corridor(card) for card in parse_cards("2C 10S JC AS")]
        [True, True, False, False]
    """
    return _CORRIDOR[card.index]


def is_room(card: Card) -> bool:
    """J, Q and K are rooms (M-3).

    Args:
        card: any card.

    Returns:
        Whether the card is a room: a jack, queen or king of any suit.

    Examples:
        >>> from cardcrawl import parse_cards
        >>> from cardcrawl.mapless import is_room
        >>> [is_room(card) for card in parse_cards("JC QH KS 10S AD")]
        [True, True, True, False, False]
    """
    return _ROOM[card.index]


def newly_closed(table: Grid, placed: Cell, corridors: Sequence[bool] = _CORRIDOR) -> set[Cell]:
    """Empty cells closed to Narrative cards (M-6) because a card went on ``placed``.

    A corridor touching two cards or more closes its empty neighbours. A placement
    changes what touches only the card on ``placed`` and the cards next to it, so only
    they can come to touch two cards.

    Args:
        table: the cards on the table, the one on ``placed`` among them.
        placed: the cell a card was just placed on.
        corridors: by card index, whether a card is a corridor (M-3).

    Returns:
        The empty cells that the placement closes.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> from cardcrawl.mapless import newly_closed
        >>> table = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")})
        >>> sorted(newly_closed(table.place((2, 0), Card.parse("KS")), (2, 0)))
        [(1, -1), (1, 1)]
    """
    closed: set[Cell] = set()
    for empty in empty_around(table, placed, corridors):  # each corridor's empty cells
        if len(empty) <= 2:  # two touching cards or more, of its four neighbours
            for cell in empty:  # compiled, each a C call (update is a method call)
                closed.add(cell)
    return closed


def closed_cells(table: Grid, corridors: Sequence[bool] = _CORRIDOR) -> frozenset[Cell]:
    """All the empty cells of a table closed to Narrative cards (M-6).

    Asks :func:`newly_closed` of every card, as if each had just been placed: whatever
    the order the cards came in, the cells closed are those their placements closed.

    Args:
        table: the cards on the table.
        corridors: by card index, whether a card is a corridor (M-3).

    Returns:
        The closed cells.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> from cardcrawl.mapless._rules import closed_cells
        >>> table = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")})
        >>> sorted(closed_cells(table)), sorted(closed_cells(table.place((2, 0), Card.parse("KS"))))
        ([], [(1, -1), (1, 1)])
    """
    closed: set[Cell] = set()
    for cell in table:
        closed |= newly_closed(table, cell, corridors)
    return frozenset(closed)


def corridor_cells(table: Grid, closed: AbstractSet[Cell], last_room: Cell | None) -> list[Cell]:
    """Legal cells for a drawn corridor (M-4, M-6, M-7), sorted.

    A corridor touches exactly one card and no closed cell; while the room placed last
    touches fewer than two cards, it is also pulled next to that room.

    Args:
        table: the cards on the table.
        closed: the empty cells closed to Narrative cards (``MaplessState.closed``).
        last_room: the cell of the room placed most recently, or ``None``.

    Returns:
        The cells, sorted; empty when the corridor has nowhere to go (M-8).

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> from cardcrawl.mapless import corridor_cells
        >>> table = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("KS")})
        >>> corridor_cells(table, frozenset(), last_room=(1, 0))
        [(1, -1), (1, 1), (2, 0)]
    """
    if last_room is not None:
        # The room touches fewer than two cards when three or four of its neighbours
        # are empty; then only those can qualify (sorted, as empty_neighbours gives them).
        empty = empty_neighbours(table, last_room)
        if len(empty) > 2:
            return open_cells(table, 1, closed, empty)  # pulled to the room
    return open_cells(table, 1, closed)


def room_cells(table: Grid, closed: AbstractSet[Cell]) -> list[Cell]:
    """Legal cells for a drawn room (M-5, M-6), sorted. Rooms are never pulled (M-7).

    Args:
        table: the cards on the table.
        closed: the empty cells closed to Narrative cards (``MaplessState.closed``).

    Returns:
        Every empty cell touching a card and not closed, sorted.

    Examples:
        Next to a king with room to spare, a corridor is pulled to the king but a room
        may go anywhere that touches the house, except on a closed cell:

        >>> from cardcrawl import Card, Grid
        >>> from cardcrawl.mapless import corridor_cells, room_cells
        >>> table = Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("KS")})
        >>> corridor_cells(table, frozenset(), last_room=(1, 0))
        [(1, -1), (1, 1), (2, 0)]
        >>> room_cells(table, frozenset())
        [(-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (2, 0)]
        >>> room_cells(table, frozenset({(0, 1)}))
        [(-1, 0), (0, -1), (1, -1), (1, 1), (2, 0)]
    """
    return open_cells(table, 0, closed)


def exit_candidates(table: Grid) -> list[Cell]:
    """The cells where the Exit may go (M-11), sorted.

    With D the greatest distance of a table card from the Entrance, these are the empty
    cells at distance D + 1 touching a table card.

    Args:
        table: the cards on the table, the Entrance among them.

    Returns:
        The candidate cells, sorted; never empty, since a card farthest from the
        Entrance always has an empty neighbour farther still.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> from cardcrawl.mapless import exit_candidates
        >>> exit_candidates(Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")}))
        [(1, -1), (1, 1), (2, 0)]
    """
    # Manhattan distance from the Entrance, written out: this runs over the whole table.
    ex, ey = ENTRANCE_CELL
    farthest = 0
    for x, y in table:
        dx, dy = x - ex, y - ey
        d = (dx if dx >= 0 else -dx) + (dy if dy >= 0 else -dy)
        if d > farthest:
            farthest = d
    cells = []
    for cell in frontier_cells(table):
        x, y = cell  # compiled, two C integers: no integer made for the distance
        dx, dy = x - ex, y - ey
        if (dx if dx >= 0 else -dx) + (dy if dy >= 0 else -dy) > farthest:
            cells.append(cell)  # one farther than the farthest card: no farther can touch
    cells.sort()
    return cells


def stalker_step(stalker: Cell, player: Cell, forbidden: Cell | None = None) -> Cell:
    """Where a Stalker on ``stalker`` steps toward ``player`` (M-18, M-19).

    It closes the bigger gap, up or down on a tie. If that step would land on
    ``forbidden`` (the Exit, for a ♠A that has left it), it steps along the other axis
    instead, or stays where it is when the gap on that axis is 0.

    Args:
        stalker: the Stalker's cell.
        player: the player's cell.
        forbidden: a cell the Stalker may not step onto, or ``None``.

    Returns:
        The Stalker's new cell: a neighbour of ``stalker``, or ``stalker`` itself when it
        waits.

    Examples:
        >>> from cardcrawl.mapless import stalker_step
        >>> stalker_step((0, 0), (2, 2)), stalker_step((0, 0), (3, 1))
        ((0, 1), (1, 0))
        >>> stalker_step((0, 0), (0, 3), forbidden=(0, 1))
        (0, 0)
    """
    x, y = stalker
    px, py = player  # compiled, C integers: no integer made for the gaps
    dx = px - x
    dy = py - y
    sx = (dx > 0) - (dx < 0)  # the signs, written out: this runs every turn
    sy = (dy > 0) - (dy < 0)
    if (dy if dy >= 0 else -dy) >= (dx if dx >= 0 else -dx):
        step = (x, y + sy)
        other = (x + sx, y) if dx else stalker
    else:
        step = (x + sx, y)
        other = (x, y + sy) if dy else stalker
    if step == forbidden:
        return other
    return step


_SPADE_STALKER_INDEX = SPADE_STALKER.index


def stalker_target(
    stalker: Card, cell: Cell, player: Cell, spade_left_exit: bool, exit_cell: Cell | None
) -> Cell:
    """Where the Stalker ``stalker`` (♠A or ♣A) on ``cell`` steps toward the player on
    ``player`` (M-18, M-19): as :func:`stalker_step` says, the ♠A never back onto the
    Exit ``exit_cell`` once it has left it (``spade_left_exit``). The stock game's
    ``stalker_step`` hook.

    Examples:
        >>> from cardcrawl.mapless import CLUB_STALKER, SPADE_STALKER
        >>> stalker_target(SPADE_STALKER, (0, 0), (0, 3), True, (0, 1))
        (0, 0)
        >>> stalker_target(CLUB_STALKER, (0, 0), (0, 3), True, (0, 1))
        (0, 1)
    """
    if spade_left_exit and stalker.index == _SPADE_STALKER_INDEX:
        return stalker_step(cell, player, exit_cell)
    return stalker_step(cell, player)


def move_cells(table: Grid, player: Cell) -> list[Cell]:
    """Where the player on ``player`` may move (M-14), sorted: the table cards touching
    theirs. The stock game's ``move_cells`` hook.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> move_cells(Grid({(0, 0): Card.parse("AD"), (1, 0): Card.parse("5S")}), (0, 0))
        [(1, 0)]
    """
    return laid_neighbours(table, player)


def encounter_threshold(values: Sequence[int], table: Grid, player: Cell) -> int:
    """What an Encounter's total must reach (M-15): the value of the player's card, by
    ``values``, the cards' values by index (M-1). The stock game's ``encounter_threshold``
    hook.

    Examples:
        >>> from cardcrawl import Card, Grid
        >>> values = [card_value(Card(i)) for i in range(52)]
        >>> encounter_threshold(values, Grid({(0, 0): Card.parse("9S")}), (0, 0))
        9
    """
    return values[laid_index(table, player)]


def encounter_total(values: Sequence[int], cards: Sequence[Card]) -> int:
    """An Encounter's total (M-15): the values of ``cards`` by ``values``, the cards'
    values by index (M-1). The stock game's ``encounter_total`` hook.

    Examples:
        >>> from cardcrawl import parse_cards
        >>> values = [card_value(Card(i)) for i in range(52)]
        >>> encounter_total(values, parse_cards("5H 9D"))
        14
    """
    total = 0
    for card in cards:  # a loop: cheaper than sum over map for the few cards here
        total += values[card.index]
    return total


def club_arrival(ran_dry: bool) -> Cell | None:
    """Where the ♣A appears at the end of a turn (M-17): on the Entrance once a deck has
    run dry (``ran_dry``), else nowhere yet. The stock game's ``club_arrival`` hook.

    Examples:
        >>> club_arrival(True), club_arrival(False)
        ((0, 0), None)
    """
    return ENTRANCE_CELL if ran_dry else None


# By card index, whether a card is a spade, and a club: a card's suit is a property,
# which costs several look-ups where a table costs one.
_IS_SPADE = tuple(Card(i).suit is Suit.SPADES for i in range(54))
_IS_CLUB = tuple(Card(i).suit is Suit.CLUBS for i in range(54))


def black_suit_exhausted(narrative: Deck | WorkingDeck) -> bool:
    """Whether all twelve cards of spades, or of clubs, have left the Narrative deck
    ``narrative`` (M-10): the stock game's ``exit_may_open`` hook.

    Examples:
        >>> from cardcrawl import Deck, parse_cards
        >>> black_suit_exhausted(Deck.of(parse_cards("2S 5C"))), black_suit_exhausted(Deck())
        (False, True)
    """
    # The cards are sorted suit by suit, spades first and clubs last (the Narrative deck
    # holds no joker): spades are left exactly when the lowest card is one, and clubs
    # exactly when the highest is. This is asked at every early draw of the Exit.
    cards = narrative.cards
    return not cards or not _IS_SPADE[cards[0].index] or not _IS_CLUB[cards[-1].index]
