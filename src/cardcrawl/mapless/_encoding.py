"""The encoding of The Mapless House: cells of a bounded square, cards by index.

**Why the grid is bounded.** The table only ever holds the Entrance and Narrative cards:
26 cards at most (M-2). Every card is placed touching one already there (M-4, M-5, M-11),
so the table is a connected set of at most 26 cells containing (0, 0). Any cell of such a
set lies at most 25 steps from (0, 0), so ``|x| + |y| <= 25`` for every table card, hence
for every cell an action can name (a placement or Exit cell becomes a table cell; a move
goes onto one). The tokens stay within that bound too: the player stands on table cards,
and a Stalker only ever steps toward the player along one axis (M-18, M-19), so each of its
coordinates stays between the extremes of the table's. A cell ``(x, y)`` built from the
``x`` of one table card and the ``y`` of another still has ``|x| + |y| <= 25``, because the
two paths from (0, 0) to those cards use at least ``|x|`` horizontal and ``|y|`` vertical
steps, all between at most 26 cells.

So everything fits the 51 x 51 square of cells ``-25 <= x, y <= 25``, numbered
``(x + 25) * 51 + (y + 25)``.
"""

from __future__ import annotations

from typing import Any

from cardcrawl.encoding import Encoding, EncodingError, LayoutBuilder
from cardcrawl.kit._cards import Card
from cardcrawl.kit._grid import Cell
from cardcrawl.mapless._actions import Draw, Move, Place, PlaceExit
from cardcrawl.mapless._compact import MaplessCompact
from cardcrawl.mapless._game import MaplessHouse
from cardcrawl.mapless._state import (
    NARRATIVE_CARDS,
    PLACEABLE_CARDS,
    Ending,
    MaplessObservation,
    Phase,
)

__all__ = ["MAPLESS_RADIUS", "MAPLESS_SIDE", "MaplessEncoding"]

#: Every cell the game can ever use has ``|x| + |y|`` at most this (26 table cards).
MAPLESS_RADIUS = len(PLACEABLE_CARDS) - 1
#: The side of the square of cells the encoding covers: ``-25 .. 25`` on each axis.
MAPLESS_SIDE = 2 * MAPLESS_RADIUS + 1
_CELLS = MAPLESS_SIDE * MAPLESS_SIDE
_KINDS: tuple[type[Place] | type[PlaceExit] | type[Move], ...] = (Place, PlaceExit, Move)
_KIND_INDEX = {kind: k for k, kind in enumerate(_KINDS)}
_PHASES = tuple(Phase)
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}
_ENDINGS = tuple(Ending)
_ENDING_INDEX = {e: i for i, e in enumerate(_ENDINGS)}
assert len(NARRATIVE_CARDS) + 1 == len(PLACEABLE_CARDS) == 26


def cell_number(cell: Cell) -> int:
    """The number of ``cell`` in the square, or -1 when it lies outside (or is no cell)."""
    try:
        x, y = cell
    except (TypeError, ValueError):
        return -1
    r = MAPLESS_RADIUS
    if type(x) is int and type(y) is int and -r <= x <= r and -r <= y <= r:
        return (x + r) * MAPLESS_SIDE + (y + r)
    return -1


def number_cell(number: int) -> Cell:
    """The cell numbered ``number`` (the inverse of :func:`cell_number`)."""
    x, y = divmod(number, MAPLESS_SIDE)
    return (x - MAPLESS_RADIUS, y - MAPLESS_RADIUS)


_PLANES = (
    ("card", "1 where a card lies on the table"),
    ("value", "the value of the card there over 13 (M-1: aces 0)"),
    ("room", "1 where the card is a room (J, Q, K)"),
    ("exit", "1 on the Exit's cell"),
    ("player", "1 on the player's cell"),
    ("spade", "1 on the ♠A Stalker's cell"),
    ("club", "1 on the ♣A Stalker's cell"),
    ("last_room", "1 on the room placed most recently (M-7)"),
)
_CARD_SETS = (
    ("narrative_left", "1 for each card still in the Narrative deck"),
    ("mind_left", "1 for each card still in the Mind deck"),
    ("body_left", "1 for each card still in the Body deck"),
    ("mind_aside", "1 for each card in the Mind Aside pile"),
    ("body_aside", "1 for each card in the Body Aside pile"),
    ("refused", "1 for each card in the Refused pile"),
    ("held", "1 for each card holding the player (M-16)"),
    ("drawn", "1 for the Narrative card waiting to be placed"),
    ("mind_card", "1 for the Mind card turned in this Encounter"),
)


class MaplessEncoding(Encoding):
    """The encoding of The Mapless House (any options).

    Decisions: ``kind * 2601 + cell`` where kind is 0 for ``Place``, 1 for ``PlaceExit``
    and 2 for ``Move``, and ``cell = (x + 25) * 51 + (y + 25)``; 7803 in all. Chance
    outcomes: ``Draw(card)`` is the card's index (0-51). The observation is 8 planes over
    the 51 x 51 square, 9 sets of cards by index, then a few scalars; see
    :attr:`layout` and the encodings page of the documentation.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.encoding import encoding_for
        >>> from cardcrawl.mapless import Move, Place
        >>> enc = encoding_for(cardcrawl.load("mapless-house"))
        >>> enc.num_actions, enc.num_chance_outcomes, enc.observation_shape
        (7803, 52, (21290,))
        >>> enc.encode_action(Place((1, 0))), enc.decode_action(5202 + 1300)
        (1351, Move(cell=(0, 0)))
    """

    limit_label = Ending.LOST.value  # M-22: lost in the house after max_turns turns

    def __init__(self, game: MaplessHouse) -> None:
        super().__init__(game)
        # By card index, as the game's hooks say: the value over 13 (M-1: a king is 1,
        # the aces 0) and whether the card is a room (M-3).
        self._value = tuple(game.card_value(Card(i)) / 13 for i in range(52))
        self._room = tuple(game.is_room(Card(i)) for i in range(52))
        self.num_actions = len(_KINDS) * _CELLS
        self.num_chance_outcomes = 52
        side = (MAPLESS_SIDE, MAPLESS_SIDE)
        lay = LayoutBuilder()
        self._planes = [lay.add(name, side, text) for name, text in _PLANES]
        self._sets = [lay.add(name, (52,), text) for name, text in _CARD_SETS]
        self._phase = lay.add(
            "phase", (len(_PHASES),), "one-hot phase: " + ", ".join(p.value for p in _PHASES)
        )
        self._ending = lay.add(
            "ending", (len(_ENDINGS),), "one-hot ending: " + ", ".join(e.value for e in _ENDINGS)
        )
        self._flags = lay.add(
            "flags",
            (3,),
            "1 once the Exit is placed; 1 once the ♠A has left the Exit (M-19); "
            "1 once a Mind or Body deck has run dry (M-17)",
        )
        self._turn = lay.add(
            "turn", (1,), "turns of phase two begun over max_turns (0 when there is no limit)"
        )
        self.layout = tuple(lay.segments)
        self._size = lay.size
        self._max_turns: int | None = game.options.max_turns

    # ------------------------------------------------------------ actions
    def encode_action(self, action: Any) -> int:
        """``kind * 2601 + cell`` (see the class docstring).

        Raises:
            EncodingError: not a Place, PlaceExit or Move, or a cell outside the square.
        """
        kind = _KIND_INDEX.get(type(action))
        if kind is None:
            raise EncodingError(
                f"{action!r} is not a decision of The Mapless House (place, exit or move)"
            )
        number = cell_number(action.cell)
        if number < 0:
            raise EncodingError(
                f"{action!r} names a cell outside |x|, |y| <= {MAPLESS_RADIUS}, "
                "which no game can reach"
            )
        return kind * _CELLS + number

    def decode_action(self, index: int) -> Any:
        """The ``Place``, ``PlaceExit`` or ``Move`` numbered ``index``.

        Raises:
            EncodingError: ``index`` is not in ``range(num_actions)``.
        """
        kind, number = divmod(self._check_index(index, self.num_actions, "action"), _CELLS)
        return _KINDS[kind](number_cell(number))

    def encode_chance(self, outcome: Any) -> int:
        """The drawn card's index.

        Raises:
            EncodingError: ``outcome`` is not a ``Draw`` of one of the 52 cards.
        """
        if type(outcome) is not Draw or outcome.card.index >= 52:
            raise EncodingError(f"{outcome!r} is not a chance outcome of The Mapless House")
        return outcome.card.index

    def decode_chance(self, index: int) -> Any:
        """``Draw`` of the card with index ``index``.

        Raises:
            EncodingError: ``index`` is not in ``range(52)``.
        """
        return Draw(Card(self._check_index(index, 52, "chance outcome")))

    # -------------------------------------------------------- observation
    def compact(self) -> MaplessCompact:
        """The compact observation: 178 bytes (see :class:`MaplessCompact`)."""
        return MaplessCompact(self.game)

    def _entries(self, observation: Any) -> dict[int, float]:
        """The vector entries of a :class:`~cardcrawl.mapless.MaplessObservation`.

        Raises:
            EncodingError: ``observation`` is not one.
        """
        if not isinstance(observation, MaplessObservation):
            raise EncodingError(f"expected a MaplessObservation, not {type(observation).__name__}")
        obs = observation
        v: dict[int, float] = {}
        card_at, value_at, room_at, exit_at, player_at, spade_at, club_at, last_at = self._planes
        for cell, card in obs.table.items():
            n = cell_number(cell)
            if n < 0:
                raise EncodingError(f"a card lies on {cell}, outside the encoded square")
            v[card_at + n] = 1.0
            v[value_at + n] = self._value[card.index]
            if self._room[card.index]:
                v[room_at + n] = 1.0
        tokens: tuple[tuple[int, Cell | None], ...] = (
            (exit_at, obs.exit_cell),
            (player_at, obs.player),
            (spade_at, obs.spade),
            (club_at, obs.club),
            (last_at, obs.last_room),
        )
        for base, where in tokens:
            if where is not None:
                n = cell_number(where)
                if n < 0:
                    raise EncodingError(f"a token stands on {where}, outside the encoded square")
                v[base + n] = 1.0
        singles = tuple(c for c in (obs.drawn,) if c is not None)
        mind = tuple(c for c in (obs.mind_card,) if c is not None)
        for base, cards in zip(
            self._sets,
            (
                obs.narrative_left,
                obs.mind_left,
                obs.body_left,
                obs.mind_aside,
                obs.body_aside,
                obs.refused,
                obs.held,
                singles,
                mind,
            ),
            strict=True,
        ):
            for card in cards:
                v[base + card.index] = 1.0
        v[self._phase + _PHASE_INDEX[obs.phase]] = 1.0
        if obs.ending is not None:
            v[self._ending + _ENDING_INDEX[obs.ending]] = 1.0
        v[self._flags] = float(obs.exit_cell is not None)
        v[self._flags + 1] = float(obs.spade_left_exit)
        v[self._flags + 2] = float(obs.ran_dry)
        if self._max_turns is not None:
            v[self._turn] = min(obs.turn / self._max_turns, 1.0)
        return v
